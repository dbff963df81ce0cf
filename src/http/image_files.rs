//! Stored image files: served as they were added to the catalog.

use axum::http::HeaderMap;
use axum::response::Response;

use crate::catalog::model::Image;
use crate::error::ApiError;
use crate::http::state::AppState;

/// The stored file of `image`, or 304 when the caller holds it.
pub async fn send(_state: &AppState, _headers: &HeaderMap, image: &Image) -> Result<Response, ApiError> {
    Err(ApiError::not_found("stored file of image", &image.id.to_string()))
}
