//! Record counts (71), production status (72) and per-category figures (77).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::{CategoryRef, Read, share};
use crate::catalog::model::{Catalog, Firearm};
use crate::catalog::vocabulary::FIREARM_STATUSES;

/// Record counts per resource, the catalog revision and the last change to a record.
#[derive(Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatsSummary {
    #[schema(value_type = i64)]
    pub firearms: usize,
    /// Firearms with no parent model.
    #[schema(value_type = i64)]
    pub base_models: usize,
    #[schema(value_type = i64)]
    pub variants: usize,
    #[schema(value_type = i64)]
    pub manufacturers: usize,
    #[schema(value_type = i64)]
    pub calibers: usize,
    #[schema(value_type = i64)]
    pub categories: usize,
    #[schema(value_type = i64)]
    pub ammunition: usize,
    /// Distinct countries of origin of firearms and manufacturers.
    #[schema(value_type = i64)]
    pub countries: usize,
    #[schema(value_type = i64)]
    pub attachments: usize,
    #[schema(value_type = i64)]
    pub interfaces: usize,
    #[schema(value_type = i64)]
    pub platforms: usize,
    /// The latest updatedAt of any firearm, manufacturer, cartridge or load ('YYYY-MM-DD HH:MM:SS').
    pub last_updated_at: Option<String>,
    /// The catalog revision being served (it moves with every import that changes a record).
    // Set when answered (`read::query::statistics::summary`): the figures are kept with the
    // snapshot they were counted for, the revision is the one served.
    pub catalog_revision: i64,
}

pub fn summary(catalog: &Catalog, firearms: &[Read], last_change: Option<String>) -> StatsSummary {
    let base_models = firearms.iter().filter(|f| f.base_model).count();
    let countries: BTreeSet<&str> = firearms
        .iter()
        .filter_map(|f| f.country_of_origin.as_deref())
        .chain(catalog.manufacturers.iter().filter_map(|m| m.country_code.as_deref()))
        .collect();
    StatsSummary {
        firearms: catalog.firearms.len(),
        base_models,
        variants: catalog.firearms.len() - base_models,
        manufacturers: catalog.manufacturers.len(),
        calibers: catalog.calibers.len(),
        categories: catalog.categories.len(),
        ammunition: catalog.ammunition.len(),
        countries: countries.len(),
        attachments: catalog.attachments.len(),
        interfaces: catalog.interfaces.len(),
        platforms: catalog.platforms.len(),
        last_updated_at: last_change,
        catalog_revision: 0,
    }
}

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatsProductionStatus {
    #[schema(value_type = i64)]
    pub total: usize,
    pub statuses: Vec<StatusCount>,
    /// Firearms with no status.
    #[schema(value_type = i64)]
    pub unknown: usize,
    pub unknown_share: f64,
}

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
pub struct StatusCount {
    /// in_production, discontinued, prototype
    pub status: String,
    #[schema(value_type = i64)]
    pub count: usize,
    /// Of all firearms, 0 to 1.
    pub share: f64,
}

pub fn production_status(firearms: &[Read]) -> StatsProductionStatus {
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
    let statuses = FIREARM_STATUSES
        .iter()
        .zip(counts)
        .map(|(&status, count)| StatusCount { status: status.to_owned(), count, share: share(count, total) })
        .collect();
    StatsProductionStatus { total, statuses, unknown, unknown_share: share(unknown, total) }
}

/// A firearm's figure, when it states one.
type Figure = fn(&Firearm) -> Option<f64>;

/// The figures 77 averages (in `CategoryMeans` order), with their units.
pub(super) const MEAN_FIGURES: [(&str, Figure); 4] = [
    ("g", |f| f.weight_empty_g),
    ("mm", |f| f.barrel_length_mm),
    ("J", |f| f.muzzle_energy_j),
    ("m", |f| f.effective_range_m),
];

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryFigures {
    #[schema(value_type = crate::read::rendered::shapes::NamedRef)]
    pub category: CategoryRef,
    #[schema(value_type = i64)]
    pub firearm_count: usize,
    #[schema(value_type = i64)]
    pub base_models: usize,
    pub means: CategoryMeans,
}

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryMeans {
    pub weight_empty_g: FigureMean,
    pub barrel_length_mm: FigureMean,
    pub muzzle_energy_j: FigureMean,
    pub effective_range_m: FigureMean,
}

/// A mean over the firearms that state the figure.
#[derive(Serialize, Deserialize, utoipa::ToSchema)]
pub struct FigureMean {
    /// null when no firearm of the category states it.
    pub mean: Option<f64>,
    /// How many firearms state it.
    #[schema(value_type = i64)]
    pub count: usize,
    pub unit: String,
}

/// Per category: firearms, base models, and the arithmetic mean of each figure over the firearms
/// that state it (`count` says how many; the mean is null when none does), rounded to 0.1.
pub fn by_category(
    catalog: &Catalog,
    firearms: &[Read],
    category_of: &[Option<usize>],
) -> Vec<CategoryFigures> {
    catalog
        .categories
        .iter()
        .enumerate()
        .map(|(at, category)| {
            let members: Vec<&Read> =
                firearms.iter().zip(category_of).filter(|(_, c)| **c == Some(at)).map(|(f, _)| f).collect();
            let [weight_empty_g, barrel_length_mm, muzzle_energy_j, effective_range_m] =
                std::array::from_fn(|figure| {
                    let values: Vec<f64> = members.iter().filter_map(|f| f.averaged[figure]).collect();
                    let mean = (!values.is_empty())
                        .then(|| (values.iter().sum::<f64>() / values.len() as f64 * 10.0).round() / 10.0);
                    FigureMean { mean, count: values.len(), unit: MEAN_FIGURES[figure].0.to_owned() }
                });
            CategoryFigures {
                category: CategoryRef::of(category),
                firearm_count: members.len(),
                base_models: members.iter().filter(|f| f.base_model).count(),
                means: CategoryMeans { weight_empty_g, barrel_length_mm, muzzle_energy_j, effective_range_m },
            }
        })
        .collect()
}
