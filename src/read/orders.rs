//! The firearm list's sort orders (name, weight, year, caliber), computed once per snapshot.
//!
//! Each order lists firearm positions with the known values first, ascending; firearms without
//! the value follow, by name. Descending order reverses the known part only, so unknown values
//! stay at the end either way.

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};

use crate::catalog::model::{Catalog, Firearm};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    Name,
    Weight,
    Year,
    Caliber,
}

impl Sort {
    pub const NAMES: &'static [&'static str] = &["name", "weight", "year", "caliber"];

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "name" => Some(Sort::Name),
            "weight" => Some(Sort::Weight),
            "year" => Some(Sort::Year),
            "caliber" => Some(Sort::Caliber),
            _ => None,
        }
    }
}

/// Positions in order, how many of them (from the front) have the sort value, and each
/// position's rank in the order (its index in `positions`).
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Order {
    positions: Vec<u32>,
    known: usize,
    rank: Vec<u32>,
}

impl Order {
    fn new(positions: Vec<u32>, known: usize) -> Self {
        let mut rank = vec![0; positions.len()];
        for (i, &at) in positions.iter().enumerate() {
            rank[at as usize] = i as u32;
        }
        Self { positions, known, rank }
    }

    /// The positions with a known sort value, ascending.
    pub fn known(&self) -> &[u32] {
        &self.positions[..self.known]
    }

    /// The position at index `i` of the ascending or descending order.
    pub fn at(&self, i: usize, descending: bool) -> usize {
        let i = if descending && i < self.known { self.known - 1 - i } else { i };
        self.positions[i] as usize
    }

    /// Where `position` comes in the ascending or descending order (a sort key).
    pub fn key(&self, position: usize, descending: bool) -> u32 {
        let rank = self.rank[position];
        let known = self.known as u32;
        if descending && rank < known { known - 1 - rank } else { rank }
    }

    /// Every position in ascending or descending order, unknown values last.
    pub fn iter(&self, descending: bool) -> Box<dyn Iterator<Item = usize> + '_> {
        let (known, unknown) = self.positions.split_at(self.known);
        let unknown = unknown.iter().map(|&p| p as usize);
        if descending {
            Box::new(known.iter().rev().map(|&p| p as usize).chain(unknown))
        } else {
            Box::new(known.iter().map(|&p| p as usize).chain(unknown))
        }
    }
}

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Orders {
    pub name: Order,
    pub weight: Order,
    pub year: Order,
    pub caliber: Order,
}

impl Orders {
    pub fn build(catalog: &Catalog, caliber_at: &HashMap<String, usize>) -> Self {
        Self::build_from(catalog, caliber_at, None)
    }

    /// `build`, each sort starting from `seed`'s order when it orders the same firearms at the
    /// same positions (a patched snapshot's previous orders). The result is the same, since every
    /// order is total (ties end on the id), and the sort finds an order that is nearly right in
    /// long runs: a patch that moves one firearm sorts in about one pass instead of n log n.
    pub fn build_from(catalog: &Catalog, caliber_at: &HashMap<String, usize>, seed: Option<&Orders>) -> Self {
        let count = catalog.firearms.len();
        let seed = seed.filter(|seed| seed.name.positions.len() == count);
        let start = |order: Option<&Order>| -> Vec<u32> {
            order.map_or_else(|| (0..count as u32).collect(), |order| order.positions.clone())
        };
        let caliber_names = CaliberNames::of(catalog, caliber_at);
        // Every sort's key, read in one pass over the firearms.
        let keys = catalog.firearms.column(|f| SortKeys {
            name: (f.name.to_lowercase(), f.id.clone()),
            weight: f.weight_empty_g,
            year: year_key(f),
            caliber: caliber_names.key(f),
        });
        // Names are compared once, here; every other order breaks its ties by name rank, a
        // number (at 100,000 firearms the orders and rankings sorted names a dozen times).
        let name = by_name(&keys, start(seed.map(|s| &s.name)));
        let by_name = |a: usize, b: usize| name.rank[a].cmp(&name.rank[b]);
        Self {
            weight: order(start(seed.map(|s| &s.weight)), |i| keys[i].weight, &by_name),
            year: order(start(seed.map(|s| &s.year)), |i| keys[i].year, &by_name),
            caliber: order_by_key(start(seed.map(|s| &s.caliber)), |i| keys[i].caliber, &by_name),
            name,
        }
    }

