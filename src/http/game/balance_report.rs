//! GET /v1/game/balance-report: per category, the firearms whose stat lies beyond `threshold`
//! standard deviations from the category's mean (operation 85).

use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::access::caller::Caller;
use crate::http::extract::query::{Params, QueryParam, QueryParams, Rule, Valid};
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::game::{self, CATEGORY, STAT_RULE, VERSION};
use crate::http::openapi::schemas;
use crate::http::{ApiError, AppState, respond};
use crate::read::game::balance::outliers;
use crate::read::game::stat::{self, STAT_NAMES};
use crate::read::views::View;

const THRESHOLD: QueryParam = QueryParam::new(
    "threshold",
    Rule::Decimal { min: 0.5, max: 5.0 },
    "how many standard deviations from the category mean make an outlier: 0.5 to 5, default 2",
);
const STAT: QueryParam = QueryParam::new("stat", STAT_RULE, "only this stat; absent: all eight");
const LIMIT: QueryParam = QueryParam::new(
    "limit",
    Rule::Int { min: 1, max: 100 },
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
    const PARAMS: &'static [QueryParam] = &[THRESHOLD, STAT, CATEGORY, LIMIT, VERSION];
    fn read(params: &mut Params) -> Self {
        Self {
            threshold: params.decimal(&THRESHOLD).unwrap_or(2.0),
            stat: params.one_of(&STAT),
            category: params.slug(&CATEGORY),
            limit: params.int(&LIMIT).unwrap_or(25) as usize,
            version: game::version(params),
        }
    }
}

crate::query_params_doc!(BalanceQuery);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Row<'a> {
    id: &'a str,
    name: &'a str,
    stat: &'static str,
    value: u8,
    mean: f64,
    standard_deviation: f64,
    z_score: f64,
    firearm: Option<Box<RawValue>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CategoryReport<'a> {
    category_id: &'a str,
    name: &'a str,
    firearm_count: u32,
    outlier_count: usize,
    outliers: Vec<Row<'a>>,
}

/// Stat outliers per category, with their z-scores (formula in the description).
#[utoipa::path(get, path = "/v1/game/balance-report", tag = "Game analytics", params(BalanceQuery),
    responses((status = 200, body = schemas::One<schemas::BalanceReport>)),
    description = game::describe_balance())]
pub async fn balance_report(
    State(state): State<AppState>,
    snapshot: CurrentSnapshot,
    caller: Caller,
    Valid(query): Valid<BalanceQuery>,
) -> Result<Response, ApiError> {
    let analytics = state.catalog.game(&snapshot.0, query.version.as_deref()).await?;
    let only = snapshot.category_filter(game::CATEGORY.name, query.category.as_deref())?;
    let stats: Vec<usize> = match query.stat.as_deref().and_then(stat::index_of) {
        Some(one) => vec![one],
        None => (0..STAT_NAMES.len()).collect(),
    };
    let view = View::of(caller.plan);
    let categories: Vec<CategoryReport> = snapshot
        .catalog
        .categories
        .iter()
        .enumerate()
        .filter(|(at, _)| only.is_none_or(|only| only == *at))
        .map(|(at, category)| {
            let scope = analytics.category_scope(at);
            let (outlier_count, found) = outliers(&analytics, scope, &stats, query.threshold, query.limit);
            let outliers = found
                .into_iter()
                .map(|o| {
                    let entry = analytics.entry_at(o.entry);
                    Row {
                        id: &entry.id,
                        name: &entry.name,
                        stat: STAT_NAMES[o.stat],
                        value: o.value,
                        mean: o.mean,
                        standard_deviation: o.standard_deviation,
                        z_score: o.z,
                        firearm: game::listed(&snapshot, view, entry),
                    }
                })
                .collect();
            CategoryReport {
                category_id: &category.id,
                name: &category.name,
                firearm_count: scope.firearms,
                outlier_count,
                outliers,
            }
        })
        .collect();
    Ok(respond::one(serde_json::json!({
        "version": query.version,
        "threshold": query.threshold,
        "stat": query.stat,
        "categories": categories,
    })))
}
