//! /v1/categories: the categories with firearm counts, one category, its firearms (53 to 55).

use axum::response::{IntoResponse, Response};

use crate::access::paging::Paging;
use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::categories::{self, CategoryWithCount};

/// Every category with its number of firearms.
#[utoipa::path(get, path = "/v1/categories", tag = "Categories",
    responses((status = 200, body = schemas::One<Vec<CategoryWithCount>>)))]
pub async fn list(snapshot: CurrentSnapshot) -> Response {
    respond::one(categories::list(&snapshot))
}

/// One category.
#[utoipa::path(get, path = "/v1/categories/{slug}", tag = "Categories",
    params(("slug" = String, Path)),
    responses((status = 200, body = schemas::One<CategoryWithCount>)))]
pub async fn detail(
    snapshot: CurrentSnapshot,
    ValidPath(slug): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(categories::detail(&snapshot, &slug)?))
}

/// A category's firearms, ordered by name.
#[utoipa::path(get, path = "/v1/categories/{slug}/firearms", tag = "Categories",
    params(("slug" = String, Path)),
    responses((status = 200, body = schemas::Page<schemas::CategoryFirearm>)))]
pub async fn firearms(
    snapshot: CurrentSnapshot,
    paging: Paging,
    ValidPath(slug): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(categories::firearms(&snapshot, &slug, &paging)?.into_response())
}
