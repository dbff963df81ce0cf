//! GET /v1/firearms/search: ranked full-text search (see `read::search`).

use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::http::ApiError;
use crate::http::extract::query::{Declared, ORDER, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::read::query::search;
use crate::read::views::View;

/// The longest accepted query, in characters.
pub const MAX_QUERY_CHARS: usize = 200;

/// `q` of the search and of resolve: free text.
pub const Q: QueryParam<kind::Text> = QueryParam::new(
    "q",
    kind::Text { max: MAX_QUERY_CHARS },
    "free text, 1 to 200 characters, e.g. AK47 or glock 17 gen 5",
)
.required();

pub struct SearchQuery {
    q: String,
    descending: bool,
}

impl QueryParams for SearchQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&Q, &ORDER];
    fn read(params: &mut Params) -> Self {
        Self { q: params.get(&Q).unwrap_or_default(), descending: params.descending() }
    }
}

crate::query_params_doc!(SearchQuery);

/// Firearms matching `q`, most relevant first: name (weight 4), alternate names (3), manufacturer
/// (2), cartridge names and aliases (1.5), designer (1.5), description (0.5), ranked by BM25.
/// Punctuation and spacing do not matter ("ak47" finds AK-47). A word that the name, alternate
/// names or manufacturer do not hold as spelled matches there with one typo at 4 to 7 letters and
/// two from 8 ("kalashnikof"), or with a doubled letter written once ("berreta"); exact matches
/// rank first. `order=desc` lists the least relevant first.
#[utoipa::path(get, path = "/v1/firearms/search", tag = "Firearms",
    params(SearchQuery),
    responses((status = 200, body = schemas::Page<schemas::FirearmListItem>)))]
pub async fn search(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(SearchQuery { q, descending }): Valid<SearchQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    Ok(search::firearms(&snapshot, &q, descending, &paging, View::of(caller.plan))?.into_response())
}
