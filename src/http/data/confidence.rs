//! 96: records by dataConfidence (Enterprise, paged).

use axum::response::Response;

use super::{RESOURCE, with_quality};
use crate::access::paging::Paging;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::quality;

const BELOW: QueryParam<kind::Decimal> = QueryParam::new(
    "below",
    kind::Decimal { min: 0.0, max: 1.0 },
    "only records whose dataConfidence is below this (records with none are always listed)",
);

pub struct ConfidenceQuery {
    resource: Option<String>,
    below: Option<f64>,
}

impl QueryParams for ConfidenceQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&RESOURCE, &BELOW];
    fn read(params: &mut Params) -> Self {
        Self { resource: params.get(&RESOURCE), below: params.get(&BELOW) }
    }
}

crate::query_params_doc!(ConfidenceQuery);

/// Records of every resource (or of `resource`), least confident first: those with no recorded
/// dataConfidence, then ascending, ties by resource and id; with `below`, only those under it.
/// Each with its strongest source kind and when a source was last checked against it.
#[utoipa::path(get, path = "/v1/data/confidence", tag = "Data quality", params(ConfidenceQuery),
    responses((status = 200, body = schemas::Page<quality::ConfidenceRecord>)))]
pub async fn confidence(
    CurrentSnapshot(snapshot): CurrentSnapshot,
    Valid(ConfidenceQuery { resource, below }): Valid<ConfidenceQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let snapshot = with_quality(snapshot).await?;
    let (page, total) = quality::confidence(
        snapshot.quality(),
        resource.as_deref(),
        below,
        paging.offset(),
        paging.per_page as usize,
    )?;
    Ok(respond::paged(page, paging.pagination(total as u64)))
}
