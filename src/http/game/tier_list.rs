//! GET /v1/game/tier-list: tiers S to D by overall score or one stat (operation 86).

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::value::RawValue;

use crate::access::caller::Caller;
use crate::http::extract::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self, CATEGORY, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::game::stat::{self, METRIC_NAMES};
use crate::read::game::tiers::{TIERS, bounds, rank_at};
use crate::read::game::{GameAnalytics, Metric};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

const STAT: QueryParam = QueryParam::new(
    "stat",
    Rule::OneOf(&METRIC_NAMES),
    "rank by the overall score (`overall`, the default) or by one stat",
);
const PER_TIER: QueryParam = QueryParam::new(
    "per_tier",
    Rule::Int { min: 1, max: 50 },
    "how many firearms each tier lists (its best): 1 to 50, default 10; `count` gives the tier's size",
);

pub struct TierListQuery {
    stat: Option<String>,
    category: Option<String>,
    per_tier: usize,
    version: Option<String>,
}

impl QueryParams for TierListQuery {
    const PARAMS: &'static [QueryParam] = &[STAT, CATEGORY, PER_TIER, VERSION];
    fn read(params: &mut Params) -> Self {
        Self {
            stat: params.one_of(&STAT),
            category: params.slug(&CATEGORY),
            per_tier: params.int(&PER_TIER).unwrap_or(10) as usize,
            version: game::version(params),
        }
    }
}

crate::query_params_doc!(TierListQuery);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Ranked<'a> {
    id: &'a str,
    name: &'a str,
    rank: usize,
    score: f64,
    archetype: Option<&'static str>,
    firearm: Option<Box<RawValue>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tier<'a> {
    tier: &'static str,
    from_percentile: f64,
    to_percentile: f64,
    count: usize,
    high_score: Option<f64>,
    low_score: Option<f64>,
    firearms: Vec<Ranked<'a>>,
}

/// Tiers S to D (see the description for the cut-offs and the archetype rule).
#[utoipa::path(get, path = "/v1/game/tier-list", tag = "Game analytics", params(TierListQuery),
    responses((status = 200, body = schemas::One<schemas::TierList>)),
    description = game::describe_tiers())]
pub async fn tier_list(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(query): Valid<TierListQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let category = snapshot.category_filter(game::CATEGORY.name, query.category.as_deref())?;
    let metric = query.stat.as_deref().and_then(stat::index_of).map_or(Metric::Overall, Metric::Stat);
    let view = View::of(caller.plan);
    // Kept once answered (a bounded few): rendering fifty firearms' listed forms took about
    // 40 µs of a request's 80 at 100,000 firearms, for an answer that changes only with the
    // snapshot (by hand: 13,000-14,000 -> 25,000-35,000 requests a second).
    let asked = (query.version.clone(), category, metric, query.per_tier, view);
    let answered = snapshot.tier_list_answer(asked, || {
        respond::one_kept(TierList {
            version: query.version.as_deref(),
            metric: metric.name(),
            category: query.category.as_deref(),
            ranked_count: analytics.scope(category).ranked(metric).len(),
            tiers: tiers(&snapshot, &analytics, category, metric, query.per_tier, view),
        })
    });
    answered.map(|answer| answer.into_response()).map_err(ApiError::internal)
}

/// The tiers of `metric` in `category`, each listing its best `per_tier` firearms.
fn tiers<'a>(
    snapshot: &Snapshot,
    analytics: &'a GameAnalytics,
    category: Option<usize>,
    metric: Metric,
    per_tier: usize,
    view: View,
) -> Vec<Tier<'a>> {
    let ranked = analytics.scope(category).ranked(metric);
    let score = |i: u32| analytics.entry_at(i).value(metric).unwrap_or(0.0);
    let at = |p: usize| score(ranked[p]);
    let bounds = bounds(at, ranked.len());
    TIERS
        .iter()
        .enumerate()
        .map(|(t, (tier, from, to))| {
            let positions = bounds[t]..bounds[t + 1];
            let firearms = positions
                .clone()
                .take(per_tier)
                .map(|p| {
                    let entry = analytics.entry_at(ranked[p]);
                    Ranked {
                        id: &entry.id,
                        name: &entry.name,
                        rank: rank_at(at, p) + 1,
                        score: at(p),
                        archetype: game::archetype_name(entry),
                        firearm: game::listed(snapshot, view, entry),
                    }
                })
                .collect();
            Tier {
                tier,
                from_percentile: *from,
                to_percentile: *to,
                count: positions.len(),
                high_score: (!positions.is_empty()).then(|| at(positions.start)),
                low_score: (!positions.is_empty()).then(|| at(positions.end - 1)),
                firearms,
            }
        })
        .collect()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TierList<'a> {
    version: Option<&'a str>,
    metric: &'static str,
    category: Option<&'a str>,
    ranked_count: usize,
    tiers: Vec<Tier<'a>>,
}
