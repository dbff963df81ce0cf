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
    /// `connected` or `disconnected`; absent when no Redis is configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "connected")]
    redis: Option<&'static str>,
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

/// Readiness: the database (and Redis, when configured) answer now and the node is not shutting
/// down. Checked on every call, so the probe turns 200 again as soon as they are back.
#[utoipa::path(get, path = "/ready", tag = "Health", security(()),
    responses(
        (status = 200, description = "Ready to serve", body = Readiness),
        (status = 503, description = "The database or Redis check failed, or the node is draining", body = Readiness)))]
pub async fn ready(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let limiter = &state.access.limiter;
    let (database_up, redis_up) = tokio::join!(state.db.ping(), limiter.ping());
    let word = |up: bool| if up { "connected" } else { "disconnected" };
    let redis = limiter.is_shared().then(|| word(redis_up));
    let readiness = |status| Readiness { status, database: word(database_up), redis };
    if database_up && redis_up && !state.shutdown.is_triggered() {
        (StatusCode::OK, Json(readiness("ready")))
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, Json(readiness("not_ready")))
    }
}
