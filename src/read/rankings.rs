//! Superlative rankings (operation 11), the power rating (18) and the firearms of each action
//! type (14), ordered once per snapshot.
//!
//! Each ranked stat keeps the positions of the firearms that state the figure, best first, ties
//! by name; a firearm whose figure is unknown is never ranked. The power rating is one documented
//! formula (`power_score`), so an answer can always be recomputed by hand from its inputs.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::catalog::model::{Catalog, Firearm};
use crate::catalog::vocabulary::ACTION_TYPES;
use crate::read::orders::Order;

/// Which end of a figure wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    Lower,
    Higher,
}

impl Better {
    pub fn id(self) -> &'static str {
        match self {
            Better::Lower => "lower",
            Better::Higher => "higher",
        }
    }
}

/// A ranked stat: its name in `stat=`, the detail field it reads, the unit, and which end wins.
/// `value` reads the figure as a number to compare; `served` gives it as the detail serves it (a
/// year or a capacity stays an integer).
pub struct RankedStat {
    pub name: &'static str,
    pub field: &'static str,
    pub unit: &'static str,
    pub better: Better,
    pub value: fn(&Firearm) -> Option<f64>,
}

impl RankedStat {
    pub fn served(&self, firearm: &Firearm) -> serde_json::Value {
        let integral = matches!(self.field, "rateOfFireRpm" | "magazineCapacity" | "yearIntroduced");
        match (self.value)(firearm) {
            Some(value) if integral => serde_json::json!(value as i64),
            value => serde_json::json!(value),
        }
    }
}

pub const fn stat(
    name: &'static str,
    field: &'static str,
    unit: &'static str,
    better: Better,
    value: fn(&Firearm) -> Option<f64>,
) -> RankedStat {
    RankedStat { name, field, unit, better, value }
}

/// The `stat` values of operation 11, in the order operations.md lists them.
pub const RANKED_STATS: &[RankedStat] = &[
    stat("lightest", "weightEmptyG", "g", Better::Lower, |f| f.weight_empty_g),
    stat("heaviest", "weightEmptyG", "g", Better::Higher, |f| f.weight_empty_g),
    stat("longest_range", "effectiveRangeM", "m", Better::Higher, |f| f.effective_range_m),
    stat("highest_velocity", "muzzleVelocityMps", "m/s", Better::Higher, |f| f.muzzle_velocity_mps),
    stat("highest_energy", "muzzleEnergyJ", "J", Better::Higher, |f| f.muzzle_energy_j),
    stat("fastest_fire_rate", "rateOfFireRpm", "rounds/min", Better::Higher, |f| {
        f.rate_of_fire_rpm.map(|r| r as f64)
    }),
    stat("largest_capacity", "magazineCapacity", "rounds", Better::Higher, |f| {
        f.magazine_capacity.map(|c| c as f64)
    }),
    stat("oldest", "yearIntroduced", "year", Better::Lower, |f| f.year_introduced.map(|y| y as f64)),
    stat("newest", "yearIntroduced", "year", Better::Higher, |f| f.year_introduced.map(|y| y as f64)),
    stat("longest_barrel", "barrelLengthMm", "mm", Better::Higher, |f| f.barrel_length_mm),
    stat("shortest_overall", "overallLengthMm", "mm", Better::Lower, |f| f.overall_length_mm),
];

/// The names of `RANKED_STATS`, for the published enum.
pub const RANKED_STAT_NAMES: &[&str] = &[
    "lightest",
    "heaviest",
    "longest_range",
    "highest_velocity",
    "highest_energy",
    "fastest_fire_rate",
    "largest_capacity",
    "oldest",
    "newest",
    "longest_barrel",
    "shortest_overall",
];

