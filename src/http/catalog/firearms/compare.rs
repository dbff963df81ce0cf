//! GET /v1/firearms/compare: up to five details side by side.

use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::http::ApiError;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::read::query::firearms;
use crate::read::views::View;

/// At most this many firearms are compared at once.
pub const MAX_COMPARED: usize = 5;

const IDS: QueryParam<kind::IdList> =
    QueryParam::new("ids", kind::IdList { max: MAX_COMPARED }, "1 to 5 comma-separated firearm ids")
        .required();

pub struct CompareQuery {
    ids: Vec<String>,
}

impl QueryParams for CompareQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&IDS];
    fn read(params: &mut Params) -> Self {
        Self { ids: params.get(&IDS).unwrap_or_default() }
    }
}

crate::query_params_doc!(CompareQuery);

/// The details of 1 to 5 firearms, in the order asked, each with provenance. Every unknown id is
/// named in the 404 (`details.missing`).
#[utoipa::path(get, path = "/v1/firearms/compare", tag = "Firearms", params(CompareQuery),
    responses((status = 200, body = schemas::One<Vec<schemas::FirearmDetail>>)))]
pub async fn compare(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(CompareQuery { ids }): Valid<CompareQuery>,
) -> Result<Response, ApiError> {
    Ok(firearms::compare(&snapshot, &ids, View::of(caller.plan))?.into_response())
}
