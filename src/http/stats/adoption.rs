//! Who adopted what: 80 one country's adopters by user type, 81 one user type's countries.
//! An adopter is one entry of a firearm's `users`; `firearmCount` counts distinct firearms.

use std::collections::BTreeSet;

use axum::response::Response;
use serde_json::{Value, json};

use crate::catalog::vocabulary::USER_TYPES;
use crate::http::extract::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::extract::snapshot::SnapshotWithFigures;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::statistics::AdoptionCount;

/// At most this many firearms are named (by name); `firearmCount` counts all.
pub const FIREARMS_SHOWN: usize = 100;

const CODE: QueryParam = QueryParam::new(
    "code",
    Rule::Country,
    "ISO 3166-1 alpha-2 country code (404 when the catalog has no such country)",
)
.required();
const TYPE: QueryParam = QueryParam::new("type", Rule::OneOf(USER_TYPES), "adopter type").required();

pub struct CountryQuery {
    code: String,
}

impl QueryParams for CountryQuery {
    const PARAMS: &'static [QueryParam] = &[CODE];
    fn read(params: &mut Params) -> Self {
        Self { code: params.country(&CODE).unwrap_or_default() }
    }
}

crate::query_params_doc!(CountryQuery);

pub struct TypeQuery {
    kind: String,
}

impl QueryParams for TypeQuery {
    const PARAMS: &'static [QueryParam] = &[TYPE];
    fn read(params: &mut Params) -> Self {
        Self { kind: params.one_of(&TYPE).unwrap_or_default() }
    }
}

crate::query_params_doc!(TypeQuery);

/// The firearms of a count, by name (case aside, ties by id: the name order's rank), at most
/// `FIREARMS_SHOWN`; only those shown are decoded.
fn named(snapshot: &SnapshotWithFigures, firearms: &BTreeSet<usize>) -> Vec<Value> {
    let names = &snapshot.orders().name;
    let mut named: Vec<usize> = firearms.iter().copied().collect();
    named.sort_unstable_by_key(|&at| names.key(at, false));
    named
        .into_iter()
        .take(FIREARMS_SHOWN)
        .map(|at| snapshot.catalog.firearms.get(at))
        .map(|f| json!({ "id": f.id, "name": f.name }))
        .collect()
}

/// One country's adopters (armed forces, police, ...): counts per user type and the firearms
/// they adopted. A country the catalog knows with no adopters answers zeros.
#[utoipa::path(get, path = "/v1/stats/adoption/by-country", tag = "Statistics", params(CountryQuery),
    responses((status = 200, body = schemas::One<schemas::StatsAdoptionByCountry>)))]
pub async fn by_country(
    snapshot: SnapshotWithFigures,
    Valid(query): Valid<CountryQuery>,
) -> Result<Response, ApiError> {
    let code = query.code;
    let adoption = &snapshot.statistics().adoption;
    let known =
        snapshot.aggregates().countries.contains_key(&code) || adoption.by_country.contains_key(&code);
    if !known {
        return Err(ApiError::not_found("country", &code).with_details(json!({ "parameter": CODE.name })));
    }
    let empty = Default::default();
    let (all, types) = adoption.by_country.get(&code).unwrap_or(&empty);
    let by_type: Vec<Value> = types
        .iter()
        .map(|(kind, count)| json!({ "userType": kind, "adopters": count.adopters, "firearmCount": count.firearms.len() }))
        .collect();
    Ok(respond::one(json!({
        "countryCode": code,
        "adopters": all.adopters,
        "firearmCount": all.firearms.len(),
        "byUserType": by_type,
        "firearms": named(&snapshot, &all.firearms),
    })))
}

/// One adopter type: the countries with such adopters (most firearms first, ties by code) and
/// the firearms they adopted.
#[utoipa::path(get, path = "/v1/stats/adoption/by-type", tag = "Statistics", params(TypeQuery),
    responses((status = 200, body = schemas::One<schemas::StatsAdoptionByType>)))]
pub async fn by_type(
    snapshot: SnapshotWithFigures,
    Valid(query): Valid<TypeQuery>,
) -> Result<Response, ApiError> {
    let kind = query.kind;
    let empty = Default::default();
    let (all, countries) = snapshot.statistics().adoption.by_type.get(&kind).unwrap_or(&empty);
    let mut countries: Vec<(&String, &AdoptionCount)> = countries.iter().collect();
    countries.sort_by(|a, b| b.1.firearms.len().cmp(&a.1.firearms.len()).then_with(|| a.0.cmp(b.0)));
    let countries: Vec<Value> = countries
        .iter()
        .map(|(code, count)| json!({ "countryCode": code, "adopters": count.adopters, "firearmCount": count.firearms.len() }))
        .collect();
    Ok(respond::one(json!({
        "type": kind,
        "adopters": all.adopters,
        "firearmCount": all.firearms.len(),
        "countries": countries,
        "firearms": named(&snapshot, &all.firearms),
    })))
}
