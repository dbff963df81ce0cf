//! The most requested firearm details over a window of days: the counts come from the caller
//! (`access::usage` keeps them in the shared database); the firearms from the snapshot.

use serde::Serialize;
use utoipa::ToSchema;

use crate::read::error::QueryError;
use crate::read::query::firearm_pages::write_item_with;
use crate::read::rendered::shapes::{PopularFirearm, Spliced};
use crate::read::rendered::{Rendered, with_items};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

// The window counted, then the firearms, spliced after it by `with_items`.
#[derive(Serialize, ToSchema)]
pub struct PopularFirearms<'a> {
    days: i64,
    /// The first UTC day counted, YYYY-MM-DD.
    since: &'a str,
    #[serde(skip_serializing_if = "Spliced::written_after")]
    #[schema(required = true, value_type = Vec<PopularFirearm>)]
    firearms: Spliced,
}

/// What a popular firearm adds to its list item.
#[derive(Serialize)]
struct Requested {
    rank: usize,
    requests: i64,
}

/// The first `limit` of `viewed` (firearm ids with their detail requests over the `days` UTC days
/// from `since`, most first) that the catalog still has, each as its list item in `view` with
/// `rank` and `requests`.
pub fn firearms(
    snapshot: &Snapshot,
    viewed: &[(String, i64)],
    (days, since): (i64, &str),
    limit: usize,
    view: View,
) -> Result<Rendered, QueryError> {
    let rows: Vec<(usize, i64)> = viewed
        .iter()
        .filter_map(|(id, requests)| Some((snapshot.firearm_position(id).ok()?, *requests)))
        .take(limit)
        .collect();
    let head = PopularFirearms { days, since, firearms: Spliced };
    with_items(&head, "firearms", rows.len(), |rank, body| {
        let (at, requests) = rows[rank];
        write_item_with(body, snapshot, view, at, &Requested { rank: rank + 1, requests });
    })
    .map_err(|e| QueryError::Failed(e.to_string()))
}
