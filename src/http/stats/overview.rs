//! The statistics that take no parameter: 71 summary, 72 production status, 73 field coverage,
//! 74 catalog coverage, 77 by category, 79 materials. Each is figured once per snapshot.

use axum::response::{IntoResponse, Response};

use crate::http::extract::snapshot::SnapshotWithFigures;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::statistics;

/// Record counts per resource, the catalog revision and the last change to a record.
#[utoipa::path(get, path = "/v1/stats/summary", tag = "Statistics",
    responses((status = 200, body = schemas::One<statistics::StatsSummary>)))]
pub async fn summary(snapshot: SnapshotWithFigures) -> Result<Response, ApiError> {
    Ok(statistics::summary(&snapshot)?.into_response())
}

/// Firearms per production status (every status listed, zero included), and those with none.
#[utoipa::path(get, path = "/v1/stats/production-status", tag = "Statistics",
    responses((status = 200, body = schemas::One<statistics::StatsProductionStatus>)))]
pub async fn production_status(snapshot: SnapshotWithFigures) -> Response {
    respond::one(statistics::production_status(&snapshot))
}

/// For each optional field of the firearm detail, how many firearms have it filled, and the
/// share of all firearms (0 to 1, four places). A list counts as filled with one item.
#[utoipa::path(get, path = "/v1/stats/field-coverage", tag = "Statistics",
    responses((status = 200, body = schemas::One<statistics::StatsFieldCoverage>)))]
pub async fn field_coverage(snapshot: SnapshotWithFigures) -> Response {
    respond::one(statistics::field_coverage(&snapshot))
}

/// Per category: firearms per decade of introduction (oldest first) and those with no year.
#[utoipa::path(get, path = "/v1/stats/catalog-coverage", tag = "Statistics",
    responses((status = 200, body = schemas::One<Vec<statistics::CategoryCoverage>>)))]
pub async fn catalog_coverage(snapshot: SnapshotWithFigures) -> Response {
    respond::one(statistics::catalog_coverage(&snapshot))
}

/// Per category: firearms, base models, and the arithmetic mean of empty weight, barrel length,
/// muzzle energy and effective range over the firearms that state each (`count`; the mean is
/// null when none does), rounded to 0.1.
#[utoipa::path(get, path = "/v1/stats/by-category", tag = "Statistics",
    responses((status = 200, body = schemas::One<Vec<statistics::CategoryFigures>>)))]
pub async fn by_category(snapshot: SnapshotWithFigures) -> Response {
    respond::one(statistics::by_category(&snapshot))
}

/// Per component (frame, slide, barrel, stock): how many firearms state its material, and each
/// material (compared in lower case) with its count and share of those, most first.
#[utoipa::path(get, path = "/v1/stats/materials", tag = "Statistics",
    responses((status = 200, body = schemas::One<Vec<statistics::ComponentMaterials>>)))]
pub async fn materials(snapshot: SnapshotWithFigures) -> Response {
    respond::one(statistics::materials(&snapshot))
}
