//! /v1/examples/verification and /v1/sdk/verification: the examples run (operation 133,
//! `http::self_check::examples`) and the client run (134, `http::self_check::sdk`).

use axum::extract::State;
use axum::response::Response;

use crate::http::openapi::schemas;
use crate::http::self_check::contract::{self, SelfCheckRun};
use crate::http::self_check::{examples, sdk};
use crate::http::{ApiError, AppState, respond};

/// The latest run of every example in /openapi.json against this node: each operation's example
/// request (its parameters' examples) called in process, its status compared with the example's,
/// its answer held to its schema and compared with the example's body (date-times excepted;
/// lists and texts on what the example kept). An operation without an example fails. Writes, the
/// /v1/me and /v1/vendor reads and the self-checks are skipped, saying why, once their example
/// has been held to its schema. A run is kept 5 minutes; requests meanwhile share it.
#[utoipa::path(get, path = "/v1/examples/verification", tag = "Docs", security(()),
    responses((status = 200, body = schemas::One<SelfCheckRun>)))]
pub async fn examples(State(state): State<AppState>) -> Result<Response, ApiError> {
    let run = state
        .self_check
        .examples
        .latest(|| async { examples::run(&state, &contract::served_description(&state)).await })
        .await?;
    Ok(respond::one(&*run))
}

/// The latest run of the published GunSpec Python client's calls (gunspec 0.9.0 on PyPI, every
/// request its methods send, recorded from the package) against this node, in process: a call
/// reaching a documented operation passes when it answers 2xx holding to that operation's
/// schema; a call to a route this node does not serve fails, naming the answer. Writes and the
/// account and shop reads are skipped, saying why. A run is kept 5 minutes.
#[utoipa::path(get, path = "/v1/sdk/verification", tag = "Docs", security(()),
    responses((status = 200, body = schemas::One<sdk::SdkRun>)))]
pub async fn sdk(State(state): State<AppState>) -> Result<Response, ApiError> {
    let run = state
        .self_check
        .sdk
        .latest(|| async { sdk::run(&state, &contract::served_description(&state)).await })
        .await?;
    Ok(respond::one(&*run))
}