/// The measurable fields compared, each with the end that wins (published by
/// the head-to-head operation's description).
pub const HEAD_TO_HEAD: &[RankedStat] = &[
    stat("weightEmptyG", "weightEmptyG", "g", Better::Lower, |f| f.weight_empty_g),
    stat("overallLengthMm", "overallLengthMm", "mm", Better::Lower, |f| f.overall_length_mm),
    stat("barrelLengthMm", "barrelLengthMm", "mm", Better::Higher, |f| f.barrel_length_mm),
    stat("muzzleVelocityMps", "muzzleVelocityMps", "m/s", Better::Higher, |f| f.muzzle_velocity_mps),
    stat("muzzleEnergyJ", "muzzleEnergyJ", "J", Better::Higher, |f| f.muzzle_energy_j),
    stat("effectiveRangeM", "effectiveRangeM", "m", Better::Higher, |f| f.effective_range_m),
    stat("maxRangeM", "maxRangeM", "m", Better::Higher, |f| f.max_range_m),
    stat("rateOfFireRpm", "rateOfFireRpm", "rounds/min", Better::Higher, |f| {
        f.rate_of_fire_rpm.map(|r| r as f64)
    }),
    stat("magazineCapacity", "magazineCapacity", "rounds", Better::Higher, |f| {
        f.magazine_capacity.map(|c| c as f64)
    }),
    stat("triggerPullN", "triggerPullN", "N", Better::Lower, |f| f.trigger_pull_n),
    stat("yearIntroduced", "yearIntroduced", "year", Better::Higher, |f| f.year_introduced.map(|y| y as f64)),
];

/// The rate of fire a firearm with none stated counts with in the power rating: one round a second.
pub const ASSUMED_RATE_RPM: f64 = 60.0;

/// What a power score was computed from.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PowerInputs {
    pub muzzle_energy_j: f64,
    /// Whether the energy is the firearm's own figure or its primary cartridge's typical one.
    pub energy_from_cartridge: bool,
    /// The firearm's stated rate of fire, if any.
    pub rate_of_fire_rpm: Option<i64>,
    pub score: f64,
}

