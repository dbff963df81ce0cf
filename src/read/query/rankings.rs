//! Rankings of the whole catalog: the superlatives (`top`), two firearms head to head, the power
//! rating and the timeline. Orders come from the snapshot (`read::rankings`, `read::orders`); a
//! query only filters and slices them.

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::access::paging::Paging;
use crate::read::error::QueryError;
use crate::read::list_index::Filters;
use crate::read::orders::Sort;
use crate::read::query::firearm_pages::{ItemForm, in_category, page_from, write_item_with};
use crate::read::rankings::{HEAD_TO_HEAD, RANKED_STATS, winner};
use crate::read::rendered::shapes::{NamedRef, PowerScore, Spliced, TopFirearm};
use crate::read::rendered::{Rendered, one, paged_raw, with_items};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

fn failed(error: serde_json::Error) -> QueryError {
    QueryError::Failed(error.to_string())
}

// A ranking: what was ranked, then the ranked firearms, spliced after it by `with_items`.
#[derive(Serialize, ToSchema)]
pub struct TopFirearms<'a> {
    /// The `stat` asked for.
    stat: &'a str,
    /// The detail field ranked.
    field: &'static str,
    /// Which end ranks first: lower or higher.
    better: &'static str,
    #[serde(skip_serializing_if = "Spliced::written_after")]
    #[schema(required = true, value_type = Vec<TopFirearm>)]
    firearms: Spliced,
}

/// What a ranked firearm adds to its list item.
#[derive(Serialize)]
struct Ranked {
    rank: usize,
    value: Value,
    unit: &'static str,
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
    let head = TopFirearms { stat, field: ranked.field, better: ranked.better.id(), firearms: Spliced };
    with_items(&head, "firearms", top.len(), |rank, body| {
        let at = top[rank];
        let value = ranked.served(&firearms.get(at));
        write_item_with(body, snapshot, view, at, &Ranked { rank: rank + 1, value, unit: ranked.unit });
    })
    .map_err(failed)
}

// Two firearms compared field by field.
#[derive(Serialize, ToSchema)]
pub struct HeadToHead {
    pub a: NamedRef,
    pub b: NamedRef,
    pub fields: Vec<HeadToHeadField>,
    pub wins: HeadToHeadWins,
}

// One measurable field: both figures, which end wins, and the winner.
#[derive(Serialize, ToSchema)]
pub struct HeadToHeadField {
    pub field: &'static str,
    pub unit: &'static str,
    /// Which end wins: lower or higher.
    pub better: &'static str,
    #[schema(value_type = Option<f64>)]
    pub a: Value,
    #[schema(value_type = Option<f64>)]
    pub b: Value,
    /// a, b or tie; null when either figure is unknown.
    pub winner: Option<&'static str>,
}

#[derive(Serialize, ToSchema)]
pub struct HeadToHeadWins {
    #[schema(value_type = i64)]
    pub a: usize,
    #[schema(value_type = i64)]
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
    let mut wins = HeadToHeadWins { a: 0, b: 0 };
    let fields = HEAD_TO_HEAD
        .iter()
        .map(|measured| {
            let won = winner((measured.value)(&first), (measured.value)(&second), measured.better);
            match won {
                Some("a") => wins.a += 1,
                Some("b") => wins.b += 1,
                _ => {}
            }
            HeadToHeadField {
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
        a: NamedRef { id: first.id.clone(), name: first.name.clone() },
        b: NamedRef { id: second.id.clone(), name: second.name.clone() },
        fields,
        wins,
    };
    one(answer).map_err(failed)
}

/// What a power-rated firearm adds to its list item.
#[derive(Serialize)]
struct Rated {
    power: PowerScore,
}

/// A page of firearms by power score, highest first (ties by name), within `category` when
/// given (404 naming `category` for an unknown one), each the list item in `view` with `power`:
/// the score and the inputs it used (`read::rankings::power`).
pub fn power_rating(
    snapshot: &Snapshot,
    category: Option<&str>,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let category = snapshot.category_filter("category", category)?;
    let rankings = snapshot.rankings();
    let rated: Vec<usize> = rankings
        .by_power
        .iter()
        .map(|&at| at as usize)
        .filter(|&at| in_category(snapshot, at, category))
        .collect();
    let (page, pagination) = paging.slice(&rated);
    let write = |i: usize, body: &mut _| {
        let at = page[i];
        let inputs = rankings.power[at].expect("only rated firearms are ranked");
        let power = PowerScore {
            score: inputs.score,
            muzzle_energy_j: inputs.muzzle_energy_j,
            energy_source: if inputs.energy_from_cartridge { "cartridge" } else { "firearm" },
            rate_of_fire_rpm: inputs.rate_of_fire_rpm,
            rate_assumed: inputs.rate_of_fire_rpm.is_none(),
        };
        write_item_with(body, snapshot, view, at, &Rated { power });
    };
    Ok(paged_raw(page.len(), write, pagination))
}

/// A page of firearms by year introduced, oldest first (ties by name), between `from` and `to`
/// inclusive (years 1000 to 2100) and within `category` when given (404 naming `category` for an
/// unknown one), each the list item in `view`; firearms with no year are left out, and a range
/// that ends before it starts is empty.
pub fn timeline(
    snapshot: &Snapshot,
    (from, to): (Option<i64>, Option<i64>),
    category: Option<&str>,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let category = snapshot.category_filter("category", category)?;
    // A lower bound below every year keeps out the firearms with none (years within
    // 1000..=2100 fit an i32 exactly).
    let filters = Filters {
        year_min: Some(from.map_or(i32::MIN, |year| year as i32)),
        year_max: to.map(|year| year as i32),
        category: category.map(|at| at as u16),
        ..Filters::default()
    };
    let offset = paging.offset();
    let window = offset..offset.saturating_add(paging.per_page as usize);
    let page = snapshot.read.select(&filters, (Sort::Year, false), window);
    Ok(page_from(snapshot, paging, &page.positions, page.total, ItemForm::Plan(view)))
}
