//! The fittest firearms of one archetype (88).

use serde::Serialize;
use serde_json::value::RawValue;

use super::{listed, stat_values};
use crate::catalog::game_stats::GameStats;
use crate::read::game::GameAnalytics;
use crate::read::game::archetype::ARCHETYPE_NAMES;
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

#[derive(Serialize, utoipa::ToSchema)]
pub struct RoleRoster<'a> {
    pub version: Option<&'a str>,
    #[schema(value_type = crate::read::rendered::shapes::GameArchetype)]
    pub role: &'static str,
    /// How many firearms have the archetype.
    #[schema(value_type = i64)]
    pub total: usize,
    pub firearms: Vec<RosterMember<'a>>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct RosterMember<'a> {
    #[schema(value_type = i64)]
    pub rank: usize,
    pub id: &'a str,
    pub name: &'a str,
    /// Fitness for the role, 0 to 100.
    pub fitness: f64,
    pub overall: Option<f64>,
    pub stats: GameStats,
    #[schema(value_type = Option<crate::read::rendered::shapes::FirearmListItem>)]
    pub firearm: Option<Box<RawValue>>,
}

/// The firearms whose archetype is `role` (a position in `ARCHETYPE_NAMES`), fittest first
/// (ties by name), at most `count`.
pub fn role_roster<'a>(
    snapshot: &Snapshot,
    analytics: &'a GameAnalytics,
    role: usize,
    count: usize,
    view: View,
) -> RoleRoster<'a> {
    let roster = analytics.roster(role);
    let firearms = roster
        .iter()
        .take(count)
        .enumerate()
        .map(|(position, &i)| {
            let entry = analytics.entry_at(i);
            RosterMember {
                rank: position + 1,
                id: &entry.id,
                name: &entry.name,
                fitness: entry.archetype.map_or(0.0, |(_, fit)| fit),
                overall: entry.overall,
                stats: stat_values(&entry.stats),
                firearm: listed(snapshot, view, entry),
            }
        })
        .collect();
    RoleRoster {
        version: analytics.version.as_deref(),
        role: ARCHETYPE_NAMES[role],
        total: roster.len(),
        firearms,
    }
}
