//! GET /v1/firearms: every filter and sort of the spec, `order`, `fields` and `has_3d_model`.

use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};
use crate::http::ApiError;
use crate::http::extract::query::{ORDER, Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::read::orders::Sort;
use crate::read::query::firearms::{self, FirearmFilter, ListRequest};
use crate::read::rendered::firearm_json::full_field_names;
use crate::read::views::View;

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
    filter: FirearmFilter,
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
            filter: FirearmFilter {
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
            },
        }
    }
}

crate::query_params_doc!(ListQuery);

/// Firearms, filtered and sorted. Explorer gets the list item (summary set); Builder and up the
/// full record. Unknown values of `sort` sort nothing and are refused; firearms without the sort
/// value come last in either order.
#[utoipa::path(get, path = "/v1/firearms", tag = "Firearms", params(ListQuery),
    responses((status = 200, body = schemas::Page<schemas::FirearmListRecord>)))]
pub async fn list(
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(query): Valid<ListQuery>,
    paging: Paging,
) -> Result<Response, ApiError> {
    let ListQuery { sort, descending, fields, filter } = query;
    let request = ListRequest { filter, sort, descending, fields, paging, view: View::of(caller.plan) };
    Ok(firearms::list(&snapshot, &request)?.into_response())
}
