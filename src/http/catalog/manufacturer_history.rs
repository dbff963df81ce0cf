//! A manufacturer's output through time: 44 its firearms by year introduced, 45 its counts by
//! category, status, cartridge and decade.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::response::Response;
use serde_json::{Value, json};

use crate::catalog::model::Firearm;
use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::list_index::Filters;
use crate::read::orders::Sort;
use crate::read::statistics::{decade_label, tally};

/// The maker's firearms, by name (off the list index's set of the maker's firearms).
fn made_by(snapshot: &CurrentSnapshot, at: usize) -> Vec<Arc<Firearm>> {
    let filters = Filters { manufacturer: Some(at as u32), ..Filters::default() };
    let made = snapshot.read.select(&filters, (Sort::Name, false), 0..usize::MAX);
    made.positions.into_iter().map(|at| snapshot.catalog.firearms.get(at)).collect()
}

fn named(firearm: &Firearm) -> Value {
    json!({ "id": firearm.id, "name": firearm.name, "parentFirearmId": firearm.parent_firearm_id })
}

/// The manufacturer's firearms grouped by year introduced, oldest first (by name within a year),
/// and those with no year.
#[utoipa::path(get, path = "/v1/manufacturers/{id}/timeline", tag = "Manufacturers",
    params(("id" = String, Path, description = "manufacturer slug")),
    responses((status = 200, body = schemas::One<schemas::ManufacturerTimeline>)))]
pub async fn timeline(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let (at, maker) = snapshot.manufacturer(&id)?;
    let mut years: BTreeMap<i64, Vec<Value>> = BTreeMap::new();
    let mut unknown = Vec::new();
    for firearm in made_by(&snapshot, at) {
        match firearm.year_introduced {
            Some(year) => years.entry(year).or_default().push(named(&firearm)),
            None => unknown.push(named(&firearm)),
        }
    }
    let years: Vec<Value> =
        years.into_iter().map(|(year, firearms)| json!({ "year": year, "firearms": firearms })).collect();
    Ok(respond::one(json!({
        "manufacturer": { "id": maker.id, "name": maker.name },
        "years": years,
        "unknownYear": unknown,
    })))
}

/// The manufacturer's firearms counted by category, production status, cartridge (each one a
/// firearm lists) and decade introduced, most first (decades oldest first).
#[utoipa::path(get, path = "/v1/manufacturers/{id}/stats", tag = "Manufacturers",
    params(("id" = String, Path, description = "manufacturer slug")),
    responses((status = 200, body = schemas::One<schemas::ManufacturerStats>)))]
pub async fn stats(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let (at, maker) = snapshot.manufacturer(&id)?;
    let firearms = made_by(&snapshot, at);
    let counted = |pairs: Vec<(&str, usize)>, key: &str| -> Vec<Value> {
        pairs.into_iter().map(|(k, count)| json!({ key: k, "count": count })).collect()
    };
    let categories = tally(firearms.iter().map(|f| f.category_id.as_str()));
    let statuses = tally(firearms.iter().map(|f| f.status.as_deref().unwrap_or("unknown")));
    let calibers = tally(firearms.iter().flat_map(|f| f.calibers.iter().map(|c| c.caliber_id.as_str())));
    let mut decades: BTreeMap<i64, usize> = BTreeMap::new();
    for year in firearms.iter().filter_map(|f| f.year_introduced) {
        *decades.entry(year - year.rem_euclid(10)).or_default() += 1;
    }
    let decades: Vec<Value> =
        decades.into_iter().map(|(d, count)| json!({ "decade": decade_label(d), "count": count })).collect();
    Ok(respond::one(json!({
        "manufacturer": { "id": maker.id, "name": maker.name },
        "firearmCount": firearms.len(),
        "baseModels": firearms.iter().filter(|f| f.parent_firearm_id.is_none()).count(),
        "byCategory": counted(categories, "category"),
        "byStatus": counted(statuses, "status"),
        "byCaliber": counted(calibers, "caliber"),
        "byDecade": decades,
    })))
}
