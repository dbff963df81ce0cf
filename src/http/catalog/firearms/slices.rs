//! Firearms that share one trait, by name, paged, as list items in the caller's plan view: 13 a
//! feature, 14 an action type, 15 a material (of one component or any), 16 a designer, 17 a
//! conflict. Free text (feature, material, designer, conflict) matches case-insensitively
//! anywhere in the firearm's value; the action type is a closed list.

use axum::response::{IntoResponse, Response};

use super::{ItemForm, in_category, page_from, page_of};
use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::catalog::vocabulary::ACTION_TYPES;
use crate::http::ApiError;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::{CurrentSnapshot, SnapshotWithFigures};
use crate::http::openapi::schemas;
use crate::read::snapshot::Snapshot;
use crate::read::statistics::frequency::COMPONENTS;
use crate::read::text_index::{Interned, Marks};
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

/// The firearms `mark` marks (and in `category`), by name, as one page of list items: the name
/// order is walked only as far as the page.
fn slice(
    snapshot: &Snapshot,
    caller: &Caller,
    paging: &Paging,
    category: Option<&str>,
    mark: impl FnOnce(&mut Marks),
) -> Result<Response, ApiError> {
    let category = snapshot.category_filter(CATEGORY.name, category)?;
    let mut marks = Marks::new(snapshot.catalog.firearms.len());
    mark(&mut marks);
    let total = match category {
        None => marks.count(),
        Some(_) => marks.iter().filter(|&at| in_category(snapshot, at, category)).count(),
    };
    let page: Vec<usize> = snapshot
        .orders()
        .name
        .iter(false)
        .filter(|&at| marks.holds(at) && in_category(snapshot, at, category))
        .skip(paging.offset())
        .take(paging.per_page as usize)
        .collect();
    Ok(page_from(snapshot, paging, &page, total, ItemForm::Plan(View::of(caller.plan))).into_response())
}

/// Marks the firearms holding a value of `values` that contains `text` (any case).
fn holding<'a>(values: &'a Interned, text: &str) -> impl FnOnce(&mut Marks) + use<'a> {
    let needle = text.to_lowercase();
    move |marks| values.mark_containing(&needle, marks)
}

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
    let features = holding(&snapshot.text_index().features, &feature);
    slice(&snapshot, &caller, &paging, category.as_deref(), features)
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
    let kind =
        ACTION_TYPES.iter().position(|known| *known == action).expect("the parameter is a known action");
    let positions = &snapshot.rankings().by_action[kind];
    Ok(page_of(&snapshot, &paging, positions, ItemForm::Plan(View::of(caller.plan))).into_response())
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
    let components: Vec<_> = COMPONENTS
        .iter()
        .zip(&snapshot.text_index().materials)
        .filter(|((name, _), _)| component.as_deref().is_none_or(|c| c == *name))
        .map(|(_, materials)| holding(materials, &material))
        .collect();
    slice(&snapshot, &caller, &paging, None, |marks| components.into_iter().for_each(|mark| mark(marks)))
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
    let designers = holding(&snapshot.text_index().designers, &designer);
    slice(&snapshot, &caller, &paging, None, designers)
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
    let conflicts = holding(&snapshot.text_index().conflict_names, &conflict);
    slice(&snapshot, &caller, &paging, None, conflicts)
}
