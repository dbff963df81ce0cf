//! /v1/docs/samples: a real request and answer per operation (operation 131,
//! `http::self_check::samples`).

use axum::extract::State;
use axum::response::Response;

use crate::http::openapi::schemas;
use crate::http::self_check::samples::Samples;
use crate::http::{ApiError, AppState, respond};

/// For each documented GET the contract run calls, the request made (paged lists with
/// `per_page=2`) and the answer received, taken from the live catalog by calling the service in
/// process; lists in the bodies are cut to 3 items and texts to 400 characters. Taken again when
/// the catalog revision moves. `skipped` names the operations without a sample and why.
#[utoipa::path(get, path = "/v1/docs/samples", tag = "Docs", security(()),
    responses((status = 200, body = schemas::One<Samples>)))]
pub async fn samples(State(state): State<AppState>) -> Result<Response, ApiError> {
    let samples = state.self_check.samples.current(&state).await?;
    Ok(respond::one(&*samples))
}
