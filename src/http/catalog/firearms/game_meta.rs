//! GET /v1/firearms/game-meta: the game stats' means and spreads per category and catalog-wide,
//! with archetype counts (operation 21).

use axum::extract::State;
use axum::response::Response;
use serde_json::{Map, Value, json};

use crate::http::extract::query::{Params, QueryParam, QueryParams, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self, ARCHETYPE_RULE, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::game::Scope;
use crate::read::game::archetype::{self, ARCHETYPE_NAMES};
use crate::read::game::distribution::Distribution;
use crate::read::game::stat::STAT_NAMES;

const ARCHETYPE: QueryParam =
    QueryParam::new("archetype", ARCHETYPE_RULE, "only firearms of this archetype; absent: every firearm");

pub struct GameMetaQuery {
    archetype: Option<String>,
    version: Option<String>,
}

impl QueryParams for GameMetaQuery {
    const PARAMS: &'static [QueryParam] = &[ARCHETYPE, VERSION];
    fn read(params: &mut Params) -> Self {
        Self { archetype: params.one_of(&ARCHETYPE), version: game::version(params) }
    }
}

crate::query_params_doc!(GameMetaQuery);

fn summary(d: &Distribution) -> Value {
    json!({
        "count": d.count(),
        "mean": d.mean(),
        "standardDeviation": d.standard_deviation(),
        "min": d.min(),
        "max": d.max(),
    })
}

/// One scope's figures, narrowed to an archetype when asked.
fn figures(scope: &Scope, archetype: Option<usize>) -> Map<String, Value> {
    let (firearms, stats) = match archetype {
        Some(at) => (scope.archetypes[at].firearms, &scope.archetypes[at].stats),
        None => (scope.firearms, &scope.stats),
    };
    let archetypes: Vec<Value> = ARCHETYPE_NAMES
        .iter()
        .zip(&scope.archetypes)
        .filter(|(_, group)| archetype.is_none() || group.firearms > 0)
        .filter(|(name, _)| archetype.is_none_or(|at| ARCHETYPE_NAMES[at] == **name))
        .map(|(name, group)| json!({ "archetype": name, "count": group.firearms }))
        .collect();
    let mut out = Map::new();
    out.insert("firearmCount".into(), json!(firearms));
    out.insert("unclassifiedCount".into(), json!(if archetype.is_some() { 0 } else { scope.unclassified }));
    out.insert("archetypes".into(), Value::Array(archetypes));
    let stats: Map<String, Value> =
        STAT_NAMES.iter().zip(stats).map(|(name, d)| ((*name).to_owned(), summary(d))).collect();
    out.insert("stats".into(), Value::Object(stats));
    out
}

/// Stat means and spreads per category and catalog-wide, and how many firearms each archetype
/// holds (statistics and archetype rule in the description).
#[utoipa::path(get, path = "/v1/firearms/game-meta", tag = "Game analytics", params(GameMetaQuery),
    responses((status = 200, body = schemas::One<schemas::GameMeta>)),
    description = game::describe_meta())]
pub async fn game_meta(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    Valid(query): Valid<GameMetaQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let archetype = query.archetype.as_deref().and_then(archetype::index_of);
    let categories: Vec<Value> = snapshot
        .catalog
        .categories
        .iter()
        .enumerate()
        .map(|(at, category)| {
            let mut figures = figures(analytics.category_scope(at), archetype);
            figures.insert("categoryId".into(), json!(category.id));
            figures.insert("name".into(), json!(category.name));
            Value::Object(figures)
        })
        .collect();
    Ok(respond::one(json!({
        "version": query.version,
        "archetype": query.archetype,
        "catalog": figures(analytics.catalog_scope(), archetype),
        "categories": categories,
    })))
}
