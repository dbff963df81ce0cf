//! GET /metrics: the Prometheus text exposition (`crate::metrics`). Never public by default: it is
//! served on its own listen address (`ARMORY_METRICS_BIND`, no credential: keep it on a private
//! network) and/or on the main one behind a bearer token (`ARMORY_METRICS_TOKEN`); without either
//! it does not exist (404 like any unknown path).

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::http::AppState;

const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

async fn exposition(state: &AppState) -> Response {
    let pending: i64 =
        sqlx::query_as::<_, (i64,)>("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'")
            .fetch_one(state.db.pool())
            .await
            .map_or(-1, |(n,)| n);
    let snapshot = state.catalog.current();
    let figures = crate::metrics::SnapshotFigures {
        revision: snapshot.revision,
        build_seconds: snapshot.build_seconds,
        firearms_rendered: snapshot.firearms_rendered,
    };
    let text = crate::metrics::global().render(pending, &figures);
    let mut response = text.into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// On the main listener: only with `Authorization: Bearer <ARMORY_METRICS_TOKEN>`; anything else
/// is the 404 of an unknown path, so the endpoint is not even visible.
pub async fn behind_token(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let expected = state.config.metrics_token.as_deref().unwrap_or_default();
    let presented = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .unwrap_or_default();
    // Compared as digests, so the time taken does not depend on how much of the token was right.
    if expected.is_empty() || Sha256::digest(presented) != Sha256::digest(expected) {
        return ApiError::route_not_found().into_response();
    }
    exposition(&state).await
}

/// The router of the separate metrics listener.
pub fn private_listener(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(|State(state): State<AppState>| async move { exposition(&state).await }))
        .with_state(state)
}
