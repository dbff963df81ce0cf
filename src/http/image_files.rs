//! Stored images. An image added to the catalog with a file is served as it was added, from the
//! database (`catalog::image_files`), with its content's digest as its ETag, so a caller holding
//! it is answered 304 before the file is read. An image recorded only by the address it is
//! published at answers 404 naming that address.

use axum::http::HeaderMap;
use axum::response::Response;

use crate::catalog::image_files;
use crate::catalog::model::Image;
use crate::error::{ApiError, Reason};
use crate::http::asset_file;
use crate::http::state::AppState;
use crate::read::rendered::etag_of;

/// The stored file of `image`, or 304 when the caller holds it.
pub async fn send(state: &AppState, headers: &HeaderMap, image: &Image) -> Result<Response, ApiError> {
    let Some(digest) = &image.file_digest else {
        let message =
            format!("The service keeps no file for image {}; it is published at {}.", image.id, image.url);
        return Err(ApiError::new(Reason::ResourceNotFound, message).with_detail("url", image.url.clone()));
    };
    let etag = etag_of(format!("image|{digest}").as_bytes());
    if let Some(not_modified) = asset_file::not_modified(headers, &etag) {
        return Ok(not_modified);
    }
    let Some((_, bytes)) = image_files::read(&state.db, digest).await? else {
        return Err(ApiError::internal(format!(
            "image {} names a file the database does not hold",
            image.id
        )));
    };
    // Checked at import; told again from the bytes so the header is one of the three exactly.
    let content_type = image_files::content_type(&bytes)
        .ok_or_else(|| ApiError::internal(format!("image {}'s stored file is not an image", image.id)))?;
    Ok(asset_file::file(bytes, content_type, &etag))
}
