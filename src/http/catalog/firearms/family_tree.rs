//! GET /v1/firearms/{id}/family-tree: a firearm's ancestors and every variant below it (operation 30).

use axum::response::Response;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::catalog::model::Firearm;
use crate::http::extract::path::ValidPath;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};
use crate::read::rendered::firearm_json;
use crate::read::snapshot::Snapshot;

/// Deeper than this, a parent chain is cut (the loader refuses cycles; this guards the answer).
const MAX_DEPTH: usize = 32;

fn node(snapshot: &Snapshot, firearm: &Firearm) -> Value {
    let meta = snapshot.meta("firearms", &firearm.id);
    json!({
        "id": firearm.id, "name": firearm.name, "parentFirearmId": firearm.parent_firearm_id,
        "variantType": firearm.variant_type, "yearIntroduced": firearm.year_introduced,
        "provenance": firearm_json::provenance(firearm, &meta),
    })
}

fn descendants(snapshot: &Snapshot, id: &str, depth: usize) -> Vec<Value> {
    if depth >= MAX_DEPTH {
        return vec![];
    }
    let firearms = &snapshot.catalog.firearms;
    let mut children: Vec<Arc<Firearm>> =
        snapshot.variant_positions(id).iter().map(|&i| firearms.get(i)).collect();
    children.sort_by_key(|f| (f.year_introduced.unwrap_or(i64::MAX), f.name.to_lowercase()));
    children
        .into_iter()
        .map(|f| {
            let mut value = node(snapshot, &f);
            value["variants"] = Value::Array(descendants(snapshot, &f.id, depth + 1));
            value
        })
        .collect()
}

/// Ancestors from the root down to the parent, the firearm itself, and its descendants as a tree
/// (`variants` nested), each with provenance.
#[utoipa::path(get, path = "/v1/firearms/{id}/family-tree", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::One<schemas::FamilyTree>)))]
pub async fn family_tree(
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let (_, firearm) = snapshot.firearm(&id)?;
    let mut ancestors = Vec::new();
    let mut parent = firearm.parent_firearm_id.clone();
    while let Some(parent_id) = parent.take() {
        let Ok(at) = snapshot.firearm_position(&parent_id) else { break };
        if ancestors.len() >= MAX_DEPTH {
            break;
        }
        let p = snapshot.catalog.firearms.get(at);
        ancestors.push(node(&snapshot, &p));
        parent = p.parent_firearm_id.clone();
    }
    ancestors.reverse();
    let mut root = node(&snapshot, &firearm);
    root["variants"] = Value::Array(descendants(&snapshot, &firearm.id, 0));
    let root_id = ancestors.first().map_or_else(|| json!(firearm.id), |a| a["id"].clone());
    Ok(respond::one(json!({ "id": firearm.id, "rootId": root_id, "ancestors": ancestors, "firearm": root })))
}
