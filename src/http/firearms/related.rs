//! A firearm's sub-resources: variants, images, live game stats, users, dimensions and the
//! adoption map (operations 23, 24, 26, 28, 29 and 32).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::response::Response;
use serde_json::{Value, json};

use crate::http::path::ValidPath;
use crate::http::{ApiError, AppState, respond, schemas};
use crate::read::firearm_json;

/// The firearm's direct variants (generations, special editions and other derived models), by
/// year introduced, then name.
#[utoipa::path(get, path = "/v1/firearms/{id}/variants", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::FirearmVariantsResponse)))]
pub async fn variants(
    State(state): State<AppState>,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    super::position(&snapshot, &id)?;
    let firearms = &snapshot.catalog.firearms;
    let mut children: Vec<usize> = snapshot.read.variants.get(&id).cloned().unwrap_or_default();
    children.sort_by(|&a, &b| {
        let key =
            |i: usize| (firearms[i].year_introduced.unwrap_or(i64::MAX), firearms[i].name.to_lowercase());
        key(a).cmp(&key(b))
    });
    let data: Vec<Value> = children
        .iter()
        .map(|&i| {
            let f = &firearms[i];
            json!({ "id": f.id, "name": f.name, "variantType": f.variant_type,
                    "yearIntroduced": f.year_introduced, "status": f.status })
        })
        .collect();
    Ok(respond::one(data))
}

/// The firearm's images: id, firearmId, url, type, source, license, altText, widthPx, heightPx.
#[utoipa::path(get, path = "/v1/firearms/{id}/images", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::FirearmImagesResponse)))]
pub async fn images(
    State(state): State<AppState>,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    let (_, firearm) = super::firearm(&snapshot, &id)?;
    Ok(respond::one(firearm_json::images(firearm)))
}

/// The live game stats (0 to 100, null when the specifications do not allow one), recomputed by
/// every import. Each stat is `100·x/(x+reference)`: damage from muzzle energy (the cartridge's
/// typical energy when the firearm has none) against a per-category reference (pistols 500 J,
/// revolvers 700, submachine guns 550, carbines 1,500, rifles 2,500, precision rifles 4,500,
/// machine guns 3,500, shotguns 3,000, others 1,500); range from effective range against a
/// per-category reference (50 m to 1,000 m); accuracy the mean of barrel length (300 mm), sight
/// radius (400 mm) and weight (3 kg); fire rate from the rate of fire (600 rpm; the action's
/// practical rate when unknown); mobility the inverse of weight (3 kg); recoil control grams per
/// joule (1.5); reload speed 70% magazine type and 30% capacity (30 rounds); concealment the
/// inverse of the shortest overall length (400 mm). The same text is in ARCHITECTURE.md.
#[utoipa::path(get, path = "/v1/firearms/{id}/game-stats", tag = "Game stats",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::FirearmGameStatsResponse)))]
pub async fn game_stats(
    State(state): State<AppState>,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    let (at, firearm) = super::firearm(&snapshot, &id)?;
    let mut data = json!({ "id": firearm.id, "name": firearm.name });
    for (name, value) in snapshot.read.stats[at].named() {
        data[name] = json!(value);
    }
    Ok(respond::one(data))
}

/// The firearm's users (military, law-enforcement and other adopters).
#[utoipa::path(get, path = "/v1/firearms/{id}/users", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::FirearmUsersResponse)))]
pub async fn users(
    State(state): State<AppState>,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    let (at, firearm) = super::firearm(&snapshot, &id)?;
    Ok(respond::one(firearm_json::users(firearm, &snapshot.read.user_ids[at])))
}

/// Each dimension with its metric and imperial value (null when unknown), unit conversions
/// exact to two decimals: millimetres to inches (÷ 25.4), grams to pounds (÷ 453.59237).
#[utoipa::path(get, path = "/v1/firearms/{id}/dimensions", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::DimensionsResponse)))]
pub async fn dimensions(
    State(state): State<AppState>,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    let (_, f) = super::firearm(&snapshot, &id)?;
    let lengths = [
        ("overallLengthMm", f.overall_length_mm),
        ("barrelLengthMm", f.barrel_length_mm),
        ("heightMm", f.height_mm),
        ("widthMm", f.width_mm),
        ("sightRadiusMm", f.sight_radius_mm),
        ("foldedLengthMm", f.folded_length_mm),
        ("riflingTwistMm", f.rifling_twist_mm),
    ];
    let weights = [("weightEmptyG", f.weight_empty_g), ("weightLoadedG", f.weight_loaded_g)];
    let entry = |field: &str, value: Option<f64>, unit: &str, imperial_unit: &str, factor: f64| {
        json!({
            "field": field,
            "known": value.is_some(),
            "metric": { "value": value, "unit": unit },
            "imperial": { "value": value.map(|v| round2(v / factor)), "unit": imperial_unit },
        })
    };
    let list: Vec<Value> = lengths
        .iter()
        .map(|(field, value)| entry(field, *value, "mm", "in", 25.4))
        .chain(weights.iter().map(|(field, value)| entry(field, *value, "g", "lb", 453.592_37)))
        .collect();
    let known: Vec<&Value> = list.iter().filter(|d| d["known"] == json!(true)).map(|d| &d["field"]).collect();
    Ok(respond::one(json!({ "id": f.id, "name": f.name, "known": known, "dimensions": list })))
}

/// The firearm's users grouped by country code (users without one under `countryCode: null`),
/// by code.
#[utoipa::path(get, path = "/v1/firearms/{id}/adoption-map", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::AdoptionMapResponse)))]
pub async fn adoption_map(
    State(state): State<AppState>,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    let (at, firearm) = super::firearm(&snapshot, &id)?;
    let users = firearm_json::users(firearm, &snapshot.read.user_ids[at]);
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

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
