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
