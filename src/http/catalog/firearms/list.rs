//! GET /v1/firearms: every filter and sort of the spec, `order`, `fields` and `has_3d_model`.

use std::collections::HashMap;

use axum::response::Response;

use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};
use crate::http::ApiError;
use crate::http::catalog::firearms::{ItemForm, page_from};
use crate::http::extract::query::{ORDER, Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::read::facts::{country_bytes, vocabulary_index};
use crate::read::firearm_json::full_field_names;
use crate::read::list_index::Filters;
use crate::read::orders::Sort;
use crate::read::snapshot::Snapshot;
use crate::read::views::{self, View};

const SORT: QueryParam =
    QueryParam::new("sort", Rule::OneOf(Sort::NAMES), "name (default), weight, year, caliber");
const FIELDS: QueryParam = QueryParam::new(
    "fields",
    Rule::Names(full_field_names),
    "comma-separated field names to include (from the plan's form: Explorer the list item's); id always included",
);
const MANUFACTURER: QueryParam =
    QueryParam::new("manufacturer", Rule::Slug, "manufacturer id (404 when no manufacturer has it)");
const CALIBER: QueryParam = QueryParam::new("caliber", Rule::Slug, "caliber id (404 when no caliber has it)");
const CATEGORY: QueryParam =
    QueryParam::new("category", Rule::Slug, "category id (404 when no category has it)");
const ACTION_TYPE: QueryParam = QueryParam::new("action_type", Rule::OneOf(ACTION_TYPES), "action type");
const COUNTRY_OF_ORIGIN: QueryParam =
    QueryParam::new("country_of_origin", Rule::Country, "ISO 3166-1 alpha-2");
const YEAR_MIN: QueryParam = QueryParam::new(
    "year_introduced_min",
    Rule::Int { min: 1000, max: 3000 },
    "introduced in or after this year",
);
const YEAR_MAX: QueryParam = QueryParam::new(
    "year_introduced_max",
    Rule::Int { min: 1000, max: 3000 },
    "introduced in or before this year",
);
const WEIGHT_MIN: QueryParam = QueryParam::new("weight_min", Rule::Number, "grams, empty weight");
const WEIGHT_MAX: QueryParam = QueryParam::new("weight_max", Rule::Number, "grams, empty weight");
const BARREL_LENGTH_MIN: QueryParam = QueryParam::new("barrel_length_min", Rule::Number, "millimetres");
const STATUS: QueryParam = QueryParam::new("status", Rule::OneOf(FIREARM_STATUSES), "production status");
const HAS_3D_MODEL: QueryParam = QueryParam::new(
    "has_3d_model",
    Rule::Bool,
    "only firearms with (true) or without (false) a 3D model asset",
);

/// The list's query: sort, order, fields and the filters, before references are resolved.
pub struct ListQuery {
    sort: Sort,
    descending: bool,
    fields: Option<Vec<String>>,
    manufacturer: Option<String>,
    caliber: Option<String>,
    category: Option<String>,
    action: Option<String>,
    country: Option<String>,
    year_min: Option<i64>,
    year_max: Option<i64>,
    weight_min: Option<f64>,
    weight_max: Option<f64>,
    barrel_length_min: Option<f64>,
    status: Option<String>,
    has_3d_model: Option<bool>,
}

impl QueryParams for ListQuery {
    const PARAMS: &'static [QueryParam] = &[
        SORT,
        ORDER,
        FIELDS,
        MANUFACTURER,
        CALIBER,
        CATEGORY,
        ACTION_TYPE,
        COUNTRY_OF_ORIGIN,
        YEAR_MIN,
        YEAR_MAX,
        WEIGHT_MIN,
        WEIGHT_MAX,
        BARREL_LENGTH_MIN,
        STATUS,
        HAS_3D_MODEL,
    ];

    fn read(params: &mut Params) -> Self {
        Self {
            sort: params.one_of(&SORT).and_then(|s| Sort::parse(&s)).unwrap_or(Sort::Name),
            descending: params.descending(),
            fields: params.names(&FIELDS),
            manufacturer: params.slug(&MANUFACTURER),
            caliber: params.slug(&CALIBER),
            category: params.slug(&CATEGORY),
            action: params.one_of(&ACTION_TYPE),
            country: params.country(&COUNTRY_OF_ORIGIN),
            year_min: params.int(&YEAR_MIN),
            year_max: params.int(&YEAR_MAX),
            weight_min: params.number(&WEIGHT_MIN),
            weight_max: params.number(&WEIGHT_MAX),
            barrel_length_min: params.number(&BARREL_LENGTH_MIN),
            status: params.one_of(&STATUS),
            has_3d_model: params.boolean(&HAS_3D_MODEL),
        }
    }
}

