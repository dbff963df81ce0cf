//! /v1/ammunition: factory and military loads (operations 56 and 57).

use axum::response::{IntoResponse, Response};

use crate::access::paging::Paging;
use crate::catalog::vocabulary::BULLET_TYPES;
use crate::http::ApiError;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::read::query::ammunition::{self, LoadFilter};

const CALIBER_ID: QueryParam<kind::Slug> =
    QueryParam::new("caliber_id", kind::Slug, "caliber id (404 when no caliber has it)");
const BULLET_TYPE: QueryParam<kind::OneOf> =
    QueryParam::new("bullet_type", kind::OneOf(BULLET_TYPES), "bullet type");
const IS_COMMON: QueryParam<kind::Bool> =
    QueryParam::new("is_common", kind::Bool, "only common (true) or uncommon (false) loads");

pub struct AmmunitionQuery(LoadFilter);

impl QueryParams for AmmunitionQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CALIBER_ID, &BULLET_TYPE, &IS_COMMON];
    fn read(params: &mut Params) -> Self {
        Self(LoadFilter {
            caliber: params.get(&CALIBER_ID),
            bullet_type: params.get(&BULLET_TYPE),
            is_common: params.get(&IS_COMMON),
        })
    }
}

crate::query_params_doc!(AmmunitionQuery);

/// Ammunition loads by name; `caliber_id`, `bullet_type` and `is_common` filter.
#[utoipa::path(get, path = "/v1/ammunition", tag = "Ammunition", params(AmmunitionQuery),
    responses((status = 200, body = schemas::Page<schemas::Ammunition>)))]
pub async fn list(
    snapshot: CurrentSnapshot,
    Valid(AmmunitionQuery(filter)): Valid<AmmunitionQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    Ok(ammunition::list(&snapshot, &filter, CALIBER_ID.name, &paging)?.into_response())
}

/// One load with its cartridge and maker named, and provenance.
#[utoipa::path(get, path = "/v1/ammunition/{id}", tag = "Ammunition",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<schemas::Ammunition>)))]
pub async fn detail(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    Ok(ammunition::detail(&snapshot, &id)?.into_response())
}

/// The load's cartridge drawn to scale in side profile, case and bullet (1 unit of the viewBox
/// is 1 mm): from the cartridge's bullet, neck and base diameters, case length and overall
/// length, the nose shaped by the load's bullet type. 404 naming the missing dimensions.
#[utoipa::path(get, path = "/v1/ammunition/{id}/bullet.svg", tag = "Ammunition",
    params(("id" = String, Path)),
    responses((status = 200, description = "an SVG document", content_type = "image/svg+xml", body = String)))]
pub async fn bullet_svg(
    snapshot: CurrentSnapshot,
    headers: axum::http::HeaderMap,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    crate::http::asset_file::send(&headers, &crate::read::query::assets::bullet_svg(&snapshot, &id)?)
}