    /// These orders (of the same firearms at the same positions) after the firearms at `changed`
    /// changed: each order without them, then each put back where its new values sort. The other
    /// firearms keep their relative order in every sort (their values and their names did not
    /// change), so each lands by a binary search that decodes a few dozen records instead of a
    /// sort over the catalog (a patch, `read::in_place`). Equals `build` of the new catalog.
    pub fn updated(&self, catalog: &Catalog, caliber_at: &HashMap<String, usize>, changed: &[usize]) -> Self {
        let firearms = &catalog.firearms;
        let changed: BTreeSet<u32> = changed.iter().map(|&at| at as u32).collect();
        let name_key = |at: usize| {
            let firearm = firearms.get(at);
            Some((firearm.name.to_lowercase(), firearm.id.clone()))
        };
        let name = reinserted(&self.name, &changed, name_key, &|_, _| Ordering::Equal);
        let by_name = |a: usize, b: usize| name.rank[a].cmp(&name.rank[b]);
        let caliber_names = CaliberNames::of(catalog, caliber_at);
        let caliber_key = |at: usize| caliber_names.key(&firearms.get(at)).map(str::to_owned);
        let weight_key = |at: usize| firearms.get(at).weight_empty_g.map(OrderedF64);
        let year_key = |at: usize| year_key(&firearms.get(at)).map(OrderedF64);
        Self {
            weight: reinserted(&self.weight, &changed, weight_key, &by_name),
            year: reinserted(&self.year, &changed, year_key, &by_name),
            caliber: reinserted(&self.caliber, &changed, caliber_key, &by_name),
            name,
        }
    }

    pub fn get(&self, sort: Sort) -> &Order {
        match sort {
            Sort::Name => &self.name,
            Sort::Weight => &self.weight,
            Sort::Year => &self.year,
            Sort::Caliber => &self.caliber,
        }
    }
}

fn year_key(firearm: &Firearm) -> Option<f64> {
    firearm.year_introduced.map(|y| y as f64)
}

/// The caliber sort's key: a firearm's primary cartridge's name, lowered (once per cartridge,
/// not once per firearm that chambers it).
struct CaliberNames<'a> {
    lowered: Vec<String>,
    caliber_at: &'a HashMap<String, usize>,
}

impl<'a> CaliberNames<'a> {
    fn of(catalog: &Catalog, caliber_at: &'a HashMap<String, usize>) -> Self {
        Self { lowered: catalog.calibers.iter().map(|c| c.name.to_lowercase()).collect(), caliber_at }
    }

    fn key(&self, firearm: &Firearm) -> Option<&str> {
        let link = firearm.calibers.iter().find(|c| c.is_primary).or(firearm.calibers.first())?;
        self.caliber_at.get(&link.caliber_id).map(|&i| self.lowered[i].as_str())
    }
}

/// `order` with the positions in `changed` taken out and put back by their (new) `key`, ties
/// by `by_name`; the rest must be in the new order already (`Orders::updated`).
fn reinserted<K: Ord>(
    order: &Order,
    changed: &BTreeSet<u32>,
    key: impl Fn(usize) -> Option<K>,
    by_name: &dyn Fn(usize, usize) -> Ordering,
) -> Order {
    let kept = |part: &[u32]| -> Vec<u32> { part.iter().copied().filter(|p| !changed.contains(p)).collect() };
    let (mut known, mut unknown) = (kept(order.known()), kept(&order.positions[order.known..]));
    for &at in changed {
        let before = |p: &u32| by_name(*p as usize, at as usize) == Ordering::Less;
        match key(at as usize) {
            Some(value) => {
                let before = |p: &u32| match key(*p as usize) {
                    Some(other) => other.cmp(&value).then_with(|| by_name(*p as usize, at as usize)),
                    None => Ordering::Greater,
                } == Ordering::Less;
                known.insert(known.partition_point(before), at);
            }
            None => unknown.insert(unknown.partition_point(before), at),
        }
    }
    let known_count = known.len();
    known.extend(unknown);
    Order::new(known, known_count)
}

