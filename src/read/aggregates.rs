//! Figures derived from the whole catalog, computed once per snapshot so that no read recounts
//! the catalog: firearms per category, the per-country counts, name orders of the reference
//! records and each cartridge's parent chain. The statistics, game-analytics and MCP work read
//! these too.

use std::collections::{BTreeMap, HashMap};

use crate::catalog::model::{Ammunition, Catalog, Firearm};
use crate::catalog::vocabulary::BULLET_TYPES;
use crate::read::facts;
use crate::read::in_place::ChangedFirearm;

/// What the catalog says of one country.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
        let loads = Loads::of(catalog, caliber_at);
        Self::assembled(catalog, caliber_at, firearms_per_category, countries(catalog), loads)
    }

    /// These figures after `changed` firearms (before, after) changed in place, the makers,
    /// categories and calibers kept their positions and, unless `loads_changed`, the loads are
    /// as they were (`read::in_place`): the firearms' counts are moved by what each changed
    /// firearm counted before and counts now, instead of a walk over every firearm. Equals
    /// `build` of the new catalog (tested).
    pub fn updated(
        &self,
        catalog: &Catalog,
        positions: (&HashMap<String, usize>, &HashMap<String, usize>),
        changed: &[ChangedFirearm],
        loads_changed: bool,
    ) -> Self {
        let (caliber_at, category_at) = positions;
        let mut firearms_per_category = self.firearms_per_category.clone();
        let mut countries: BTreeMap<String, CountryCounts> = self.countries.clone();
        for counts in countries.values_mut() {
            counts.manufacturers = 0;
        }
        count_makers(catalog, |code| countries.entry(code.to_owned()).or_default().manufacturers += 1);
        for ChangedFirearm { before, after, .. } in changed {
            for (firearm, step) in [(before, -1), (after, 1)] {
                if let Some(&at) = category_at.get(&firearm.category_id) {
                    firearms_per_category[at] = firearms_per_category[at].saturating_add_signed(step);
                }
                count_firearm(firearm, |code, count| {
                    let counts = countries.entry(code.to_owned()).or_default();
                    let (figure, by) = match count {
                        Count::Origin => (&mut counts.firearms_of_origin, step),
                        Count::Adopter(adopters) => (&mut counts.adopters, step * adopters as isize),
                        Count::Adopted => (&mut counts.adopted_firearms, step),
                    };
                    *figure = figure.saturating_add_signed(by);
                });
            }
        }
        // A build lists only the countries something counts in.
        countries.retain(|_, counts| {
            counts.firearms_of_origin + counts.manufacturers + counts.adopted_firearms + counts.adopters > 0
        });
        let loads = if loads_changed {
            Loads::of(catalog, caliber_at)
        } else {
            Loads {
                by_name: self.ammunition_by_name.clone(),
                by_caliber: self.ammunition_by_caliber.clone(),
                facts: self.load_facts.clone(),
            }
        };
        Self::assembled(catalog, caliber_at, firearms_per_category, countries, loads)
    }

    /// The figures from the firearms' counts and the loads' orders, the small tables' own added.
    fn assembled(
        catalog: &Catalog,
        caliber_at: &HashMap<String, usize>,
        firearms_per_category: Vec<usize>,
        countries: BTreeMap<String, CountryCounts>,
        loads: Loads,
    ) -> Self {
        Self {
            firearms_per_category,
            countries,
            manufacturers_by_name: by_name(catalog.manufacturers.iter().map(|m| (&m.name, &m.id))),
            calibers_by_name: by_name(catalog.calibers.iter().map(|c| (&c.name, &c.id))),
            ammunition_by_name: loads.by_name,
            ammunition_by_caliber: loads.by_caliber,
            load_facts: loads.facts,
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

/// The loads' figures: their name order, each cartridge's loads by name, and what the ammunition
/// list filters on.
struct Loads {
    by_name: Vec<usize>,
    by_caliber: Vec<Vec<u32>>,
    facts: Vec<LoadFacts>,
}

impl Loads {
    fn of(catalog: &Catalog, caliber_at: &HashMap<String, usize>) -> Self {
        let ammunition = catalog.ammunition.typed();
        let by_name = by_name(ammunition.iter().map(|a| (&a.name, &a.id)));
        let mut by_caliber = vec![Vec::new(); catalog.calibers.len()];
        for &at in &by_name {
            if let Some(&caliber) = caliber_at.get(&ammunition[at].caliber_id) {
                by_caliber[caliber].push(at as u32);
            }
        }
        let facts = ammunition.iter().map(|load| LoadFacts::of(load)).collect();
        Self { by_name, by_caliber, facts }
    }
}

/// What a firearm counts in its countries' figures.
enum Count {
    /// Its country of origin.
    Origin,
    /// This many of its users are of the country.
    Adopter(usize),
    /// Some of its users are (it is one of the country's adopted firearms).
    Adopted,
}

/// Each of `firearm`'s counts, with the country it counts in.
fn count_firearm<'a>(firearm: &'a Firearm, mut count: impl FnMut(&'a str, Count)) {
    if let Some(code) = &firearm.country_of_origin {
        count(code, Count::Origin);
    }
    let mut adopters: BTreeMap<&str, usize> = BTreeMap::new();
    for user in &firearm.users {
        if let Some(code) = &user.country_code {
            *adopters.entry(code).or_default() += 1;
        }
    }
    for (code, users) in adopters {
        count(code, Count::Adopter(users));
        count(code, Count::Adopted);
    }
}

/// Each maker's country.
fn count_makers<'a>(catalog: &'a Catalog, mut count: impl FnMut(&'a str)) {
    for maker in &catalog.manufacturers {
        if let Some(code) = &maker.country_code {
            count(code);
        }
    }
}

fn countries(catalog: &Catalog) -> BTreeMap<String, CountryCounts> {
    let mut counts: BTreeMap<String, CountryCounts> = BTreeMap::new();
    // Looked up by the borrowed code, owned only when new (a few hundred countries, a hundred
    // thousand firearms): an owned key per firearm was an allocation each.
    for firearm in &catalog.firearms {
        count_firearm(&firearm, |code, count| {
            let counts = country(&mut counts, code);
            match count {
                Count::Origin => counts.firearms_of_origin += 1,
                Count::Adopter(users) => counts.adopters += users,
                Count::Adopted => counts.adopted_firearms += 1,
            }
        });
    }
    count_makers(catalog, |code| country(&mut counts, code).manufacturers += 1);
    counts
}

/// `code`'s counts, added when new.
fn country<'a>(counts: &'a mut BTreeMap<String, CountryCounts>, code: &str) -> &'a mut CountryCounts {
    if !counts.contains_key(code) {
        counts.insert(code.to_owned(), CountryCounts::default());
    }
    counts.get_mut(code).expect("inserted above")
}

fn by_name<'a>(records: impl Iterator<Item = (&'a String, &'a String)>) -> Vec<usize> {
    let mut keyed: Vec<(String, &String, usize)> =
        records.enumerate().map(|(at, (name, id))| (name.to_lowercase(), id, at)).collect();
    keyed.sort();
    keyed.into_iter().map(|(_, _, at)| at).collect()
}
