//! A manufacturer's output through time: 44 its firearms by year introduced, 45 its counts by
//! category, status, cartridge and decade.

use axum::response::Response;

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::manufacturer_history::{self, ManufacturerStats, ManufacturerTimeline};

/// The manufacturer's firearms grouped by year introduced, oldest first (by name within a year),
/// and those with no year.
#[utoipa::path(get, path = "/v1/manufacturers/{id}/timeline", tag = "Manufacturers",
    params(("id" = String, Path, description = "manufacturer slug")),
    responses((status = 200, body = schemas::One<ManufacturerTimeline>)))]
pub async fn timeline(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(manufacturer_history::timeline(&snapshot, &id)?))
}

/// The manufacturer's firearms counted by category, production status, cartridge (each one a
/// firearm lists) and decade introduced, most first (decades oldest first).
#[utoipa::path(get, path = "/v1/manufacturers/{id}/stats", tag = "Manufacturers",
    params(("id" = String, Path, description = "manufacturer slug")),
    responses((status = 200, body = schemas::One<ManufacturerStats>)))]
pub async fn stats(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(manufacturer_history::stats(&snapshot, &id)?))
}
