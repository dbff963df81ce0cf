//! The firearms most like one, by the similarity score (`read::similarity`).

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::read::error::QueryError;
use crate::read::rendered::shapes::FirearmListItem;
use crate::read::snapshot::Snapshot;

/// A list item with its similarity score (0 to 1).
#[derive(Serialize, ToSchema)]
pub struct SimilarFirearm {
    #[serde(flatten)]
    #[schema(value_type = FirearmListItem)]
    item: Map<String, Value>,
    score: f64,
}

/// The `limit` firearms most like the firearm `id`, best first, each as its list item (the
/// summary view) with `score`; 404 for an unknown id.
pub fn to_firearm(snapshot: &Snapshot, id: &str, limit: usize) -> Result<Vec<SimilarFirearm>, QueryError> {
    let at = snapshot.firearm_position(id)?;
    let similar = snapshot
        .most_similar(at, limit)
        .into_iter()
        .map(|(score, at)| {
            // Parsed to add the score among the item's own fields (at most 25 small items).
            let item = serde_json::from_str(snapshot.read.forms.item(at).get()).unwrap_or_default();
            SimilarFirearm { item, score }
        })
        .collect();
    Ok(similar)
}
