//! The catalog statistics (operations 71 to 84), derived once per snapshot so that no request
//! recounts the catalog: the answers that take no parameter are kept rendered, and those that do
//! (a category, a decade, a country, an adopter type) read tallies built here. Each file holds one
//! family of figures; `tally` is the one counting rule they share (most first, ties by key).

mod adoption;
pub mod coverage;
mod eras;
pub mod frequency;
mod summary;

use std::collections::BTreeMap;

pub use adoption::{Adoption, AdoptionCount};
pub use coverage::{COVERED_FIELDS, CategoryCoverage, DecadeCount, FieldCoverage, StatsFieldCoverage};
pub use eras::{Eras, decade_label, parse_decade};
pub use frequency::{ComponentMaterials, Frequencies, MaterialCount};
pub use summary::{
    CategoryFigures, CategoryMeans, FigureMean, StatsProductionStatus, StatsSummary, StatusCount,
};

use crate::catalog::model::Catalog;
use crate::read::facts::Facts;
use crate::read::orders::Order;

/// Everything the statistics operations read.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Statistics {
    /// 71: record counts, catalog revision and last change (the revision is set per request).
    pub summary: StatsSummary,
    /// 72: firearms per production status.
    pub production_status: StatsProductionStatus,
    /// 73: the share of firearms with each detail field filled.
    pub field_coverage: StatsFieldCoverage,
    /// 74: firearms per category and decade.
    pub catalog_coverage: Vec<CategoryCoverage>,
    /// 77: counts and mean figures per category.
    pub by_category: Vec<CategoryFigures>,
    /// 79: materials per component.
    pub materials: Vec<ComponentMaterials>,
    /// 75, 76, 82, 83: counts over all firearms and per category.
    pub frequencies: Frequencies,
    /// 78, 84: firearms and cartridges by decade of introduction.
    pub eras: Eras,
    /// 80, 81: adopters by country and by type.
    pub adoption: Adoption,
}

impl Statistics {
    /// The figures of `catalog`; `facts` are its firearms' packed facts (`read::facts`), whose
    /// positions spare hashing ids again; `names` is its name order (`Orders::name`), which
    /// breaks ties.
    pub fn build(catalog: &Catalog, facts: &[Facts], names: &Order, last_change: Option<String>) -> Self {
        let category_of: Vec<Option<usize>> = facts.iter().map(Facts::category_position).collect();
        let firearms = catalog.firearms.column(Read::of);
        Self {
            summary: summary::summary(catalog, &firearms, last_change),
            production_status: summary::production_status(&firearms),
            field_coverage: coverage::field_coverage(&firearms),
            catalog_coverage: coverage::catalog_coverage(catalog, &firearms, &category_of),
            by_category: summary::by_category(catalog, &firearms, &category_of),
            materials: frequency::materials(&firearms),
            frequencies: Frequencies::build(catalog, &firearms, &category_of, facts),
            eras: Eras::build(&firearms, facts, names),
            adoption: Adoption::build(&firearms),
        }
    }
}

/// A category's id and name (described as `NamedRef`).
#[derive(serde::Serialize, serde::Deserialize)]
pub struct CategoryRef {
    pub id: String,
    pub name: String,
}

impl CategoryRef {
    fn of(category: &crate::catalog::model::Category) -> Self {
        Self { id: category.id.clone(), name: category.name.clone() }
    }
}

/// What the statistics read of one firearm, taken for all of them in one pass (`Held::column`):
/// a pass per figure decoded every firearm of a packed catalog nine times over.
pub struct Read {
    base_model: bool,
    country_of_origin: Option<String>,
    status: Option<String>,
    /// Bit `i` set when the firearm fills `COVERED_FIELDS[i]`.
    filled: u64,
    year_introduced: Option<i64>,
    /// `summary::MEAN_FIGURES`, in their order.
    averaged: [Option<f64>; summary::MEAN_FIGURES.len()],
    /// Per `frequency::COMPONENTS` entry, the stated material, trimmed and in lower case.
    materials: [Option<String>; frequency::COMPONENTS.len()],
    action_type: Option<String>,
    /// Its features, trimmed, in lower case, each once, sorted.
    features: Vec<String>,
    /// Per adopter, its user type and country code as stated.
    users: Vec<(Option<String>, Option<String>)>,
}

impl Read {
    fn of(firearm: &crate::catalog::model::Firearm) -> Self {
        let mut features: Vec<String> =
            firearm.features.iter().flatten().map(|feature| feature.trim().to_lowercase()).collect();
        features.sort_unstable();
        features.dedup();
        Self {
            base_model: firearm.parent_firearm_id.is_none(),
            country_of_origin: firearm.country_of_origin.as_deref().map(str::to_owned),
            status: firearm.status.as_deref().map(str::to_owned),
            filled: coverage::filled_fields(firearm),
            year_introduced: firearm.year_introduced,
            averaged: summary::MEAN_FIGURES.map(|(_, figure)| figure(firearm)),
            materials: frequency::COMPONENTS
                .map(|(_, material)| material(firearm).map(|m| m.trim().to_lowercase())),
            action_type: firearm.action_type.as_deref().map(str::to_owned),
            features,
            users: firearm
                .users
                .iter()
                .map(|user| {
                    (
                        user.user_type.as_deref().map(str::to_owned),
                        user.country_code.as_deref().map(str::to_owned),
                    )
                })
                .collect(),
        }
    }
}

/// Count each key and order them most first, ties by key (so answers never shuffle).
pub fn tally<K: Ord>(keys: impl IntoIterator<Item = K>) -> Vec<(K, usize)> {
    let mut counts: BTreeMap<K, usize> = BTreeMap::new();
    for key in keys {
        *counts.entry(key).or_default() += 1;
    }
    most_first(counts)
}

/// Counted keys, most first, ties by key.
pub fn most_first<K: Ord>(counts: BTreeMap<K, usize>) -> Vec<(K, usize)> {
    let mut counted: Vec<(K, usize)> = counts.into_iter().collect();
    counted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    counted
}

/// `part` of `whole`, as a share from 0 to 1 rounded to four places (0 of nothing is 0).
pub fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { (part as f64 / whole as f64 * 10_000.0).round() / 10_000.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_put_the_most_first_and_break_ties_by_key() {
        assert_eq!(tally(["b", "a", "b", "c", "a"]), [("a", 2), ("b", 2), ("c", 1)]);
        assert_eq!(share(1, 3), 0.3333);
        assert_eq!(share(0, 0), 0.0);
    }
}
