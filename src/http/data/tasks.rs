//! 93: the data tasks, the records most worth improving (Explorer; `limit` 50, up to 200).

use std::collections::HashMap;

use axum::extract::State;
use axum::response::Response;

use super::with_quality;
use crate::access::paging::Limit;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::query::quality;

/// The window of firearm detail requests a task's demand counts.
const DAYS: i64 = 30;

/// The records most worth improving, best first: per record the important fields it lacks
/// (`missing`) or that no checked source states (`unverified`), and a score: the weights of the
/// missing fields plus a quarter of the unverified ones', times 1 + ln(1 + requests), where
/// requests are the firearm's detail requests over the last 30 days (0 for other resources).
/// Field weights: 3 for the first figures a reader looks up and for the sources, 2 for those
/// telling records apart, 1 for the rest a reader would miss.
#[utoipa::path(get, path = "/v1/data/tasks", tag = "Data quality",
    responses((status = 200, body = schemas::One<Vec<quality::DataTask>>)))]
pub async fn tasks(
    State(state): State<AppState>,
    CurrentSnapshot(snapshot): CurrentSnapshot,
    Limit(limit): Limit,
) -> Result<Response, ApiError> {
    let first_day = crate::clock::day(crate::clock::now() - time::Duration::days(DAYS - 1));
    let firearms = snapshot.catalog.firearms.len();
    let requests: HashMap<String, i64> =
        state.access.usage.most_viewed(&first_day, firearms).await?.into_iter().collect();
    let snapshot = with_quality(snapshot).await?;
    Ok(respond::one(quality::tasks(snapshot.quality(), &requests, limit)))
}
