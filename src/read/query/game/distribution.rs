//! One stat's histogram, mean, deviation and percentiles (89).

use serde::Serialize;

use crate::read::error::QueryError;
use crate::read::game::GameAnalytics;
use crate::read::game::distribution::Bin;
use crate::read::game::stat::STAT_NAMES;
use crate::read::snapshot::Snapshot;

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatDistribution<'a> {
    pub version: Option<&'a str>,
    #[schema(value_type = crate::read::rendered::shapes::GameStat)]
    pub stat: &'static str,
    pub category: Option<&'a str>,
    /// Firearms whose stat is known.
    #[schema(value_type = i64)]
    pub count: u32,
    /// Firearms in scope whose stat is unknown.
    #[schema(value_type = i64)]
    pub unknown_count: u32,
    pub mean: Option<f64>,
    pub standard_deviation: Option<f64>,
    #[schema(value_type = Option<i64>)]
    pub min: Option<u8>,
    #[schema(value_type = Option<i64>)]
    pub max: Option<u8>,
    pub percentiles: StatPercentiles,
    pub histogram: Vec<Bin>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct StatPercentiles {
    #[schema(value_type = Option<i64>)]
    pub p10: Option<u8>,
    #[schema(value_type = Option<i64>)]
    pub p25: Option<u8>,
    #[schema(value_type = Option<i64>)]
    pub p50: Option<u8>,
    #[schema(value_type = Option<i64>)]
    pub p75: Option<u8>,
    #[schema(value_type = Option<i64>)]
    pub p90: Option<u8>,
}

/// Stat `stat` (a position in `STAT_NAMES`) over the firearms of `category` (an id; unknown is
/// `NotFound` naming `category`; None: all) whose stat is known, with a histogram of `bins` equal
/// bins over 0–100.
pub fn stat_distribution<'a>(
    snapshot: &Snapshot,
    analytics: &'a GameAnalytics,
    stat: usize,
    category: Option<&'a str>,
    bins: usize,
) -> Result<StatDistribution<'a>, QueryError> {
    let scope = analytics.scope(snapshot.category_filter("category", category)?);
    let d = &scope.stats[stat];
    Ok(StatDistribution {
        version: analytics.version.as_deref(),
        stat: STAT_NAMES[stat],
        category,
        count: d.count(),
        unknown_count: scope.firearms - d.count(),
        mean: d.mean(),
        standard_deviation: d.standard_deviation(),
        min: d.min(),
        max: d.max(),
        percentiles: StatPercentiles {
            p10: d.percentile(10),
            p25: d.percentile(25),
            p50: d.percentile(50),
            p75: d.percentile(75),
            p90: d.percentile(90),
        },
        histogram: d.histogram(bins),
    })
}
