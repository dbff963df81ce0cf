//! GET /v1/notices.

use axum::extract::State;
use axum::response::Response;

use crate::http::openapi::schemas;
use crate::http::{AppState, respond};
use crate::read::query::content::{self, Notices};

/// The service notices in effect now (info, warning, critical), most severe first, the announced
/// maintenance windows that have not ended, and whether keyed operations are paused right now.
#[utoipa::path(get, path = "/v1/notices", tag = "Content", security(()),
    responses((status = 200, body = schemas::One<Notices>)))]
pub async fn list(State(state): State<AppState>) -> Response {
    let published = state.content.current();
    let now = crate::clock::sql_now();
    respond::one(content::notices(&published, &now, state.access.keys.maintenance()))
}
