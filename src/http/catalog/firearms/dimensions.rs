//! GET /v1/firearms/{id}/dimensions: a firearm's sizes and weights in metric and imperial units (operation 29).

use axum::response::Response;

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::dimensions::{self, Dimensions};

/// Each dimension with its metric and imperial value (null when unknown), unit conversions
/// exact to two decimals: millimetres to inches (÷ 25.4), grams to pounds (÷ 453.59237).
#[utoipa::path(get, path = "/v1/firearms/{id}/dimensions", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<Dimensions>)))]
pub async fn dimensions(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(dimensions::of_firearm(&snapshot, &id)?))
}
