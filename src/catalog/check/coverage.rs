//! The coverage rules (warnings: listed, never failing the check): what the catalog holds but does
//! not connect or source yet.
//!
//! - a cartridge no firearm chambers (no `calibers` link, primary or not, names it);
//! - a firearm whose filled key figures are not all named by some source's `fields`.
//!
//! A cartridge in current production without an ammunition load is not checked: cartridges carry
//! no production status to tell which are still made.

use std::collections::HashSet;

use super::Violation;
use super::sources::firearm_key_figures;
use crate::catalog::model::Catalog;

/// One warning rule's label (for the summary line) and what it found, in id order.
#[derive(Debug)]
pub struct Found {
    pub rule: &'static str,
    pub warnings: Vec<Violation>,
}

/// Every coverage rule over `catalog`, in rule order.
pub fn warnings(catalog: &Catalog) -> Vec<Found> {
    vec![unchambered_cartridges(catalog), unsourced_key_figures(catalog)]
}

fn unchambered_cartridges(catalog: &Catalog) -> Found {
    let chambered: HashSet<&str> = catalog
        .firearms
        .as_typed()
        .iter()
        .flat_map(|f| f.calibers.iter().map(|l| l.caliber_id.as_str()))
        .collect();
    let warnings = catalog
        .calibers
        .iter()
        .filter(|c| !chambered.contains(c.id.as_str()))
        .map(|c| Violation {
            record: format!("caliber {}", c.id),
            field: "id".into(),
            message: "no firearm chambers this cartridge".into(),
        })
        .collect();
    Found { rule: "cartridges no firearm chambers", warnings }
}

fn unsourced_key_figures(catalog: &Catalog) -> Found {
    let mut warnings = Vec::new();
    for f in catalog.firearms.as_typed() {
        let unnamed: Vec<&str> = firearm_key_figures(f)
            .into_iter()
            .filter(|key| !f.sources.iter().any(|s| s.fields.iter().any(|field| field == key)))
            .collect();
        if !unnamed.is_empty() {
            warnings.push(Violation {
                record: format!("firearm {}", f.id),
                field: "sources.fields".into(),
                message: format!("no source names {} (key figures the record fills)", unnamed.join(", ")),
            });
        }
    }
    Found { rule: "firearms with key figures no source names", warnings }
}
