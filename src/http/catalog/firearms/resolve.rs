//! Resolving free text to firearm ids: one query (GET, 6) or a batch of up to 50 (POST, 7).

use axum::response::Response;
use serde::Deserialize;

use crate::http::catalog::firearms::search::{MAX_QUERY_CHARS, Q};
use crate::http::edge::body_limit::ApiJson;
use crate::http::extract::query::{Declared, Kind, Params, QueryParams, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::resolve;
use crate::read::resolve::Resolution;

/// At most this many queries in one batch.
pub const MAX_BATCH: usize = 50;

pub struct ResolveQuery {
    q: String,
}

impl QueryParams for ResolveQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&Q];
    fn read(params: &mut Params) -> Self {
        Self { q: params.get(&Q).unwrap_or_default() }
    }
}

crate::query_params_doc!(ResolveQuery);

/// The firearm `q` most likely names, with a confidence from 0 to 1 (1: the query is the name or
/// an alternate name, punctuation and case aside; the Dice coefficient of query and name tokens,
/// a typo counting 0.8) and up to four alternatives. Below the confidence floor of 0.6 nothing is
/// a match: id and name are null and confidence is 0, and the nearest candidates stay as
/// alternatives.
#[utoipa::path(get, path = "/v1/firearms/resolve", tag = "Firearms",
    params(ResolveQuery),
    responses((status = 200, body = schemas::One<Resolution>)))]
pub async fn resolve_one(
    snapshot: CurrentSnapshot,
    Valid(ResolveQuery { q }): Valid<ResolveQuery>,
) -> Result<Response, ApiError> {
    Ok(respond::one(resolve::one(&snapshot, &q)?))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ResolveBatch {
    /// 1 to 50 queries, each 1 to 200 characters.
    #[schema(schema_with = queries_schema)]
    pub queries: Vec<String>,
}

/// The batch as the server checks it: 1 to 50 queries, each text as `q` of the single resolve.
fn queries_schema() -> utoipa::openapi::Schema {
    utoipa::openapi::ArrayBuilder::new()
        .items(utoipa::openapi::RefOr::T(Q.kind.schema()))
        .min_items(Some(1))
        .max_items(Some(MAX_BATCH))
        .into()
}

/// One resolution per query, in the order sent.
#[utoipa::path(post, path = "/v1/firearms/resolve", tag = "Firearms",
    request_body = ResolveBatch,
    responses((status = 200, body = schemas::One<Vec<Resolution>>), (status = 413, body = crate::http::openapi::ErrorEnvelope)))]
pub async fn resolve_batch(
    snapshot: CurrentSnapshot,
    ApiJson(batch): ApiJson<ResolveBatch>,
) -> Result<Response, ApiError> {
    if batch.queries.is_empty() || batch.queries.len() > MAX_BATCH {
        return Err(ApiError::invalid_parameter("queries", format!("must hold 1 to {MAX_BATCH} queries")));
    }
    if let Some(i) =
        batch.queries.iter().position(|q| !(1..=MAX_QUERY_CHARS).contains(&q.trim().chars().count()))
    {
        return Err(ApiError::invalid_parameter(
            &format!("queries[{i}]"),
            format!("must be 1 to {MAX_QUERY_CHARS} characters"),
        ));
    }
    Ok(respond::one(resolve::batch(&snapshot, &batch.queries)?))
}
