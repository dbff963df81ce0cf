//! Catalog-wide helpers for a client UI: filter options with counts (8), action types (9) and a
//! random firearm (10).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::list::has_3d_model;
use crate::access::caller::Caller;
use crate::catalog::model::Firearm;
use crate::http::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::{ApiError, AppState, respond, schemas};
use crate::read::views::View;

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
pub async fn filter_options(State(state): State<AppState>) -> Response {
    let snapshot = state.catalog.current();
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
pub async fn action_types(State(state): State<AppState>) -> Response {
    let snapshot = state.catalog.current();
    let data: Vec<Value> = counted(snapshot.catalog.firearms.iter().filter_map(|f| f.action_type.as_deref()))
        .into_iter()
        .map(|v| json!({ "actionType": v["value"], "count": v["count"] }))
        .collect();
    respond::one(data)
}

const CATEGORY: QueryParam = QueryParam::new("category", Rule::Slug, "category id");
const COUNTRY: QueryParam =
    QueryParam::new("country", Rule::Country, "country of origin, ISO 3166-1 alpha-2");

pub struct RandomQuery {
    category: Option<String>,
    country: Option<String>,
}

impl QueryParams for RandomQuery {
    const PARAMS: &'static [QueryParam] = &[CATEGORY, COUNTRY];
    fn read(params: &mut Params) -> Self {
        Self { category: params.slug(&CATEGORY), country: params.country(&COUNTRY) }
    }
}

crate::query_params_doc!(RandomQuery);

/// One firearm picked at random, as a list item for the caller's plan; `category` and `country`
/// narrow the draw. 404 when nothing matches.
#[utoipa::path(get, path = "/v1/firearms/random", tag = "Firearms", params(RandomQuery),
    responses((status = 200, body = schemas::FirearmItemResponse)))]
pub async fn random(
    State(state): State<AppState>,
    caller: Caller,
    Valid(RandomQuery { category, country }): Valid<RandomQuery>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    let matching: Vec<(usize, &Firearm)> = snapshot
        .catalog
        .firearms
        .iter()
        .enumerate()
        .filter(|(_, f)| category.as_ref().is_none_or(|c| &f.category_id == c))
        .filter(|(_, f)| country.as_ref().is_none_or(|c| f.country_of_origin.as_ref() == Some(c)))
        .collect();
    if matching.is_empty() {
        return Err(ApiError::new(
            crate::http::Reason::ResourceNotFound,
            "No firearm matches these filters.",
        ));
    }
    let (at, _) = matching[rand::random_range(0..matching.len())];
    let forms = &snapshot.read.forms[at];
    let item = match View::of(caller.plan) {
        View::Summary => &forms.item,
        View::Full => &forms.full,
    };
    // A random answer is a new draw each time: no ETag, and caches must not keep it.
    let data: Value = serde_json::from_str(item).unwrap_or(Value::Null);
    let mut response = axum::Json(json!({ "success": true, "data": data })).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
