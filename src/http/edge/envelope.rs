//! The request id, the error envelope and the access log line (`edge::service` runs it first).
//!
//! Every response, whatever produced it (a handler, the router's fallback, a body limit, a caught
//! panic), passes through here, so this is the one place that
//! - gives the request an id (the caller's `X-Request-Id` when it is a sane token, else a new UUID),
//! - renders an `ApiError` carried in the response into the JSON envelope with that id,
//! - sets `X-Request-Id` on the response,
//! - writes one log line per request (method, path, status, duration, request id; never headers,
//!   so credentials never reach the log).

use std::time::Instant;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::response::Response;

use crate::error::ApiError;
use crate::telemetry::{CURRENT_REQUEST, RequestScope};

pub static REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// The answer to `request` from `inner`, with its request id (scoped for the panic hook), the
/// error envelope, the metrics and the log line.
pub async fn enveloped<F>(request: Request, inner: impl FnOnce(Request) -> F) -> Response
where
    F: Future<Output = Response>,
{
    let started = Instant::now();
    let request_id = caller_request_id(&request).unwrap_or_else(crate::telemetry::new_request_id);
    let method = request.method().clone();
    // The URI's clone shares its bytes; a copy of the path would allocate.
    let uri = request.uri().clone();
    let mut scoped = std::pin::pin!(CURRENT_REQUEST.scope(RequestScope::new(request_id), inner(request)));
    let response = scoped.as_mut().await;
    let scope = scoped.take_value().expect("a scope's value stays until taken");
    finish(response, &scope, &method, uri.path(), started)
}

/// The error envelope, the request id header, the metrics and the log line of an answer.
fn finish(
    mut response: Response,
    scope: &RequestScope,
    method: &Method,
    path: &str,
    started: Instant,
) -> Response {
    let metrics = crate::metrics::global();
    let request_id = scope.id.as_str();
    if let Some(error) = response.extensions_mut().remove::<ApiError>() {
        if error.reason.status() == 429 {
            metrics.refused(&error.reason.identifier());
        }
        let body = serde_json::to_vec(&error.body(request_id)).expect("a JSON value serialises");
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.remove(header::CONTENT_LENGTH);
        *response.body_mut() = Body::from(body);
    }
    if let Ok(value) = HeaderValue::from_str(request_id) {
        response.headers_mut().insert(REQUEST_ID_HEADER.clone(), value);
    }

    let status = response.status().as_u16();
    let took = started.elapsed();
    metrics.observe_request(scope.operation(), status, took);
    crate::telemetry::access_line::request(&crate::telemetry::access_line::RequestLine {
        method: method.as_str(),
        path,
        status,
        duration_micros: took.as_micros() as u64,
        request_id,
    });
    response
}

/// Accept the caller's id only when it is a short token, so logs cannot be forged with it.
fn caller_request_id(request: &Request) -> Option<String> {
    let value = request.headers().get(&REQUEST_ID_HEADER)?.to_str().ok()?;
    let sane = !value.is_empty()
        && value.len() <= 128
        && value.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    sane.then(|| value.to_owned())
}
