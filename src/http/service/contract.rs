//! /v1/contract: the latest contract run (operation 132, `http::self_check::contract`).

use axum::extract::State;
use axum::response::Response;

use crate::http::openapi::schemas;
use crate::http::self_check::contract::{self, SelfCheckRun};
use crate::http::{ApiError, AppState, respond};

/// The latest run verifying the documented operations against this node: each operation called
/// in process with valid arguments from the live catalog, its status checked (2xx) and its answer
/// held to its schema in /openapi.json. Per operation: passed, failed (with the reason) or skipped
/// (with the reason: writes and the /v1/me and /v1/vendor reads are not run against the live
/// service). `passed` is false when any operation failed, and `failures` lists them. A run is kept
/// 5 minutes; requests meanwhile share it.
#[utoipa::path(get, path = "/v1/contract", tag = "Docs", security(()),
    responses((status = 200, body = schemas::One<SelfCheckRun>)))]
pub async fn contract(State(state): State<AppState>) -> Result<Response, ApiError> {
    let run = state
        .self_check
        .contract
        .latest(|| async { contract::run(&state, &contract::served_description(&state)).await })
        .await?;
    Ok(respond::one(&*run))
}
