//! GET /v1/firearms/{id}/images: a firearm's images with source and license (operation 24).

use axum::response::Response;

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::rendered::firearm_json;

/// The firearm's images: id, firearmId, url, type, source, license, altText, widthPx, heightPx.
#[utoipa::path(get, path = "/v1/firearms/{id}/images", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<Vec<schemas::FirearmImage>>)))]
pub async fn images(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let (_, firearm) = snapshot.firearm(&id)?;
    Ok(respond::one(firearm_json::images(&firearm)))
}
