//! GET /v1/firearms/{id}/similar: the firearms most like one, by a documented score (operation 31).

use axum::response::Response;
use serde_json::{Value, json};

use crate::catalog::model::Firearm;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::openapi::schemas;
use crate::http::{ApiError, respond};

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
    // Summed in place, not collected: this runs once per catalog firearm for every request.
    let (mut gaps, mut known) = (0.0, 0usize);
    for pair in pairs {
        if let (Some(x), Some(y)) = pair
            && x.max(y) > 0.0
        {
            gaps += (x - y).abs() / x.max(y);
            known += 1;
        }
    }
    if known > 0 {
        score += 0.2 * (1.0 - gaps / known as f64);
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
    snapshot: CurrentSnapshot,
    ValidPath(id): ValidPath<String>,
    Valid(SimilarQuery { limit }): Valid<SimilarQuery>,
) -> Result<Response, ApiError> {
    let (at, firearm) = snapshot.firearm(&id)?;
    let scored: Vec<(f64, usize)> = snapshot
        .catalog
        .firearms
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(i, other)| (similarity(firearm, other), i))
        .filter(|(score, _)| *score > 0.0)
        .collect();
    let data: Vec<Value> = best(scored, limit)
        .into_iter()
        .map(|(score, i)| {
            let mut item: Value =
                serde_json::from_str(snapshot.read.forms.item(i).get()).unwrap_or(Value::Null);
            item["score"] = json!(score);
            item
        })
        .collect();
    Ok(respond::one(data))
}

/// The `limit` best of `scored`, best first, ties by catalog position: picked out, then ordered
/// (sorting every match took most of a request at 100,000 firearms).
fn best(mut scored: Vec<(f64, usize)>, limit: usize) -> Vec<(f64, usize)> {
    let order = |a: &(f64, usize), b: &(f64, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
    if scored.len() > limit {
        scored.select_nth_unstable_by(limit, order);
        scored.truncate(limit);
    }
    scored.sort_by(order);
    scored
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

    #[test]
    fn the_best_are_the_head_of_the_whole_ranking() {
        // Few distinct scores, so ties are many and their order is by position.
        let scored: Vec<(f64, usize)> =
            (0..500).map(|i| (f64::from((i * 7919 % 13) as u32) / 10.0, i)).collect();
        let mut whole = scored.clone();
        whole.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for limit in [1, 10, 25, 499, 500, 600] {
            assert_eq!(best(scored.clone(), limit), whole[..limit.min(500)], "limit {limit}");
        }
    }
}
