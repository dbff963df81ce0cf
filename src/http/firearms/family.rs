//! A firearm's relatives: its family tree through parentFirearmId (30) and the firearms most
//! like it (31).

use axum::extract::State;
use axum::response::Response;
use serde_json::{Value, json};

use crate::catalog::model::Firearm;
use crate::http::path::ValidPath;
use crate::http::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::{ApiError, AppState, respond, schemas};
use crate::read::firearm_json;
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
    let mut children: Vec<usize> = snapshot.read.variants.get(id).cloned().unwrap_or_default();
    children
        .sort_by_key(|&i| (firearms[i].year_introduced.unwrap_or(i64::MAX), firearms[i].name.to_lowercase()));
    children
        .into_iter()
        .map(|i| {
            let mut value = node(snapshot, &firearms[i]);
            value["variants"] = Value::Array(descendants(snapshot, &firearms[i].id, depth + 1));
            value
        })
        .collect()
}

/// Ancestors from the root down to the parent, the firearm itself, and its descendants as a tree
/// (`variants` nested), each with provenance.
#[utoipa::path(get, path = "/v1/firearms/{id}/family-tree", tag = "Firearms",
    params(("id" = String, Path)),
    responses((status = 200, body = schemas::FamilyTreeResponse)))]
pub async fn family_tree(
    State(state): State<AppState>,
    ValidPath(id): ValidPath<String>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    let (_, firearm) = super::firearm(&snapshot, &id)?;
    let mut ancestors = Vec::new();
    let mut parent = firearm.parent_firearm_id.clone();
    while let Some(parent_id) = parent.take() {
        let Some(&at) = snapshot.read.firearm_at.get(&parent_id) else { break };
        if ancestors.len() >= MAX_DEPTH {
            break;
        }
        let p = &snapshot.catalog.firearms[at];
        ancestors.push(node(&snapshot, p));
        parent = p.parent_firearm_id.clone();
    }
    ancestors.reverse();
    let mut root = node(&snapshot, firearm);
    root["variants"] = Value::Array(descendants(&snapshot, &firearm.id, 0));
    let root_id = ancestors.first().map_or_else(|| json!(firearm.id), |a| a["id"].clone());
    Ok(respond::one(json!({ "id": firearm.id, "rootId": root_id, "ancestors": ancestors, "firearm": root })))
}

/// How alike two firearms are, 0 to 1: same category 0.3, a shared cartridge 0.3, same action
/// 0.2, and 0.2 × closeness of the known specifications (empty weight, barrel and overall length,
/// muzzle energy), where closeness is 1 − the mean of |a − b| / max(a, b).
pub fn similarity(a: &Firearm, b: &Firearm) -> f64 {
    let mut score = 0.0;
    if a.category_id == b.category_id {
        score += 0.3;
    }
    if a.calibers.iter().any(|x| b.calibers.iter().any(|y| x.caliber_id == y.caliber_id)) {
        score += 0.3;
    }
    if a.action_type.is_some() && a.action_type == b.action_type {
        score += 0.2;
    }
    let pairs = [
        (a.weight_empty_g, b.weight_empty_g),
        (a.barrel_length_mm, b.barrel_length_mm),
        (a.overall_length_mm, b.overall_length_mm),
        (a.muzzle_energy_j, b.muzzle_energy_j),
    ];
    let gaps: Vec<f64> = pairs
        .iter()
        .filter_map(|pair| match pair {
            (Some(x), Some(y)) if x.max(*y) > 0.0 => Some((x - y).abs() / x.max(*y)),
            _ => None,
        })
        .collect();
    if !gaps.is_empty() {
        score += 0.2 * (1.0 - gaps.iter().sum::<f64>() / gaps.len() as f64);
    }
    (score * 1000.0).round() / 1000.0
}

const LIMIT: QueryParam =
    QueryParam::new("limit", Rule::Int { min: 1, max: 25 }, "how many: 1 to 25, default 10");

pub struct SimilarQuery {
    limit: usize,
}

impl QueryParams for SimilarQuery {
    const PARAMS: &'static [QueryParam] = &[LIMIT];
    fn read(params: &mut Params) -> Self {
        Self { limit: params.int(&LIMIT).unwrap_or(10) as usize }
    }
}

crate::query_params_doc!(SimilarQuery);

/// The firearms most like this one (see `similarity` in the description of the score), best
/// first; `limit` 1 to 25, default 10.
#[utoipa::path(get, path = "/v1/firearms/{id}/similar", tag = "Firearms",
    params(("id" = String, Path), SimilarQuery),
    responses((status = 200, body = schemas::SimilarResponse)),
    description = "Score 0 to 1: same category 0.3, a shared cartridge 0.3, same action 0.2, and 0.2 × closeness of \
        empty weight, barrel length, overall length and muzzle energy (1 − mean |a − b| / max(a, b) over the known pairs).")]
pub async fn similar(
    State(state): State<AppState>,
    ValidPath(id): ValidPath<String>,
    Valid(SimilarQuery { limit }): Valid<SimilarQuery>,
) -> Result<Response, ApiError> {
    let snapshot = state.catalog.current();
    let (at, firearm) = super::firearm(&snapshot, &id)?;
    let mut scored: Vec<(f64, usize)> = snapshot
        .catalog
        .firearms
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(i, other)| (similarity(firearm, other), i))
        .filter(|(score, _)| *score > 0.0)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let data: Vec<Value> = scored
        .into_iter()
        .take(limit)
        .map(|(score, i)| {
            let mut item: Value = serde_json::from_str(&snapshot.read.forms[i].item).unwrap_or(Value::Null);
            item["score"] = json!(score);
            item
        })
        .collect();
    Ok(respond::one(data))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn firearm(value: Value) -> Firearm {
        let mut base = json!({"id": "x", "name": "X", "manufacturerId": "m", "categoryId": "pistols"});
        base.as_object_mut().unwrap().extend(value.as_object().unwrap().clone());
        serde_json::from_value(base).unwrap()
    }

    #[test]
    fn twins_score_one_and_strangers_little() {
        let a = firearm(json!({"actionType": "short_recoil", "weightEmptyG": 600.0,
                               "calibers": [{"caliberId": "9x19mm-parabellum", "isPrimary": true}]}));
        assert_eq!(similarity(&a, &a.clone()), 1.0);
        let b = firearm(json!({"categoryId": "rifles", "weightEmptyG": 1200.0}));
        assert_eq!(similarity(&a, &b), 0.1);
    }
}
