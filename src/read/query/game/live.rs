//! A firearm's live game stats (26), as the last import derived them.

use serde::Serialize;

use crate::catalog::game_stats::GameStats;
use crate::read::error::QueryError;
use crate::read::snapshot::Snapshot;

/// Live game stats, each 0 to 100 or null.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FirearmGameStats {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub stats: GameStats,
}

/// The firearm `id`'s live game stats; `NotFound` when the catalog has no such firearm.
pub fn live_stats(snapshot: &Snapshot, id: &str) -> Result<FirearmGameStats, QueryError> {
    let (at, firearm) = snapshot.firearm(id)?;
    Ok(FirearmGameStats {
        id: firearm.id.clone(),
        name: firearm.name.clone(),
        stats: snapshot.read.stats.get(at),
    })
}
