//! How complete the catalog is: the share of firearms with each detail field filled (73), and
//! firearms per category and decade of introduction (74).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{CategoryRef, Read, decade_label, share};
use crate::catalog::model::{Catalog, Firearm};

/// A field is filled when it holds a value (a list: at least one item).
pub trait Filled {
    fn filled(&self) -> bool;
}

impl<T> Filled for Option<T> {
    fn filled(&self) -> bool {
        self.is_some()
    }
}

impl<T> Filled for Vec<T> {
    fn filled(&self) -> bool {
        !self.is_empty()
    }
}

macro_rules! fields {
    ($($name:literal => $field:ident),* $(,)?) => {
        &[$(($name, |f: &Firearm| f.$field.filled())),*]
    };
}

/// Whether a firearm has a field filled.
pub type FilledTest = fn(&Firearm) -> bool;

/// Every optional field of the firearm detail, by its served name, in the detail's order.
pub const COVERED_FIELDS: &[(&str, FilledTest)] = fields![
    "parentFirearmId" => parent_firearm_id,
    "variantType" => variant_type,
    "yearIntroduced" => year_introduced,
    "yearDiscontinued" => year_discontinued,
    "status" => status,
    "countryOfOrigin" => country_of_origin,
    "designer" => designer,
    "weightEmptyG" => weight_empty_g,
    "weightLoadedG" => weight_loaded_g,
    "overallLengthMm" => overall_length_mm,
    "barrelLengthMm" => barrel_length_mm,
    "heightMm" => height_mm,
    "widthMm" => width_mm,
    "sightRadiusMm" => sight_radius_mm,
    "foldedLengthMm" => folded_length_mm,
    "actionType" => action_type,
    "firingMechanism" => firing_mechanism,
    "triggerType" => trigger_type,
    "magazineType" => magazine_type,
    "triggerPullN" => trigger_pull_n,
    "magazineCapacity" => magazine_capacity,
    "muzzleVelocityMps" => muzzle_velocity_mps,
    "muzzleEnergyJ" => muzzle_energy_j,
    "effectiveRangeM" => effective_range_m,
    "maxRangeM" => max_range_m,
    "rateOfFireRpm" => rate_of_fire_rpm,
    "barrelRifling" => barrel_rifling,
    "riflingTwistMm" => rifling_twist_mm,
    "numberOfGrooves" => number_of_grooves,
    "frameMaterial" => frame_material,
    "slideMaterial" => slide_material,
    "barrelMaterial" => barrel_material,
    "stockMaterial" => stock_material,
    "finish" => finish,
    "safetyMechanisms" => safety_mechanisms,
    "features" => features,
    "feedSystems" => feed_systems,
    "alternateNames" => alternate_names,
    "firingModes" => firing_modes,
    "conflicts" => conflicts,
    "productionNumbers" => production_numbers,
    "description" => description,
    "notes" => notes,
    "lore" => lore,
    "platformId" => platform_id,
    "interfaces" => interfaces,
    "users" => users,
    "images" => images,
    "dataConfidence" => data_confidence,
    "sources" => sources,
];

/// Which of `COVERED_FIELDS` `firearm` fills: bit `i` for the `i`th.
pub fn filled_fields(firearm: &Firearm) -> u64 {
    const { assert!(COVERED_FIELDS.len() <= 64, "a field's bit fits in a u64") };
    COVERED_FIELDS
        .iter()
        .enumerate()
        .fold(0, |bits, (i, (_, filled))| bits | (u64::from(filled(firearm)) << i))
}

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatsFieldCoverage {
    #[schema(value_type = i64)]
    pub total: usize,
    #[schema(value_type = i64)]
    pub field_count: usize,
    pub mean_filled_per_firearm: f64,
    pub fields: Vec<FieldCoverage>,
}

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
pub struct FieldCoverage {
    /// The detail field's served name.
    pub field: String,
    #[schema(value_type = i64)]
    pub filled: usize,
    /// Of all firearms, 0 to 1 (four places).
    pub share: f64,
}

pub fn field_coverage(firearms: &[Read]) -> StatsFieldCoverage {
    let total = firearms.len();
    // Per field, how many firearms fill it.
    let mut filled_count = vec![0usize; COVERED_FIELDS.len()];
    for firearm in firearms {
        for (i, count) in filled_count.iter_mut().enumerate() {
            *count += (firearm.filled >> i & 1) as usize;
        }
    }
    let fields = COVERED_FIELDS
        .iter()
        .zip(&filled_count)
        .map(|((name, _), &filled)| FieldCoverage {
            field: (*name).to_owned(),
            filled,
            share: share(filled, total),
        })
        .collect();
    let filled_per_firearm = if total == 0 {
        0.0
    } else {
        let sum: usize = filled_count.iter().sum();
        (sum as f64 / total as f64 * 10.0).round() / 10.0
    };
    StatsFieldCoverage {
        total,
        field_count: COVERED_FIELDS.len(),
        mean_filled_per_firearm: filled_per_firearm,
        fields,
    }
}

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryCoverage {
    #[schema(value_type = crate::read::rendered::shapes::NamedRef)]
    pub category: CategoryRef,
    #[schema(value_type = i64)]
    pub total: usize,
    /// Oldest first.
    pub decades: Vec<DecadeCount>,
    #[schema(value_type = i64)]
    pub unknown_year: usize,
}

#[derive(Serialize, Deserialize, utoipa::ToSchema)]
pub struct DecadeCount {
    /// e.g. 1940s
    pub decade: String,
    #[schema(value_type = i64)]
    pub count: usize,
}

/// Per category: the firearms introduced in each decade (oldest first) and those with no year.
pub fn catalog_coverage(
    catalog: &Catalog,
    firearms: &[Read],
    category_of: &[Option<usize>],
) -> Vec<CategoryCoverage> {
    catalog
        .categories
        .iter()
        .enumerate()
        .map(|(at, category)| {
            let mut decades: BTreeMap<i64, usize> = BTreeMap::new();
            let mut total = 0;
            let mut unknown = 0;
            for (firearm, _) in firearms.iter().zip(category_of).filter(|(_, c)| **c == Some(at)) {
                total += 1;
                match firearm.year_introduced {
                    Some(year) => *decades.entry(year - year.rem_euclid(10)).or_default() += 1,
                    None => unknown += 1,
                }
            }
            CategoryCoverage {
                category: CategoryRef::of(category),
                total,
                decades: decades
                    .into_iter()
                    .map(|(decade, count)| DecadeCount { decade: decade_label(decade), count })
                    .collect(),
                unknown_year: unknown,
            }
        })
        .collect()
}
