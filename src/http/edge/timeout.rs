//! The request timeout: an answer not ready within `ConnectionSettings::request_timeout` (a stuck
//! dependency, a body trickling in) is abandoned and answered 503 DEPENDENCY_UNAVAILABLE with
//! Retry-After, in the envelope like every other refusal.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::BoxError;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use tower::{Layer, Service};

use crate::error::{ApiError, DEPENDENCY_RETRY_AFTER_SECS, Reason};

/// Wraps a service in `Within`, with the limit.
#[derive(Clone, Copy)]
pub struct WithinLayer(pub Duration);

impl<S> Layer<S> for WithinLayer {
    type Service = Within<S>;

    fn layer(&self, inner: S) -> Within<S> {
        Within { inner, limit: self.0 }
    }
}

/// A plain service (no per-request clone of the service inside, one boxed future).
#[derive(Clone)]
pub struct Within<S> {
    inner: S,
    limit: Duration,
}

/// Answers with axum's `Body` whatever body the service inside answers with (the panic catcher's
/// is boxed), so the layers outside it see one response type.
impl<S, B> Service<Request> for Within<S>
where
    S: Service<Request, Response = axum::http::Response<B>, Error = Infallible>,
    S::Future: Send + 'static,
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let limit = self.limit;
        let answer = self.inner.call(request);
        Box::pin(async move {
            match tokio::time::timeout(limit, answer).await {
                Ok(Ok(answered)) => Ok(answered.map(Body::new)),
                Err(_) => Ok(ApiError::new(
                    Reason::DependencyUnavailable,
                    format!("The request was not answered within {} s; retry shortly.", limit.as_secs_f64()),
                )
                .with_retry_after(DEPENDENCY_RETRY_AFTER_SECS)
                .into_response()),
            }
        })
    }
}
