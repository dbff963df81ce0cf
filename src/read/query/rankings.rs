//! Rankings of the whole catalog: the superlatives (`top`) and two firearms head to head.

use serde::Serialize;
use serde_json::json;

use crate::read::error::QueryError;
use crate::read::query::firearm_pages::write_item_with;
use crate::read::rankings::{HEAD_TO_HEAD, RANKED_STATS, winner};
use crate::read::rendered::{Rendered, one, with_items};
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

/// Two firearms compared field by field.
#[derive(Serialize)]
pub struct HeadToHead {
    pub a: Contender,
    pub b: Contender,
    pub fields: Vec<Compared>,
    pub wins: Wins,
}

#[derive(Serialize)]
pub struct Contender {
    pub id: String,
    pub name: String,
}

/// One measurable field: both figures, which end wins, and the winner (`a`, `b`, `tie`, or None
/// when either figure is unknown).
#[derive(Serialize)]
pub struct Compared {
    pub field: &'static str,
    pub unit: &'static str,
    pub better: &'static str,
    pub a: serde_json::Value,
    pub b: serde_json::Value,
    pub winner: Option<&'static str>,
}

#[derive(Serialize)]
pub struct Wins {
    pub a: usize,
    pub b: usize,
}

/// The firearms `a` and `b` over every field of `HEAD_TO_HEAD`, with the count of wins; every
/// unknown id is named at once.
pub fn head_to_head(snapshot: &Snapshot, a: &str, b: &str) -> Result<Rendered, QueryError> {
    let missing: Vec<String> =
        [a, b].into_iter().filter(|id| !snapshot.has_firearm(id)).map(str::to_owned).collect();
    if !missing.is_empty() {
        return Err(QueryError::MissingIds { kind: "firearm", ids: missing });
    }
    let (_, first) = snapshot.firearm(a)?;
    let (_, second) = snapshot.firearm(b)?;
    let mut wins = Wins { a: 0, b: 0 };
    let fields = HEAD_TO_HEAD
        .iter()
        .map(|measured| {
            let won = winner((measured.value)(&first), (measured.value)(&second), measured.better);
            match won {
                Some("a") => wins.a += 1,
                Some("b") => wins.b += 1,
                _ => {}
            }
            Compared {
                field: measured.field,
                unit: measured.unit,
                better: measured.better.id(),
                a: measured.served(&first),
                b: measured.served(&second),
                winner: won,
            }
        })
        .collect();
    let answer = HeadToHead {
        a: Contender { id: first.id.clone(), name: first.name.clone() },
        b: Contender { id: second.id.clone(), name: second.name.clone() },
        fields,
        wins,
    };
    one(answer).map_err(|e| QueryError::Failed(e.to_string()))
}
