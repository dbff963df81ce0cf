//! GET /v1/changelog, /v1/changelog/{id} and /v1/changelog/feed.

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::access::paging::Paging;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::content::ChangelogItem;
use crate::read::query::content;

const CATEGORY: QueryParam<kind::OneOf> = QueryParam::new(
    "category",
    kind::OneOf(content::CHANGELOG_CATEGORY_FILTER),
    "only entries of this category (`fix` is read as `bugfix`, as the GunSpec client spells it)",
);

pub struct ChangelogQuery {
    category: Option<String>,
}

impl QueryParams for ChangelogQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CATEGORY];
    fn read(params: &mut Params) -> Self {
        Self { category: params.get(&CATEGORY) }
    }
}

crate::query_params_doc!(ChangelogQuery);

/// The changelog, newest first: every change to the API and its catalog, with its category,
/// date and description (Markdown and sanitised HTML).
#[utoipa::path(get, path = "/v1/changelog", tag = "Content", security(()), params(ChangelogQuery),
    responses((status = 200, body = schemas::Page<ChangelogItem>)))]
pub async fn list(
    State(state): State<AppState>,
    Valid(ChangelogQuery { category }): Valid<ChangelogQuery>,
    paging: Paging,
) -> Response {
    let published = state.content.current();
    let (entries, pagination) = content::changelog(&published, category.as_deref(), &paging);
    respond::paged(entries, pagination)
}

/// One changelog entry.
#[utoipa::path(get, path = "/v1/changelog/{id}", tag = "Content", security(()),
    params(("id" = String, Path, description = "the entry's id (^[a-z0-9-]+$)")),
    responses((status = 200, body = schemas::One<ChangelogItem>)))]
pub async fn entry(
    State(state): State<AppState>,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let published = state.content.current();
    Ok(respond::one(content::changelog_entry(&published, &id)?))
}

/// The changelog as an Atom 1.0 feed (`application/atom+xml`): one entry per change, newest first,
/// each with an id that never changes, its category and its description as HTML.
#[utoipa::path(get, path = "/v1/changelog/feed", tag = "Content", security(()),
    responses((status = 200, content_type = "application/atom+xml", body = String,
        description = "an Atom 1.0 feed document")))]
pub async fn feed(State(state): State<AppState>) -> Result<Response, ApiError> {
    let published = state.content.current();
    let mut response = content::changelog_feed(&published)?.into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/atom+xml; charset=utf-8"));
    Ok(response)
}
