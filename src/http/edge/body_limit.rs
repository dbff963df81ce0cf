//! Request size limits and the JSON extractor.
//!
//! A header section larger than `MAX_HEADER_BYTES` is refused with 431. hyper refuses one too, but
//! only while the section is still arriving: its limit is on a read buffer, and a section that
//! lands whole in one read (a large socket buffer on loopback) passes it. A body declared larger
//! than the limit is refused from its Content-Length before a byte of it is read. A body without Content-Length (chunked) is counted as it is read by the extractor, through
//! axum's `DefaultBodyLimit`, and refused the same way once it passes the limit.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::Response;
use serde::de::DeserializeOwned;

use crate::error::Reason;
use crate::error::{ApiError, MAX_JSON_BODY_BYTES};
use axum::response::IntoResponse;

/// Wraps a service in `RefuseOversize`.
/// The answer to a request refused before the service reads it: a header section over
/// `MAX_HEADER_BYTES` (431) or a declared body over the limit (413). None for the rest.
pub fn refusal(request: &Request) -> Option<Response> {
    if header_section_bytes(request) > MAX_HEADER_BYTES {
        let message = format!("The request's header fields are larger than {MAX_HEADER_BYTES} bytes.");
        let mut refused = ApiError::new(Reason::InvalidRequest, message).into_response();
        *refused.status_mut() = StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE;
        Some(refused)
    } else if declares_oversize(request) {
        Some(ApiError::payload_too_large().into_response())
    } else {
        None
    }
}

pub const MAX_HEADER_BYTES: usize = 64 * 1024;

fn header_section_bytes(request: &Request) -> usize {
    request.headers().iter().map(|(name, value)| name.as_str().len() + value.len() + 4).sum()
}

fn declares_oversize(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|length| length > MAX_JSON_BODY_BYTES)
}

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
            ApiError::new(Reason::InvalidParameter, error.to_string()).with_detail("body", error.to_string())
        })
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::BytesRejection(_) if rejection.status().as_u16() == 413 => {
            ApiError::payload_too_large()
        }
        JsonRejection::JsonDataError(error) => {
            ApiError::new(Reason::InvalidParameter, error.body_text()).with_detail("body", error.body_text())
        }
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            Reason::InvalidJson,
            "The body must be JSON sent with Content-Type: application/json.",
        ),
        other => {
            ApiError::new(Reason::InvalidJson, format!("The body is not valid JSON: {}", other.body_text()))
        }
    }
}
