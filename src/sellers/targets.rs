//! Whether the catalog holds the record an offer targets.

use super::input::Target;
use crate::read::snapshot::Snapshot;

pub fn in_catalog(snapshot: &Snapshot, target: &Target) -> bool {
    match target.kind.as_str() {
        "firearm" => snapshot.read.firearm_at.contains_key(&target.id),
        "attachment" => snapshot.read.attachment_at.contains_key(&target.id),
        _ => false,
    }
}
