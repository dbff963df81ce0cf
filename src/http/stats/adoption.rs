//! Who adopted what: 80 one country's adopters by user type, 81 one user type's countries.
//! An adopter is one entry of a firearm's `users`; `firearmCount` counts distinct firearms.

use axum::response::Response;
use serde_json::Value;

use crate::catalog::vocabulary::USER_TYPES;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::SnapshotWithFigures;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::error::QueryError;
use crate::read::query::statistics;

const CODE: QueryParam<kind::Country> = QueryParam::new(
    "code",
    kind::Country,
    "ISO 3166-1 alpha-2 country code (404 when the catalog has no such country)",
)
.required();
const TYPE: QueryParam<kind::OneOf> =
    QueryParam::new("type", kind::OneOf(USER_TYPES), "adopter type").required();

pub struct CountryQuery {
    code: String,
}

impl QueryParams for CountryQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CODE];
    fn read(params: &mut Params) -> Self {
        Self { code: params.get(&CODE).unwrap_or_default() }
    }
}

crate::query_params_doc!(CountryQuery);

pub struct TypeQuery {
    kind: String,
}

impl QueryParams for TypeQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&TYPE];
    fn read(params: &mut Params) -> Self {
        Self { kind: params.get(&TYPE).unwrap_or_default() }
    }
}

crate::query_params_doc!(TypeQuery);

/// One country's adopters (armed forces, police, ...): counts per user type and the firearms
/// they adopted. A country the catalog knows with no adopters answers zeros.
#[utoipa::path(get, path = "/v1/stats/adoption/by-country", tag = "Statistics", params(CountryQuery),
    responses((status = 200, body = schemas::One<statistics::AdoptionByCountry>)))]
pub async fn by_country(
    snapshot: SnapshotWithFigures,
    Valid(query): Valid<CountryQuery>,
) -> Result<Response, ApiError> {
    let answer = statistics::adoption_by_country(&snapshot, &query.code).map_err(unknown_country)?;
    Ok(respond::one(answer))
}

/// An unknown country's 404 names the parameter alone (`details: {parameter}`), without the
/// `missing` list a filter's unknown id carries.
fn unknown_country(error: QueryError) -> ApiError {
    match error {
        QueryError::NotFound { kind, id, parameter: Some(parameter) } => {
            ApiError::not_found(kind, &id).with_details(Value::from_iter([("parameter", parameter)]))
        }
        other => other.into(),
    }
}

/// One adopter type: the countries with such adopters (most firearms first, ties by code) and
/// the firearms they adopted.
#[utoipa::path(get, path = "/v1/stats/adoption/by-type", tag = "Statistics", params(TypeQuery),
    responses((status = 200, body = schemas::One<statistics::AdoptionByType>)))]
pub async fn by_type(snapshot: SnapshotWithFigures, Valid(query): Valid<TypeQuery>) -> Response {
    respond::one(statistics::adoption_by_type(&snapshot, &query.kind))
}
