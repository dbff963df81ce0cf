//! Each country's adopters: which firearms its users adopted (60, a country's arsenal), found
//! without walking every firearm's users per request (about 8 ms at 100,000 firearms). Made off
//! the serving path once a snapshot is served (`Snapshot::build_lazy_indexes`), or by the first
//! request that needs it before then; neither persisted nor patched.

use std::collections::HashMap;

use std::sync::Arc;

use crate::catalog::model::{Catalog, Firearm};

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

    /// The adopters of country `code` (as the records write it), each as its firearm and the
    /// adopter's index in the firearm's users, in catalog order (a firearm adopted twice is
    /// decoded once).
    pub fn of(&self, catalog: &Catalog, code: &str) -> Vec<(Arc<Firearm>, usize)> {
        let entries = self.0.get(code).map_or(&[][..], Vec::as_slice);
        let mut out: Vec<(Arc<Firearm>, usize)> = Vec::with_capacity(entries.len());
        let mut last: Option<(u32, Arc<Firearm>)> = None;
        for &(at, user) in entries {
            let firearm = match &last {
                Some((held, firearm)) if *held == at => firearm.clone(),
                _ => catalog.firearms.get(at as usize),
            };
            last = Some((at, firearm.clone()));
            out.push((firearm, user as usize));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::synth::synthesize;

    #[test]
    fn a_country_holds_exactly_its_adopters_in_catalog_order() {
        let mut catalog = synthesize(1_000, 3);
        // Packed, as a served snapshot holds its firearms.
        catalog.firearms.pack();
        let arsenals = Arsenals::build(&catalog);
        let typed = catalog.firearms.typed();
        let mut codes: Vec<&str> =
            typed.iter().flat_map(|f| f.users.iter().filter_map(|u| u.country_code.as_deref())).collect();
        codes.sort_unstable();
        codes.dedup();
        assert!(codes.len() > 5, "the synthetic catalog's adopters come from several countries");
        for code in codes.into_iter().chain(["ZZ"]) {
            let plain: Vec<(&str, &str)> = typed
                .iter()
                .flat_map(|f| f.users.iter().map(move |u| (f, u)))
                .filter(|(_, u)| u.country_code.as_deref() == Some(code))
                .map(|(f, u)| (f.id.as_str(), u.user_name.as_str()))
                .collect();
            let adopted = arsenals.of(&catalog, code);
            let indexed: Vec<(&str, &str)> =
                adopted.iter().map(|(f, u)| (f.id.as_str(), f.users[*u].user_name.as_str())).collect();
            assert_eq!(indexed, plain, "{code}");
        }
    }
}
