//! The public documentation reads: /v1/docs/operations (operation 128) and /v1/docs/limits (129).

use axum::extract::State;
use axum::response::Response;

use crate::access::operation_catalog;
use crate::http::openapi::schemas;
use crate::http::{AppState, respond, routes};

/// The operation catalog: for each of the service's operations, its number, operationId, method,
/// path, minimum plan (null: no key), paging style with per_page's or limit's default and maximum,
/// the rate-limit bucket it spends and whether this build serves it; and each plan's limits, as
/// /v1/docs/limits lists them. Built from the same table the router and the access layer read.
#[utoipa::path(get, path = "/v1/docs/operations", tag = "Docs", security(()),
    responses((status = 200, body = schemas::One<schemas::OperationCatalog>)))]
pub async fn operations(State(state): State<AppState>) -> Response {
    let served = routes::served();
    respond::one(operation_catalog::catalog(state.access.plans.rows(), |op| served.contains(&op.number)))
}

/// Per-plan limits: per minute, per day, per month, page depth, totals, MCP calls, webhook endpoints
/// held, and the webhook operations' own bucket.
#[utoipa::path(get, path = "/v1/docs/limits", tag = "Docs", security(()),
    responses((status = 200, body = schemas::One<Vec<schemas::PlanLimits>>)))]
pub async fn limits(State(state): State<AppState>) -> Response {
    respond::one(state.access.plans.rows())
}
