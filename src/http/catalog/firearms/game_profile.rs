//! GET /v1/firearms/{id}/game-profile: a firearm's archetype, strengths and weaknesses derived
//! from its stats (operation 27).

use axum::extract::State;
use axum::response::Response;
use serde_json::{Value, json};

use crate::access::caller::Caller;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Params, QueryParam, QueryParams, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self, StatValues, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::game::archetype::{ARCHETYPE_NAMES, fitness};
use crate::read::game::stat::STAT_NAMES;
use crate::read::views::View;

/// Category percentile at or above which a stat is a strength, and at or below which a weakness.
const STRENGTH_PERCENTILE: f64 = 75.0;
const WEAKNESS_PERCENTILE: f64 = 25.0;

pub struct ProfileQuery {
    version: Option<String>,
}

impl QueryParams for ProfileQuery {
    const PARAMS: &'static [QueryParam] = &[VERSION];
    fn read(params: &mut Params) -> Self {
        Self { version: game::version(params) }
    }
}

crate::query_params_doc!(ProfileQuery);

/// Archetype, fitness per archetype, strengths, weaknesses and per-stat standing (rules in the
/// description). An id the catalog (or the frozen version) does not hold is 404.
#[utoipa::path(get, path = "/v1/firearms/{id}/game-profile", tag = "Game analytics",
    params(("id" = String, Path), ProfileQuery),
    responses((status = 200, body = schemas::One<schemas::GameProfile>)),
    description = game::describe_profile())]
pub async fn game_profile(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    ValidPath(id): ValidPath<String>,
    Valid(query): Valid<ProfileQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let entry = match (&query.version, analytics.entry(&id)) {
        (_, Some(entry)) => entry,
        (Some(label), None) => {
            return Err(ApiError::not_found(&format!("firearm in game-stats version {label}"), &id));
        }
        (None, None) => return Err(ApiError::not_found("firearm", &id)),
    };
    let catalog_scope = analytics.catalog_scope();
    let category_scope = entry.category.map(|c| analytics.category_scope(c));
    let mut strengths = Vec::new();
    let mut weaknesses = Vec::new();
    let standing: Vec<Value> = STAT_NAMES
        .iter()
        .enumerate()
        .map(|(at, name)| {
            let value = entry.stats[at];
            let in_catalog = value.and_then(|v| catalog_scope.stats[at].percentile_rank(v));
            let in_category = value.and_then(|v| category_scope.and_then(|s| s.stats[at].percentile_rank(v)));
            match in_category {
                Some(p) if p >= STRENGTH_PERCENTILE => strengths.push(*name),
                Some(p) if p <= WEAKNESS_PERCENTILE => weaknesses.push(*name),
                _ => {}
            }
            json!({
                "stat": name,
                "value": value,
                "catalogPercentile": in_catalog,
                "categoryPercentile": in_category,
            })
        })
        .collect();
    let fitnesses: Vec<Value> = ARCHETYPE_NAMES
        .iter()
        .enumerate()
        .map(|(at, name)| json!({ "archetype": name, "fitness": fitness(&entry.stats, at) }))
        .collect();
    let category_id = entry.at.map(|at| snapshot.catalog.firearms.get(at).category_id.clone());
    Ok(respond::one(json!({
        "id": entry.id,
        "name": entry.name,
        "version": query.version,
        "categoryId": category_id,
        "stats": StatValues::of(entry),
        "overall": entry.overall,
        "archetype": game::archetype_name(entry),
        "archetypeFitness": entry.archetype.map(|(_, fit)| fit),
        "fitness": fitnesses,
        "strengths": strengths,
        "weaknesses": weaknesses,
        "standing": standing,
        "firearm": game::listed(&snapshot, View::of(caller.plan), entry),
    })))
}
