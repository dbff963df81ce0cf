//! Each country's adopters: which firearms its users adopted (60, a country's arsenal), found
//! without walking every firearm's users per request (about 8 ms at 100,000 firearms). Made on
//! the snapshot's first such request, like the similar firearms' packing (`read::deferred`);
//! neither persisted nor patched.

use std::collections::HashMap;

use crate::catalog::model::{Adopter, Catalog, Firearm};

/// Per country code, its adopter entries as (firearm position, the user's index in the
/// firearm's users), in catalog order.
pub struct Arsenals(HashMap<String, Vec<(u32, u32)>>);

impl Arsenals {
    pub fn build(catalog: &Catalog) -> Self {
        let mut by_country: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        for (at, firearm) in catalog.firearms.iter().enumerate() {
            for (user, adopter) in firearm.users.iter().enumerate() {
                if let Some(code) = adopter.country_code.as_deref() {
                    by_country.entry(code.to_owned()).or_default().push((at as u32, user as u32));
                }
            }
        }
        Self(by_country)
    }

    /// The adopters of country `code` (as the records write it), each with its firearm, in
    /// catalog order.
    pub fn of<'a>(
        &'a self,
        catalog: &'a Catalog,
        code: &str,
    ) -> impl Iterator<Item = (&'a Firearm, &'a Adopter)> {
        let entries = self.0.get(code).map_or(&[][..], Vec::as_slice);
        entries.iter().map(|&(at, user)| {
            let firearm = &*catalog.firearms[at as usize];
            (firearm, &firearm.users[user as usize])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::synth::synthesize;

    #[test]
    fn a_country_holds_exactly_its_adopters_in_catalog_order() {
        let catalog = synthesize(1_000, 3);
        let arsenals = Arsenals::build(&catalog);
        let mut codes: Vec<&str> = catalog
            .firearms
            .iter()
            .flat_map(|f| f.users.iter().filter_map(|u| u.country_code.as_deref()))
            .collect();
        codes.sort_unstable();
        codes.dedup();
        assert!(codes.len() > 5, "the synthetic catalog's adopters come from several countries");
        for code in codes.into_iter().chain(["ZZ"]) {
            let plain: Vec<(&str, &str)> = catalog
                .firearms
                .iter()
                .flat_map(|f| f.users.iter().map(move |u| (f, u)))
                .filter(|(_, u)| u.country_code.as_deref() == Some(code))
                .map(|(f, u)| (f.id.as_str(), u.user_name.as_str()))
                .collect();
            let indexed: Vec<(&str, &str)> =
                arsenals.of(&catalog, code).map(|(f, u)| (f.id.as_str(), u.user_name.as_str())).collect();
            assert_eq!(indexed, plain, "{code}");
        }
    }
}
