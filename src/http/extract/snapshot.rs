//! The catalog snapshot a request reads: taken once, when the request arrives, so one answer
//! never mixes two revisions.

use std::ops::Deref;
use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::error::ApiError;
use crate::http::AppState;
use crate::read::snapshot::Snapshot;

pub struct CurrentSnapshot(pub Arc<Snapshot>);

impl FromRequestParts<AppState> for CurrentSnapshot {
    type Rejection = ApiError;

    async fn from_request_parts(_: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        Ok(CurrentSnapshot(state.catalog.current()))
    }
}

impl Deref for CurrentSnapshot {
    type Target = Snapshot;

    fn deref(&self) -> &Snapshot {
        &self.0
    }
}

/// The current snapshot with its figures over the whole catalog built (statistics, rankings and
/// game analytics, which a patched snapshot builds after it is served: `read::deferred`). The
/// operations that read them take this instead of `CurrentSnapshot`, and wait for them off the
/// runtime's workers.
pub struct SnapshotWithFigures(pub Arc<Snapshot>);

impl FromRequestParts<AppState> for SnapshotWithFigures {
    type Rejection = ApiError;

    async fn from_request_parts(_: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let snapshot = state.catalog.current();
        snapshot.figures_built().await;
        Ok(SnapshotWithFigures(snapshot))
    }
}

impl Deref for SnapshotWithFigures {
    type Target = Snapshot;

    fn deref(&self) -> &Snapshot {
        &self.0
    }
}
