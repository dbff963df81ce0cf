//! Catalog-wide helpers of the firearm list: the filter options with counts and ranges (operation 8)
//! and the action types in use (operation 9).

use axum::response::Response;
use serde_json::{Value, json};

use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::respond;
use crate::read::facts::country_text;

/// Values with their firearm counts, most frequent first, then by value.
fn counted<'a>(values: impl Iterator<Item = (&'a str, usize)>) -> Vec<Value> {
    let mut counts: Vec<(&str, usize)> = values.collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts.into_iter().map(|(value, count)| json!({ "value": value, "count": count })).collect()
}

/// The smallest and largest known value of positions `ascending` (sorted by the value, or by a
/// rounding of it that keeps the order, as the packed f32 facts do), exactly as `value` states it.
fn range(ascending: &[u32], value: impl Fn(usize) -> Option<f64>) -> Value {
    // A rounding that keeps the order puts the exact extreme within the first (last) run of
    // positions whose rounded values are equal.
    let extreme = |run: &mut dyn Iterator<Item = &u32>, pick: fn(f64, f64) -> f64| {
        let mut run = run.filter_map(|&at| value(at as usize));
        let first = run.next()?;
        Some(run.take_while(|v| *v as f32 == first as f32).fold(first, pick))
    };
    json!({ "min": extreme(&mut ascending.iter(), f64::min), "max": extreme(&mut ascending.iter().rev(), f64::max) })
}

/// Every filter of GET /v1/firearms with the values it accepts and how many firearms each
/// matches; numeric filters give the known range.
#[utoipa::path(get, path = "/v1/firearms/filter-options", tag = "Firearms",
    responses((status = 200, body = schemas::FilterOptionsResponse)))]
pub async fn filter_options(snapshot: CurrentSnapshot) -> Response {
    // Read off the list's per-filter sets and sort orders, not the records: at 100,000 firearms
    // counting over every record took about 120 ms a request.
    let (catalog, read) = (&snapshot.catalog, &snapshot.read);
    let counts = read.list.value_counts();
    let firearms = &catalog.firearms;
    let has_3d_model = [("false", counts.has_3d_model[0]), ("true", counts.has_3d_model[1])];
    let data = json!({
        "manufacturer": ids(&counts.manufacturer, |at| catalog.manufacturers[at].id.as_str()),
        "category": ids(&counts.category, |at| catalog.categories[at].id.as_str()),
        "caliber": ids(&counts.caliber, |at| catalog.calibers[at].id.as_str()),
        "action_type": ids(&counts.action, |at| ACTION_TYPES[at]),
        "country_of_origin": counted(counts.country.iter().filter_map(|(code, n)| Some((country_text(code)?, *n)))),
        "status": ids(&counts.status, |at| FIREARM_STATUSES[at]),
        "has_3d_model": counted(has_3d_model.into_iter().filter(|(_, count)| *count > 0)),
        "year_introduced": range(read.orders.year.known(), |at| firearms[at].year_introduced.map(|y| y as f64)),
        "weight": range(read.orders.weight.known(), |at| firearms[at].weight_empty_g),
        "barrel_length": range(read.list.by_barrel_length(), |at| firearms[at].barrel_length_mm),
    });
    respond::one(data)
}

/// Values named by their index (`id`), with their counts, as `counted` lists them.
fn ids<'a>(values: &[(usize, usize)], id: impl Fn(usize) -> &'a str) -> Vec<Value> {
    counted(values.iter().map(|&(at, count)| (id(at), count)))
}

/// The action types in the catalog with their firearm counts, most frequent first.
#[utoipa::path(get, path = "/v1/firearms/action-types", tag = "Firearms",
    responses((status = 200, body = schemas::ActionTypesResponse)))]
pub async fn action_types(snapshot: CurrentSnapshot) -> Response {
    let counts = snapshot.read.list.value_counts();
    let data: Vec<Value> = ids(&counts.action, |at| ACTION_TYPES[at])
        .into_iter()
        .map(|v| json!({ "actionType": v["value"], "count": v["count"] }))
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
        assert_eq!(range, json!({ "min": 100.000_000_1, "max": 900.000_000_1 }));
        assert_eq!(super::range(&[], |at| values[at]), json!({ "min": null, "max": null }));
    }
}
