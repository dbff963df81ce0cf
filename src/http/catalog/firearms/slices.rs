//! Firearms that share one trait, by name, paged, as list items in the caller's plan view: 13 a
//! feature, 14 an action type, 15 a material (of one component or any), 16 a designer, 17 a
//! conflict, each answered by `read::query::slices`.

use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::catalog::vocabulary::ACTION_TYPES;
use crate::http::ApiError;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::{CurrentSnapshot, SnapshotWithFigures};
use crate::http::openapi::schemas;
use crate::read::query::slices;
use crate::read::views::View;

const CATEGORY: QueryParam<kind::Slug> =
    QueryParam::new("category", kind::Slug, "only firearms of this category (404 when no category has it)");
const FEATURE: QueryParam<kind::Text> =
    QueryParam::new("feature", kind::Text { max: 100 }, "text a feature contains (any case)").required();
const ACTION: QueryParam<kind::OneOf> =
    QueryParam::new("action", kind::OneOf(ACTION_TYPES), "action type").required();
const MATERIAL: QueryParam<kind::Text> =
    QueryParam::new("material", kind::Text { max: 100 }, "text the material contains (any case)").required();
const COMPONENT: QueryParam<kind::OneOf> = QueryParam::new(
    "component",
    kind::OneOf(&["frame", "slide", "barrel", "stock"]),
    "only this component's material (default: any)",
);
const DESIGNER: QueryParam<kind::Text> =
    QueryParam::new("designer", kind::Text { max: 100 }, "text the designer contains (any case)").required();
const CONFLICT: QueryParam<kind::Text> =
    QueryParam::new("conflict", kind::Text { max: 100 }, "text a conflict's name contains (any case)")
        .required();

pub struct FeatureQuery {
    feature: String,
    category: Option<String>,
}

impl QueryParams for FeatureQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&FEATURE, &CATEGORY];
    fn read(params: &mut Params) -> Self {
        Self { feature: params.get(&FEATURE).unwrap_or_default(), category: params.get(&CATEGORY) }
    }
}

crate::query_params_doc!(FeatureQuery);

/// Firearms with a feature containing `feature`.
#[utoipa::path(get, path = "/v1/firearms/by-feature", tag = "Rankings", params(FeatureQuery),
    responses((status = 200, body = schemas::Page<schemas::FirearmListRecord>)))]
pub async fn by_feature(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(FeatureQuery { feature, category }): Valid<FeatureQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let view = View::of(caller.plan);
    Ok(slices::by_feature(&snapshot, &feature, category.as_deref(), &paging, view)?.into_response())
}

pub struct ActionQuery {
    action: String,
}

impl QueryParams for ActionQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&ACTION];
    fn read(params: &mut Params) -> Self {
        Self { action: params.get(&ACTION).unwrap_or_default() }
    }
}

crate::query_params_doc!(ActionQuery);

/// Firearms of one action type.
#[utoipa::path(get, path = "/v1/firearms/by-action", tag = "Rankings", params(ActionQuery),
    responses((status = 200, body = schemas::Page<schemas::FirearmListRecord>)))]
pub async fn by_action(
    snapshot: SnapshotWithFigures,
    caller: Caller,
    Valid(ActionQuery { action }): Valid<ActionQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    Ok(slices::by_action(&snapshot, &action, &paging, View::of(caller.plan))?.into_response())
}

pub struct MaterialQuery {
    material: String,
    component: Option<String>,
}

impl QueryParams for MaterialQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&MATERIAL, &COMPONENT];
    fn read(params: &mut Params) -> Self {
        Self { material: params.get(&MATERIAL).unwrap_or_default(), component: params.get(&COMPONENT) }
    }
}

crate::query_params_doc!(MaterialQuery);

/// Firearms whose frame, slide, barrel or stock material (or only `component`'s) contains
/// `material`.
#[utoipa::path(get, path = "/v1/firearms/by-material", tag = "Rankings", params(MaterialQuery),
    responses((status = 200, body = schemas::Page<schemas::FirearmListRecord>)))]
pub async fn by_material(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(MaterialQuery { material, component }): Valid<MaterialQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let view = View::of(caller.plan);
    Ok(slices::by_material(&snapshot, &material, component.as_deref(), &paging, view)?.into_response())
}

pub struct DesignerQuery {
    designer: String,
}

impl QueryParams for DesignerQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&DESIGNER];
    fn read(params: &mut Params) -> Self {
        Self { designer: params.get(&DESIGNER).unwrap_or_default() }
    }
}

crate::query_params_doc!(DesignerQuery);

/// Firearms whose designer contains `designer`.
#[utoipa::path(get, path = "/v1/firearms/by-designer", tag = "Rankings", params(DesignerQuery),
    responses((status = 200, body = schemas::Page<schemas::FirearmListRecord>)))]
pub async fn by_designer(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(DesignerQuery { designer }): Valid<DesignerQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    Ok(slices::by_designer(&snapshot, &designer, &paging, View::of(caller.plan))?.into_response())
}

pub struct ConflictQuery {
    conflict: String,
}

impl QueryParams for ConflictQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CONFLICT];
    fn read(params: &mut Params) -> Self {
        Self { conflict: params.get(&CONFLICT).unwrap_or_default() }
    }
}

crate::query_params_doc!(ConflictQuery);

/// Firearms used in a conflict whose name contains `conflict`.
#[utoipa::path(get, path = "/v1/firearms/by-conflict", tag = "Rankings", params(ConflictQuery),
    responses((status = 200, body = schemas::Page<schemas::FirearmListRecord>)))]
pub async fn by_conflict(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(ConflictQuery { conflict }): Valid<ConflictQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    Ok(slices::by_conflict(&snapshot, &conflict, &paging, View::of(caller.plan))?.into_response())
}
