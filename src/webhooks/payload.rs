//! What a delivery's `data` holds. Every rendering of an event's record goes through `event_data`,
//! so the webhook payload follows the detail endpoints' shape in one place.

use serde_json::{Value, json};

use crate::access::plan::Plan;
use crate::read::records::view_index;
use crate::read::snapshot::Snapshot;
use crate::read::views::{self, View};

/// The record `resource`/`id` in the detail shape for `plan`, or `{id}` alone when the record is
/// gone (a deletion, or a record removed since the event).
///
/// Firearms, manufacturers and cartridges are their detail endpoints' own pre-rendered answers
/// from the snapshot; categories the record with its timestamps.
pub fn event_data(snapshot: &Snapshot, resource: &str, id: &str, plan: Plan) -> Value {
    let view = View::of(plan);
    let catalog = &snapshot.catalog;
    let rendered = match resource {
        "firearm" => snapshot
            .read
            .firearm_at
            .get(id)
            .and_then(|&at| serde_json::from_str(snapshot.firearm_detail(at, view).data()).ok()),
        "manufacturer" => snapshot.read.manufacturer_at.get(id).and_then(|&at| {
            serde_json::from_str(snapshot.read.manufacturer_details[at][view_index(view)].data()).ok()
        }),
        "caliber" => snapshot.read.caliber_at.get(id).and_then(|&at| {
            serde_json::from_str(snapshot.read.caliber_details[at][view_index(view)].data()).ok()
        }),
        "category" => catalog
            .categories
            .iter()
            .find(|r| r.id == id)
            .map(|r| views::with_meta(r, &snapshot.meta("categories", id))),
        "image" => image(snapshot, id),
        _ => None,
    };
    rendered.unwrap_or_else(|| json!({ "id": id }))
}

/// The data of a catalog.resynced event: no record, the catalog revision to re-sync to.
pub fn resync_data(revision: i64) -> Value {
    json!({ "revision": revision, "message": "Many records changed at once: re-sync from the API." })
}

/// An image (image.created) with the firearm that carries it.
fn image(snapshot: &Snapshot, id: &str) -> Option<Value> {
    let wanted: i64 = id.parse().ok()?;
    let firearm = snapshot.catalog.firearms.get(snapshot.image_owner(wanted)?);
    let image = firearm.images.iter().find(|image| image.id == wanted)?;
    let mut data = serde_json::to_value(image).ok()?;
    data["firearmId"] = json!(firearm.id);
    Some(data)
}
