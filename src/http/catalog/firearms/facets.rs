//! Catalog-wide helpers of the firearm list: the filter options with counts and ranges (operation 8)
//! and the action types in use (operation 9).

use axum::response::{IntoResponse, Response};

use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::respond;
use crate::read::query::facets::{self, ActionTypeCount, FilterOptions};

/// Every filter of GET /v1/firearms with the values it accepts and how many firearms each
/// matches; numeric filters give the known range.
#[utoipa::path(get, path = "/v1/firearms/filter-options", tag = "Firearms",
    responses((status = 200, body = schemas::One<FilterOptions>)))]
pub async fn filter_options(snapshot: CurrentSnapshot) -> Response {
    facets::filter_options(&snapshot).into_response()
}

/// The action types in the catalog with their firearm counts, most frequent first.
#[utoipa::path(get, path = "/v1/firearms/action-types", tag = "Firearms",
    responses((status = 200, body = schemas::One<Vec<ActionTypeCount>>)))]
pub async fn action_types(snapshot: CurrentSnapshot) -> Response {
    respond::one(facets::action_types(&snapshot))
}
