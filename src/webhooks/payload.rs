//! What a delivery's `data` holds. Every rendering of an event's record goes through `event_data`,
//! so the webhook payload follows the detail endpoints' shape in one place.

use serde_json::{Value, json};

use crate::access::plan::Plan;
use crate::catalog::snapshot::Snapshot;
use crate::http::calibers;
use crate::http::views::{self, View};

/// The record `resource`/`id` in the detail shape for `plan`, or `{id}` alone when the record is
/// gone (a deletion, or a record removed since the event).
///
/// Firearms and cartridges are the detail endpoints' own answers (the firearm's pre-rendered
/// detail from the snapshot); manufacturers the detail's fields and provenance; categories the
/// record with its timestamps.
pub fn event_data(snapshot: &Snapshot, resource: &str, id: &str, plan: Plan) -> Value {
    let view = View::of(plan);
    let catalog = &snapshot.catalog;
    let rendered = match resource {
        "firearm" => snapshot
            .read
            .firearm_at
            .get(id)
            .and_then(|&at| serde_json::from_str(snapshot.read.forms[at].detail(view).data()).ok()),
        "manufacturer" => catalog.manufacturers.iter().find(|r| r.id == id).map(|r| {
            let summary = (view == View::Summary).then_some(views::MANUFACTURER_SUMMARY);
            record(snapshot, "manufacturers", id, r, summary)
        }),
        "caliber" => {
            catalog.calibers.iter().find(|r| r.id == id).map(|r| calibers::detail_value(snapshot, r, view))
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

fn record(
    snapshot: &Snapshot,
    table: &str,
    id: &str,
    record: &impl serde::Serialize,
    summary: Option<&[&str]>,
) -> Value {
    let meta = snapshot.meta(table, id);
    let full = views::with_meta(record, &meta);
    let mut data = match summary {
        Some(fields) => views::project(&full, fields),
        None => full.clone(),
    };
    data["provenance"] = views::provenance(&full, &meta);
    data
}

/// An image (image.created) with the firearm that carries it.
fn image(snapshot: &Snapshot, id: &str) -> Option<Value> {
    let wanted: i64 = id.parse().ok()?;
    snapshot.catalog.firearms.iter().find_map(|firearm| {
        let image = firearm.images.iter().find(|image| image.id == wanted)?;
        let mut data = serde_json::to_value(image).ok()?;
        data["firearmId"] = json!(firearm.id);
        Some(data)
    })
}
