//! Who adopted a firearm: its users, and the same users grouped by country.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::read::error::QueryError;
use crate::read::rendered::firearm_json;
use crate::read::rendered::shapes::FirearmUser;
use crate::read::snapshot::Snapshot;

/// The users of the firearm `id` (military, law-enforcement and other adopters) as the detail
/// nests them (`FirearmUser[]`); 404 for an unknown id.
pub fn users(snapshot: &Snapshot, id: &str) -> Result<Value, QueryError> {
    let (at, firearm) = snapshot.firearm(id)?;
    Ok(firearm_json::users(&firearm, &snapshot.read.user_ids[at]))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdoptionCountry {
    /// ISO 3166-1 alpha-2; null for users without a country.
    country_code: Option<String>,
    count: i64,
    #[schema(value_type = Vec<FirearmUser>)]
    users: Vec<Value>,
}

#[derive(Serialize, ToSchema)]
pub struct AdoptionMap {
    id: String,
    name: String,
    countries: Vec<AdoptionCountry>,
}

/// The users of the firearm `id` grouped by country code (users without one under
/// `countryCode: null`, first), by code; 404 for an unknown id.
pub fn adoption_map(snapshot: &Snapshot, id: &str) -> Result<AdoptionMap, QueryError> {
    let (at, firearm) = snapshot.firearm(id)?;
    let users = firearm_json::users(&firearm, &snapshot.read.user_ids[at]);
    let mut groups: BTreeMap<Option<String>, Vec<Value>> = BTreeMap::new();
    for user in users.as_array().into_iter().flatten() {
        let code = user["countryCode"].as_str().map(str::to_owned);
        groups.entry(code).or_default().push(user.clone());
    }
    let countries = groups
        .into_iter()
        .map(|(country_code, users)| AdoptionCountry { country_code, count: users.len() as i64, users })
        .collect();
    Ok(AdoptionMap { id: firearm.id.clone(), name: firearm.name.clone(), countries })
}
