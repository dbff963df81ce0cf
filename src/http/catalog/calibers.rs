//! /v1/calibers: cartridges, their firearms and loads, and their lineage (operations 46 to 52).

use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::catalog::model::Caliber;
use crate::catalog::vocabulary::{CARTRIDGE_TYPES, PRIMER_TYPES};
use crate::http::catalog::firearms::sub_list;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, ORDER, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::list_index::Filters;
use crate::read::query;
use crate::read::rendered::record_json;
use crate::read::views::View;

/// A caliber's firearms.
pub const CALIBER_FIREARM_ITEM: &[&str] =
    &["id", "name", "manufacturerId", "categoryId", "yearIntroduced", "status", "actionType"];

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
    let mut calibers: Vec<&Caliber> = snapshot
        .aggregates()
        .calibers_by_name
        .iter()
        .map(|&at| &snapshot.catalog.calibers[at])
        .filter(|c| cartridge_type.as_ref().is_none_or(|t| c.cartridge_type.as_ref() == Some(t)))
        .filter(|c| primer_type.as_ref().is_none_or(|t| c.primer_type.as_ref() == Some(t)))
        .collect();
    if descending {
        calibers.reverse();
    }
    let (page, pagination) = paging.slice(&calibers);
    let view = View::of(caller.plan);
    let data: Vec<Value> =
        page.iter().map(|c| record_json::caliber_item(c, &snapshot.meta("calibers", &c.id), view)).collect();
    Ok(respond::paged(data, pagination))
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
    let (at, _) = snapshot.caliber(&id)?;
    let chambered = Filters { caliber: Some(at as u32), ..Filters::default() };
    Ok(sub_list(&snapshot, &paging, chambered, CALIBER_FIREARM_ITEM).into_response())
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

fn link(caliber: &Caliber) -> Value {
    json!({ "id": caliber.id, "name": caliber.name, "parentCartridgeId": caliber.parent_cartridge_id,
            "yearIntroduced": caliber.year_introduced, "cartridgeType": caliber.cartridge_type })
}

/// The cartridge, then its parent, and so on up to the root (parentCartridgeId).
#[utoipa::path(get, path = "/v1/calibers/{id}/parent-chain", tag = "Calibers",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<schemas::ParentChain>)))]
pub async fn parent_chain(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let (at, _) = snapshot.caliber(&id)?;
    let chain: Vec<Value> = snapshot
        .aggregates()
        .parent_chain(at)
        .into_iter()
        .map(|at| link(&snapshot.catalog.calibers[at]))
        .collect();
    let root = chain.last().map(|r| r["id"].clone());
    Ok(respond::one(json!({ "id": id, "rootId": root, "chain": chain })))
}

/// The cartridge's parent, siblings (same parent) and children, by name.
#[utoipa::path(get, path = "/v1/calibers/{id}/family", tag = "Calibers",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<schemas::CaliberFamily>)))]
pub async fn family(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let me = snapshot.caliber(&id)?.1;
    let all = &snapshot.catalog.calibers;
    let by_name = |mut list: Vec<&Caliber>| {
        list.sort_by_key(|c| c.name.to_lowercase());
        list.into_iter().map(link).collect::<Vec<_>>()
    };
    let parent =
        me.parent_cartridge_id.as_ref().and_then(|p| snapshot.caliber_position(p)).map(|i| link(&all[i]));
    let siblings = match &me.parent_cartridge_id {
        Some(p) => by_name(
            all.iter().filter(|c| c.id != me.id && c.parent_cartridge_id.as_ref() == Some(p)).collect(),
        ),
        None => vec![],
    };
    let children = by_name(all.iter().filter(|c| c.parent_cartridge_id.as_ref() == Some(&me.id)).collect());
    Ok(respond::one(
        json!({ "caliber": link(me), "parent": parent, "siblings": siblings, "children": children }),
    ))
}
