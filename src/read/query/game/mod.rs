//! Game-balance analytics (operations 21, 26, 27, 85 to 89): each answer sliced from the
//! analytics of one stats source (`read::game::GameAnalytics`: the live stats, or a frozen
//! version), which the caller obtains first (`CatalogHandle::game`, as a frozen version may have
//! to be read from the store). Firearm rows carry the firearm as lists show it to the caller's
//! `View`, or null when a frozen version's firearm is no longer in the catalog.

mod balance;
mod distribution;
mod live;
mod matchups;
mod meta;
mod profile;
mod roster;
mod tiers;

use serde_json::value::RawValue;

pub use balance::{BalanceAsked, BalanceReport, GameCategoryOutliers, GameOutlier, balance_report};
pub use distribution::{StatDistribution, StatPercentiles, stat_distribution};
pub use live::{FirearmGameStats, live_stats};
pub use matchups::{Matchup, MatchupSide, MatchupVerdict, StatDuel, matchup};
pub use meta::{
    GameArchetypeCount, GameMeta, GameMetaCategory, GameMetaFigures, GameStatSummaries, GameStatSummary,
    game_meta,
};
pub use profile::{GameArchetypeFitness, GameProfile, GameStatStanding, profile};
pub use roster::{RoleRoster, RosterMember, role_roster};
pub use tiers::{Tier, TierList, TieredFirearm, tier_list};

use crate::catalog::game_stats::GameStats;
use crate::read::game::Entry;
use crate::read::game::archetype::ARCHETYPE_NAMES;
use crate::read::game::stat::Stats;
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

/// A firearm's eight stats as answers carry them (`GameStats`, each 0 to 100 or null).
fn stat_values(stats: &Stats) -> GameStats {
    GameStats::from_values(stats.map(|value| value.map(i64::from)))
}

/// A firearm as the caller's plan lists it (Explorer: the summary list item; Builder and up: the
/// full flat record), or None when the catalog no longer holds it (a frozen version's entry).
fn listed(snapshot: &Snapshot, view: View, entry: &Entry) -> Option<Box<RawValue>> {
    Some(snapshot.read.forms.listed_raw(entry.at?, view))
}

/// The archetype's name.
fn archetype_name(entry: &Entry) -> Option<&'static str> {
    entry.archetype.map(|(at, _)| ARCHETYPE_NAMES[at])
}
