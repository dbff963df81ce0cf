//! GET /v1/game/tier-list: tiers S to D by overall score or one stat (operation 86).

use axum::extract::State;
use axum::response::{IntoResponse, Response};

use crate::access::caller::Caller;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self as http_game, CATEGORY, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState};
use crate::read::game::Metric;
use crate::read::game::stat::{self, METRIC_NAMES};
use crate::read::query::game;
use crate::read::views::View;

const STAT: QueryParam<kind::OneOf> = QueryParam::new(
    "stat",
    kind::OneOf(&METRIC_NAMES),
    "rank by the overall score (`overall`, the default) or by one stat",
);
const PER_TIER: QueryParam<kind::Int> = QueryParam::new(
    "per_tier",
    kind::Int { min: 1, max: 50 },
    "how many firearms each tier lists (its best): 1 to 50, default 10; `count` gives the tier's size",
);

pub struct TierListQuery {
    stat: Option<String>,
    category: Option<String>,
    per_tier: usize,
    version: Option<String>,
}

impl QueryParams for TierListQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&STAT, &CATEGORY, &PER_TIER, &VERSION];
    fn read(params: &mut Params) -> Self {
        Self {
            stat: params.get(&STAT),
            category: params.get(&CATEGORY),
            per_tier: params.get(&PER_TIER).unwrap_or(10) as usize,
            version: http_game::version(params),
        }
    }
}

crate::query_params_doc!(TierListQuery);

/// Tiers S to D (see the description for the cut-offs and the archetype rule).
#[utoipa::path(get, path = "/v1/game/tier-list", tag = "Game analytics", params(TierListQuery),
    responses((status = 200, body = schemas::One<game::TierList>)),
    description = http_game::describe_tiers())]
pub async fn tier_list(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(query): Valid<TierListQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let metric = query.stat.as_deref().and_then(stat::index_of).map_or(Metric::Overall, Metric::Stat);
    let category = query.category.as_deref();
    let view = View::of(caller.plan);
    Ok(game::tier_list(&snapshot, &analytics, category, metric, query.per_tier, view)?.into_response())
}
