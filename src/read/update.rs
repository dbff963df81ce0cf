//! A snapshot patched from the change log (`catalog::change_log`) instead of built: after an
//! import that changed a few records, a running node reads only those records back, takes over
//! the rendered forms of every firearm that did not change, and builds the rest of the read model
//! (orders, filter sets, aggregates) from the patched catalog as a build does. The search index is
//! kept when every text it indexes is as it was, and patched when a few firearms' texts changed
//! (`search::change`, `search::patch`).
//!
//! At 100,000 firearms a build reads and parses every record and renders each firearm again; a
//! patch reads a handful of rows and renders a handful of firearms. What it answers is what a
//! build of the same revision answers (tested in `tests/api/catalog/patched_snapshot.rs`), since
//! everything but the unchanged firearms' forms is built the same way, and those forms depend on
//! nothing but their own record, stats, users and meta, which did not change.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::catalog::change_log::{self, Changes, State};
use crate::catalog::model::Catalog;
use crate::catalog::rows::TABLES;
use crate::catalog::store::{self, StoredRecords};
use crate::db::Db;
use crate::read::in_place::InPlace;
use crate::read::meta::RecordMeta;
use crate::read::snapshot::{Origin, Snapshot, SnapshotError, game_stats, user_ids};
use crate::read::{LAST_CHANGE_TABLES, Previous, ReadModel, Stored, search};

/// `old` patched up to the stored revision, or None when the change log cannot take it there (see
/// `catalog::change_log`): the caller builds then.
pub async fn patched(db: &Db, old: Arc<Snapshot>) -> Result<Option<Snapshot>, SnapshotError> {
    let started = std::time::Instant::now();
    let mut tx = db.pool().begin().await?;
    let (revision, epoch) = store::catalog_revision_and_epoch(&mut tx).await?;
    let from = State { revision: old.revision, epoch: old.epoch };
    let Some(changes) = change_log::between(&mut tx, from, State { revision, epoch }).await? else {
        return Ok(None);
    };
    let mut meta = old.meta.clone();
    let mut records = Vec::new();
    for table in &TABLES {
        let ids: Vec<String> = changes.ids(table.name).iter().cloned().collect();
        if ids.is_empty() {
            continue;
        }
        let rows = store::rows_of(&mut tx, table.name, &ids).await?;
        for id in &ids {
            meta.remove(table.name, id);
        }
        let mut texts = Vec::with_capacity(rows.len());
        for row in rows {
            let row_meta =
                RecordMeta { version: row.version, created_at: row.created_at, updated_at: row.updated_at };
            meta.insert(table.name, row.id, row_meta);
            texts.push(row.record);
        }
        records.push((table.name, texts));
    }
    let firearm_ids: Vec<String> = changes.ids("firearms").iter().cloned().collect();
    let stats = game_stats(&mut tx, Some(&firearm_ids)).await?;
    let user_ids = user_ids(&mut tx, Some(&firearm_ids)).await?;
    tx.commit().await?;
    let fresh = StoredRecords::of(records).parse()?;
    let read_ms = started.elapsed().as_millis() as u64;

    tokio::task::spawn_blocking(move || {
        let patching = std::time::Instant::now();
        // Served packed, as the old one was. The read model takes the change in place when it can
        // (`in_place`); else it is built from a typed copy, since a build reads every firearm
        // several times over (`catalog::held`).
        let catalog = old.catalog.patched(|table| changes.ids(table), fresh);
        let merge_ms = patching.elapsed().as_millis() as u64;
        let in_place = InPlace::of(&old.catalog, &catalog, |table| changes.ids(table));
        let typed = match in_place {
            Some(_) => std::borrow::Cow::Borrowed(&catalog),
            None => catalog.typed(),
        };
        let typed_ms = patching.elapsed().as_millis() as u64 - merge_ms;
        let lookup = |table: &str, id: &str| meta.get(table, id);
        let firearms_rendered = rendered(&changes, &catalog);
        let search_change = search::change(&old.catalog, &typed, |table| changes.ids(table));
        let same_positions = old.catalog.same_firearm_positions(&typed, changes.ids("firearms"));
        let previous = Previous {
            read: &old.read,
            changed: changes.ids("firearms"),
            search: &search_change,
            same_positions,
        };
        let last_change = meta.last_change(&LAST_CHANGE_TABLES);
        let stored = Stored { meta: &lookup, stats, user_ids, last_change };
        let read = match &in_place {
            Some(change) => ReadModel::updated_in_place(previous, &catalog, change, stored),
            None => ReadModel::update(previous, &typed, stored),
        }?;
        let build_ms = patching.elapsed().as_millis() as u64;
        // The figures the patch defers are built from the same copy once it is served.
        let handover = match typed {
            std::borrow::Cow::Owned(typed) => Some(typed),
            std::borrow::Cow::Borrowed(_) => None,
        };
        tracing::info!(
            revision,
            from_revision = old.revision,
            records_changed = changes.len(),
            firearms_rendered,
            search_index = search_outcome(&old.read, &read),
            read_ms,
            merge_ms,
            typed_ms,
            in_place = in_place.is_some(),
            build_ms,
            "catalog snapshot patched"
        );
        let build_seconds = started.elapsed().as_secs_f64();
        let patched_in_place = in_place.is_some();
        let origin = Origin { build_seconds, reused: false, firearms_rendered, patched_in_place };
        Ok(Some(Snapshot::assembled((revision, epoch), catalog, meta, read, origin, handover)))
    })
    .await?
}

/// For the log: whether the patched read model kept, patched or built its search index.
fn search_outcome(old: &ReadModel, new: &ReadModel) -> &'static str {
    if Arc::ptr_eq(&old.search, &new.search) {
        "kept"
    } else if new.search.patched_firearms() > 0 {
        "patched"
    } else {
        "built"
    }
}

/// How many of the catalog's firearms the patch renders: the changed ones still there.
fn rendered(changes: &Changes, catalog: &Catalog) -> usize {
    let changed: &BTreeSet<String> = changes.ids("firearms");
    changed.iter().filter(|id| catalog.firearms.position(id).is_ok()).count()
}