/// The power score: muzzle energy in joules times the square root of the rate of fire in rounds
/// per second (`rateOfFireRpm ÷ 60`, or 1 when no rate is stated), rounded to one decimal. The
/// energy is the firearm's `muzzleEnergyJ`, else its primary cartridge's `typicalMuzzleEnergyJ`;
/// a firearm with neither is not rated. A semi-automatic 500 J pistol scores 500; a 2,000 J rifle
/// firing 600 rounds a minute scores 2,000 × √10 = 6,324.6.
pub fn power_score(muzzle_energy_j: f64, rate_of_fire_rpm: Option<i64>) -> f64 {
    let rate = rate_of_fire_rpm.map_or(ASSUMED_RATE_RPM, |r| r as f64).max(0.0);
    (muzzle_energy_j * (rate / 60.0).sqrt() * 10.0).round() / 10.0
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct Rankings {
    /// Per entry of `RANKED_STATS`: positions of the firearms stating the figure, best first.
    pub by_stat: Vec<Vec<u32>>,
    /// The same split by category (`category_at` order), so a category's top ten are its first
    /// ten, not the first ten of its kind found walking a ranking the other categories lead.
    pub by_stat_in_category: Vec<Vec<Vec<u32>>>,
    /// Per firearm: its power inputs, if it can be rated.
    pub power: Vec<Option<PowerInputs>>,
    /// Positions of the rated firearms, highest score first, ties by name.
    pub by_power: Vec<u32>,
    /// Per action type (`ACTION_TYPES` order): its firearms' positions by name, so a page of
    /// operation 14 is a slice, whatever the catalog's size.
    pub by_action: Vec<Vec<usize>>,
}

impl Rankings {
    /// The rankings of `catalog`; ties go by `names`, the name order (`Orders::name`).
    pub fn build(
        catalog: &Catalog,
        caliber_at: &HashMap<String, usize>,
        category_at: &HashMap<String, usize>,
        names: &Order,
    ) -> Self {
        // What each ranking reads of a firearm, in one pass over the firearms.
        let firearms = catalog.firearms.column(|f| Ranked {
            values: RANKED_STATS.iter().map(|stat| (stat.value)(f)).collect(),
            category: category_at.get(&f.category_id).copied(),
            power: power_inputs(f, catalog, caliber_at),
            action: ACTION_TYPES.iter().position(|known| Some(*known) == f.action_type.as_deref()),
        });
        // Sorted on integer keys (the value in `total_cmp` order, then the name rank): at
        // 100,000 firearms a comparator closure per stat was most of the rankings' build.
        let ranked = |value: &dyn Fn(usize) -> Option<f64>, better: Better| {
            let mut known: Vec<(i64, u32, u32)> = (0..firearms.len())
                .filter_map(|at| {
                    let key = total_order(value(at)?);
                    let key = match better {
                        Better::Lower => key,
                        Better::Higher => !key,
                    };
                    Some((key, names.key(at, false), at as u32))
                })
                .collect();
            known.sort_unstable();
            known.into_iter().map(|(_, _, at)| at).collect::<Vec<u32>>()
        };
        let by_stat: Vec<Vec<u32>> = RANKED_STATS
            .iter()
            .enumerate()
            .map(|(stat, s)| ranked(&|at| firearms[at].values[stat], s.better))
            .collect();
        let category_of: Vec<Option<usize>> = firearms.iter().map(|f| f.category).collect();
        let by_stat_in_category = by_stat
            .iter()
            .map(|order| {
                let mut split = vec![Vec::new(); category_at.len()];
                for &at in order {
                    if let Some(category) = category_of[at as usize] {
                        split[category].push(at);
                    }
                }
                split
            })
            .collect();
        let power: Vec<Option<PowerInputs>> = firearms.iter().map(|f| f.power).collect();
        let by_power = ranked(&|at| power[at].map(|p| p.score), Better::Higher);
        let mut by_action = vec![Vec::new(); ACTION_TYPES.len()];
        for at in names.iter(false) {
            if let Some(kind) = firearms[at].action {
                by_action[kind].push(at);
            }
        }
        Self { by_stat, by_stat_in_category, power, by_power, by_action }
    }
}

/// What the rankings read of one firearm.
struct Ranked {
    /// Per entry of `RANKED_STATS`, its figure.
    values: Vec<Option<f64>>,
    /// Its category's position.
    category: Option<usize>,
    power: Option<PowerInputs>,
    /// Its action type's place in `ACTION_TYPES`.
    action: Option<usize>,
}

/// `firearm`'s power inputs, if it can be rated (`power_score`).
fn power_inputs(
    firearm: &Firearm,
    catalog: &Catalog,
    caliber_at: &HashMap<String, usize>,
) -> Option<PowerInputs> {
    let cartridge_energy = || {
        let link = firearm.calibers.iter().find(|c| c.is_primary).or(firearm.calibers.first())?;
        catalog.calibers[*caliber_at.get(&link.caliber_id)?].typical_muzzle_energy_j
    };
    let (energy, from_cartridge) = match firearm.muzzle_energy_j {
        Some(energy) => (energy, false),
        None => (cartridge_energy()?, true),
    };
    Some(PowerInputs {
        muzzle_energy_j: energy,
        energy_from_cartridge: from_cartridge,
        rate_of_fire_rpm: firearm.rate_of_fire_rpm,
        score: power_score(energy, firearm.rate_of_fire_rpm),
    })
}

/// `value` as an integer in the order of `f64::total_cmp` (the same bit trick it uses).
fn total_order(value: f64) -> i64 {
    let bits = value.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

/// Ties and unknowns for a head-to-head: which side a field favours, if both state it.
pub fn winner(a: Option<f64>, b: Option<f64>, better: Better) -> Option<&'static str> {
    let (a, b) = (a?, b?);
    Some(match (a.total_cmp(&b), better) {
        (Ordering::Equal, _) => "tie",
        (Ordering::Less, Better::Lower) | (Ordering::Greater, Better::Higher) => "a",
        _ => "b",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_power_score_is_energy_times_the_root_of_rounds_per_second() {
        assert_eq!(power_score(500.0, None), 500.0);
        assert_eq!(power_score(2000.0, Some(600)), 6324.6);
        assert_eq!(power_score(1000.0, Some(60)), 1000.0);
    }

    #[test]
    fn integer_keys_keep_the_order_of_total_cmp() {
        let values = [f64::NEG_INFINITY, -2.5, -0.0, 0.0, 1e-9, 3.0, 1e300, f64::INFINITY];
        for pair in values.windows(2) {
            assert!(total_order(pair[0]) < total_order(pair[1]), "{pair:?}");
            assert!(!total_order(pair[0]) > !total_order(pair[1]), "reversed: {pair:?}");
        }
    }

    #[test]
    fn the_names_follow_the_stats() {
        let names: Vec<&str> = RANKED_STATS.iter().map(|s| s.name).collect();
        assert_eq!(names, RANKED_STAT_NAMES);
    }

    #[test]
    fn a_winner_needs_both_figures() {
        assert_eq!(winner(Some(1.0), Some(2.0), Better::Lower), Some("a"));
        assert_eq!(winner(Some(1.0), Some(2.0), Better::Higher), Some("b"));
        assert_eq!(winner(Some(2.0), Some(2.0), Better::Higher), Some("tie"));
        assert_eq!(winner(None, Some(2.0), Better::Higher), None);
    }
}
