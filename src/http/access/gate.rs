//! The access layer in front of every keyed operation, in the order of DESIGN.md: maintenance
//! (503 while the operator has paused the keyed API, `access::maintenance`) → transport (keys only
//! over HTTPS) → credential (401) → plan and account (403) → rate limits (429), all decided by
//! `access::admission` → the handler (which validates its parameters and answers 304 when it can)
//! → the day's count and usage, unless the answer was 304.

use std::sync::Arc;

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::credential::presented_key;
use super::transport::check_transport;
use crate::access::admission::{self, Access};
use crate::access::operations::{self, Operation, Style};
use crate::clock;
use crate::error::{ApiError, Reason};

/// The gate around `inner` (what the operation does once admitted), for a request to the route
/// template `route`. A plain function rather than a middleware of its own: the HTTP layer calls it
/// in its one route layer, together with the layers that run inside it.
pub async fn gate<F, Fut>(access: &Arc<Access>, route: &str, request: Request, inner: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    // The router answers HEAD with the GET handler (and drops the body), so HEAD is the GET
    // operation here too: same credential, plan, limits and counting.
    let operation = operations::for_request(request.method().as_str(), route);
    crate::telemetry::name_operation(operation.map_or("unlisted", |op| op.name));
    guard(access, operation, route, request, inner).await
}

async fn guard<F, Fut>(
    access: &Arc<Access>,
    operation: Option<&'static Operation>,
    route: &str,
    mut request: Request,
    inner: F,
) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    let Some(operation) = operation else {
        // Fail closed: a routed path the operations table does not know is a programming error
        // (start-up refuses it); it must never be served without a key.
        tracing::error!(route, method = %request.method(), "a routed operation is missing from the table");
        return ApiError::new(
            Reason::InternalError,
            "The service failed to answer; quote request_id to support.",
        )
        .into_response();
    };
    if operation.min_plan.is_none() {
        let mut response = inner(request).await;
        cache_policy(&mut response, operation, false);
        return response;
    }
    // Paused before anything else: no key is read, no limit spent, no usage counted.
    if let Some(paused) = access.keys.paused() {
        return refused(paused, operation);
    }
    if super::in_process::admitted(&mut request) {
        // The service's own request (`in_process`): no key, no limits, no usage.
        let mut response = inner(request).await;
        cache_policy(&mut response, operation, true);
        return response;
    }
    let now = clock::Second::now();
    if let Err(error) = check_transport(&access.transport, request.headers(), request.extensions()) {
        return refused(error, operation);
    }
    let day = now.day;
    let caller = match admission::admit(access, operation, presented_key(request.headers()), now, &day).await
    {
        Ok(caller) => caller,
        Err(error) => return refused(error, operation),
    };
    let subject = caller.subject().into_owned();
    request.extensions_mut().insert(caller);
    let mut response = inner(request).await;
    admission::settle(access, operation, &subject, &day, response.status() == StatusCode::NOT_MODIFIED).await;
    cache_policy(&mut response, operation, true);
    response
}

/// A keyed operation's refusal before its handler ran.
fn refused(error: ApiError, operation: &Operation) -> Response {
    let mut response = error.into_response();
    cache_policy(&mut response, operation, true);
    response
}

/// `Cache-Control` and `Vary` of an answer: a keyed answer depends on the plan the key carries, so
/// shared caches must not keep it (`private`) and it varies with the credential headers; every
/// catalog answer carries an ETag, so `no-cache` makes a revalidation cheap (a 304). Keyless
/// answers may be cached by anyone for a minute; probes, draws and errors never.
fn cache_policy(response: &mut Response, operation: &Operation, keyed: bool) {
    let headers = response.headers_mut();
    if keyed {
        headers.append(header::VARY, HeaderValue::from_static("x-api-key, authorization"));
    }
    if headers.contains_key(header::CACHE_CONTROL) {
        return;
    }
    let cacheable = response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
    let policy = match (cacheable, keyed, operation.style) {
        (false, _, _) | (_, _, Style::Flat) => "no-store",
        (true, true, _) => "private, no-cache",
        (true, false, _) => "public, max-age=60",
    };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
}
