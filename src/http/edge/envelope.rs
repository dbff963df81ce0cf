//! The outermost middleware: request id, the error envelope and the access log line.
//!
//! Every response, whatever produced it (a handler, the router's fallback, a body limit, a caught
//! panic), passes through here, so this is the one place that
//! - gives the request an id (the caller's `X-Request-Id` when it is a sane token, else a new UUID),
//! - renders an `ApiError` carried in the response into the JSON envelope with that id,
//! - sets `X-Request-Id` on the response,
//! - writes one log line per request (method, path, status, duration, request id; never headers,
//!   so credentials never reach the log).

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::response::Response;
use tower::{Layer, Service};

use crate::error::ApiError;
use crate::metrics::OperationLabel;
use crate::telemetry::CURRENT_REQUEST_ID;

pub static REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// The id of the request being served, readable by handlers as an extension.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

/// Wraps a service in `Envelope`.
#[derive(Clone, Copy, Default)]
pub struct EnvelopeLayer;

impl<S> Layer<S> for EnvelopeLayer {
    type Service = Envelope<S>;

    fn layer(&self, inner: S) -> Envelope<S> {
        Envelope { inner }
    }
}

/// A plain service, not a `from_fn` middleware: it calls the service inside without cloning it
/// and boxes one future per request.
#[derive(Clone)]
pub struct Envelope<S> {
    inner: S,
}

impl<S> Service<Request> for Envelope<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let started = Instant::now();
        let request_id = caller_request_id(&request).unwrap_or_else(crate::telemetry::new_request_id);
        request.extensions_mut().insert(RequestId(request_id.clone()));
        let method = request.method().clone();
        let path = request.uri().path().to_owned();
        let answer = self.inner.call(request);
        Box::pin(async move {
            let Ok(response) = CURRENT_REQUEST_ID.scope(request_id.clone(), answer).await;
            Ok(finish(response, &request_id, &method, &path, started))
        })
    }
}

/// The error envelope, the request id header, the metrics and the log line of an answer.
fn finish(
    mut response: Response,
    request_id: &str,
    method: &Method,
    path: &str,
    started: Instant,
) -> Response {
    let metrics = crate::metrics::global();
    if let Some(error) = response.extensions_mut().remove::<ApiError>() {
        if error.reason.status().as_u16() == 429 {
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
    let operation = response.extensions().get::<OperationLabel>().map_or("unmatched", |label| label.0);
    metrics.observe_request(operation, status, started.elapsed());
    let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
    crate::telemetry::access_line::request(&crate::telemetry::access_line::RequestLine {
        method: method.as_str(),
        path,
        status,
        duration_ms,
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
