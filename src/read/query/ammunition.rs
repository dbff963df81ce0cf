//! Ammunition loads: the list (all loads or one cartridge's, filtered) and one load.

use crate::access::paging::Paging;
use crate::catalog::vocabulary::BULLET_TYPES;
use crate::read::aggregates::LoadFacts;
use crate::read::error::QueryError;
use crate::read::facts::vocabulary_index;
use crate::read::rendered::record_json::AmmunitionItem;
use crate::read::rendered::{Rendered, paged_raw};
use crate::read::snapshot::Snapshot;

/// What the load list keeps: a cartridge by id, a bullet type of `BULLET_TYPES`, common or not.
#[derive(Debug, Clone, Default)]
pub struct LoadFilter {
    pub caliber: Option<String>,
    pub bullet_type: Option<String>,
    pub is_common: Option<bool>,
}

/// A page of the loads `filter` keeps, by name; a cartridge the catalog does not have is
/// `NotFound` naming `caliber_parameter`.
pub fn list(
    snapshot: &Snapshot,
    filter: &LoadFilter,
    caliber_parameter: &'static str,
    paging: &Paging,
) -> Result<Rendered, QueryError> {
    let caliber = match &filter.caliber {
        Some(id) => Some(
            snapshot
                .read
                .caliber_at
                .get(id)
                .copied()
                .ok_or_else(|| QueryError::not_found_in("caliber", id, caliber_parameter))?,
        ),
        None => None,
    };
    // A bullet type in the vocabulary: its index stands for it.
    let bullet_type = filter.bullet_type.as_deref().map(|t| vocabulary_index(BULLET_TYPES, Some(t)));
    let is_common = filter.is_common;
    Ok(page(snapshot, paging, caliber, |load| {
        bullet_type.is_none_or(|t| load.bullet_type == t)
            && is_common.is_none_or(|wanted| load.is_common.unwrap_or(false) == wanted)
    }))
}

/// A page of the loads of the cartridge `id`, by name (404 for an unknown cartridge).
pub fn of_caliber(snapshot: &Snapshot, id: &str, paging: &Paging) -> Result<Rendered, QueryError> {
    let (at, _) = snapshot.caliber(id)?;
    Ok(page(snapshot, paging, Some(at), |_| true))
}

/// The load `id` with its cartridge and maker named, and provenance (404 for an unknown id).
pub fn detail(snapshot: &Snapshot, id: &str) -> Result<Rendered, QueryError> {
    let at = snapshot.ammunition_position(id)?;
    Ok(snapshot.ammunition_detail(at))
}

/// The positions of the loads whose facts pass `keep` (of the caliber at `caliber` only, when
/// given), by name.
fn sorted(snapshot: &Snapshot, caliber: Option<usize>, keep: impl Fn(&LoadFacts) -> bool) -> Vec<usize> {
    let aggregates = &snapshot.read.aggregates;
    let loads: Box<dyn Iterator<Item = usize>> = match caliber {
        Some(caliber) => Box::new(aggregates.ammunition_by_caliber[caliber].iter().map(|&at| at as usize)),
        None => Box::new(aggregates.ammunition_by_name.iter().copied()),
    };
    loads.filter(|&at| keep(&aggregates.load_facts[at])).collect()
}

/// A page of the loads that pass `keep` (see `sorted`), each served as lists serve it.
fn page(
    snapshot: &Snapshot,
    paging: &Paging,
    caliber: Option<usize>,
    keep: impl Fn(&LoadFacts) -> bool,
) -> Rendered {
    let loads = sorted(snapshot, caliber, keep);
    let (page, pagination) = paging.slice(&loads);
    let items = &snapshot.read.ammunition_items;
    paged_raw(
        page.len(),
        |i, body| items.with(page[i], || item_text(snapshot, page[i]), |kept| kept.append_to(body)),
        pagination,
    )
}

/// The list item of the load at `at`, as JSON: decoded from the packed table and serialised,
/// which is why a page keeps them (`read::rendered::kept_texts`).
fn item_text(snapshot: &Snapshot, at: usize) -> String {
    let load = snapshot.catalog.ammunition.get(at);
    let meta = snapshot.meta("ammunition", &load.id);
    serde_json::to_string(&AmmunitionItem::of(&load, &meta)).expect("an ammunition item serialises")
}
