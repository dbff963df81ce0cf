//! Game-balance analytics (operations 21, 27, 85 to 89): everything they answer, computed once
//! per stats source and kept, so a request only slices what is already ordered and counted.
//!
//! A source is the live stats of a snapshot (built with its read model) or a frozen game-stats
//! version (loaded from the database once and kept in `versions::FrozenCache` until the catalog
//! revision moves). Either way the firearms' categories and list items come from the snapshot; a
//! frozen entry whose firearm the catalog no longer holds keeps its id, name and stats but has no
//! category (it counts in catalog-wide figures only) and no list item.
//!
//! - `stat`: the eight stats as a closed list, the overall score;
//! - `archetype`: the one rule naming a firearm's role;
//! - `distribution`: per-value counts (mean, deviation, percentiles, histograms);
//! - `tiers`: the S to D cut-offs over a ranked order;
//! - `balance`: z-score outliers; `matchup`: two firearms stat by stat;
//! - `versions`: the frozen sources' cache.

pub mod archetype;
pub mod balance;
pub mod distribution;
pub mod matchup;
pub mod stat;
pub mod tiers;
pub mod versions;

use std::collections::HashMap;

use self::archetype::ARCHETYPE_NAMES;
use self::distribution::Distribution;
use self::stat::Stats;
use crate::catalog::model::Catalog;

/// One firearm as the analytics see it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    pub id: String,
    /// The name the source gives (a frozen version keeps the name it was frozen with).
    pub name: String,
    /// Position in the snapshot's catalog, when the catalog holds the firearm.
    pub at: Option<usize>,
    /// Position of its category in the snapshot's catalog.
    pub category: Option<usize>,
    pub stats: Stats,
    /// `stat::overall`.
    pub overall: Option<f64>,
    /// `archetype::archetype`: position in `ARCHETYPE_NAMES` and the fitness.
    pub archetype: Option<(usize, f64)>,
}

/// What ranks a tier list: the overall score or one stat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    Overall,
    Stat(usize),
}

impl Metric {
    fn slot(self) -> usize {
        match self {
            Metric::Overall => 0,
            Metric::Stat(at) => 1 + at,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Metric::Overall => "overall",
            Metric::Stat(at) => stat::STAT_NAMES[at],
        }
    }
}

impl Entry {
    pub fn value(&self, metric: Metric) -> Option<f64> {
        match metric {
            Metric::Overall => self.overall,
            Metric::Stat(at) => self.stats[at].map(f64::from),
        }
    }
}

/// Firearms of one archetype in a scope.
#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ArchetypeGroup {
    pub firearms: u32,
    pub stats: [Distribution; 8],
}

/// The figures of one set of firearms: the whole source, or one category of it.
#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Scope {
    pub firearms: u32,
    /// Per stat.
    pub stats: [Distribution; 8],
    /// Per archetype (`ARCHETYPE_NAMES` order).
    pub archetypes: [ArchetypeGroup; 8],
    /// Firearms without an archetype (fewer than four known stats).
    pub unclassified: u32,
    /// Entry indexes best first, for the overall score then each stat; a firearm without the
    /// value is not ranked. Ties break by name (case-insensitive), then id.
    ranked: [Vec<u32>; 9],
}

