//! What a delivery's `data` holds. Every rendering of an event's record goes through `event_data`,
//! so the webhook payload follows the detail endpoints' shape in one place.

use serde_json::{Value, json};

use crate::access::plan::Plan;
use crate::read::query;
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
        "firearm" => {
            query::firearms::detail(snapshot, id, view).ok().and_then(|r| serde_json::from_str(r.data()).ok())
        }
        "manufacturer" => query::records::manufacturer(snapshot, id, view)
            .ok()
            .and_then(|r| serde_json::from_str(r.data()).ok()),
        "caliber" => {
            query::records::caliber(snapshot, id, view).ok().and_then(|r| serde_json::from_str(r.data()).ok())
        }
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
    let firearm = snapshot.image_owner(wanted)?;
    let image = firearm.images.iter().find(|image| image.id == wanted)?;
    let mut data = serde_json::to_value(image).ok()?;
    data["firearmId"] = json!(firearm.id);
    Some(data)
}
