//! The other records' details: manufacturers and calibers, rendered with the snapshot in both
//! plan views (`read::rendered::record_json`).

use crate::read::error::QueryError;
use crate::read::rendered::Rendered;
use crate::read::rendered::record_json::view_index;
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

/// The manufacturer `id` in `view` (404 for an unknown id).
pub fn manufacturer<'a>(snapshot: &'a Snapshot, id: &str, view: View) -> Result<&'a Rendered, QueryError> {
    let (at, _) = snapshot.manufacturer(id)?;
    Ok(&snapshot.read.manufacturer_details[at][view_index(view)])
}

/// The caliber `id` in `view` (404 for an unknown id).
pub fn caliber<'a>(snapshot: &'a Snapshot, id: &str, view: View) -> Result<&'a Rendered, QueryError> {
    let (at, _) = snapshot.caliber(id)?;
    Ok(&snapshot.read.caliber_details[at][view_index(view)])
}

/// The calibers `ids` in the full view, as one answer listing them in the order given; every
/// unknown id is named at once.
pub fn calibers(snapshot: &Snapshot, ids: &[String]) -> Result<Rendered, QueryError> {
    let missing: Vec<&String> = ids.iter().filter(|id| !snapshot.read.caliber_at.contains_key(*id)).collect();
    if !missing.is_empty() {
        return Err(QueryError::MissingIds { kind: "caliber", ids: missing.into_iter().cloned().collect() });
    }
    let full = view_index(View::Full);
    let details: Vec<&str> = ids
        .iter()
        .map(|id| snapshot.read.caliber_details[snapshot.read.caliber_at[id]][full].data())
        .collect();
    Ok(Rendered::envelope(&format!("[{}]", details.join(","))))
}
