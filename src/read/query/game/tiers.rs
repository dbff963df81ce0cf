//! Tiers S to D by overall score or one stat (86), kept answered per snapshot.

use serde::Serialize;
use serde_json::value::RawValue;

use super::{archetype_name, listed};
use crate::read::error::QueryError;
use crate::read::game::tiers::{TIERS, bounds, rank_at};
use crate::read::game::{GameAnalytics, Metric};
use crate::read::rendered::{Rendered, one};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TierList<'a> {
    pub version: Option<&'a str>,
    #[schema(value_type = crate::read::rendered::shapes::TierMetric)]
    pub metric: &'static str,
    pub category: Option<&'a str>,
    /// Firearms with a value for the metric.
    #[schema(value_type = i64)]
    pub ranked_count: usize,
    /// S, A, B, C, D.
    pub tiers: Vec<Tier<'a>>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tier<'a> {
    #[schema(value_type = crate::read::rendered::shapes::TierName)]
    pub tier: &'static str,
    /// The tier's standing range: fromPercentile ≤ q < toPercentile (D includes 100).
    pub from_percentile: f64,
    pub to_percentile: f64,
    /// Firearms in the tier.
    #[schema(value_type = i64)]
    pub count: usize,
    pub high_score: Option<f64>,
    pub low_score: Option<f64>,
    /// Its best `per_tier` firearms.
    pub firearms: Vec<TieredFirearm<'a>>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct TieredFirearm<'a> {
    pub id: &'a str,
    pub name: &'a str,
    /// 1-based competition rank (ties share it).
    #[schema(value_type = i64)]
    pub rank: usize,
    pub score: f64,
    #[schema(value_type = Option<crate::read::rendered::shapes::GameArchetype>)]
    pub archetype: Option<&'static str>,
    #[schema(value_type = Option<crate::read::rendered::shapes::FirearmListItem>)]
    pub firearm: Option<Box<RawValue>>,
}

/// Tiers S to D of the firearms of `category` (an id; unknown is `NotFound` naming `category`;
/// None: all) ranked by `metric`, each listing its best `per_tier` firearms in `view`
/// (`read::game::tiers`). Kept once answered (a bounded few per snapshot): rendering fifty
/// firearms' listed forms took about 40 µs of a request's 80 at 100,000 firearms, for an answer
/// that changes only with the snapshot (by hand: 13,000-14,000 -> 25,000-35,000 requests a
/// second).
pub fn tier_list(
    snapshot: &Snapshot,
    analytics: &GameAnalytics,
    category: Option<&str>,
    metric: Metric,
    per_tier: usize,
    view: View,
) -> Result<Rendered, QueryError> {
    let at = snapshot.category_filter("category", category)?;
    let asked = (analytics.version.clone(), at, metric, per_tier, view);
    let answered = snapshot.read.tier_list_answers.get_or_render(asked, || {
        one(TierList {
            version: analytics.version.as_deref(),
            metric: metric.name(),
            category,
            ranked_count: analytics.scope(at).ranked(metric).len(),
            tiers: tiers(snapshot, analytics, at, metric, per_tier, view),
        })
    });
    answered.map_err(|error| QueryError::Failed(error.to_string()))
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
                    TieredFirearm {
                        id: &entry.id,
                        name: &entry.name,
                        rank: rank_at(at, p) + 1,
                        score: at(p),
                        archetype: archetype_name(entry),
                        firearm: listed(snapshot, view, entry),
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
