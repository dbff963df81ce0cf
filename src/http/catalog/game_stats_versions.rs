//! /v1/game-stats/versions: frozen game-stats datasets (operations 90 to 92). Frozen versions live
//! in the database (they are not part of the catalog snapshot) and never change once made.

use axum::extract::State;
use axum::response::Response;

use crate::access::paging::Paging;
use crate::catalog::stats_versions::{self, GameStatsVersion, valid_label};
use crate::http::extract::path::ValidPath;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};

async fn version(state: &AppState, label: &str) -> Result<GameStatsVersion, ApiError> {
    if !valid_label(label) {
        return Err(ApiError::invalid_parameter(
            "version",
            "must be 1 to 50 letters, digits, '.', '-' or '_'",
        ));
    }
    stats_versions::version(&state.db, label)
        .await?
        .ok_or_else(|| ApiError::not_found("game-stats version", label))
}

/// Every frozen dataset, newest first: id, version, description, firearmCount, createdAt.
#[utoipa::path(get, path = "/v1/game-stats/versions", tag = "Game stats",
    responses((status = 200, body = schemas::One<Vec<crate::catalog::stats_versions::GameStatsVersion>>)))]
pub async fn versions(State(state): State<AppState>) -> Result<Response, ApiError> {
    Ok(respond::one(stats_versions::versions(&state.db).await?))
}

/// The frozen entries of one version, by firearm id, in snake_case.
#[utoipa::path(get, path = "/v1/game-stats/versions/{version}/firearms", tag = "Game stats",
    params(("version" = String, Path, description = "dataset label, e.g. 2026.1")),
    responses((status = 200, body = schemas::Page<crate::catalog::stats_versions::GameStatsSnapshotEntry>)))]
pub async fn entries(
    State(state): State<AppState>,
    paging: Paging,
    ValidPath(label): ValidPath<String>,
) -> Result<Response, ApiError> {
    let version = version(&state, &label).await?;
    let (rows, total) =
        stats_versions::entries(&state.db, version.id, paging.offset(), paging.per_page as usize).await?;
    Ok(respond::paged(rows, paging.pagination(total as u64)))
}

/// One firearm's frozen entry in a version.
#[utoipa::path(get, path = "/v1/game-stats/versions/{version}/firearms/{id}", tag = "Game stats",
    params(("version" = String, Path), ("id" = String, Path, description = "firearm id")),
    responses((status = 200, body = schemas::One<crate::catalog::stats_versions::GameStatsSnapshotEntry>)))]
pub async fn entry(
    State(state): State<AppState>,
    ValidPath((label, id)): ValidPath<(String, String)>,
) -> Result<Response, ApiError> {
    let version = version(&state, &label).await?;
    let entry = stats_versions::entry(&state.db, version.id, &id)
        .await?
        .ok_or_else(|| ApiError::not_found(&format!("firearm in game-stats version {label}"), &id))?;
    Ok(respond::one(entry))
}
