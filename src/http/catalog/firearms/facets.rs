//! Catalog-wide helpers of the firearm list: the filter options with counts and ranges (operation 8)
//! and the action types in use (operation 9).

use std::collections::BTreeMap;

use axum::response::Response;
use serde_json::{Value, json};

use crate::http::catalog::firearms::list::has_3d_model;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::respond;

/// Values with their firearm counts, most frequent first, then by value.
fn counted<'a>(values: impl Iterator<Item = &'a str>) -> Vec<Value> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for value in values {
        *counts.entry(value).or_default() += 1;
    }
    let mut counts: Vec<(&str, usize)> = counts.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts.into_iter().map(|(value, count)| json!({ "value": value, "count": count })).collect()
}

/// The smallest and largest known value.
fn range(values: impl Iterator<Item = f64>) -> Value {
    let (min, max) = values.fold((None::<f64>, None::<f64>), |(lo, hi), v| {
        (Some(lo.map_or(v, |l| l.min(v))), Some(hi.map_or(v, |h| h.max(v))))
    });
    json!({ "min": min, "max": max })
}

/// Every filter of GET /v1/firearms with the values it accepts and how many firearms each
/// matches; numeric filters give the known range.
#[utoipa::path(get, path = "/v1/firearms/filter-options", tag = "Firearms",
    responses((status = 200, body = schemas::FilterOptionsResponse)))]
pub async fn filter_options(snapshot: CurrentSnapshot) -> Response {
    let firearms = &snapshot.catalog.firearms;
    let data = json!({
        "manufacturer": counted(firearms.iter().map(|f| f.manufacturer_id.as_str())),
        "category": counted(firearms.iter().map(|f| f.category_id.as_str())),
        "caliber": counted(firearms.iter().flat_map(|f| f.calibers.iter().map(|c| c.caliber_id.as_str()))),
        "action_type": counted(firearms.iter().filter_map(|f| f.action_type.as_deref())),
        "country_of_origin": counted(firearms.iter().filter_map(|f| f.country_of_origin.as_deref())),
        "status": counted(firearms.iter().filter_map(|f| f.status.as_deref())),
        "has_3d_model": counted(firearms.iter().map(|f| if has_3d_model(f) { "true" } else { "false" })),
        "year_introduced": range(firearms.iter().filter_map(|f| f.year_introduced.map(|y| y as f64))),
        "weight": range(firearms.iter().filter_map(|f| f.weight_empty_g)),
        "barrel_length": range(firearms.iter().filter_map(|f| f.barrel_length_mm)),
    });
    respond::one(data)
}

/// The action types in the catalog with their firearm counts, most frequent first.
#[utoipa::path(get, path = "/v1/firearms/action-types", tag = "Firearms",
    responses((status = 200, body = schemas::ActionTypesResponse)))]
pub async fn action_types(snapshot: CurrentSnapshot) -> Response {
    let data: Vec<Value> = counted(snapshot.catalog.firearms.iter().filter_map(|f| f.action_type.as_deref()))
        .into_iter()
        .map(|v| json!({ "actionType": v["value"], "count": v["count"] }))
        .collect();
    respond::one(data)
}