impl Scope {
    /// Best first by `metric`.
    pub fn ranked(&self, metric: Metric) -> &[u32] {
        &self.ranked[metric.slot()]
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct GameAnalytics {
    /// The frozen version's label; None for the live stats.
    pub version: Option<String>,
    pub entries: Vec<Entry>,
    by_id: HashMap<String, u32>,
    /// The whole source, then one scope per category (catalog order).
    scopes: Vec<Scope>,
    /// Per archetype: its firearms, fittest first (ties by name).
    rosters: [Vec<u32>; 8],
}

/// One firearm's stats as a source gives them.
pub struct SourceRow {
    pub id: String,
    pub name: String,
    pub stats: Stats,
}

impl GameAnalytics {
    /// The analytics of `rows` over the snapshot's `catalog`.
    pub fn build(
        version: Option<String>,
        rows: Vec<SourceRow>,
        catalog: &Catalog,
        firearm_at: &HashMap<String, usize>,
        category_at: &HashMap<String, usize>,
    ) -> Self {
        Self::build_in_order(version, rows, catalog, (firearm_at, category_at), None)
    }

    /// `build`; `name_order`, when given, lists the rows by name (case aside), ties by id, as the
    /// sort below would (the live rows are the catalog's firearms, which the snapshot's name
    /// order lists so already: sorting 100,000 names again was a third of the analytics' build).
    fn build_in_order(
        version: Option<String>,
        rows: Vec<SourceRow>,
        catalog: &Catalog,
        (firearm_at, category_at): (&HashMap<String, usize>, &HashMap<String, usize>),
        name_order: Option<&[u32]>,
    ) -> Self {
        let entries: Vec<Entry> = rows
            .into_iter()
            .map(|row| {
                let at = firearm_at.get(&row.id).copied();
                let category =
                    at.and_then(|at| category_at.get(&catalog.firearms.get(at).category_id).copied());
                Entry {
                    overall: stat::overall(&row.stats),
                    archetype: archetype::archetype(&row.stats),
                    id: row.id,
                    name: row.name,
                    at,
                    category,
                    stats: row.stats,
                }
            })
            .collect();
        // One name order, so every later sort compares integers.
        let by_name: Vec<u32> = match name_order.filter(|order| order.len() == entries.len()) {
            Some(order) => order.to_vec(),
            None => {
                let mut by_name: Vec<u32> = (0..entries.len() as u32).collect();
                by_name.sort_by_cached_key(|&i| {
                    let e = &entries[i as usize];
                    (e.name.to_lowercase(), e.id.clone())
                });
                by_name
            }
        };
        let mut name_rank = vec![0u32; entries.len()];
        for (rank, &i) in by_name.iter().enumerate() {
            name_rank[i as usize] = rank as u32;
        }

        let mut scopes = vec![Scope::default(); catalog.categories.len() + 1];
        let mut rosters: [Vec<u32>; 8] = Default::default();
        for &i in &by_name {
            let entry = &entries[i as usize];
            let add = |scope: &mut Scope| {
                scope.firearms += 1;
                for (at, value) in entry.stats.iter().enumerate() {
                    if let Some(v) = value {
                        scope.stats[at].add(*v);
                    }
                }
                match entry.archetype {
                    Some((kind, _)) => {
                        let group = &mut scope.archetypes[kind];
                        group.firearms += 1;
                        for (at, value) in entry.stats.iter().enumerate() {
                            if let Some(v) = value {
                                group.stats[at].add(*v);
                            }
                        }
                    }
                    None => scope.unclassified += 1,
                }
                for slot in 0..9 {
                    let metric = if slot == 0 { Metric::Overall } else { Metric::Stat(slot - 1) };
                    if entry.value(metric).is_some() {
                        scope.ranked[slot].push(i);
                    }
                }
            };
            add(&mut scopes[0]);
            if let Some(category) = entry.category {
                add(&mut scopes[1 + category]);
            }
            if let Some((kind, _)) = entry.archetype {
                rosters[kind].push(i);
            }
        }
        // Highest value first, ties in name order (the order the lists were filled in).
        let by_value = |list: &mut Vec<u32>, value: &dyn Fn(&Entry) -> f64| {
            most_first_by_name(list, &name_rank, &by_name, |i| value(&entries[i as usize]))
        };
        for scope in &mut scopes {
            for slot in 0..9 {
                let metric = if slot == 0 { Metric::Overall } else { Metric::Stat(slot - 1) };
                by_value(&mut scope.ranked[slot], &|entry| entry.value(metric).unwrap_or(0.0));
            }
        }
        for roster in &mut rosters {
            by_value(roster, &|entry| entry.archetype.map_or(0.0, |(_, fit)| fit));
        }
        let by_id = entries.iter().enumerate().map(|(i, e)| (e.id.clone(), i as u32)).collect();
        debug_assert_eq!(ARCHETYPE_NAMES.len(), rosters.len());
        Self { version, entries, by_id, scopes, rosters }
    }

    /// The analytics of the live stats: every catalog firearm with the stats of its import.
    /// `name_order`: the firearms' positions by name, ties by id (`Orders::name`).
    pub fn live(
        catalog: &Catalog,
        stats: &crate::read::held_stats::HeldStats,
        positions: (&HashMap<String, usize>, &HashMap<String, usize>),
        name_order: &[u32],
    ) -> Self {
        let rows = catalog
            .firearms
            .iter()
            .zip(stats.iter())
            .map(|(f, s)| SourceRow { id: f.id.clone(), name: f.name.clone(), stats: stat::of(&s) })
            .collect();
        Self::build_in_order(None, rows, catalog, positions, Some(name_order))
    }

    pub fn entry(&self, id: &str) -> Option<&Entry> {
        self.by_id.get(id).map(|&i| &self.entries[i as usize])
    }

    pub fn entry_at(&self, index: u32) -> &Entry {
        &self.entries[index as usize]
    }

    /// Every firearm of the source.
    pub fn catalog_scope(&self) -> &Scope {
        &self.scopes[0]
    }

    /// The firearms of the category at `category` (catalog position).
    pub fn category_scope(&self, category: usize) -> &Scope {
        &self.scopes[1 + category]
    }

    /// The scope of an optional category.
    pub fn scope(&self, category: Option<usize>) -> &Scope {
        category.map_or(self.catalog_scope(), |c| self.category_scope(c))
    }

    /// The firearms of `archetype`, fittest first.
    pub fn roster(&self, archetype: usize) -> &[u32] {
        &self.rosters[archetype]
    }
}

/// Sort `list` (entry indexes) by `value`, highest first in `f64::total_cmp`'s order, ties by
/// name rank: what a stable sort by value of a list filled in name order gives. Each entry is
/// keyed by two integers (its value's place, then its name rank) and the keys sorted, where a
/// comparison sort looked both entries up on every comparison.
fn most_first_by_name(list: &mut [u32], name_rank: &[u32], by_name: &[u32], value: impl Fn(u32) -> f64) {
    let mut keys: Vec<(u64, u32)> =
        list.iter().map(|&i| (!total_order_key(value(i)), name_rank[i as usize])).collect();
    keys.sort_unstable();
    for (slot, (_, rank)) in list.iter_mut().zip(keys) {
        *slot = by_name[rank as usize];
    }
}

/// `value`'s place in `f64::total_cmp`'s order, as an unsigned integer (the same bit trick).
fn total_order_key(value: f64) -> u64 {
    let bits = value.to_bits() as i64;
    let ordered = bits ^ ((((bits >> 63) as u64) >> 1) as i64);
    (ordered as u64) ^ (1 << 63)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_keys_order_values_as_total_cmp_does() {
        let values = [f64::NEG_INFINITY, -2.5, -0.0, 0.0, 1e-300, 3.0, 7.25, f64::INFINITY, f64::NAN];
        for a in values {
            for b in values {
                assert_eq!(total_order_key(a).cmp(&total_order_key(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
        // Ties keep the name order; the highest value comes first.
        let (name_rank, by_name) = (vec![2, 0, 1, 3], vec![1, 2, 0, 3]);
        let value = |i: u32| [1.0, 1.0, 5.0, 1.0][i as usize];
        let mut list = vec![1, 2, 0, 3];
        most_first_by_name(&mut list, &name_rank, &by_name, value);
        assert_eq!(list, vec![2, 1, 0, 3]);
    }

    #[test]
    fn live_analytics_in_the_snapshot_name_order_equal_those_sorted_by_name_here() {
        let mut catalog = crate::catalog::synth::synthesize(400, 4);
        // Names that tie case aside, so the order's tie-break by id counts.
        for i in (0..40).step_by(2) {
            std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[i + 1]).name =
                catalog.firearms.as_typed()[i].name.to_uppercase();
        }
        let positions = |ids: Vec<&String>| -> HashMap<String, usize> {
            ids.into_iter().enumerate().map(|(i, id)| (id.clone(), i)).collect()
        };
        let firearm_at = positions(catalog.firearms.as_typed().iter().map(|f| &f.id).collect());
        let category_at = positions(catalog.categories.iter().map(|c| &c.id).collect());
        let caliber_at = positions(catalog.calibers.iter().map(|c| &c.id).collect());
        let derived = crate::catalog::game_stats::derive(&catalog);
        let stats: crate::read::held_stats::HeldStats =
            catalog.firearms.iter().map(|f| derived[&f.id]).collect();
        let orders = crate::read::orders::Orders::build(&catalog, &caliber_at);

        let live = GameAnalytics::live(&catalog, &stats, (&firearm_at, &category_at), orders.name.known());
        let rows = catalog
            .firearms
            .iter()
            .zip(stats.iter())
            .map(|(f, s)| SourceRow { id: f.id.clone(), name: f.name.clone(), stats: stat::of(&s) })
            .collect();
        let sorted_here = GameAnalytics::build(None, rows, &catalog, &firearm_at, &category_at);
        // Everything but the id lookup, a hash map whose serialised order is the hasher's.
        let without_lookup = |analytics: &GameAnalytics| {
            let mut value = serde_json::to_value(analytics).unwrap();
            value.as_object_mut().unwrap().remove("by_id");
            value
        };
        assert!(without_lookup(&live) == without_lookup(&sorted_here));
    }
}
