//! Record counts (71), production status (72) and per-category figures (77).

use serde_json::{Value, json};

use super::share;
use crate::catalog::model::{Catalog, Firearm};
use crate::catalog::vocabulary::FIREARM_STATUSES;

pub fn summary(catalog: &Catalog, last_change: Option<String>) -> Value {
    let firearms = catalog.firearms.typed();
    let base_models = firearms.iter().filter(|f| f.parent_firearm_id.is_none()).count();
    let mut countries: Vec<&str> = firearms
        .iter()
        .filter_map(|f| f.country_of_origin.as_deref())
        .chain(catalog.manufacturers.iter().filter_map(|m| m.country_code.as_deref()))
        .collect();
    countries.sort_unstable();
    countries.dedup();
    json!({
        "firearms": catalog.firearms.len(),
        "baseModels": base_models,
        "variants": catalog.firearms.len() - base_models,
        "manufacturers": catalog.manufacturers.len(),
        "calibers": catalog.calibers.len(),
        "categories": catalog.categories.len(),
        "ammunition": catalog.ammunition.len(),
        "countries": countries.len(),
        "attachments": catalog.attachments.len(),
        "interfaces": catalog.interfaces.len(),
        "platforms": catalog.platforms.len(),
        "lastUpdatedAt": last_change,
    })
}

pub fn production_status(catalog: &Catalog) -> Value {
    let total = catalog.firearms.len();
    let count =
        |status: Option<&str>| catalog.firearms.iter().filter(|f| f.status.as_deref() == status).count();
    let statuses: Vec<Value> = FIREARM_STATUSES
        .iter()
        .map(|&status| {
            let n = count(Some(status));
            json!({ "status": status, "count": n, "share": share(n, total) })
        })
        .collect();
    let unknown = count(None);
    json!({ "total": total, "statuses": statuses, "unknown": unknown, "unknownShare": share(unknown, total) })
}

/// A firearm's figure, when it states one.
type Figure = fn(&Firearm) -> Option<f64>;

/// The figures 77 averages, with their units.
const MEAN_FIGURES: &[(&str, &str, Figure)] = &[
    ("weightEmptyG", "g", |f| f.weight_empty_g),
    ("barrelLengthMm", "mm", |f| f.barrel_length_mm),
    ("muzzleEnergyJ", "J", |f| f.muzzle_energy_j),
    ("effectiveRangeM", "m", |f| f.effective_range_m),
];

/// Per category: firearms, base models, and the arithmetic mean of each figure over the firearms
/// that state it (`count` says how many; the mean is null when none does), rounded to 0.1.
pub fn by_category(catalog: &Catalog, category_of: &[Option<usize>]) -> Value {
    let firearms = catalog.firearms.typed();
    let rows: Vec<Value> = catalog
        .categories
        .iter()
        .enumerate()
        .map(|(at, category)| {
            let members: Vec<&Firearm> = firearms
                .iter()
                .zip(category_of)
                .filter(|(_, c)| **c == Some(at))
                .map(|(f, _)| &**f)
                .collect();
            let means: serde_json::Map<String, Value> = MEAN_FIGURES
                .iter()
                .map(|(name, unit, figure)| {
                    let values: Vec<f64> = members.iter().filter_map(|f| figure(f)).collect();
                    let mean = (!values.is_empty())
                        .then(|| (values.iter().sum::<f64>() / values.len() as f64 * 10.0).round() / 10.0);
                    ((*name).to_owned(), json!({ "mean": mean, "count": values.len(), "unit": unit }))
                })
                .collect();
            json!({
                "category": { "id": category.id, "name": category.name },
                "firearmCount": members.len(),
                "baseModels": members.iter().filter(|f| f.parent_firearm_id.is_none()).count(),
                "means": means,
            })
        })
        .collect();
    json!(rows)
}
