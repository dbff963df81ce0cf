//! GET /v1/firearms/{id}/variants: a firearm's direct variants (operation 23).

use axum::response::Response;

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::variants::{self, FirearmVariant};

/// The firearm's direct variants (generations, special editions and other derived models), by
/// year introduced, then name.
#[utoipa::path(get, path = "/v1/firearms/{id}/variants", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<Vec<FirearmVariant>>)))]
pub async fn variants(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(variants::of_firearm(&snapshot, &id)?))
}
