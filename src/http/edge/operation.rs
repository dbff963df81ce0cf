//! The one route layer of every documented operation: the access gate, around the conditional
//! answer (a 304 passes the gate, which must see it to give the day's unit back), around the replay
//! of idempotent POSTs (which needs the caller the gate found), around the handler.
//!
//! One layer rather than three because each `from_fn` layer clones the service inside it and boxes
//! a future on every request; here the three are plain functions called in order.

use std::sync::Arc;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::access::gate::{Access, gate};
use crate::db::Db;
use crate::http::edge::{conditional, idempotency};

/// What the route layer needs: the access layer's state and the database idempotent answers live in.
#[derive(Clone)]
pub struct OperationState {
    pub access: Arc<Access>,
    pub db: Db,
}

pub async fn around_operation(
    State(state): State<OperationState>,
    matched: MatchedPath,
    request: Request,
    next: Next,
) -> Response {
    gate(&state.access, matched.as_str(), request, |request| {
        conditional::answer_not_modified(request, |request| {
            idempotency::replay_or_record(&state.db, request, |request| next.run(request))
        })
    })
    .await
}
