//! GET /v1/game/role-roster: the fittest firearms of one archetype (operation 88).

use axum::extract::State;
use axum::response::Response;

use crate::access::caller::Caller;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self as http_game, ARCHETYPE_RULE, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::game::archetype;
use crate::read::query::game;
use crate::read::views::View;

const ROLE: QueryParam<kind::OneOf> = QueryParam::new("role", ARCHETYPE_RULE, "the archetype").required();
const COUNT: QueryParam<kind::Int> =
    QueryParam::new("count", kind::Int { min: 1, max: 50 }, "how many firearms: 1 to 50, default 10");

pub struct RosterQuery {
    role: Option<String>,
    count: usize,
    version: Option<String>,
}

impl QueryParams for RosterQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&ROLE, &COUNT, &VERSION];
    fn read(params: &mut Params) -> Self {
        Self {
            role: params.get(&ROLE),
            count: params.get(&COUNT).unwrap_or(10) as usize,
            version: http_game::version(params),
        }
    }
}

crate::query_params_doc!(RosterQuery);

/// The firearms of archetype `role`, fittest first (rule in the description).
#[utoipa::path(get, path = "/v1/game/role-roster", tag = "Game analytics", params(RosterQuery),
    responses((status = 200, body = schemas::One<game::RoleRoster>)),
    description = http_game::describe_roster())]
pub async fn role_roster(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(query): Valid<RosterQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let role = query.role.as_deref().and_then(archetype::index_of).unwrap_or_default();
    Ok(respond::one(game::role_roster(&snapshot, &analytics, role, query.count, View::of(caller.plan))))
}
