//! Who adopted a firearm: its users (operation 28) and the adoption map by country (operation 32).

use std::collections::BTreeMap;

use axum::response::Response;
use serde_json::{Value, json};

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::rendered::firearm_json;

/// The firearm's users (military, law-enforcement and other adopters).
#[utoipa::path(get, path = "/v1/firearms/{id}/users", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<Vec<schemas::FirearmUser>>)))]
pub async fn users(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let (at, firearm) = snapshot.firearm(&id)?;
    Ok(respond::one(firearm_json::users(&firearm, snapshot.user_ids(at))))
}

/// The firearm's users grouped by country code (users without one under `countryCode: null`),
/// by code.
#[utoipa::path(get, path = "/v1/firearms/{id}/adoption-map", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<schemas::AdoptionMap>)))]
pub async fn adoption_map(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let (at, firearm) = snapshot.firearm(&id)?;
    let users = firearm_json::users(&firearm, snapshot.user_ids(at));
    let mut groups: BTreeMap<Option<String>, Vec<Value>> = BTreeMap::new();
    for user in users.as_array().into_iter().flatten() {
        let code = user["countryCode"].as_str().map(str::to_owned);
        groups.entry(code).or_default().push(user.clone());
    }
    let countries: Vec<Value> = groups
        .into_iter()
        .map(|(code, users)| json!({ "countryCode": code, "count": users.len(), "users": users }))
        .collect();
    Ok(respond::one(json!({ "id": firearm.id, "name": firearm.name, "countries": countries })))
}
