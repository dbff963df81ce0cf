//! Outliers of a category: firearms whose stat lies more than `threshold` standard deviations
//! from the category's mean. z = (value − mean) / sd with the category's population mean and
//! standard deviation of that stat (over the firearms whose stat is known); a stat whose deviation
//! is 0 has no outliers. |z| > threshold is an outlier.

use super::stat::{STAT_NAMES, round3};
use super::{GameAnalytics, Metric, Scope};

/// The rule in one sentence, for the OpenAPI description.
pub const RULE: &str = "z = (value − mean) / sd, with the category's population mean and standard deviation \
    (divided by n) of that stat over its firearms whose stat is known; a firearm is an outlier when \
    |z| > threshold (a stat with sd 0 has none). Outliers are listed most extreme first (|z|, then stat \
    order, then name), at most `limit` per category; outlierCount counts them all.";

#[derive(Debug, Clone, PartialEq)]
pub struct Outlier {
    /// Entry index in the analytics.
    pub entry: u32,
    pub stat: usize,
    pub value: u8,
    pub mean: f64,
    pub standard_deviation: f64,
    pub z: f64,
}

/// The outliers of `scope` for the given stats: how many there are, and the `limit` most extreme.
pub fn outliers(
    analytics: &GameAnalytics,
    scope: &Scope,
    stats: &[usize],
    threshold: f64,
    limit: usize,
) -> (usize, Vec<Outlier>) {
    let mut total = 0;
    let mut found = Vec::new();
    for &stat in stats {
        let distribution = &scope.stats[stat];
        let (Some(mean), Some(sd)) = (distribution.mean_exact(), distribution.sd_exact()) else { continue };
        if sd <= 0.0 {
            continue;
        }
        let ranked = scope.ranked(Metric::Stat(stat));
        let value = |i: u32| analytics.entry_at(i).stats[stat].unwrap_or(0);
        let z_of = |v: u8| (f64::from(v) - mean) / sd;
        // Best first: the high outliers are a prefix, the low ones a suffix.
        let high = ranked.partition_point(|&i| z_of(value(i)) > threshold);
        let low_start = ranked.partition_point(|&i| z_of(value(i)) >= -threshold).max(high);
        total += high + (ranked.len() - low_start);
        // Only the `limit` most extreme of each end can be among the `limit` most extreme.
        let ends = ranked[..high].iter().take(limit).chain(ranked[low_start..].iter().rev().take(limit));
        for &i in ends {
            let v = value(i);
            found.push(Outlier {
                entry: i,
                stat,
                value: v,
                mean: super::stat::round2(mean),
                standard_deviation: round3(sd),
                z: round3(z_of(v)),
            });
        }
    }
    found.sort_by(|a, b| {
        b.z.abs()
            .total_cmp(&a.z.abs())
            .then(a.stat.cmp(&b.stat))
            .then_with(|| {
                analytics
                    .entry_at(a.entry)
                    .name
                    .to_lowercase()
                    .cmp(&analytics.entry_at(b.entry).name.to_lowercase())
            })
            .then_with(|| analytics.entry_at(a.entry).id.cmp(&analytics.entry_at(b.entry).id))
    });
    found.truncate(limit);
    debug_assert!(stats.iter().all(|s| *s < STAT_NAMES.len()));
    (total, found)
}
