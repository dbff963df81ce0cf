//! Per category, the firearms whose stat lies beyond a threshold of standard deviations from the
//! category's mean (85).

use serde::Serialize;
use serde_json::value::RawValue;

use super::listed;
use crate::read::error::QueryError;
use crate::read::game::GameAnalytics;
use crate::read::game::balance::outliers;
use crate::read::game::stat::{self, STAT_NAMES};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

#[derive(Serialize, utoipa::ToSchema)]
pub struct BalanceReport<'a> {
    pub version: Option<&'a str>,
    pub threshold: f64,
    #[schema(value_type = Option<crate::read::rendered::shapes::GameStat>)]
    pub stat: Option<&'static str>,
    /// Every category (or the one asked), in catalog order.
    pub categories: Vec<GameCategoryOutliers<'a>>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameCategoryOutliers<'a> {
    pub category_id: &'a str,
    pub name: &'a str,
    #[schema(value_type = i64)]
    pub firearm_count: u32,
    /// Every outlier of the category (the list holds at most `limit`).
    #[schema(value_type = i64)]
    pub outlier_count: usize,
    pub outliers: Vec<GameOutlier<'a>>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameOutlier<'a> {
    pub id: &'a str,
    pub name: &'a str,
    #[schema(value_type = crate::read::rendered::shapes::GameStat)]
    pub stat: &'static str,
    #[schema(value_type = i64)]
    pub value: u8,
    /// The category's mean of the stat.
    pub mean: f64,
    /// The category's population standard deviation of the stat.
    pub standard_deviation: f64,
    /// (value − mean) / standardDeviation, three decimals.
    pub z_score: f64,
    #[schema(value_type = Option<crate::read::rendered::shapes::FirearmListItem>)]
    pub firearm: Option<Box<RawValue>>,
}

/// What a balance report asks for.
pub struct BalanceAsked<'q> {
    /// Standard deviations from the category mean that make an outlier.
    pub threshold: f64,
    /// Only this stat (one of `STAT_NAMES`); None: all eight.
    pub stat: Option<&'q str>,
    /// Only this category (an id; unknown is `NotFound` naming `category`).
    pub category: Option<&'q str>,
    /// Outliers listed per category, most extreme first (`outlierCount` counts all).
    pub limit: usize,
}

/// Stat outliers per category (catalog order), with their z-scores (`read::game::balance`).
pub fn balance_report<'a>(
    snapshot: &'a Snapshot,
    analytics: &'a GameAnalytics,
    asked: BalanceAsked<'_>,
    view: View,
) -> Result<BalanceReport<'a>, QueryError> {
    let only = snapshot.category_filter("category", asked.category)?;
    let one_stat = asked.stat.and_then(stat::index_of);
    let stats: Vec<usize> = match one_stat {
        Some(one) => vec![one],
        None => (0..STAT_NAMES.len()).collect(),
    };
    let categories = snapshot
        .catalog
        .categories
        .iter()
        .enumerate()
        .filter(|(at, _)| only.is_none_or(|only| only == *at))
        .map(|(at, category)| {
            let scope = analytics.category_scope(at);
            let (outlier_count, found) = outliers(analytics, scope, &stats, asked.threshold, asked.limit);
            let outliers = found
                .into_iter()
                .map(|o| {
                    let entry = analytics.entry_at(o.entry);
                    GameOutlier {
                        id: &entry.id,
                        name: &entry.name,
                        stat: STAT_NAMES[o.stat],
                        value: o.value,
                        mean: o.mean,
                        standard_deviation: o.standard_deviation,
                        z_score: o.z,
                        firearm: listed(snapshot, view, entry),
                    }
                })
                .collect();
            GameCategoryOutliers {
                category_id: &category.id,
                name: &category.name,
                firearm_count: scope.firearms,
                outlier_count,
                outliers,
            }
        })
        .collect();
    Ok(BalanceReport {
        version: analytics.version.as_deref(),
        threshold: asked.threshold,
        stat: one_stat.map(|at| STAT_NAMES[at]),
        categories,
    })
}
