//! Frozen game-stats versions as analytics sources: a version is read from the database once,
//! turned into `GameAnalytics` off the request threads, and kept for every later request of the
//! same catalog revision. The cache holds at most `MAX_CACHED` versions (the least recently used
//! leaves first) and is emptied when the snapshot's revision moves past the one it was built for,
//! since categories and list items come from the snapshot. A version is frozen for good, so a
//! kept entry is never stale; an unknown label is never kept.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::OnceCell;

use super::stat::Stats;
use super::{GameAnalytics, SourceRow};
use crate::catalog::stats_versions::{self, GameStatsSnapshotEntry, valid_label};
use crate::db::Db;
use crate::read::error::QueryError;
use crate::read::snapshot::Snapshot;

/// How many frozen versions a node keeps analysed at once.
pub const MAX_CACHED: usize = 8;

type Slot = Arc<OnceCell<Arc<GameAnalytics>>>;

#[derive(Default)]
struct Kept {
    revision: i64,
    /// Label → its analytics (being built or built), and when it was last asked for.
    versions: HashMap<String, (Slot, u64)>,
    tick: u64,
}

#[derive(Default)]
pub struct FrozenCache {
    kept: Mutex<Kept>,
}

impl FrozenCache {
    /// The analytics of version `label` over `snapshot`; 404 when no such version exists.
    pub async fn get(
        &self,
        db: &Db,
        snapshot: &Arc<Snapshot>,
        label: &str,
    ) -> Result<Arc<GameAnalytics>, QueryError> {
        if !valid_label(label) {
            return Err(QueryError::not_found("game-stats version", label));
        }
        let slot = self.slot(snapshot.revision, label);
        let found = slot.get_or_try_init(|| load(db, snapshot.clone(), label.to_owned())).await;
        match found {
            Ok(analytics) => Ok(analytics.clone()),
            Err(e) => {
                self.forget(label, &slot);
                Err(e)
            }
        }
    }

    /// The slot of `label` for `revision` (a request on an older snapshot gets a slot of its own,
    /// not kept).
    fn slot(&self, revision: i64, label: &str) -> Slot {
        let mut kept = self.kept.lock().expect("never poisoned");
        if revision > kept.revision || kept.versions.is_empty() {
            kept.versions.clear();
            kept.revision = revision;
        } else if revision < kept.revision {
            return Slot::default();
        }
        kept.tick += 1;
        let tick = kept.tick;
        if let Some((slot, used)) = kept.versions.get_mut(label) {
            *used = tick;
            return slot.clone();
        }
        if kept.versions.len() >= MAX_CACHED {
            let oldest = kept.versions.iter().min_by_key(|(_, (_, used))| *used).map(|(l, _)| l.clone());
            if let Some(oldest) = oldest {
                kept.versions.remove(&oldest);
            }
        }
        let slot = Slot::default();
        kept.versions.insert(label.to_owned(), (slot.clone(), tick));
        slot
    }

    fn forget(&self, label: &str, slot: &Slot) {
        let mut kept = self.kept.lock().expect("never poisoned");
        if kept.versions.get(label).is_some_and(|(held, _)| Arc::ptr_eq(held, slot)) {
            kept.versions.remove(label);
        }
    }

    /// How many versions are kept (tests and metrics).
    pub fn len(&self) -> usize {
        self.kept.lock().expect("never poisoned").versions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

async fn load(db: &Db, snapshot: Arc<Snapshot>, label: String) -> Result<Arc<GameAnalytics>, QueryError> {
    let version = stats_versions::version(db, &label)
        .await?
        .ok_or_else(|| QueryError::not_found("game-stats version", &label))?;
    let entries = stats_versions::all_entries(db, version.id).await?;
    let built = tokio::task::spawn_blocking(move || {
        let rows = entries.into_iter().map(row).collect();
        let read = &snapshot.read;
        GameAnalytics::build(Some(label), rows, &snapshot.catalog, &read.firearm_at, &read.category_at)
    })
    .await
    .map_err(|e| QueryError::Failed(e.to_string()))?;
    Ok(Arc::new(built))
}

fn row(entry: GameStatsSnapshotEntry) -> SourceRow {
    let clamp = |v: Option<i64>| v.map(|v| v.clamp(0, 100) as u8);
    let stats: Stats = [
        clamp(entry.game_damage),
        clamp(entry.game_accuracy),
        clamp(entry.game_range),
        clamp(entry.game_fire_rate),
        clamp(entry.game_mobility),
        clamp(entry.game_recoil_control),
        clamp(entry.game_reload_speed),
        clamp(entry.game_concealment),
    ];
    SourceRow { id: entry.firearm_id, name: entry.firearm_name, stats }
}
