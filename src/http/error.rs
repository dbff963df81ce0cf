//! `ApiError` as a response: its status and Retry-After, and the error itself as an extension for
//! the envelope middleware (`edge::envelope`) to render once it knows the request id.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, Reason};
use crate::read::error::QueryError;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.reason.status()).expect("the reason table holds valid statuses");
        let mut response = status.into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response.extensions_mut().insert(self);
        response
    }
}

/// A read-side refusal as the contract words it: 404 RESOURCE_NOT_FOUND (naming the filter
/// parameter and the missing id when the id came from one), 400 INVALID_PARAMETER naming the
/// field, the store's failure as 503 or 500 (`From<sqlx::Error>`), anything else 500.
impl From<QueryError> for ApiError {
    fn from(error: QueryError) -> Self {
        match error {
            QueryError::NotFound { kind, id, parameter: None } => ApiError::not_found(kind, &id),
            QueryError::NotFound { kind, id, parameter: Some(parameter) } => ApiError::not_found(kind, &id)
                .with_detail("parameter", parameter)
                .with_detail("missing", vec![id]),
            QueryError::MissingIds { kind, ids } => {
                ApiError::missing_ids(kind, &ids.iter().collect::<Vec<_>>())
            }
            QueryError::NotDrawable { kind, id, asset, missing } => {
                let message = crate::read::error::not_drawable(kind, &id, asset, &missing);
                ApiError::new(Reason::ResourceNotFound, message).with_detail("missing", missing)
            }
            QueryError::Invalid { field, reason } => ApiError::invalid_parameter(field, reason),
            QueryError::Store(error) => error.into(),
            failed @ QueryError::Failed(_) => ApiError::internal(failed),
        }
    }
}
