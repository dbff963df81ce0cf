//! What the firearm list can be filtered by: the filter options with counts and ranges, and the
//! action types in use.

use serde::Serialize;
use utoipa::ToSchema;

use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};
use crate::read::facts::country_text;
use crate::read::rendered::{Rendered, one};
use crate::read::snapshot::Snapshot;

/// Each filter of GET /v1/firearms with its values and counts.
#[derive(Serialize, ToSchema)]
pub struct FilterOptions<'a> {
    manufacturer: Vec<FacetCount<'a>>,
    category: Vec<FacetCount<'a>>,
    caliber: Vec<FacetCount<'a>>,
    action_type: Vec<FacetCount<'a>>,
    country_of_origin: Vec<FacetCount<'a>>,
    status: Vec<FacetCount<'a>>,
    has_3d_model: Vec<FacetCount<'a>>,
    year_introduced: ValueRange,
    weight: ValueRange,
    barrel_length: ValueRange,
}

#[derive(Serialize, ToSchema)]
pub struct FacetCount<'a> {
    value: &'a str,
    #[schema(value_type = i64)]
    count: usize,
}

#[derive(Serialize, ToSchema, PartialEq, Debug)]
pub struct ValueRange {
    min: Option<f64>,
    max: Option<f64>,
}

/// Every filter of the firearm list with the values it accepts and how many firearms each
/// matches (most first, then by value); numeric filters give the known range. Rendered once per
/// snapshot.
pub fn filter_options(snapshot: &Snapshot) -> &Rendered {
    // Values borrowed, so writing them cannot fail.
    snapshot.read.filter_options.get_or_build(|| {
        render_options(snapshot).expect("the filter options are written from strings and numbers")
    })
}

/// The filter options, read off the list's per-filter sets and sort orders, not the records: at
/// 100,000 firearms counting over every record took about 120 ms a request. Written from borrowed
/// values: as a `json!` tree, thousands of manufacturers' counts were built as values and then
/// written.
fn render_options(snapshot: &Snapshot) -> serde_json::Result<Rendered> {
    let catalog = &snapshot.catalog;
    let read = &snapshot.read;
    let counts = read.list.value_counts();
    let firearms = &catalog.firearms;
    let has_3d_model = [("false", counts.has_3d_model[0]), ("true", counts.has_3d_model[1])];
    one(FilterOptions {
        manufacturer: ids(&counts.manufacturer, |at| catalog.manufacturers[at].id.as_str()),
        category: ids(&counts.category, |at| catalog.categories[at].id.as_str()),
        caliber: ids(&counts.caliber, |at| catalog.calibers[at].id.as_str()),
        action_type: ids(&counts.action, |at| ACTION_TYPES[at]),
        country_of_origin: counted(
            counts.country.iter().filter_map(|(code, n)| Some((country_text(code)?, *n))),
        ),
        status: ids(&counts.status, |at| FIREARM_STATUSES[at]),
        has_3d_model: counted(has_3d_model.into_iter().filter(|(_, count)| *count > 0)),
        year_introduced: range(read.orders.year.known(), |at| {
            firearms.get(at).year_introduced.map(|y| y as f64)
        }),
        weight: range(read.orders.weight.known(), |at| firearms.get(at).weight_empty_g),
        barrel_length: range(read.list.by_barrel_length(), |at| firearms.get(at).barrel_length_mm),
    })
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActionTypeCount {
    action_type: &'static str,
    #[schema(value_type = i64)]
    count: usize,
}

/// The action types in the catalog with their firearm counts, most frequent first.
pub fn action_types(snapshot: &Snapshot) -> Vec<ActionTypeCount> {
    let counts = snapshot.read.list.value_counts();
    ids(&counts.action, |at| ACTION_TYPES[at])
        .into_iter()
        .map(|FacetCount { value, count }| ActionTypeCount { action_type: value, count })
        .collect()
}

/// Values with their firearm counts, most frequent first, then by value.
fn counted<'a>(values: impl Iterator<Item = (&'a str, usize)>) -> Vec<FacetCount<'a>> {
    let mut counts: Vec<(&str, usize)> = values.collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts.into_iter().map(|(value, count)| FacetCount { value, count }).collect()
}

/// Values named by their index (`id`), with their counts, as `counted` lists them.
fn ids<'a>(values: &[(usize, usize)], id: impl Fn(usize) -> &'a str) -> Vec<FacetCount<'a>> {
    counted(values.iter().map(|&(at, count)| (id(at), count)))
}

/// The smallest and largest known value of positions `ascending` (sorted by the value, or by a
/// rounding of it that keeps the order, as the packed f32 facts do), exactly as `value` states it.
fn range(ascending: &[u32], value: impl Fn(usize) -> Option<f64>) -> ValueRange {
    // A rounding that keeps the order puts the exact extreme within the first (last) run of
    // positions whose rounded values are equal.
    let extreme = |run: &mut dyn Iterator<Item = &u32>, pick: fn(f64, f64) -> f64| {
        let mut run = run.filter_map(|&at| value(at as usize));
        let first = run.next()?;
        Some(run.take_while(|v| *v as f32 == first as f32).fold(first, pick))
    };
    ValueRange {
        min: extreme(&mut ascending.iter(), f64::min),
        max: extreme(&mut ascending.iter().rev(), f64::max),
    }
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
        assert_eq!(range, ValueRange { min: Some(100.000_000_1), max: Some(900.000_000_1) });
        assert_eq!(super::range(&[], |at| values[at]), ValueRange { min: None, max: None });
    }
}
