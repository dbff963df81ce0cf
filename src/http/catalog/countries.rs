//! Countries and conflicts named in the catalog (operations 59 to 61).

use std::collections::BTreeMap;

use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, is_country_code, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::rendered::Rendered;
use crate::read::snapshot::Snapshot;

/// Every country the catalog names (as a firearm's origin, a manufacturer's seat or an adopter's
/// country), by code, with how many firearms come from it, how many manufacturers are based
/// there, how many firearms its users adopted, and how many adopter entries it has.
#[utoipa::path(get, path = "/v1/countries", tag = "Reference",
    responses((status = 200, body = schemas::One<Vec<schemas::Country>>)))]
pub async fn list(snapshot: CurrentSnapshot) -> Response {
    let data: Vec<Value> = snapshot
        .aggregates()
        .countries
        .iter()
        .map(|(code, c)| {
            json!({ "code": code, "firearmsOfOrigin": c.firearms_of_origin, "manufacturers": c.manufacturers,
                    "adoptedFirearms": c.adopted_firearms, "adopters": c.adopters })
        })
        .collect();
    respond::one(data)
}

/// The firearms adopted by this country's users, grouped by user type (military,
/// law_enforcement...), each with the adopting user, its designation and year.
#[utoipa::path(get, path = "/v1/countries/{code}/arsenal", tag = "Reference",
    params(("code" = String, Path, description = "ISO 3166-1 alpha-2")),
    responses((status = 200, body = schemas::One<schemas::Arsenal>)))]
pub async fn arsenal(
    snapshot: CurrentSnapshot,
    ValidPath(code): ValidPath<String>,
) -> Result<Response, ApiError> {
    if !is_country_code(&code) {
        return Err(ApiError::invalid_parameter("code", "must be a two-letter ISO 3166-1 country code"));
    }
    let code = code.to_ascii_uppercase();
    let key: [u8; 2] = code.as_bytes().try_into().expect("a country code is two letters");
    // Kept once answered (a bounded few): each adopter's firearm is decoded from the packed
    // table, a few milliseconds for a large country at 100,000 firearms.
    let answered = snapshot.arsenal_answer(key, || answer(&snapshot, &code));
    answered.map(|answer| answer.into_response())
}

/// The arsenal of country `code` (upper case); 404 when none of its users adopted a firearm.
fn answer(snapshot: &Snapshot, code: &str) -> Result<Rendered, ApiError> {
    let mut groups: BTreeMap<&str, Vec<Adopted>> = BTreeMap::new();
    let adopted = snapshot.arsenals().of(&snapshot.catalog, code);
    for (firearm, user) in &adopted {
        let user = &firearm.users[*user];
        groups.entry(user.user_type.as_deref().unwrap_or("unknown")).or_default().push(Adopted {
            id: &firearm.id,
            name: &firearm.name,
            user_name: &user.user_name,
            designation: user.designation.as_deref(),
            adopted_year: user.adopted_year,
        });
    }
    if groups.is_empty() {
        return Err(ApiError::not_found("country with adopters", code));
    }
    let user_types: Vec<UserType> = groups
        .into_iter()
        .map(|(user_type, firearms)| UserType { user_type, count: firearms.len(), firearms })
        .collect();
    respond::one_kept(Arsenal { code, user_types }).map_err(ApiError::internal)
}

/// A country's arsenal, written straight from borrowed records (as `json!` it was a tree of
/// values built and then written: a large country's answer is some 300 KB at 100,000 firearms).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Arsenal<'a> {
    code: &'a str,
    user_types: Vec<UserType<'a>>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct UserType<'a> {
    user_type: &'a str,
    count: usize,
    firearms: Vec<Adopted<'a>>,
}

/// One adopter entry of an arsenal.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Adopted<'a> {
    id: &'a str,
    name: &'a str,
    user_name: &'a str,
    designation: Option<&'a str>,
    adopted_year: Option<i64>,
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
    responses((status = 200, body = schemas::One<Vec<schemas::Conflict>>)))]
pub async fn conflicts(
    snapshot: CurrentSnapshot,
    Valid(ConflictsQuery { name }): Valid<ConflictsQuery>,
) -> Result<Response, ApiError> {
    let name = name.map(|n| n.to_lowercase());
    let firearms = &snapshot.catalog.firearms;
    let data: Vec<Value> = snapshot
        .text_index()
        .conflicts
        .iter()
        .filter(|conflict| name.as_ref().is_none_or(|n| conflict.lower.contains(n.as_str())))
        .map(|conflict| {
            let ids: Vec<String> = conflict.firearms.iter().map(|&at| firearms.get(at as usize).id.clone()).collect();
            json!({ "name": conflict.name, "years": conflict.years, "firearmCount": ids.len(), "firearmIds": ids })
        })
        .collect();
    Ok(respond::one(data))
}
