//! Who adopted what: per country, adopters and firearms by user type (80); per user type, the
//! countries and firearms (81). One adopter is one entry of a firearm's `users`.

use std::collections::{BTreeMap, BTreeSet};

use super::Read;

/// Adopter entries and the distinct firearms they adopted.
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct AdoptionCount {
    pub adopters: usize,
    pub firearms: BTreeSet<usize>,
}

impl AdoptionCount {
    fn add(&mut self, firearm: usize) {
        self.adopters += 1;
        self.firearms.insert(firearm);
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct Adoption {
    /// Country code → (all its adopters, and per user type; no type is `unspecified`).
    pub by_country: BTreeMap<String, (AdoptionCount, BTreeMap<String, AdoptionCount>)>,
    /// User type → (all its adopters, and per country code).
    pub by_type: BTreeMap<String, (AdoptionCount, BTreeMap<String, AdoptionCount>)>,
}

/// The type of an adopter whose type the catalog does not give.
pub const UNSPECIFIED: &str = "unspecified";

impl Adoption {
    pub fn build(firearms: &[Read]) -> Self {
        let mut by_country: BTreeMap<String, (AdoptionCount, BTreeMap<String, AdoptionCount>)> =
            BTreeMap::new();
        let mut by_type: BTreeMap<String, (AdoptionCount, BTreeMap<String, AdoptionCount>)> = BTreeMap::new();
        for (at, firearm) in firearms.iter().enumerate() {
            for (user_type, country_code) in &firearm.users {
                let kind = user_type.as_deref().unwrap_or(UNSPECIFIED).to_owned();
                let country = country_code.as_ref().map(|c| c.to_ascii_uppercase());
                if let Some(country) = &country {
                    let (all, types) = by_country.entry(country.clone()).or_default();
                    all.add(at);
                    types.entry(kind.clone()).or_default().add(at);
                }
                let (all, countries) = by_type.entry(kind).or_default();
                all.add(at);
                if let Some(country) = country {
                    countries.entry(country).or_default().add(at);
                }
            }
        }
        Self { by_country, by_type }
    }
}
