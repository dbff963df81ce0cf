//! /v1/docs/limits: the plan table, public (operation 129).

use axum::extract::State;
use axum::response::Response;

use crate::http::openapi::schemas;
use crate::http::{AppState, respond};

/// Per-plan limits: per minute, per day, per month, page depth, totals, MCP calls, webhook endpoints
/// held, and the webhook operations' own bucket.
#[utoipa::path(get, path = "/v1/docs/limits", tag = "Docs", security(()),
    responses((status = 200, body = schemas::One<Vec<schemas::PlanLimits>>)))]
pub async fn limits(State(state): State<AppState>) -> Response {
    respond::one(state.access.plans.rows())
}