crate::query_params_doc!(ListQuery);

/// Resolve the references: a filter naming a record the catalog does not have is 404,
/// naming the parameter. Bounds that cross (a minimum above its maximum) match nothing.
fn resolve_filters(query: &ListQuery, snapshot: &Snapshot) -> Result<Filters, ApiError> {
    let read = &snapshot.read;
    let reference = |param: &QueryParam, id: &Option<String>, known: &HashMap<String, usize>, what: &str| {
        let Some(id) = id else { return Ok(None) };
        match known.get(id) {
            Some(&at) => Ok(Some(at)),
            None => Err(ApiError::not_found(what, id)
                .with_details(serde_json::json!({ "parameter": param.name, "missing": [id] }))),
        }
    };
    Ok(Filters {
        manufacturer: reference(&MANUFACTURER, &query.manufacturer, &read.manufacturer_at, "manufacturer")?
            .map(|i| i as u32),
        caliber: reference(&CALIBER, &query.caliber, &read.caliber_at, "caliber")?.map(|i| i as u32),
        category: reference(&CATEGORY, &query.category, &read.category_at, "category")?.map(|i| i as u16),
        action: query.action.as_deref().map(|a| vocabulary_index(ACTION_TYPES, Some(a))),
        country: query.country.as_deref().map(|c| country_bytes(Some(c))),
        year_min: query.year_min.map(|y| y as i32),
        year_max: query.year_max.map(|y| y as i32),
        weight_min: query.weight_min.map(|w| w as f32),
        weight_max: query.weight_max.map(|w| w as f32),
        barrel_length_min: query.barrel_length_min.map(|b| b as f32),
        status: query.status.as_deref().map(|s| vocabulary_index(FIREARM_STATUSES, Some(s))),
        has_3d_model: query.has_3d_model,
    })
}

/// `fields` on this plan: Explorer may name only the list item's fields (400 otherwise).
fn fields_for_plan(fields: &Option<Vec<String>>, view: View) -> Result<(), ApiError> {
    let Some(names) = fields else { return Ok(()) };
    if view == View::Full {
        return Ok(());
    }
    let unavailable: Vec<&str> =
        names.iter().map(String::as_str).filter(|n| !views::FIREARM_LIST_ITEM.contains(n)).collect();
    if unavailable.is_empty() {
        return Ok(());
    }
    Err(ApiError::invalid_parameter(
        FIELDS.name,
        format!(
            "unavailable on this plan: {}; allowed: {}",
            unavailable.join(", "),
            views::FIREARM_LIST_ITEM.join(", ")
        ),
    ))
}

/// Firearms, filtered and sorted. Explorer gets the list item (summary set); Builder and up the
/// full record. Unknown values of `sort` sort nothing and are refused; firearms without the sort
/// value come last in either order.
#[utoipa::path(get, path = "/v1/firearms", tag = "Firearms", params(ListQuery),
    responses((status = 200, body = schemas::FirearmListPage)))]
pub async fn list(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(query): Valid<ListQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let view = View::of(caller.plan);
    fields_for_plan(&query.fields, view)?;
    let filters = resolve_filters(&query, &snapshot)?;
    let (sort, descending, fields) = (query.sort, query.descending, query.fields);

    let read = &snapshot.read;
    let offset = paging.offset();
    let window = offset..offset + paging.per_page as usize;
    let page = read.list.select(&read.facts, &read.orders, &filters, (sort, descending), window);
    let field_names: Option<Vec<&str>> = fields.as_ref().map(|f| f.iter().map(String::as_str).collect());
    let form = match &field_names {
        Some(fields) => ItemForm::Fields(view, fields),
        None => ItemForm::Plan(view),
    };
    Ok(page_from(&snapshot, &paging, &page.positions, page.total, form))
}
