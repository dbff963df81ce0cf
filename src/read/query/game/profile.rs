//! A firearm's archetype, strengths and weaknesses derived from its stats (27).

use serde::Serialize;
use serde_json::value::RawValue;

use super::{archetype_name, listed, stat_values};
use crate::catalog::game_stats::GameStats;
use crate::read::game::archetype::{ARCHETYPE_NAMES, fitness};
use crate::read::game::stat::STAT_NAMES;
use crate::read::game::{Entry, GameAnalytics};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

/// Category percentile at or above which a stat is a strength, and at or below which a weakness.
const STRENGTH_PERCENTILE: f64 = 75.0;
const WEAKNESS_PERCENTILE: f64 = 25.0;

/// A firearm's game profile.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameProfile<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub version: Option<&'a str>,
    /// Null when a frozen version's firearm is no longer in the catalog.
    pub category_id: Option<String>,
    pub stats: GameStats,
    /// Mean of the known stats (at least four), two decimals.
    pub overall: Option<f64>,
    #[schema(value_type = Option<crate::read::rendered::shapes::GameArchetype>)]
    pub archetype: Option<&'static str>,
    /// The fitness for its archetype.
    pub archetype_fitness: Option<f64>,
    /// Fitness for every archetype, in vocabulary order.
    pub fitness: Vec<GameArchetypeFitness>,
    /// Stats at category percentile ≥ 75.
    #[schema(value_type = Vec<crate::read::rendered::shapes::GameStat>)]
    pub strengths: Vec<&'static str>,
    /// Stats at category percentile ≤ 25.
    #[schema(value_type = Vec<crate::read::rendered::shapes::GameStat>)]
    pub weaknesses: Vec<&'static str>,
    pub standing: Vec<GameStatStanding>,
    /// The firearm as lists show it to the caller's plan; null when no longer in the catalog.
    #[schema(value_type = Option<crate::read::rendered::shapes::FirearmListItem>)]
    pub firearm: Option<Box<RawValue>>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct GameArchetypeFitness {
    #[schema(value_type = crate::read::rendered::shapes::GameArchetype)]
    pub archetype: &'static str,
    pub fitness: f64,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameStatStanding {
    #[schema(value_type = crate::read::rendered::shapes::GameStat)]
    pub stat: &'static str,
    #[schema(value_type = Option<i64>)]
    pub value: Option<u8>,
    /// Mid-rank percentile within the catalog (0 to 100), null when the stat is unknown.
    pub catalog_percentile: Option<f64>,
    /// Mid-rank percentile within the firearm's category.
    pub category_percentile: Option<f64>,
}

/// `entry`'s (one of `analytics`') archetype, fitness per archetype, strengths, weaknesses and
/// per-stat standing: the mid-rank percentile within the catalog and within its category; a
/// strength is a stat at category percentile ≥ 75, a weakness ≤ 25.
pub fn profile<'a>(
    snapshot: &Snapshot,
    analytics: &'a GameAnalytics,
    entry: &'a Entry,
    view: View,
) -> GameProfile<'a> {
    let catalog_scope = analytics.catalog_scope();
    let category_scope = entry.category.map(|c| analytics.category_scope(c));
    let mut strengths = Vec::new();
    let mut weaknesses = Vec::new();
    let standing = STAT_NAMES
        .iter()
        .enumerate()
        .map(|(at, &stat)| {
            let value = entry.stats[at];
            let in_catalog = value.and_then(|v| catalog_scope.stats[at].percentile_rank(v));
            let in_category = value.and_then(|v| category_scope.and_then(|s| s.stats[at].percentile_rank(v)));
            match in_category {
                Some(p) if p >= STRENGTH_PERCENTILE => strengths.push(stat),
                Some(p) if p <= WEAKNESS_PERCENTILE => weaknesses.push(stat),
                _ => {}
            }
            GameStatStanding { stat, value, catalog_percentile: in_catalog, category_percentile: in_category }
        })
        .collect();
    let fitness = ARCHETYPE_NAMES
        .iter()
        .enumerate()
        .map(|(at, &archetype)| GameArchetypeFitness { archetype, fitness: fitness(&entry.stats, at) })
        .collect();
    GameProfile {
        id: &entry.id,
        name: &entry.name,
        version: analytics.version.as_deref(),
        category_id: entry.at.map(|at| snapshot.catalog.firearms.get(at).category_id.clone()),
        stats: stat_values(&entry.stats),
        overall: entry.overall,
        archetype: archetype_name(entry),
        archetype_fitness: entry.archetype.map(|(_, fit)| fit),
        fitness,
        strengths,
        weaknesses,
        standing,
        firearm: listed(snapshot, view, entry),
    }
}
