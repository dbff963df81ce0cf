//! GET /v1/firearms/{id}/similar: the firearms most like one, by a documented score (operation 31).

use axum::response::Response;

use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::similar::{self, SimilarFirearm};

const LIMIT: QueryParam<kind::Int> =
    QueryParam::new("limit", kind::Int { min: 1, max: 25 }, "how many: 1 to 25, default 10");

pub struct SimilarQuery {
    limit: usize,
}

impl QueryParams for SimilarQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&LIMIT];
    fn read(params: &mut Params) -> Self {
        Self { limit: params.get(&LIMIT).unwrap_or(10) as usize }
    }
}

crate::query_params_doc!(SimilarQuery);

/// The firearms most like this one (see `similarity` in the description of the score), best
/// first; `limit` 1 to 25, default 10.
#[utoipa::path(get, path = "/v1/firearms/{id}/similar", tag = "Firearms",
    params(("id" = String, Path), SimilarQuery),
    responses((status = 200, body = schemas::One<Vec<SimilarFirearm>>)),
    description = "Score 0 to 1: same category 0.3, a shared cartridge 0.3, same action 0.2, and 0.2 × closeness of \
        empty weight, barrel length, overall length and muzzle energy (1 − mean |a − b| / max(a, b) over the known pairs).")]
pub async fn similar(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
    Valid(SimilarQuery { limit }): Valid<SimilarQuery>,
) -> Result<Response, ApiError> {
    Ok(respond::one(similar::to_firearm(&snapshot, &id, limit)?))
}
