//! Request body limits and the JSON extractor.
//!
//! A body declared larger than the limit is refused from its Content-Length before a byte of it is
//! read. A body without Content-Length (chunked) is counted as it is read by the extractor, through
//! axum's `DefaultBodyLimit`, and refused the same way once it passes the limit.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use serde::de::DeserializeOwned;

use crate::error::Reason;
use crate::error::{ApiError, MAX_JSON_BODY_BYTES};
use axum::response::IntoResponse;

pub async fn refuse_declared_oversize(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    match declared {
        Some(length) if length > MAX_JSON_BODY_BYTES => ApiError::payload_too_large().into_response(),
        _ => next.run(request).await,
    }
}

/// `axum::Json` with the contract's errors: 400 INVALID_JSON and 413 PAYLOAD_TOO_LARGE. Every
/// body of the API is a JSON object, so any other JSON value (an array, a string) is refused
/// before its fields are read; serde alone would take an array as a struct's fields in order.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let axum::Json(value) =
            axum::Json::<serde_json::Value>::from_request(request, state).await.map_err(json_rejection)?;
        if !value.is_object() {
            return Err(ApiError::new(Reason::InvalidRequest, "The body must be a JSON object."));
        }
        serde_json::from_value(value).map(ApiJson).map_err(|error| {
            ApiError::new(Reason::InvalidParameter, error.to_string())
                .with_details(serde_json::json!({ "body": error.to_string() }))
        })
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::BytesRejection(_) if rejection.status().as_u16() == 413 => {
            ApiError::payload_too_large()
        }
        JsonRejection::JsonDataError(error) => ApiError::new(Reason::InvalidParameter, error.body_text())
            .with_details(serde_json::json!({ "body": error.body_text() })),
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            Reason::InvalidJson,
            "The body must be JSON sent with Content-Type: application/json.",
        ),
        other => {
            ApiError::new(Reason::InvalidJson, format!("The body is not valid JSON: {}", other.body_text()))
        }
    }
}
