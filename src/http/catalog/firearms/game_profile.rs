//! GET /v1/firearms/{id}/game-profile: a firearm's archetype, strengths and weaknesses derived
//! from its stats (operation 27).

use axum::extract::State;
use axum::response::Response;

use crate::access::caller::Caller;
use crate::http::extract::path::ValidPath;
use crate::http::extract::query::{Declared, Params, QueryParams, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self as http_game, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::query::game;
use crate::read::views::View;

pub struct ProfileQuery {
    version: Option<String>,
}

impl QueryParams for ProfileQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&VERSION];
    fn read(params: &mut Params) -> Self {
        Self { version: http_game::version(params) }
    }
}

crate::query_params_doc!(ProfileQuery);

/// Archetype, fitness per archetype, strengths, weaknesses and per-stat standing (rules in the
/// description). An id the catalog (or the frozen version) does not hold is 404.
#[utoipa::path(get, path = "/v1/firearms/{id}/game-profile", tag = "Game analytics",
    params(("id" = String, Path), ProfileQuery),
    responses((status = 200, body = schemas::One<game::GameProfile>)),
    description = http_game::describe_profile())]
pub async fn game_profile(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    ValidPath(id): ValidPath<String>,
    Valid(query): Valid<ProfileQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let Some(entry) = analytics.entry(&id) else {
        return Err(ApiError::not_found(&http_game::firearm_in(query.version.as_deref()), &id));
    };
    Ok(respond::one(game::profile(&snapshot, &analytics, entry, View::of(caller.plan))))
}
