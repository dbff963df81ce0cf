//! The request timeout: an answer not ready within `ConnectionSettings::request_timeout` (a stuck
//! dependency, a body trickling in) is abandoned and answered 503 DEPENDENCY_UNAVAILABLE with
//! Retry-After, in the envelope like every other refusal.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, DEPENDENCY_RETRY_AFTER_SECS, Reason};

pub async fn within(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            Reason::DependencyUnavailable,
            format!("The request was not answered within {} s; retry shortly.", limit.as_secs_f64()),
        )
        .with_retry_after(DEPENDENCY_RETRY_AFTER_SECS)
        .into_response(),
    }
}
