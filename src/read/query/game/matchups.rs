//! Two firearms stat by stat, with a verdict (87).

use serde::Serialize;
use serde_json::value::RawValue;

use super::{archetype_name, listed, stat_values};
use crate::catalog::game_stats::GameStats;
use crate::read::game::matchup::{self as duel, Side};
use crate::read::game::{Entry, GameAnalytics};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

#[derive(Serialize, utoipa::ToSchema)]
pub struct Matchup<'a> {
    pub version: Option<&'a str>,
    pub a: MatchupSide<'a>,
    pub b: MatchupSide<'a>,
    pub stats: Vec<StatDuel>,
    pub verdict: MatchupVerdict,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct MatchupSide<'a> {
    pub id: &'a str,
    pub name: &'a str,
    #[schema(value_type = Option<crate::read::rendered::shapes::GameArchetype>)]
    pub archetype: Option<&'static str>,
    pub overall: Option<f64>,
    pub stats: GameStats,
    #[schema(value_type = Option<crate::read::rendered::shapes::FirearmListItem>)]
    pub firearm: Option<Box<RawValue>>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct StatDuel {
    #[schema(value_type = crate::read::rendered::shapes::GameStat)]
    pub stat: &'static str,
    #[schema(value_type = Option<i64>)]
    pub a: Option<u8>,
    #[schema(value_type = Option<i64>)]
    pub b: Option<u8>,
    /// Null when either value is unknown.
    #[schema(value_type = Option<crate::read::rendered::shapes::MatchupWinner>)]
    pub winner: Option<&'static str>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchupVerdict {
    #[schema(value_type = crate::read::rendered::shapes::MatchupWinner)]
    pub winner: &'static str,
    #[schema(value_type = i64)]
    pub a_wins: usize,
    #[schema(value_type = i64)]
    pub b_wins: usize,
    #[schema(value_type = i64)]
    pub draws: usize,
    /// "stats won", "overall score" or "even".
    pub decided_by: &'static str,
}

/// `a` against `b` (both of `analytics`): each stat's winner and the verdict
/// (`read::game::matchup`).
pub fn matchup<'a>(
    snapshot: &Snapshot,
    analytics: &'a GameAnalytics,
    (a, b): (&'a Entry, &'a Entry),
    view: View,
) -> Matchup<'a> {
    let side = |entry: &'a Entry| MatchupSide {
        id: &entry.id,
        name: &entry.name,
        archetype: archetype_name(entry),
        overall: entry.overall,
        stats: stat_values(&entry.stats),
        firearm: listed(snapshot, view, entry),
    };
    let duel = duel::matchup(a, b);
    Matchup {
        version: analytics.version.as_deref(),
        a: side(a),
        b: side(b),
        stats: duel
            .stats
            .iter()
            .map(|d| StatDuel { stat: d.stat, a: d.a, b: d.b, winner: d.winner.map(Side::name) })
            .collect(),
        verdict: MatchupVerdict {
            winner: duel.verdict.name(),
            a_wins: duel.a_wins,
            b_wins: duel.b_wins,
            draws: duel.draws,
            decided_by: duel.decided_by,
        },
    }
}
