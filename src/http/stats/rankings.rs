//! Most-first lists: 75 cartridges and 76 makers by number of firearms, 82 action types and 83
//! features by frequency, the last three optionally within one `category`. Ties break by id
//! (cartridges, makers) or by name (action types, features), so an answer never shuffles.

use axum::response::Response;

use super::CATEGORY;
use crate::access::paging::Limit;
use crate::http::extract::query::{Declared, Params, QueryParams, Valid};
use crate::http::extract::snapshot::SnapshotWithFigures;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::statistics;

/// Cartridges by the number of firearms chambered for them (a firearm counts once per
/// cartridge it lists, primary or not), most first.
#[utoipa::path(get, path = "/v1/stats/calibers/popular", tag = "Statistics",
    responses((status = 200, body = schemas::One<Vec<statistics::CaliberCount>>)))]
pub async fn popular_calibers(snapshot: SnapshotWithFigures, Limit(limit): Limit) -> Response {
    respond::one(statistics::popular_calibers(&snapshot, limit))
}

pub struct CategoryQuery {
    category: Option<String>,
}

impl QueryParams for CategoryQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CATEGORY];
    fn read(params: &mut Params) -> Self {
        Self { category: params.get(&CATEGORY) }
    }
}

crate::query_params_doc!(CategoryQuery);

/// Manufacturers by the number of firearms they make (within `category` when given), most first.
#[utoipa::path(get, path = "/v1/stats/manufacturers/prolific", tag = "Statistics", params(CategoryQuery),
    responses((status = 200, body = schemas::One<Vec<statistics::ManufacturerCount>>)))]
pub async fn prolific_manufacturers(
    snapshot: SnapshotWithFigures,
    Valid(CategoryQuery { category }): Valid<CategoryQuery>,
    Limit(limit): Limit,
) -> Result<Response, ApiError> {
    Ok(respond::one(statistics::prolific_manufacturers(&snapshot, category.as_deref(), limit)?))
}

/// How often each action type occurs (within `category` when given), with its share of the
/// firearms considered; firearms without an action type are counted in `unknown`.
#[utoipa::path(get, path = "/v1/stats/action-types", tag = "Statistics", params(CategoryQuery),
    responses((status = 200, body = schemas::One<statistics::ActionTypes>)))]
pub async fn action_types(
    snapshot: SnapshotWithFigures,
    Valid(CategoryQuery { category }): Valid<CategoryQuery>,
) -> Result<Response, ApiError> {
    Ok(respond::one(statistics::action_types(&snapshot, category.as_deref())?))
}

/// Features (compared in lower case) by the number of firearms listing them (within `category`
/// when given), most first, with the share of the firearms considered.
#[utoipa::path(get, path = "/v1/stats/feature-frequency", tag = "Statistics", params(CategoryQuery),
    responses((status = 200, body = schemas::One<Vec<statistics::FeatureCount>>)))]
pub async fn feature_frequency(
    snapshot: SnapshotWithFigures,
    Valid(CategoryQuery { category }): Valid<CategoryQuery>,
    Limit(limit): Limit,
) -> Result<Response, ApiError> {
    Ok(respond::one(statistics::feature_frequency(&snapshot, category.as_deref(), limit)?))
}
