//! Countries and conflicts named in the catalog (operations 59 to 61).

use axum::response::{IntoResponse, Response};

use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, is_country_code, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::query::countries::{self, Arsenal, Conflict, Country};

/// Every country the catalog names (as a firearm's origin, a manufacturer's seat or an adopter's
/// country), by code, with how many firearms come from it, how many manufacturers are based
/// there, how many firearms its users adopted, and how many adopter entries it has.
#[utoipa::path(get, path = "/v1/countries", tag = "Reference",
    responses((status = 200, body = schemas::One<Vec<Country>>)))]
pub async fn list(snapshot: CurrentSnapshot) -> Response {
    respond::one(countries::list(&snapshot))
}

/// The firearms adopted by this country's users, grouped by user type (military,
/// law_enforcement...), each with the adopting user, its designation and year.
#[utoipa::path(get, path = "/v1/countries/{code}/arsenal", tag = "Reference",
    params(("code" = String, Path, description = "ISO 3166-1 alpha-2")),
    responses((status = 200, body = schemas::One<Arsenal>)))]
pub async fn arsenal(
    snapshot: CurrentSnapshot,
    ValidPath(code): ValidPath<String>,
) -> Result<Response, ApiError> {
    if !is_country_code(&code) {
        return Err(ApiError::invalid_parameter("code", "must be a two-letter ISO 3166-1 country code"));
    }
    Ok(countries::arsenal(&snapshot, &code.to_ascii_uppercase())?.into_response())
}

const CONFLICT_NAME: QueryParam<kind::Text> =
    QueryParam::new("name", kind::Text { max: 200 }, "case-insensitive part of the conflict's name");

pub struct ConflictsQuery {
    name: Option<String>,
}

impl QueryParams for ConflictsQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&CONFLICT_NAME];
    fn read(params: &mut Params) -> Self {
        Self { name: params.get(&CONFLICT_NAME) }
    }
}

crate::query_params_doc!(ConflictsQuery);

/// Conflicts named in the firearms' records, with the firearms used in each, most firearms
/// first; `name` keeps conflicts whose name contains it (case-insensitive).
#[utoipa::path(get, path = "/v1/conflicts", tag = "Reference", params(ConflictsQuery),
    responses((status = 200, body = schemas::One<Vec<Conflict>>)))]
pub async fn conflicts(
    snapshot: CurrentSnapshot,
    Valid(ConflictsQuery { name }): Valid<ConflictsQuery>,
) -> Response {
    let name = name.map(|n| n.to_lowercase());
    respond::one(countries::conflicts(&snapshot, name.as_deref()))
}
