//! Rankings of the whole catalog: the superlatives (`top`).

use serde::Serialize;
use serde_json::json;

use crate::read::error::QueryError;
use crate::read::query::firearm_pages::write_item_with;
use crate::read::rankings::RANKED_STATS;
use crate::read::rendered::{Rendered, with_items};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

/// What a ranking says before its firearms.
#[derive(Serialize)]
struct TopAnswer<'a> {
    stat: &'a str,
    field: &'static str,
    better: &'static str,
}

/// The `limit` firearms with the most extreme figure for `stat` (one of `RANKED_STATS`), within
/// `category` when given, as list items in `view` with `rank`, `value` and `unit`. A firearm
/// whose figure is unknown is never ranked; ties break by name.
pub fn top(
    snapshot: &Snapshot,
    stat: &str,
    category: Option<&str>,
    limit: usize,
    view: View,
) -> Result<Rendered, QueryError> {
    let category = snapshot.category_filter("category", category)?;
    let Some(at_stat) = RANKED_STATS.iter().position(|s| s.name == stat) else {
        return Err(QueryError::Invalid { field: "stat", reason: format!("'{stat}' is not a ranked stat") });
    };
    let ranked = &RANKED_STATS[at_stat];
    let firearms = &snapshot.catalog.firearms;
    let rankings = snapshot.rankings();
    let order = match category {
        Some(category) => &rankings.by_stat_in_category[at_stat][category],
        None => &rankings.by_stat[at_stat],
    };
    let top: Vec<usize> = order.iter().map(|&at| at as usize).take(limit).collect();
    let head = TopAnswer { stat, field: ranked.field, better: ranked.better.id() };
    with_items(&head, "firearms", top.len(), |rank, body| {
        let at = top[rank];
        let value = ranked.served(&firearms.get(at));
        let extra = json!({ "rank": rank + 1, "value": value, "unit": ranked.unit });
        write_item_with(body, snapshot, view, at, extra);
    })
    .map_err(|e| QueryError::Failed(e.to_string()))
}
