//! GET /v1/blog and /v1/blog/{slug}.

use axum::extract::State;
use axum::response::Response;

use crate::access::paging::Paging;
use crate::catalog::vocabulary::BLOG_CATEGORIES;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::content::{BlogPostDetail, BlogPostItem};
use crate::read::query::content;

const CATEGORY: QueryParam<kind::OneOf> =
    QueryParam::new("category", kind::OneOf(BLOG_CATEGORIES), "only posts of this category");

pub struct BlogQuery {
    category: Option<String>,
}

impl QueryParams for BlogQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CATEGORY];
    fn read(params: &mut Params) -> Self {
        Self { category: params.get(&CATEGORY) }
    }
}

crate::query_params_doc!(BlogQuery);

/// The published blog posts, newest first, without their bodies.
#[utoipa::path(get, path = "/v1/blog", tag = "Content", security(()), params(BlogQuery),
    responses((status = 200, body = schemas::Page<BlogPostItem>)))]
pub async fn list(
    State(state): State<AppState>,
    Valid(BlogQuery { category }): Valid<BlogQuery>,
    paging: Paging,
) -> Response {
    let published = state.content.current();
    let (posts, pagination) = content::blog(&published, category.as_deref(), &paging);
    respond::paged(posts, pagination)
}

/// One published post with its body as Markdown and as sanitised HTML.
#[utoipa::path(get, path = "/v1/blog/{slug}", tag = "Content", security(()),
    params(("slug" = String, Path, description = "the post's slug (^[a-z0-9-]+$)")),
    responses((status = 200, body = schemas::One<BlogPostDetail>)))]
pub async fn post(
    State(state): State<AppState>,
    ValidPath(slug): ValidPath<String>,
) -> Result<Response, ApiError> {
    let published = state.content.current();
    Ok(respond::one(content::blog_post(&published, &slug)?))
}
