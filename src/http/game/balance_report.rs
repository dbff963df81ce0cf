//! GET /v1/game/balance-report: per category, the firearms whose stat lies beyond `threshold`
//! standard deviations from the category's mean (operation 85).

use axum::extract::State;
use axum::response::Response;

use crate::access::caller::Caller;
use crate::http::extract::query::{Declared, Params, QueryParam, QueryParams, Valid, kind};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self as http_game, CATEGORY, STAT_RULE, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::query::game::{self, BalanceAsked};
use crate::read::views::View;

const THRESHOLD: QueryParam<kind::Decimal> = QueryParam::new(
    "threshold",
    kind::Decimal { min: 0.5, max: 5.0 },
    "how many standard deviations from the category mean make an outlier: 0.5 to 5, default 2",
);
const STAT: QueryParam<kind::OneOf> = QueryParam::new("stat", STAT_RULE, "only this stat; absent: all eight");
const LIMIT: QueryParam<kind::Int> = QueryParam::new(
    "limit",
    kind::Int { min: 1, max: 100 },
    "outliers listed per category, most extreme first: 1 to 100, default 25 (outlierCount counts them all)",
);

pub struct BalanceQuery {
    threshold: f64,
    stat: Option<String>,
    category: Option<String>,
    limit: usize,
    version: Option<String>,
}

impl QueryParams for BalanceQuery {
    const PARAMS: &'static [&'static dyn Declared] = &[&THRESHOLD, &STAT, &CATEGORY, &LIMIT, &VERSION];
    fn read(params: &mut Params) -> Self {
        Self {
            threshold: params.get(&THRESHOLD).unwrap_or(2.0),
            stat: params.get(&STAT),
            category: params.get(&CATEGORY),
            limit: params.get(&LIMIT).unwrap_or(25) as usize,
            version: http_game::version(params),
        }
    }
}

crate::query_params_doc!(BalanceQuery);

/// Stat outliers per category, with their z-scores (formula in the description).
#[utoipa::path(get, path = "/v1/game/balance-report", tag = "Game analytics", params(BalanceQuery),
    responses((status = 200, body = schemas::One<game::BalanceReport>)),
    description = http_game::describe_balance())]
pub async fn balance_report(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(query): Valid<BalanceQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let asked = BalanceAsked {
        threshold: query.threshold,
        stat: query.stat.as_deref(),
        category: query.category.as_deref(),
        limit: query.limit,
    };
    Ok(respond::one(game::balance_report(&snapshot, &analytics, asked, View::of(caller.plan))?))
}
