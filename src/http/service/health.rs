//! The two health probes. Flat bodies, no envelope, no key.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use crate::http::state::AppState;

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// Always `ok` while the process answers.
    #[schema(example = "ok")]
    status: &'static str,
    /// ISO 8601 time of the answer (UTC).
    #[schema(example = "2026-11-22T10:00:00Z")]
    timestamp: String,
    /// The service's version.
    #[schema(example = "0.1.0")]
    version: &'static str,
    /// ARMORY_ENV.
    #[schema(example = "production")]
    environment: String,
}

#[derive(Serialize, ToSchema)]
pub struct Readiness {
    /// `ready` or `not_ready`.
    #[schema(example = "ready")]
    status: &'static str,
    /// `connected` or `disconnected`.
    #[schema(example = "connected")]
    database: &'static str,
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/health", tag = "Health", security(()),
    responses((status = 200, description = "The process is alive", body = Health)))]
pub async fn health(State(state): State<AppState>) -> Json<Health> {
    let timestamp = crate::clock::rfc3339_now();
    Json(Health {
        status: "ok",
        timestamp,
        version: env!("CARGO_PKG_VERSION"),
        environment: state.config.environment.clone(),
    })
}

/// Readiness: the database answers now and the node is not shutting down.
#[utoipa::path(get, path = "/ready", tag = "Health", security(()),
    responses(
        (status = 200, description = "Ready to serve", body = Readiness),
        (status = 503, description = "The database check failed or the node is draining", body = Readiness)))]
pub async fn ready(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let connected = state.db.ping().await;
    let database = if connected { "connected" } else { "disconnected" };
    if connected && !state.shutdown.is_triggered() {
        (StatusCode::OK, Json(Readiness { status: "ready", database }))
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, Json(Readiness { status: "not_ready", database }))
    }
}
