//! /v1/ammunition: factory and military loads (operations 56 and 57).

use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::access::paging::Paging;
use crate::catalog::vocabulary::BULLET_TYPES;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::aggregates::LoadFacts;
use crate::read::facts::vocabulary_index;
use crate::read::rendered::record_json::AmmunitionItem;
use crate::read::snapshot::Snapshot;

/// The positions of the loads whose facts pass `keep` (of the caliber at `caliber` only, when
/// given), by name.
fn sorted(snapshot: &Snapshot, caliber: Option<usize>, keep: impl Fn(&LoadFacts) -> bool) -> Vec<usize> {
    let aggregates = snapshot.aggregates();
    let loads: Box<dyn Iterator<Item = usize>> = match caliber {
        Some(caliber) => Box::new(aggregates.ammunition_by_caliber[caliber].iter().map(|&at| at as usize)),
        None => Box::new(aggregates.ammunition_by_name.iter().copied()),
    };
    loads.filter(|&at| keep(&aggregates.load_facts[at])).collect()
}

/// A page of the loads that pass `keep` (see `sorted`), each decoded and served as lists serve it.
pub fn page(
    snapshot: &Snapshot,
    paging: &Paging,
    caliber: Option<usize>,
    keep: impl Fn(&LoadFacts) -> bool,
) -> Response {
    let loads = sorted(snapshot, caliber, keep);
    let (page, pagination) = paging.slice(&loads);
    let items = snapshot.ammunition_items();
    respond::paged_raw(
        page.len(),
        |i, body| items.with(page[i], || item_text(snapshot, page[i]), |kept| kept.append_to(body)),
        pagination,
    )
}

/// The list item of the load at `at`, as JSON: decoded from the packed table and serialised,
/// which is why a page keeps them (`read::rendered::kept_texts`).
fn item_text(snapshot: &Snapshot, at: usize) -> String {
    let load = snapshot.catalog.ammunition.get(at);
    let meta = snapshot.meta("ammunition", &load.id);
    serde_json::to_string(&AmmunitionItem::of(&load, &meta)).expect("an ammunition item serialises")
}

const CALIBER_ID: QueryParam =
    QueryParam::new("caliber_id", Rule::Slug, "caliber id (404 when no caliber has it)");
const BULLET_TYPE: QueryParam = QueryParam::new("bullet_type", Rule::OneOf(BULLET_TYPES), "bullet type");
const IS_COMMON: QueryParam =
    QueryParam::new("is_common", Rule::Bool, "only common (true) or uncommon (false) loads");

pub struct AmmunitionQuery {
    caliber: Option<String>,
    bullet_type: Option<String>,
    is_common: Option<bool>,
}

impl QueryParams for AmmunitionQuery {
    const PARAMS: &'static [QueryParam] = &[CALIBER_ID, BULLET_TYPE, IS_COMMON];
    fn read(params: &mut Params) -> Self {
        Self {
            caliber: params.slug(&CALIBER_ID),
            bullet_type: params.one_of(&BULLET_TYPE),
            is_common: params.boolean(&IS_COMMON),
        }
    }
}

crate::query_params_doc!(AmmunitionQuery);

/// Ammunition loads by name; `caliber_id`, `bullet_type` and `is_common` filter.
#[utoipa::path(get, path = "/v1/ammunition", tag = "Ammunition", params(AmmunitionQuery),
    responses((status = 200, body = schemas::AmmunitionPage)))]
pub async fn list(
    snapshot: CurrentSnapshot,
    Valid(AmmunitionQuery { caliber, bullet_type, is_common }): Valid<AmmunitionQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let caliber = match &caliber {
        Some(c) => Some(snapshot.caliber_position(c).ok_or_else(|| {
            ApiError::not_found("caliber", c).with_details(json!({ "parameter": CALIBER_ID.name }))
        })?),
        None => None,
    };
    // A bullet type the parameter accepts is in the vocabulary, so its index stands for it.
    let bullet_type = bullet_type.map(|t| vocabulary_index(BULLET_TYPES, Some(&t)));
    Ok(page(&snapshot, &paging, caliber, |load| {
        bullet_type.is_none_or(|t| load.bullet_type == t)
            && is_common.is_none_or(|wanted| load.is_common.unwrap_or(false) == wanted)
    }))
}

/// One load with its cartridge and maker named, and provenance.
#[utoipa::path(get, path = "/v1/ammunition/{id}", tag = "Ammunition",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::AmmunitionResponse)))]
pub async fn detail(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let at = snapshot.ammunition_position(&id)?;
    Ok(snapshot.ammunition_detail(at).into_response())
}
