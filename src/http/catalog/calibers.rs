//! /v1/calibers: cartridges, their firearms and loads, and their lineage (operations 46 to 52).

use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::catalog::vocabulary::{CARTRIDGE_TYPES, PRIMER_TYPES};
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, ORDER, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query;
use crate::read::query::calibers::{self, CaliberFamily, CaliberFilter, ParentChain};
use crate::read::views::View;

const CARTRIDGE_TYPE: QueryParam<kind::OneOf> =
    QueryParam::new("cartridge_type", kind::OneOf(CARTRIDGE_TYPES), "cartridge type");
const PRIMER_TYPE: QueryParam<kind::OneOf> =
    QueryParam::new("primer_type", kind::OneOf(PRIMER_TYPES), "primer type");
const CALIBER_IDS: QueryParam<kind::IdList> =
    QueryParam::new("ids", kind::IdList { max: 5 }, "1 to 5 comma-separated caliber ids").required();

pub struct CaliberListQuery {
    cartridge_type: Option<String>,
    primer_type: Option<String>,
    descending: bool,
}

impl QueryParams for CaliberListQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&ORDER, &CARTRIDGE_TYPE, &PRIMER_TYPE];
    fn read(params: &mut Params) -> Self {
        Self {
            descending: params.descending(),
            cartridge_type: params.get(&CARTRIDGE_TYPE),
            primer_type: params.get(&PRIMER_TYPE),
        }
    }
}

pub struct CaliberCompareQuery {
    ids: Vec<String>,
}

impl QueryParams for CaliberCompareQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CALIBER_IDS];
    fn read(params: &mut Params) -> Self {
        Self { ids: params.get(&CALIBER_IDS).unwrap_or_default() }
    }
}

crate::query_params_doc!(CaliberListQuery, CaliberCompareQuery);

/// Cartridges by name; `cartridge_type` and `primer_type` filter.
#[utoipa::path(get, path = "/v1/calibers", tag = "Calibers", params(CaliberListQuery),
    responses((status = 200, body = schemas::Page<schemas::Caliber>)))]
pub async fn list(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(CaliberListQuery { cartridge_type, primer_type, descending }): Valid<CaliberListQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let filter = CaliberFilter { cartridge_type, primer_type };
    Ok(calibers::list(&snapshot, &filter, descending, &paging, View::of(caller.plan))?.into_response())
}

/// Up to five cartridges side by side, each with provenance; every unknown id is named in the 404.
#[utoipa::path(get, path = "/v1/calibers/compare", tag = "Calibers", params(CaliberCompareQuery),
    responses((status = 200, body = schemas::One<Vec<schemas::Caliber>>)))]
pub async fn compare(
    snapshot: CurrentSnapshot,
    Valid(CaliberCompareQuery { ids }): Valid<CaliberCompareQuery>,
) -> Result<Response, ApiError> {
    Ok(query::records::calibers(&snapshot, &ids)?.into_response())
}

/// One cartridge with provenance (specSource: the standard its figures come from).
#[utoipa::path(get, path = "/v1/calibers/{id}", tag = "Calibers",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<schemas::Caliber>)))]
pub async fn detail(
    snapshot: CurrentSnapshot,
    caller: Caller,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(query::records::caliber(&snapshot, &id, View::of(caller.plan))?.into_response())
}

/// The firearms chambered for this cartridge, by name.
#[utoipa::path(get, path = "/v1/calibers/{id}/firearms", tag = "Calibers",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::Page<schemas::FirearmListItem>, description = "{id, name, manufacturerId, categoryId, yearIntroduced, status, actionType}[] + pagination")))]
pub async fn firearms(
    snapshot: CurrentSnapshot,
    paging: Paging,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(calibers::firearms(&snapshot, &id, &paging)?.into_response())
}

/// The ammunition loads of this cartridge, by name.
#[utoipa::path(get, path = "/v1/calibers/{id}/ammunition", tag = "Calibers",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::Page<schemas::Ammunition>)))]
pub async fn ammunition(
    snapshot: CurrentSnapshot,
    paging: Paging,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(query::ammunition::of_caliber(&snapshot, &id, &paging)?.into_response())
}

/// The cartridge, then its parent, and so on up to the root (parentCartridgeId).
#[utoipa::path(get, path = "/v1/calibers/{id}/parent-chain", tag = "Calibers",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<ParentChain>)))]
pub async fn parent_chain(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(calibers::parent_chain(&snapshot, &id)?))
}

/// The cartridge's parent, siblings (same parent) and children, by name.
#[utoipa::path(get, path = "/v1/calibers/{id}/family", tag = "Calibers",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<CaliberFamily>)))]
pub async fn family(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(respond::one(calibers::family(&snapshot, &id)?))
}
