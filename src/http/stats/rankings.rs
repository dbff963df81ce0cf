//! Most-first lists: 75 cartridges and 76 makers by number of firearms, 82 action types and 83
//! features by frequency, the last three optionally within one `category`. Ties break by id
//! (cartridges, makers) or by name (action types, features), so an answer never shuffles.

use axum::response::Response;
use serde_json::{Value, json};

use super::CATEGORY;
use crate::access::paging::Limit;
use crate::http::extract::query::{Params, QueryParam, QueryParams, Valid};
use crate::http::extract::snapshot::SnapshotWithFigures;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::statistics::share;

/// Cartridges by the number of firearms chambered for them (a firearm counts once per
/// cartridge it lists, primary or not), most first.
#[utoipa::path(get, path = "/v1/stats/calibers/popular", tag = "Statistics",
    responses((status = 200, body = schemas::One<Vec<schemas::CaliberCount>>)))]
pub async fn popular_calibers(snapshot: SnapshotWithFigures, Limit(limit): Limit) -> Response {
    let rows: Vec<Value> = snapshot.statistics().frequencies.calibers[..]
        .iter()
        .take(limit)
        .map(|&(at, count)| {
            let caliber = &snapshot.catalog.calibers[at];
            json!({ "caliber": { "id": caliber.id, "name": caliber.name }, "firearmCount": count })
        })
        .collect();
    respond::one(rows)
}

pub struct CategoryQuery {
    category: Option<String>,
}

impl QueryParams for CategoryQuery {
    const PARAMS: &'static [QueryParam] = &[CATEGORY];
    fn read(params: &mut Params) -> Self {
        Self { category: params.slug(&CATEGORY) }
    }
}

crate::query_params_doc!(CategoryQuery);

/// Manufacturers by the number of firearms they make (within `category` when given), most first.
#[utoipa::path(get, path = "/v1/stats/manufacturers/prolific", tag = "Statistics", params(CategoryQuery),
    responses((status = 200, body = schemas::One<Vec<schemas::ManufacturerCount>>)))]
pub async fn prolific_manufacturers(
    snapshot: SnapshotWithFigures,
    Valid(CategoryQuery { category }): Valid<CategoryQuery>,
    Limit(limit): Limit,
) -> Result<Response, ApiError> {
    let category = snapshot.category_filter(CATEGORY.name, category.as_deref())?;
    let rows: Vec<Value> = snapshot
        .statistics()
        .frequencies
        .manufacturers
        .get(category)
        .iter()
        .take(limit)
        .map(|&(at, count)| {
            let maker = &snapshot.catalog.manufacturers[at];
            json!({
                "manufacturer": { "id": maker.id, "name": maker.name, "countryCode": maker.country_code },
                "firearmCount": count,
            })
        })
        .collect();
    Ok(respond::one(rows))
}

/// How often each action type occurs (within `category` when given), with its share of the
/// firearms considered; firearms without an action type are counted in `unknown`.
#[utoipa::path(get, path = "/v1/stats/action-types", tag = "Statistics", params(CategoryQuery),
    responses((status = 200, body = schemas::One<schemas::StatsActionTypes>)))]
pub async fn action_types(
    snapshot: SnapshotWithFigures,
    Valid(CategoryQuery { category }): Valid<CategoryQuery>,
) -> Result<Response, ApiError> {
    let category = snapshot.category_filter(CATEGORY.name, category.as_deref())?;
    let frequencies = &snapshot.statistics().frequencies;
    let total = frequencies.firearms_in(category, snapshot.catalog.firearms.len());
    let counted = frequencies.action_types.get(category);
    let known: usize = counted.iter().map(|(_, count)| count).sum();
    let rows: Vec<Value> = counted
        .iter()
        .map(|(action, count)| json!({ "actionType": action, "count": count, "share": share(*count, total) }))
        .collect();
    Ok(respond::one(json!({ "total": total, "actionTypes": rows, "unknown": total - known })))
}

/// Features (compared in lower case) by the number of firearms listing them (within `category`
/// when given), most first, with the share of the firearms considered.
#[utoipa::path(get, path = "/v1/stats/feature-frequency", tag = "Statistics", params(CategoryQuery),
    responses((status = 200, body = schemas::One<Vec<schemas::FeatureCount>>)))]
pub async fn feature_frequency(
    snapshot: SnapshotWithFigures,
    Valid(CategoryQuery { category }): Valid<CategoryQuery>,
    Limit(limit): Limit,
) -> Result<Response, ApiError> {
    let category = snapshot.category_filter(CATEGORY.name, category.as_deref())?;
    let frequencies = &snapshot.statistics().frequencies;
    let total = frequencies.firearms_in(category, snapshot.catalog.firearms.len());
    let rows: Vec<Value> = frequencies
        .features
        .get(category)
        .iter()
        .take(limit)
        .map(|(feature, count)| json!({ "feature": feature, "count": count, "share": share(*count, total) }))
        .collect();
    Ok(respond::one(rows))
}
