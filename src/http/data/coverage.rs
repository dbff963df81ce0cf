//! 97: provenance coverage (Builder).

use axum::response::Response;

use super::with_quality;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::quality;

/// Per resource: records by their strongest source kind (every kind listed, strongest first, and
/// `none`), how many a checked source states fields of (verified) and their share, and the mean
/// dataConfidence.
#[utoipa::path(get, path = "/v1/data/coverage", tag = "Data quality",
    responses((status = 200, body = schemas::One<quality::DataCoverage>)))]
pub async fn coverage(CurrentSnapshot(snapshot): CurrentSnapshot) -> Result<Response, ApiError> {
    let snapshot = with_quality(snapshot).await?;
    Ok(respond::one(quality::coverage(snapshot.quality())))
}
