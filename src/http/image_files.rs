//! Stored images: the catalog records each by the address it was published at, with its source
//! and license. Files kept by the service itself are not stored yet, so an image answers 404
//! saying where it is published.

use axum::http::HeaderMap;
use axum::response::Response;

use crate::catalog::model::Image;
use crate::error::{ApiError, Reason};
use crate::http::state::AppState;

/// The stored file of `image`: none is kept yet, so 404 naming the image's published address.
pub async fn send(_state: &AppState, _headers: &HeaderMap, image: &Image) -> Result<Response, ApiError> {
    let message =
        format!("The service keeps no file for image {}; it is published at {}.", image.id, image.url);
    Err(ApiError::new(Reason::ResourceNotFound, message).with_detail("url", image.url.clone()))
}
