//! GET /v1/firearms/game-meta: the game stats' means and spreads per category and catalog-wide,
//! with archetype counts (operation 21).

use axum::extract::State;
use axum::response::Response;

use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self as http_game, ARCHETYPE_RULE, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::game::archetype;
use crate::read::query::game;

const ARCHETYPE: QueryParam<kind::OneOf> =
    QueryParam::new("archetype", ARCHETYPE_RULE, "only firearms of this archetype; absent: every firearm");

pub struct GameMetaQuery {
    archetype: Option<String>,
    version: Option<String>,
}

impl QueryParams for GameMetaQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&ARCHETYPE, &VERSION];
    fn read(params: &mut Params) -> Self {
        Self { archetype: params.get(&ARCHETYPE), version: http_game::version(params) }
    }
}

crate::query_params_doc!(GameMetaQuery);

/// Stat means and spreads per category and catalog-wide, and how many firearms each archetype
/// holds (statistics and archetype rule in the description).
#[utoipa::path(get, path = "/v1/firearms/game-meta", tag = "Game analytics", params(GameMetaQuery),
    responses((status = 200, body = schemas::One<game::GameMeta>)),
    description = http_game::describe_meta())]
pub async fn game_meta(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    Valid(query): Valid<GameMetaQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let archetype = query.archetype.as_deref().and_then(archetype::index_of);
    Ok(respond::one(game::game_meta(&snapshot, &analytics, archetype)))
}
