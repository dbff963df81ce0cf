//! Whether the catalog holds the record an offer targets.

use super::input::Target;
use crate::read::snapshot::Snapshot;

pub fn in_catalog(snapshot: &Snapshot, target: &Target) -> bool {
    match target.kind.as_str() {
        "firearm" => snapshot.has_firearm(&target.id),
        "attachment" => snapshot.attachment(&target.id).is_ok(),
        _ => false,
    }
}
