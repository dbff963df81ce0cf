//! Who adopted a firearm: its users (operation 28) and the adoption map by country (operation 32).

use axum::response::Response;

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::adoption::{self, AdoptionMap};

/// The firearm's users (military, law-enforcement and other adopters).
#[utoipa::path(get, path = "/v1/firearms/{id}/users", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<Vec<schemas::FirearmUser>>)))]
pub async fn users(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(adoption::users(&snapshot, &id)?))
}

/// The firearm's users grouped by country code (users without one under `countryCode: null`),
/// by code.
#[utoipa::path(get, path = "/v1/firearms/{id}/adoption-map", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<AdoptionMap>)))]
pub async fn adoption_map(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(adoption::adoption_map(&snapshot, &id)?))
}
