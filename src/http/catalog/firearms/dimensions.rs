//! GET /v1/firearms/{id}/dimensions: a firearm's sizes and weights in metric and imperial units (operation 29).

use axum::response::Response;
use serde_json::{Value, json};

use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};

/// Each dimension with its metric and imperial value (null when unknown), unit conversions
/// exact to two decimals: millimetres to inches (÷ 25.4), grams to pounds (÷ 453.59237).
#[utoipa::path(get, path = "/v1/firearms/{id}/dimensions", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<schemas::Dimensions>)))]
pub async fn dimensions(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let (_, f) = snapshot.firearm(&id)?;
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

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
