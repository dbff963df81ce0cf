//! GET /v1/firearms: every filter and sort of the spec, `order`, `fields` and `has_3d_model`.

use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::access::paging::Paging;
use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};
use crate::http::ApiError;
use crate::http::extract::query::{Declared, ORDER, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::read::orders::Sort;
use crate::read::query::firearms::{self, FirearmFilter, ListRequest};
use crate::read::rendered::firearm_json::full_field_names;
use crate::read::views::View;

const SORT: QueryParam<kind::OneOf> =
    QueryParam::new("sort", kind::OneOf(Sort::NAMES), "name (default), weight, year, caliber");
const FIELDS: QueryParam<kind::Names> = QueryParam::new(
    "fields",
    kind::Names(full_field_names),
    "comma-separated field names to include (from the plan's form: Explorer the list item's); id always included",
);
const MANUFACTURER: QueryParam<kind::Slug> =
    QueryParam::new("manufacturer", kind::Slug, "manufacturer id (404 when no manufacturer has it)");
const CALIBER: QueryParam<kind::Slug> =
    QueryParam::new("caliber", kind::Slug, "caliber id (404 when no caliber has it)");
const CATEGORY: QueryParam<kind::Slug> =
    QueryParam::new("category", kind::Slug, "category id (404 when no category has it)");
const ACTION_TYPE: QueryParam<kind::OneOf> =
    QueryParam::new("action_type", kind::OneOf(ACTION_TYPES), "action type");
const COUNTRY_OF_ORIGIN: QueryParam<kind::Country> =
    QueryParam::new("country_of_origin", kind::Country, "ISO 3166-1 alpha-2");
const YEAR_MIN: QueryParam<kind::Int> = QueryParam::new(
    "year_introduced_min",
    kind::Int { min: 1000, max: 3000 },
    "introduced in or after this year",
);
const YEAR_MAX: QueryParam<kind::Int> = QueryParam::new(
    "year_introduced_max",
    kind::Int { min: 1000, max: 3000 },
    "introduced in or before this year",
);
const WEIGHT_MIN: QueryParam<kind::Number> =
    QueryParam::new("weight_min", kind::Number, "grams, empty weight");
const WEIGHT_MAX: QueryParam<kind::Number> =
    QueryParam::new("weight_max", kind::Number, "grams, empty weight");
const BARREL_LENGTH_MIN: QueryParam<kind::Number> =
    QueryParam::new("barrel_length_min", kind::Number, "millimetres");
const STATUS: QueryParam<kind::OneOf> =
    QueryParam::new("status", kind::OneOf(FIREARM_STATUSES), "production status");
const HAS_3D_MODEL: QueryParam<kind::Bool> = QueryParam::new(
    "has_3d_model",
    kind::Bool,
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
    const PARAMS: &'static [&'static dyn Declared] = &[
        &SORT,
        &ORDER,
        &FIELDS,
        &MANUFACTURER,
        &CALIBER,
        &CATEGORY,
        &ACTION_TYPE,
        &COUNTRY_OF_ORIGIN,
        &YEAR_MIN,
        &YEAR_MAX,
        &WEIGHT_MIN,
        &WEIGHT_MAX,
        &BARREL_LENGTH_MIN,
        &STATUS,
        &HAS_3D_MODEL,
    ];

    fn read(params: &mut Params) -> Self {
        Self {
            sort: params.get(&SORT).and_then(|s| Sort::parse(&s)).unwrap_or(Sort::Name),
            descending: params.descending(),
            fields: params.get(&FIELDS),
            filter: FirearmFilter {
                manufacturer: params.get(&MANUFACTURER),
                caliber: params.get(&CALIBER),
                category: params.get(&CATEGORY),
                action: params.get(&ACTION_TYPE),
                country: params.get(&COUNTRY_OF_ORIGIN),
                year_min: params.get(&YEAR_MIN),
                year_max: params.get(&YEAR_MAX),
                weight_min: params.get(&WEIGHT_MIN),
                weight_max: params.get(&WEIGHT_MAX),
                barrel_length_min: params.get(&BARREL_LENGTH_MIN),
                status: params.get(&STATUS),
                has_3d_model: params.get(&HAS_3D_MODEL),
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
