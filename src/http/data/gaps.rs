//! 94 the gaps (per resource and field, how many records lack it; no key) and 95 the records
//! behind one (Enterprise, paged).

use axum::response::Response;

use super::{FIELD, RESOURCE, with_quality};
use crate::access::paging::Paging;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::quality;

/// Per resource (firearms, manufacturers, calibers, ammunition, interfaces, attachments,
/// platforms) and per optional field, how many records lack a value, and their share.
#[utoipa::path(get, path = "/v1/data/gaps", tag = "Data quality", security(()),
    responses((status = 200, body = schemas::One<quality::DataGaps>)))]
pub async fn gaps(CurrentSnapshot(snapshot): CurrentSnapshot) -> Result<Response, ApiError> {
    let snapshot = with_quality(snapshot).await?;
    Ok(respond::one(quality::gaps(snapshot.quality())))
}

pub struct GapQuery {
    resource: Option<String>,
    field: Option<String>,
}

const REQUIRED_RESOURCE: QueryParam<kind::OneOf> = RESOURCE.required();

impl QueryParams for GapQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&REQUIRED_RESOURCE, &FIELD];
    fn read(params: &mut Params) -> Self {
        Self { resource: params.get(&REQUIRED_RESOURCE), field: params.get(&FIELD) }
    }
}

crate::query_params_doc!(GapQuery);

/// The records of `resource` that lack `field` (without `field`: that lack any field), in id
/// order, each with every field it lacks. A field the resource does not have is 400 naming the
/// resource's fields.
#[utoipa::path(get, path = "/v1/data/gaps/records", tag = "Data quality", params(GapQuery),
    responses((status = 200, body = schemas::Page<quality::GapRecord>)))]
pub async fn records(
    CurrentSnapshot(snapshot): CurrentSnapshot,
    Valid(GapQuery { resource, field }): Valid<GapQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let resource = resource.expect("a required parameter is present once valid");
    let snapshot = with_quality(snapshot).await?;
    let (page, total) = quality::gap_records(
        snapshot.quality(),
        &resource,
        field.as_deref(),
        paging.offset(),
        paging.per_page as usize,
    )?;
    Ok(respond::paged(page, paging.pagination(total as u64)))
}
