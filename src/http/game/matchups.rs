//! GET /v1/game/matchups: two firearms stat by stat, with a verdict (operation 87).

use axum::extract::State;
use axum::response::Response;

use crate::access::caller::Caller;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self as http_game, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::query::game;
use crate::read::views::View;

const A: QueryParam<kind::Slug> = QueryParam::new("a", kind::Slug, "the first firearm's id").required();
const B: QueryParam<kind::Slug> = QueryParam::new("b", kind::Slug, "the second firearm's id").required();

pub struct MatchupQuery {
    a: String,
    b: String,
    version: Option<String>,
}

impl QueryParams for MatchupQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&A, &B, &VERSION];
    fn read(params: &mut Params) -> Self {
        Self {
            a: params.get(&A).unwrap_or_default(),
            b: params.get(&B).unwrap_or_default(),
            version: http_game::version(params),
        }
    }
}

crate::query_params_doc!(MatchupQuery);

/// `a` against `b`: each stat's winner and the verdict (rules in the description). Either id
/// unknown (to the catalog, or to the frozen version) is 404 naming it in `details.missing`.
#[utoipa::path(get, path = "/v1/game/matchups", tag = "Game analytics", params(MatchupQuery),
    responses((status = 200, body = schemas::One<game::Matchup>)),
    description = http_game::describe_matchups())]
pub async fn matchups(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(query): Valid<MatchupQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let (a, b) = (analytics.entry(&query.a), analytics.entry(&query.b));
    let (Some(a), Some(b)) = (a, b) else {
        let missing: Vec<&String> = [(&query.a, a.is_none()), (&query.b, b.is_none())]
            .into_iter()
            .filter_map(|(id, missing)| missing.then_some(id))
            .collect();
        return Err(ApiError::missing_ids(&http_game::firearm_in(query.version.as_deref()), &missing));
    };
    Ok(respond::one(game::matchup(&snapshot, &analytics, (a, b), View::of(caller.plan))))
}
