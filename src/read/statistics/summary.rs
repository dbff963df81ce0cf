//! Record counts (71), production status (72) and per-category figures (77).

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::{Read, share};
use crate::catalog::model::{Catalog, Firearm};
use crate::catalog::vocabulary::FIREARM_STATUSES;

pub fn summary(catalog: &Catalog, firearms: &[Read], last_change: Option<String>) -> Value {
    let base_models = firearms.iter().filter(|f| f.base_model).count();
    let countries: BTreeSet<&str> = firearms
        .iter()
        .filter_map(|f| f.country_of_origin.as_deref())
        .chain(catalog.manufacturers.iter().filter_map(|m| m.country_code.as_deref()))
        .collect();
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

pub fn production_status(firearms: &[Read]) -> Value {
    let total = firearms.len();
    // Each firearm's status among `FIREARM_STATUSES` (None: unknown, or not one of them).
    let mut counts = vec![0; FIREARM_STATUSES.len()];
    let mut unknown = 0;
    for firearm in firearms {
        match firearm.status.as_deref() {
            Some(status) => {
                if let Some(at) = FIREARM_STATUSES.iter().position(|&known| known == status) {
                    counts[at] += 1;
                }
            }
            None => unknown += 1,
        }
    }
    let statuses: Vec<Value> = FIREARM_STATUSES
        .iter()
        .zip(counts)
        .map(|(&status, n)| json!({ "status": status, "count": n, "share": share(n, total) }))
        .collect();
    json!({ "total": total, "statuses": statuses, "unknown": unknown, "unknownShare": share(unknown, total) })
}

/// A firearm's figure, when it states one.
type Figure = fn(&Firearm) -> Option<f64>;

/// The figures 77 averages, with their units.
pub(super) const MEAN_FIGURES: [(&str, &str, Figure); 4] = [
    ("weightEmptyG", "g", |f| f.weight_empty_g),
    ("barrelLengthMm", "mm", |f| f.barrel_length_mm),
    ("muzzleEnergyJ", "J", |f| f.muzzle_energy_j),
    ("effectiveRangeM", "m", |f| f.effective_range_m),
];

/// Per category: firearms, base models, and the arithmetic mean of each figure over the firearms
/// that state it (`count` says how many; the mean is null when none does), rounded to 0.1.
pub fn by_category(catalog: &Catalog, firearms: &[Read], category_of: &[Option<usize>]) -> Value {
    let rows: Vec<Value> = catalog
        .categories
        .iter()
        .enumerate()
        .map(|(at, category)| {
            let members: Vec<&Read> =
                firearms.iter().zip(category_of).filter(|(_, c)| **c == Some(at)).map(|(f, _)| f).collect();
            let means: serde_json::Map<String, Value> = MEAN_FIGURES
                .iter()
                .enumerate()
                .map(|(figure, (name, unit, _))| {
                    let values: Vec<f64> = members.iter().filter_map(|f| f.averaged[figure]).collect();
                    let mean = (!values.is_empty())
                        .then(|| (values.iter().sum::<f64>() / values.len() as f64 * 10.0).round() / 10.0);
                    ((*name).to_owned(), json!({ "mean": mean, "count": values.len(), "unit": unit }))
                })
                .collect();
            json!({
                "category": { "id": category.id, "name": category.name },
                "firearmCount": members.len(),
                "baseModels": members.iter().filter(|f| f.base_model).count(),
                "means": means,
            })
        })
        .collect();
    json!(rows)
}
