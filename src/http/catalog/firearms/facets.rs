//! Catalog-wide helpers of the firearm list: the filter options with counts and ranges (operation 8)
//! and the action types in use (operation 9).

use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::respond;
use crate::read::facts::country_text;
use crate::read::rendered::Rendered;
use crate::read::snapshot::Snapshot;

/// The filter options (8), written from borrowed values: as a `json!` tree, thousands of
/// manufacturers' counts were built as values and then written.
#[derive(Serialize)]
struct FilterOptions<'a> {
    manufacturer: Vec<Counted<'a>>,
    category: Vec<Counted<'a>>,
    caliber: Vec<Counted<'a>>,
    action_type: Vec<Counted<'a>>,
    country_of_origin: Vec<Counted<'a>>,
    status: Vec<Counted<'a>>,
    has_3d_model: Vec<Counted<'a>>,
    year_introduced: Range,
    weight: Range,
    barrel_length: Range,
}

#[derive(Serialize)]
struct Counted<'a> {
    value: &'a str,
    count: usize,
}

#[derive(Serialize, PartialEq, Debug)]
struct Range {
    min: Option<f64>,
    max: Option<f64>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ActionTypeCount<'a> {
    action_type: &'a str,
    count: usize,
}

/// Values with their firearm counts, most frequent first, then by value.
fn counted<'a>(values: impl Iterator<Item = (&'a str, usize)>) -> Vec<Counted<'a>> {
    let mut counts: Vec<(&str, usize)> = values.collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts.into_iter().map(|(value, count)| Counted { value, count }).collect()
}

/// The smallest and largest known value of positions `ascending` (sorted by the value, or by a
/// rounding of it that keeps the order, as the packed f32 facts do), exactly as `value` states it.
fn range(ascending: &[u32], value: impl Fn(usize) -> Option<f64>) -> Range {
    // A rounding that keeps the order puts the exact extreme within the first (last) run of
    // positions whose rounded values are equal.
    let extreme = |run: &mut dyn Iterator<Item = &u32>, pick: fn(f64, f64) -> f64| {
        let mut run = run.filter_map(|&at| value(at as usize));
        let first = run.next()?;
        Some(run.take_while(|v| *v as f32 == first as f32).fold(first, pick))
    };
    Range {
        min: extreme(&mut ascending.iter(), f64::min),
        max: extreme(&mut ascending.iter().rev(), f64::max),
    }
}

/// Every filter of GET /v1/firearms with the values it accepts and how many firearms each
/// matches; numeric filters give the known range.
#[utoipa::path(get, path = "/v1/firearms/filter-options", tag = "Firearms",
    responses((status = 200, body = schemas::One<schemas::FilterOptions>)))]
pub async fn filter_options(snapshot: CurrentSnapshot) -> Response {
    // Rendered once per snapshot; values borrowed, so writing them cannot fail.
    let kept = snapshot.filter_options(|| {
        options(&snapshot).expect("the filter options are written from strings and numbers")
    });
    kept.into_response()
}

/// The filter options, read off the list's per-filter sets and sort orders, not the records: at
/// 100,000 firearms counting over every record took about 120 ms a request.
fn options(snapshot: &Snapshot) -> serde_json::Result<Rendered> {
    let catalog = &snapshot.catalog;
    let counts = snapshot.filter_value_counts();
    let firearms = &catalog.firearms;
    let has_3d_model = [("false", counts.has_3d_model[0]), ("true", counts.has_3d_model[1])];
    respond::one_kept(FilterOptions {
        manufacturer: ids(&counts.manufacturer, |at| catalog.manufacturers[at].id.as_str()),
        category: ids(&counts.category, |at| catalog.categories[at].id.as_str()),
        caliber: ids(&counts.caliber, |at| catalog.calibers[at].id.as_str()),
        action_type: ids(&counts.action, |at| ACTION_TYPES[at]),
        country_of_origin: counted(
            counts.country.iter().filter_map(|(code, n)| Some((country_text(code)?, *n))),
        ),
        status: ids(&counts.status, |at| FIREARM_STATUSES[at]),
        has_3d_model: counted(has_3d_model.into_iter().filter(|(_, count)| *count > 0)),
        year_introduced: range(snapshot.orders().year.known(), |at| {
            firearms.get(at).year_introduced.map(|y| y as f64)
        }),
        weight: range(snapshot.orders().weight.known(), |at| firearms.get(at).weight_empty_g),
        barrel_length: range(snapshot.by_barrel_length(), |at| firearms.get(at).barrel_length_mm),
    })
}

/// Values named by their index (`id`), with their counts, as `counted` lists them.
fn ids<'a>(values: &[(usize, usize)], id: impl Fn(usize) -> &'a str) -> Vec<Counted<'a>> {
    counted(values.iter().map(|&(at, count)| (id(at), count)))
}

/// The action types in the catalog with their firearm counts, most frequent first.
#[utoipa::path(get, path = "/v1/firearms/action-types", tag = "Firearms",
    responses((status = 200, body = schemas::One<Vec<schemas::ActionTypeCount>>)))]
pub async fn action_types(snapshot: CurrentSnapshot) -> Response {
    let counts = snapshot.filter_value_counts();
    let data: Vec<ActionTypeCount> = ids(&counts.action, |at| ACTION_TYPES[at])
        .into_iter()
        .map(|Counted { value, count }| ActionTypeCount { action_type: value, count })
        .collect();
    respond::one(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_is_exact_when_its_order_is_by_a_rounding() {
        // Positions ordered by the f32 rounding (ties in position order): 1 and 2 round alike,
        // so the order cannot tell which is smaller; the range still gives the exact extremes.
        let values =
            [None, Some(100.000_000_2), Some(100.000_000_1), Some(250.5), Some(900.000_000_1), Some(900.0)];
        let ascending = [1, 2, 3, 4, 5];
        let range = range(&ascending, |at| values[at]);
        assert_eq!(range, Range { min: Some(100.000_000_1), max: Some(900.000_000_1) });
        assert_eq!(super::range(&[], |at| values[at]), Range { min: None, max: None });
    }
}