/// A firearm's key in each sort: its name (lowered) and id, weight, year and primary cartridge's name.
struct SortKeys<'a> {
    name: (String, String),
    weight: Option<f64>,
    year: Option<f64>,
    caliber: Option<&'a str>,
}

/// Every firearm by name, case aside, ties by id: the name order and the tie-break of the others.
/// `positions` holds every position once, in the order the sort starts from.
fn by_name(keys: &[SortKeys], mut positions: Vec<u32>) -> Order {
    positions.sort_by(|&a, &b| keys[a as usize].name.cmp(&keys[b as usize].name));
    Order::new(positions, keys.len())
}

fn order(
    positions: Vec<u32>,
    value: impl Fn(usize) -> Option<f64>,
    by_name: &dyn Fn(usize, usize) -> Ordering,
) -> Order {
    let values: Vec<Option<f64>> = (0..positions.len()).map(value).collect();
    order_by_key(positions, |i| values[i].map(OrderedF64), by_name)
}

/// `positions` (every position once, in the order the sort starts from) by `key`, unknown last.
fn order_by_key<K: Ord>(
    mut positions: Vec<u32>,
    key: impl Fn(usize) -> Option<K>,
    by_name: &dyn Fn(usize, usize) -> Ordering,
) -> Order {
    let keys: Vec<Option<K>> = (0..positions.len()).map(key).collect();
    positions.sort_by(|&a, &b| match (&keys[a as usize], &keys[b as usize]) {
        (Some(x), Some(y)) => x.cmp(y).then_with(|| by_name(a as usize, b as usize)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => by_name(a as usize, b as usize),
    });
    let known = keys.iter().filter(|k| k.is_some()).count();
    Order::new(positions, known)
}

/// A float with the total order of `f64::total_cmp`, so numbers can be sort keys.
struct OrderedF64(f64);
impl PartialEq for OrderedF64 {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for OrderedF64 {}
impl PartialOrd for OrderedF64 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OrderedF64 {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_seeded_with_the_previous_ones_equal_orders_built_afresh() {
        let mut catalog = crate::catalog::synth::synthesize(600, 2);
        let caliber_at: HashMap<String, usize> =
            catalog.calibers.iter().enumerate().map(|(i, c)| (c.id.clone(), i)).collect();
        let before = Orders::build(&catalog, &caliber_at);
        for (i, firearm) in catalog.firearms.typed_mut().iter_mut().enumerate().step_by(37) {
            let firearm = std::sync::Arc::make_mut(firearm);
            firearm.name = format!("Moved {}", 600 - i);
            firearm.weight_empty_g = (i % 2 == 0).then_some(i as f64);
            firearm.year_introduced = None;
            firearm.calibers.reverse();
        }
        let fresh = Orders::build(&catalog, &caliber_at);
        let seeded = Orders::build_from(&catalog, &caliber_at, Some(&before));
        for sort in [Sort::Name, Sort::Weight, Sort::Year, Sort::Caliber] {
            let (fresh, seeded) = (fresh.get(sort), seeded.get(sort));
            assert_eq!(fresh.positions, seeded.positions, "{sort:?}");
            assert_eq!((fresh.known, &fresh.rank), (seeded.known, &seeded.rank), "{sort:?}");
        }
        assert_ne!(before.name.positions, fresh.name.positions, "the change moved firearms");
    }
}
