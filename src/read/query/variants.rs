//! A firearm's lineage: its direct variants, and its family tree (ancestors and every variant
//! below it).

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::catalog::model::Firearm;
use crate::read::error::QueryError;
use crate::read::rendered::firearm_json;
use crate::read::rendered::shapes::Provenance;
use crate::read::snapshot::Snapshot;

/// Deeper than this, a parent chain is cut (the loader refuses cycles; this guards the answer).
const MAX_DEPTH: usize = 32;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FirearmVariant {
    id: String,
    name: String,
    variant_type: Option<&'static str>,
    year_introduced: Option<i64>,
    status: Option<&'static str>,
}

/// The direct variants of the firearm `id` (generations, special editions and other derived
/// models), by year introduced, then name; 404 for an unknown id.
pub fn of_firearm(snapshot: &Snapshot, id: &str) -> Result<Vec<FirearmVariant>, QueryError> {
    snapshot.firearm_position(id)?;
    let variants = children(snapshot, id)
        .into_iter()
        .map(|f| FirearmVariant {
            id: f.id.clone(),
            name: f.name.clone(),
            variant_type: f.variant_type.map(|t| t.as_str()),
            year_introduced: f.year_introduced,
            status: f.status.map(|t| t.as_str()),
        })
        .collect();
    Ok(variants)
}

/// A firearm in a family tree; `variants` nests its own variants (same shape) where present.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FamilyNode {
    id: String,
    name: String,
    parent_firearm_id: Option<String>,
    variant_type: Option<&'static str>,
    year_introduced: Option<i64>,
    #[schema(value_type = Provenance)]
    provenance: Value,
    // Absent on the ancestors.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    variants: Option<Vec<FamilyNode>>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FamilyTree {
    id: String,
    /// The oldest ancestor (the firearm itself when it has no parent).
    root_id: String,
    /// From the root down to the parent.
    ancestors: Vec<FamilyNode>,
    firearm: FamilyNode,
}

/// The ancestors of the firearm `id` from the root down to its parent, the firearm itself, and
/// its descendants as a tree (`variants` nested), each with provenance; 404 for an unknown id.
pub fn family_tree(snapshot: &Snapshot, id: &str) -> Result<FamilyTree, QueryError> {
    let (_, firearm) = snapshot.firearm(id)?;
    let mut ancestors = Vec::new();
    let mut parent = firearm.parent_firearm_id.clone();
    while let Some(parent_id) = parent.take() {
        let Ok(at) = snapshot.firearm_position(&parent_id) else { break };
        if ancestors.len() >= MAX_DEPTH {
            break;
        }
        let p = snapshot.catalog.firearms.get(at);
        ancestors.push(node(snapshot, &p, None));
        parent = p.parent_firearm_id.clone();
    }
    ancestors.reverse();
    let root_id = ancestors.first().map_or_else(|| firearm.id.clone(), |root| root.id.clone());
    let variants = descendants(snapshot, &firearm.id, 0);
    Ok(FamilyTree {
        id: firearm.id.clone(),
        root_id,
        ancestors,
        firearm: node(snapshot, &firearm, Some(variants)),
    })
}

fn node(snapshot: &Snapshot, firearm: &Firearm, variants: Option<Vec<FamilyNode>>) -> FamilyNode {
    let meta = snapshot.meta("firearms", &firearm.id);
    FamilyNode {
        id: firearm.id.clone(),
        name: firearm.name.clone(),
        parent_firearm_id: firearm.parent_firearm_id.clone(),
        variant_type: firearm.variant_type.map(|t| t.as_str()),
        year_introduced: firearm.year_introduced,
        provenance: firearm_json::provenance(firearm, &meta),
        variants,
    }
}

fn descendants(snapshot: &Snapshot, id: &str, depth: usize) -> Vec<FamilyNode> {
    if depth >= MAX_DEPTH {
        return vec![];
    }
    children(snapshot, id)
        .into_iter()
        .map(|f| {
            let variants = descendants(snapshot, &f.id, depth + 1);
            node(snapshot, &f, Some(variants))
        })
        .collect()
}

/// The direct variants of the firearm `id`, by year introduced (unknown last), then name.
fn children(snapshot: &Snapshot, id: &str) -> Vec<Arc<Firearm>> {
    let firearms = &snapshot.catalog.firearms;
    let at = snapshot.read.variants.get(id).map_or(&[][..], Vec::as_slice);
    let mut children: Vec<Arc<Firearm>> = at.iter().map(|&i| firearms.get(i)).collect();
    children.sort_by_key(|f| (f.year_introduced.unwrap_or(i64::MAX), f.name.to_lowercase()));
    children
}
