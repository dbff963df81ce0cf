//! Figures derived from the whole catalog, computed once per snapshot so that no read recounts
//! the catalog: firearms per category, the per-country counts, name orders of the reference
//! records and each cartridge's parent chain. The statistics, game-analytics and MCP work read
//! these too.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::catalog::model::{Ammunition, Catalog};
use crate::catalog::vocabulary::BULLET_TYPES;
use crate::read::facts;

/// What the catalog says of one country.
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct CountryCounts {
    /// Firearms whose country of origin it is.
    pub firearms_of_origin: usize,
    /// Manufacturers based there.
    pub manufacturers: usize,
    /// Distinct firearms its users adopted.
    pub adopted_firearms: usize,
    /// Adopter entries (one per user and firearm).
    pub adopters: usize,
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct Aggregates {
    /// Per category (catalog order): how many firearms it holds.
    pub firearms_per_category: Vec<usize>,
    /// Per ISO country code, in code order.
    pub countries: BTreeMap<String, CountryCounts>,
    /// Positions ordered by name (case-insensitive), then id.
    pub manufacturers_by_name: Vec<usize>,
    pub calibers_by_name: Vec<usize>,
    pub ammunition_by_name: Vec<usize>,
    /// Per caliber (catalog order): its loads' positions by name, so a cartridge's loads are not
    /// found by walking every load (50,000 in the synthetic catalog of 100,000 firearms).
    pub ammunition_by_caliber: Vec<Vec<u32>>,
    /// Per load (catalog order): what the ammunition list filters on, so a filtered list decodes
    /// only its page's loads from the packed table (`catalog::held`).
    pub load_facts: Vec<LoadFacts>,
    /// Per caliber: its parent cartridge's position, if the catalog has it.
    pub caliber_parent: Vec<Option<usize>>,
}

/// What the ammunition list filters a load on.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LoadFacts {
    /// In `BULLET_TYPES`, or `facts::NONE` (none, or a value the list cannot ask for).
    pub bullet_type: u16,
    pub is_common: Option<bool>,
}

impl LoadFacts {
    fn of(load: &Ammunition) -> Self {
        Self {
            bullet_type: facts::vocabulary_index(BULLET_TYPES, load.bullet_type.as_deref()),
            is_common: load.is_common,
        }
    }
}

/// Parent chains are cut here; the loader refuses cycles, so only a bad row could reach it.
const MAX_CHAIN: usize = 32;

impl Aggregates {
    pub fn build(
        catalog: &Catalog,
        caliber_at: &HashMap<String, usize>,
        category_at: &HashMap<String, usize>,
    ) -> Self {
        let mut firearms_per_category = vec![0; catalog.categories.len()];
        for firearm in &catalog.firearms {
            if let Some(&at) = category_at.get(&firearm.category_id) {
                firearms_per_category[at] += 1;
            }
        }
        let ammunition = catalog.ammunition.typed();
        let ammunition_by_name = by_name(ammunition.iter().map(|a| (&a.name, &a.id)));
        let mut ammunition_by_caliber = vec![Vec::new(); catalog.calibers.len()];
        for &at in &ammunition_by_name {
            if let Some(&caliber) = caliber_at.get(&ammunition[at].caliber_id) {
                ammunition_by_caliber[caliber].push(at as u32);
            }
        }
        Self {
            firearms_per_category,
            countries: countries(catalog),
            manufacturers_by_name: by_name(catalog.manufacturers.iter().map(|m| (&m.name, &m.id))),
            calibers_by_name: by_name(catalog.calibers.iter().map(|c| (&c.name, &c.id))),
            ammunition_by_name,
            ammunition_by_caliber,
            load_facts: ammunition.iter().map(|load| LoadFacts::of(load)).collect(),
            caliber_parent: catalog
                .calibers
                .iter()
                .map(|c| c.parent_cartridge_id.as_ref().and_then(|p| caliber_at.get(p).copied()))
                .collect(),
        }
    }

    /// The caliber at `at`, then its parent, and so on up to the root.
    pub fn parent_chain(&self, at: usize) -> Vec<usize> {
        let mut chain = vec![at];
        while let Some(parent) = self.caliber_parent[*chain.last().expect("never empty")] {
            if chain.len() > MAX_CHAIN {
                break;
            }
            chain.push(parent);
        }
        chain
    }
}

fn countries(catalog: &Catalog) -> BTreeMap<String, CountryCounts> {
    // Keyed by the borrowed code while counting (a few hundred countries, a hundred thousand
    // firearms): an owned key per firearm was an allocation each.
    let mut counts: BTreeMap<&str, CountryCounts> = BTreeMap::new();
    let mut adopted: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let firearms = catalog.firearms.typed();
    for firearm in firearms.iter() {
        if let Some(code) = &firearm.country_of_origin {
            counts.entry(code.as_str()).or_default().firearms_of_origin += 1;
        }
        for user in &firearm.users {
            if let Some(code) = &user.country_code {
                counts.entry(code.as_str()).or_default().adopters += 1;
                adopted.entry(code).or_default().insert(&firearm.id);
            }
        }
    }
    for maker in &catalog.manufacturers {
        if let Some(code) = &maker.country_code {
            counts.entry(code.as_str()).or_default().manufacturers += 1;
        }
    }
    for (code, firearms) in adopted {
        counts.entry(code).or_default().adopted_firearms = firearms.len();
    }
    counts.into_iter().map(|(code, counts)| (code.to_owned(), counts)).collect()
}

fn by_name<'a>(records: impl Iterator<Item = (&'a String, &'a String)>) -> Vec<usize> {
    let mut keyed: Vec<(String, &String, usize)> =
        records.enumerate().map(|(at, (name, id))| (name.to_lowercase(), id, at)).collect();
    keyed.sort();
    keyed.into_iter().map(|(_, _, at)| at).collect()
}
