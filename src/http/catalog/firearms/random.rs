//! GET /v1/firearms/random: one firearm drawn at random, optionally from a category or country (operation 10).

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::http::ApiError;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::read::query::random;
use crate::read::rendered::One;
use crate::read::views::View;

const CATEGORY: QueryParam<kind::Slug> = QueryParam::new("category", kind::Slug, "category id");
const COUNTRY: QueryParam<kind::Country> =
    QueryParam::new("country", kind::Country, "country of origin, ISO 3166-1 alpha-2");

pub struct RandomQuery {
    category: Option<String>,
    country: Option<String>,
}

impl QueryParams for RandomQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CATEGORY, &COUNTRY];
    fn read(params: &mut Params) -> Self {
        Self { category: params.get(&CATEGORY), country: params.get(&COUNTRY) }
    }
}

crate::query_params_doc!(RandomQuery);

/// One firearm picked at random, as a list item for the caller's plan; `category` and `country`
/// narrow the draw. 404 when nothing matches.
#[utoipa::path(get, path = "/v1/firearms/random", tag = "Firearms", params(RandomQuery),
    responses((status = 200, body = schemas::One<schemas::FirearmListItem>)))]
pub async fn random(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(RandomQuery { category, country }): Valid<RandomQuery>,
) -> Result<Response, ApiError> {
    let view = View::of(caller.plan);
    let Some(data) = random::firearm(&snapshot, category.as_deref(), country.as_deref(), view) else {
        return Err(ApiError::new(
            crate::http::Reason::ResourceNotFound,
            "No firearm matches these filters.",
        ));
    };
    // A random answer is a new draw each time: no ETag, and caches must not keep it.
    let mut response = axum::Json(One { success: true, data }).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
