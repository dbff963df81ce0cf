//! GET /v1/game/stat-distribution: one stat's histogram, mean, deviation and percentiles
//! (operation 89).

use axum::extract::State;
use axum::response::Response;

use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self as http_game, CATEGORY, STAT_RULE, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::game::stat;
use crate::read::query::game;

const STAT: QueryParam<kind::OneOf> = QueryParam::new("stat", STAT_RULE, "the stat").required();
const BINS: QueryParam<kind::Int> =
    QueryParam::new("bins", kind::Int { min: 2, max: 50 }, "histogram bins over 0–100: 2 to 50, default 10");

pub struct DistributionQuery {
    stat: Option<String>,
    bins: usize,
    category: Option<String>,
    version: Option<String>,
}

impl QueryParams for DistributionQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&STAT, &BINS, &CATEGORY, &VERSION];
    fn read(params: &mut Params) -> Self {
        Self {
            stat: params.get(&STAT),
            bins: params.get(&BINS).unwrap_or(10) as usize,
            category: params.get(&CATEGORY),
            version: http_game::version(params),
        }
    }
}

crate::query_params_doc!(DistributionQuery);

/// A stat's distribution over the firearms whose stat is known (methods in the description).
#[utoipa::path(get, path = "/v1/game/stat-distribution", tag = "Game analytics", params(DistributionQuery),
    responses((status = 200, body = schemas::One<game::StatDistribution>)),
    description = http_game::describe_distribution())]
pub async fn stat_distribution(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    Valid(query): Valid<DistributionQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let at = query.stat.as_deref().and_then(stat::index_of).unwrap_or_default();
    let category = query.category.as_deref();
    Ok(respond::one(game::stat_distribution(&snapshot, &analytics, at, category, query.bins)?))
}
