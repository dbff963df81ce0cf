//! A firearm's media: the list of its assets (operation 34), one asset by role (35), a stored
//! image by id (25), and the index of firearms with any media (20).

use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use crate::access::paging::Paging;
use crate::http::asset_file;
use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::state::AppState;
use crate::http::{ApiError, respond};
use crate::read::query::media::{self, FirearmMedia, MediaIndexItem, Selected};

/// The firearms with any media, by id, with the kinds each has (silhouette, schematic, model for
/// every firearm with a stated overall length; photo and render for stored images).
#[utoipa::path(get, path = "/v1/firearms/media", tag = "Firearms",
    responses((status = 200, body = schemas::Page<MediaIndexItem>)))]
pub async fn index(snapshot: CurrentSnapshot, paging: Paging) -> Result<Response, ApiError> {
    Ok(media::index(&snapshot, &paging)?.into_response())
}

/// Every asset of the firearm: generated drawings (source `generated`, the project's license)
/// and stored images (their own source and license), each with its role, URL, content type and
/// size; `drawnByConvention` names the figures the drawings took from proportions, and
/// `missingForDrawings` what a firearm without drawings lacks.
#[utoipa::path(get, path = "/v1/firearms/{id}/media", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<FirearmMedia>)))]
pub async fn list(snapshot: CurrentSnapshot, ValidPath(id): ValidPath<String>) -> Result<Response, ApiError> {
    Ok(respond::one(media::of_firearm(&snapshot, &id)?))
}

/// One asset by role: primary (a stored primary image, else the silhouette), silhouette,
/// thumbnail (a 320-pixel PNG), model, schematic-side, schematic-top, schematic-front, or a
/// stored image type. 404 for a role the firearm has no asset for.
#[utoipa::path(get, path = "/v1/firearms/{id}/media/{selector}", tag = "Firearms",
    params(("id" = String, Path), ("selector" = String, Path)),
    responses((status = 200, description = "the asset's file",
        content((String = "image/svg+xml"), (Vec<u8> = "image/png"), (Vec<u8> = "image/jpeg"), (Vec<u8> = "image/webp"), (Vec<u8> = "model/gltf-binary")))))]
pub async fn file(
    snapshot: CurrentSnapshot,
    state: axum::extract::State<AppState>,
    headers: HeaderMap,
    ValidPath((id, selector)): ValidPath<(String, String)>,
) -> Result<Response, ApiError> {
    match media::select(&snapshot, &id, &selector)? {
        Selected::Generated(located) => asset_file::send(&headers, &located),
        Selected::Stored(image) => crate::http::image_files::send(&state, &headers, &image).await,
    }
}

/// A stored image's file, as it was added to the catalog.
#[utoipa::path(get, path = "/v1/firearms/{id}/images/{imageId}", tag = "Firearms",
    params(("id" = String, Path), ("imageId" = String, Path)),
    responses((status = 200, description = "the image file",
        content((Vec<u8> = "image/png"), (Vec<u8> = "image/jpeg"), (Vec<u8> = "image/webp")))))]
pub async fn image(
    snapshot: CurrentSnapshot,
    state: axum::extract::State<AppState>,
    headers: HeaderMap,
    ValidPath((id, image_id)): ValidPath<(String, String)>,
) -> Result<Response, ApiError> {
    let image_id: i64 =
        image_id.parse().map_err(|_| ApiError::not_found("image of this firearm", &image_id))?;
    let image = media::stored_image(&snapshot, &id, image_id)?;
    crate::http::image_files::send(&state, &headers, &image).await
}
