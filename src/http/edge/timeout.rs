//! The request timeout and the panic catcher around the router: an answer not ready within
//! `ConnectionSettings::request_timeout` (a stuck dependency, a body trickling in) is abandoned and
//! answered 503 DEPENDENCY_UNAVAILABLE with Retry-After, and a handler that panics is answered 500;
//! both in the envelope like every other refusal (the panic itself is logged by the panic hook,
//! `telemetry`, with the request id).

use std::panic::AssertUnwindSafe;
use std::task::Poll;
use std::time::Duration;

use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, DEPENDENCY_RETRY_AFTER_SECS, Reason};

/// `answer` within `limit`, with a panic in it (while it is made or polled) turned into a 500.
pub async fn within<F>(limit: Duration, answer: impl FnOnce() -> F) -> Response
where
    F: Future<Output = Response>,
{
    let Ok(answer) = std::panic::catch_unwind(AssertUnwindSafe(answer)) else {
        return panic_response();
    };
    match tokio::time::timeout(limit, unwinding(answer)).await {
        Ok(Ok(answered)) => answered,
        Ok(Err(_panic)) => panic_response(),
        Err(_) => ApiError::new(
            Reason::DependencyUnavailable,
            format!("The request was not answered within {} s; retry shortly.", limit.as_secs_f64()),
        )
        .with_retry_after(DEPENDENCY_RETRY_AFTER_SECS)
        .into_response(),
    }
}

/// `future`'s output, or the payload of a panic while it was polled.
async fn unwinding<F: Future>(future: F) -> std::thread::Result<F::Output> {
    let mut future = std::pin::pin!(future);
    std::future::poll_fn(move |cx| {
        match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => Poll::Ready(Err(panic)),
        }
    })
    .await
}

fn panic_response() -> Response {
    ApiError::new(Reason::InternalError, "The service failed to answer; quote request_id to support.")
        .into_response()
}
