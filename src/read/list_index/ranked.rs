//! Every closed filter's set in every sort's order, so a list with one closed filter (a
//! category, a maker, a caliber...) reads its page straight off its own order.
//!
//! Walking the whole sort order through a membership test costs the position of the page's last
//! match, and matches cluster: sorted by weight, the rifles come after every lighter firearm. These
//! lists are built in one pass over each order (a position joins its sets' lists in order), so
//! they cost the closed sets again per sort and a few passes at build.

use std::collections::HashMap;
use std::sync::Arc;

use super::super::facts::{Facts, NONE};
use super::super::orders::{Orders, Sort};

/// Which closed filter's set, for which value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SetKey {
    Manufacturer(u32),
    Category(u16),
    Caliber(u32),
    Action(u16),
    Status(u16),
    Country([u8; 2]),
    Has3dModel(bool),
}

impl SetKey {
    /// The closed sets a firearm belongs to.
    pub(super) fn of(f: &Facts, mut each: impl FnMut(SetKey)) {
        each(SetKey::Manufacturer(f.manufacturer));
        each(SetKey::Category(f.category));
        let mut seen: Vec<u32> = Vec::new();
        for &c in f.calibers.iter() {
            // A caliber linked twice is one membership.
            if !seen.contains(&c) {
                seen.push(c);
                each(SetKey::Caliber(c));
            }
        }
        if f.action != NONE {
            each(SetKey::Action(f.action));
        }
        if f.status != NONE {
            each(SetKey::Status(f.status));
        }
        each(SetKey::Country(f.country));
        each(SetKey::Has3dModel(f.has_3d_model));
    }
}

/// One set in one sort's ascending order, positions with a known sort value first. Descending
/// reverses the known part only, as `Order::at` does (unknown values last either way).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct Ranked {
    positions: Vec<u32>,
    known: usize,
}

const SORTS: [Sort; 4] = [Sort::Name, Sort::Weight, Sort::Year, Sort::Caliber];

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RankedSets {
    /// Per entry of `SORTS`.
    /// Shared with a patched snapshot's sets but those its changed firearms are in
    /// (`updated`): together they are about 13 MB at 100,000 firearms.
    by_sort: Vec<HashMap<SetKey, Arc<Ranked>>>,
}

impl RankedSets {
    pub fn build(facts: &[Facts], orders: &Orders) -> Self {
        // Each firearm's sets as numbers, keys hashed once: the four passes below only index.
        let mut numbers: HashMap<SetKey, usize> = HashMap::new();
        let mut keys: Vec<SetKey> = Vec::new();
        let mut starts: Vec<usize> = Vec::with_capacity(facts.len() + 1);
        let mut memberships: Vec<u32> = Vec::with_capacity(facts.len() * 8);
        for f in facts {
            starts.push(memberships.len());
            SetKey::of(f, |key| {
                let number = *numbers.entry(key).or_insert_with(|| {
                    keys.push(key);
                    keys.len() - 1
                });
                memberships.push(number as u32);
            });
        }
        starts.push(memberships.len());
        let by_sort = SORTS
            .iter()
            .map(|&sort| {
                let order = orders.get(sort);
                let known = order.known().len();
                let mut sets: Vec<Ranked> = keys.iter().map(|_| Ranked::default()).collect();
                for i in 0..facts.len() {
                    let at = order.at(i, false);
                    for &number in &memberships[starts[at]..starts[at + 1]] {
                        let set = &mut sets[number as usize];
                        set.positions.push(at as u32);
                        set.known += usize::from(i < known);
                    }
                }
                keys.iter().copied().zip(sets.into_iter().map(Arc::new)).collect()
            })
            .collect();
        Self { by_sort }
    }

    /// These sets after the firearms at `changed` changed (`ListIndex::updated`): each taken out
    /// of the sets its `previous` facts put it in, then put into the sets its new facts do, at its
    /// rank in each new order (the others keep their relative order in every sort).
    pub fn updated(&self, previous: &[Facts], facts: &[Facts], orders: &Orders, changed: &[usize]) -> Self {
        let mut sets = self.clone();
        for (at_sort, by_key) in sets.by_sort.iter_mut().enumerate() {
            let order = orders.get(SORTS[at_sort]);
            let known = order.known().len() as u32;
            for &at in changed {
                SetKey::of(&previous[at], |key| {
                    let Some(set) = by_key.get_mut(&key) else { return };
                    let set = Arc::make_mut(set);
                    if let Some(i) = set.positions.iter().position(|&p| p as usize == at) {
                        set.positions.remove(i);
                        set.known -= usize::from(i < set.known);
                    }
                    if set.positions.is_empty() {
                        by_key.remove(&key);
                    }
                });
            }
            for &at in changed {
                let rank = order.key(at, false);
                SetKey::of(&facts[at], |key| {
                    let set = Arc::make_mut(by_key.entry(key).or_default());
                    let i = set.positions.partition_point(|&p| order.key(p as usize, false) < rank);
                    set.positions.insert(i, at as u32);
                    set.known += usize::from(rank < known);
                });
            }
        }
        sets
    }

    /// The positions of set `key` with a known `sort` value, ascending (empty for a set no
    /// firearm is in).
    pub fn known(&self, key: SetKey, sort: Sort) -> &[u32] {
        let at_sort = SORTS.iter().position(|&s| s == sort).expect("every sort is listed");
        self.by_sort[at_sort].get(&key).map_or(&[], |set| &set.positions[..set.known])
    }

    /// Positions `window` of the set `key` in `sort` order, and the set's size (nothing and 0 for
    /// a set no firearm is in).
    pub fn page(
        &self,
        key: SetKey,
        (sort, descending): (Sort, bool),
        window: std::ops::Range<usize>,
    ) -> (Vec<usize>, usize) {
        let at_sort = SORTS.iter().position(|&s| s == sort).expect("every sort is listed");
        let Some(set) = self.by_sort[at_sort].get(&key) else { return (Vec::new(), 0) };
        let end = window.end.min(set.positions.len());
        let positions = (window.start.min(end)..end)
            .map(|i| {
                let i = if descending && i < set.known { set.known - 1 - i } else { i };
                set.positions[i] as usize
            })
            .collect();
        (positions, set.positions.len())
    }
}
