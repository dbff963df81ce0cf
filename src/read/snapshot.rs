//! The read path: each node serves the catalog from one immutable in-memory snapshot, swapped
//! whole when the catalog revision in the database moves (polled ten times a second,
//! `REVISION_POLL`), so catalog reads never touch the database and never see half an import.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use crate::catalog::game_stats::GameStats;
use crate::catalog::model::Catalog;
use crate::catalog::store;
use crate::db::Db;
use crate::read::error::QueryError;
use crate::read::game::GameAnalytics;
use crate::read::game::versions::FrozenCache;
use crate::read::rankings::Rankings;
use crate::read::statistics::Statistics;
use crate::read::{LAST_CHANGE_TABLES, ReadModel, Stored};

use crate::read::meta::MetaTable;
pub use crate::read::meta::RecordMeta;
use crate::read::persisted::{self, SnapshotFiles, SnapshotKey};
use crate::read::update;

/// Why a snapshot could not be built; the source is kept.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("reading the catalog: {0}")]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Stored(#[from] crate::catalog::store::StoredCatalogError),
    #[error("building the search index: {0}")]
    SearchIndex(#[from] tantivy::TantivyError),
    #[error("the read-model build task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

pub struct Snapshot {
    pub revision: i64,
    /// The catalog epoch of `revision` (see `read::persisted`).
    pub epoch: i64,
    pub catalog: Catalog,
    /// Table name → record id → meta.
    pub(super) meta: MetaTable,
    /// Lookups, pre-rendered firearms, sort orders and the search index.
    pub read: ReadModel,
    /// Seconds from reading the catalog to a servable snapshot.
    pub build_seconds: f64,
    /// Whether it was read from a persisted file rather than built.
    pub reused: bool,
    /// Firearms rendered for it: all of them when built, the changed ones when patched
    /// (`read::update`), none when reused.
    pub firearms_rendered: usize,
    /// Whether a patch took the read model in place (`read::in_place`) rather than building it.
    pub patched_in_place: bool,
    /// The typed copy of the catalog a patch built its read model from, handed to the build of
    /// the figures it deferred (`build_deferred`), so they neither decode the records again nor
    /// hold a second copy beside it; its lock also keeps two such builds from running at once.
    pub(super) handover: std::sync::Mutex<Option<Catalog>>,
}

/// How a snapshot came to be: the figures its log lines and metrics report.
pub(super) struct Origin {
    pub build_seconds: f64,
    pub reused: bool,
    pub firearms_rendered: usize,
    pub patched_in_place: bool,
}

impl Snapshot {
    /// A snapshot of catalog `revision` / `epoch` from its parts; `handover` is a patch's typed
    /// copy of the catalog, for the figures it deferred.
    pub(super) fn assembled(
        (revision, epoch): (i64, i64),
        catalog: Catalog,
        meta: MetaTable,
        read: ReadModel,
        origin: Origin,
        handover: Option<Catalog>,
    ) -> Self {
        let Origin { build_seconds, reused, firearms_rendered, patched_in_place } = origin;
        let handover = std::sync::Mutex::new(handover);
        Self {
            revision,
            epoch,
            catalog,
            meta,
            read,
            build_seconds,
            reused,
            firearms_rendered,
            patched_in_place,
            handover,
        }
    }

    pub fn meta(&self, table: &str, id: &str) -> RecordMeta {
        self.meta.get(table, id)
    }

    /// Whether `quality` is built already (answered without work).
    pub fn quality_built(&self) -> bool {
        self.read.quality.get().is_some()
    }

    /// Data quality per record (`read::quality`), built on the first request that needs it.
    pub fn quality(&self) -> &crate::read::quality::DataQuality {
        self.read.quality.get_or_build(|| crate::read::quality::DataQuality::build(&self.catalog.typed()))
    }

    /// The statistics operations' figures, built now if a patch deferred them (`read::deferred`).
    pub fn statistics(&self) -> &Statistics {
        // Checked first: taking the catalog typed decodes every record of a packed one.
        match self.read.statistics.get() {
            Some(built) => built,
            None => self.statistics_of(&self.catalog.typed()),
        }
    }

    /// The superlative rankings and power ratings, built now if a patch deferred them.
    pub fn rankings(&self) -> &Rankings {
        match self.read.rankings.get() {
            Some(built) => built,
            None => self.rankings_of(&self.catalog.typed()),
        }
    }

    /// The game analytics of the live stats, built now if a patch deferred them.
    pub fn game(&self) -> &Arc<GameAnalytics> {
        match self.read.game.get() {
            Some(built) => built,
            None => self.game_of(&self.catalog.typed()),
        }
    }

    // The three figures' builds, from this snapshot's catalog typed (`Catalog::typed`: a patched
    // snapshot decodes its records for them, once for the three in `build_deferred`).

    fn statistics_of(&self, catalog: &Catalog) -> &Statistics {
        let read = &self.read;
        self.read.statistics.get_or_build(|| {
            Statistics::build(catalog, &read.facts, &read.orders.name, read.last_change.clone())
        })
    }

    fn rankings_of(&self, catalog: &Catalog) -> &Rankings {
        let read = &self.read;
        self.read
            .rankings
            .get_or_build(|| Rankings::build(catalog, &read.caliber_at, &read.category_at, &read.orders.name))
    }

    fn game_of(&self, catalog: &Catalog) -> &Arc<GameAnalytics> {
        let read = &self.read;
        let positions = (&*read.firearm_at, &read.category_at);
        self.read.game.get_or_build(|| {
            Arc::new(crate::read::game_analytics(catalog, &read.stats, positions, &read.orders))
        })
    }

    /// The `limit` firearms most like the one at `at`, best first, with their scores (operation
    /// 31; the packing is made on the snapshot's first such request, `read::similarity`).
    pub fn most_similar(&self, at: usize, limit: usize) -> Vec<(f64, usize)> {
        self.read
            .similarity
            .get_or_build(|| crate::read::similarity::Packed::build(&self.catalog))
            .most_similar(at, limit)
    }

    /// The free-text traits' distinct values (made on the snapshot's first request that matches
    /// them, `read::text_index`).
    pub fn text_index(&self) -> &crate::read::text_index::TextIndex {
        self.read.text_index.get_or_build(|| crate::read::text_index::TextIndex::build(&self.catalog))
    }

    /// Each country's adopters (made on the snapshot's first arsenal request, `read::arsenals`).
    pub fn arsenals(&self) -> &crate::read::arsenals::Arsenals {
        self.read.arsenals.get_or_build(|| crate::read::arsenals::Arsenals::build(&self.catalog))
    }

    /// Build the indexes made on a snapshot's first request that needs them (the text index, the
    /// arsenals), off the serving path once the snapshot is served: at 100,000 firearms they take
    /// about a third of a second, which the first such request spent on a worker thread while
    /// every request behind it waited. Called on a low-priority thread after the build's own
    /// work (persisting, the deferred figures), so it adds nothing to the build's peak.
    pub fn build_lazy_indexes(&self) {
        self.text_index();
        self.arsenals();
    }

    /// Generated assets drawn for this snapshot and kept (`read::kept_assets`).
    pub fn kept_assets(&self) -> &crate::read::kept_assets::KeptAssets<crate::read::query::assets::AssetKey> {
        &self.read.assets
    }

    /// The firearm carrying image `id` (the first, in catalog order), found off an index made in
    /// one walk over the firearms on the snapshot's first such question: a walk per question
    /// decoded every firearm of the packed table (`catalog::held`).
    pub fn image_owner(&self, id: i64) -> Option<Arc<crate::catalog::model::Firearm>> {
        let owners = self.read.image_owners.get_or_build(|| {
            let mut owners = HashMap::new();
            for (at, firearm) in self.catalog.firearms.iter().enumerate() {
                for image in &firearm.images {
                    owners.entry(image.id).or_insert(at as u32);
                }
            }
            owners
        });
        owners.get(&id).map(|&at| self.catalog.firearms.get(at as usize))
    }

    /// Build whatever a patch deferred (a task does it as soon as the snapshot is served).
    pub fn build_deferred(&self) {
        self.build_deferred_unless(|| false);
    }

    /// `build_deferred`, given up between its steps once `superseded` says a newer snapshot is
    /// served: in a burst of imports, each patch's figures (a typed copy of the catalog and
    /// seconds of a core at 100,000 firearms) were built for snapshots no longer served, side by
    /// side, and a node that patched three times in a row peaked at over a gigabyte. A request
    /// that still holds such a snapshot and needs its figures builds them itself.
    pub fn build_deferred_unless(&self, superseded: impl Fn() -> bool) {
        let mut handover = self.handover.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let handed = handover.take();
        if self.figures_ready() || superseded() {
            return;
        }
        let catalog = match handed {
            Some(typed) => std::borrow::Cow::Owned(typed),
            None => self.catalog.typed(),
        };
        let steps: [&dyn Fn(); 3] = [
            &|| {
                self.statistics_of(&catalog);
            },
            &|| {
                self.rankings_of(&catalog);
            },
            &|| {
                self.game_of(&catalog);
            },
        ];
        for step in steps {
            if superseded() {
                return;
            }
            step();
        }
    }

    fn figures_ready(&self) -> bool {
        let read = &self.read;
        read.statistics.is_ready() && read.rankings.is_ready() && read.game.is_ready()
    }

    /// Wait, off the runtime's workers, until the deferred parts are built (at once when they
    /// are): a request for them right after a patch must not hold a worker while they build.
    pub async fn figures_built(self: &Arc<Self>) {
        if self.figures_ready() {
            return;
        }
        let snapshot = self.clone();
        tokio::task::spawn_blocking(move || snapshot.build_deferred()).await.expect("building never panics");
    }
}

#[derive(Clone)]
pub struct CatalogHandle {
    db: Db,
    current: Arc<RwLock<Arc<Snapshot>>>,
    /// Frozen game-stats versions already analysed (see `read::game::versions`).
    frozen_game: Arc<FrozenCache>,
    /// Held while a snapshot is built: the revision poll and the webhook fan-out both ask for
    /// new revisions, and two builds side by side took twice as long and twice the memory.
    building: Arc<tokio::sync::Mutex<()>>,
    /// Held while a patched snapshot's deferred figures are built after it is served.
    deferring: Arc<std::sync::Mutex<()>>,
    /// Where snapshots are persisted and reused from, if anywhere.
    files: Option<SnapshotFiles>,
}

impl CatalogHandle {
    /// The handle serving the stored catalog: the snapshot persisted in `files` when it matches
    /// the stored revision, else one built (and then persisted there).
    pub async fn load(db: Db, files: Option<SnapshotFiles>) -> Result<Self, SnapshotError> {
        let snapshot = Arc::new(read(&db, files.as_ref()).await?);
        let handle = Self {
            db,
            current: Arc::new(RwLock::new(snapshot.clone())),
            frozen_game: Arc::default(),
            building: Arc::default(),
            deferring: Arc::default(),
            files,
        };
        handle.persist(snapshot);
        Ok(handle)
    }

    /// Write a built snapshot to the snapshot folder, off the serving path; then (or at once, when
    /// there is nothing to write) build its lazy indexes.
    fn persist(&self, snapshot: Arc<Snapshot>) {
        let files = match self.files.clone() {
            Some(files) if !snapshot.reused => files,
            _ => {
                crate::low_priority::spawn("snapshot-indexes", move || snapshot.build_lazy_indexes());
                return;
            }
        };
        crate::low_priority::spawn("snapshot-persist", move || {
            snapshot.build_deferred();
            let started = std::time::Instant::now();
            let key = SnapshotKey::of(snapshot.revision, snapshot.epoch);
            match files.save(&key, &snapshot.catalog, &snapshot.meta, &snapshot.read) {
                Ok(()) => tracing::info!(
                    revision = snapshot.revision,
                    elapsed_ms = started.elapsed().as_millis() as u64,
                    "catalog snapshot persisted"
                ),
                Err(e) => {
                    tracing::warn!(dir = %files.dir().display(), error = %e, "cannot persist the catalog snapshot")
                }
            }
            snapshot.build_lazy_indexes();
        });
    }

    pub fn current(&self) -> Arc<Snapshot> {
        self.current.read().expect("never poisoned").clone()
    }

    /// The game analytics of `snapshot`: its live stats, or frozen version `version` (404 when
    /// there is no such version), computed once and kept.
    pub async fn game(
        &self,
        snapshot: &Arc<Snapshot>,
        version: Option<&str>,
    ) -> Result<Arc<GameAnalytics>, QueryError> {
        match version {
            None => {
                snapshot.figures_built().await;
                Ok(snapshot.game().clone())
            }
            Some(label) => self.frozen_game.get(&self.db, snapshot, label).await,
        }
    }

    /// Build a snapshot of the stored catalog and serve it (one build at a time).
    pub async fn reload(&self) -> Result<(), SnapshotError> {
        let _building = self.building.lock().await;
        self.build_and_swap().await
    }

    /// Serve at least `revision`: build a snapshot unless the one served is already that new,
    /// which it may be after waiting for a build another caller started.
    pub async fn catch_up(&self, revision: i64) -> Result<(), SnapshotError> {
        let _building = self.building.lock().await;
        if self.current().revision >= revision {
            return Ok(());
        }
        self.build_and_swap().await
    }

    /// Serve the stored revision: the current snapshot patched from the change log when the log
    /// leads there from it (`read::update`), else one read or built whole.
    async fn build_and_swap(&self) -> Result<(), SnapshotError> {
        let patched = match update::patched(&self.db, self.current()).await {
            Ok(patched) => patched,
            Err(e) => {
                tracing::warn!(error = %e, "patching the catalog snapshot failed; building it whole");
                None
            }
        };
        let was_patched = patched.is_some();
        let snapshot = match patched {
            Some(patched) => Arc::new(patched),
            None => Arc::new(read(&self.db, self.files.as_ref()).await?),
        };
        let replaced =
            std::mem::replace(&mut *self.current.write().expect("never poisoned"), snapshot.clone());
        // Freeing a large snapshot takes a while (a third of a second for 100,000 firearms on one
        // core): not on a request thread. Requests still holding it free it wherever they end.
        crate::low_priority::spawn("snapshot-free", move || drop(replaced));
        if was_patched {
            let (handle, served) = (self.clone(), snapshot.clone());
            crate::low_priority::spawn("deferred-figures", move || {
                // One such build at a time: a superseded one gives up at its next step.
                let _one = handle.deferring.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let superseded = || !Arc::ptr_eq(&handle.current(), &served);
                served.build_deferred_unless(superseded);
                if !superseded() {
                    served.build_lazy_indexes();
                }
            });
            self.persist_when_settled(&snapshot);
        } else {
            self.persist(snapshot);
        }
        Ok(())
    }

    /// Persist a patched snapshot once it has been served for `PERSIST_PATCHED_AFTER` with no
    /// newer one. Writing the whole snapshot (about 0.7 s of a core at 100,000 firearms) after
    /// every patch made a burst of small imports wait on the writes of the ones before; a node
    /// that restarts meanwhile loads the newest file and patches it forward from the change log.
    /// The wait holds no reference, so a superseded snapshot is freed as soon as it is replaced.
    fn persist_when_settled(&self, snapshot: &Arc<Snapshot>) {
        if self.files.is_none() {
            return;
        }
        let (handle, patched) = (self.clone(), Arc::downgrade(snapshot));
        tokio::spawn(async move {
            tokio::time::sleep(PERSIST_PATCHED_AFTER).await;
            let current = handle.current();
            if patched.upgrade().is_some_and(|patched| Arc::ptr_eq(&patched, &current)) {
                handle.persist(current);
            }
        });
    }

    /// Follow the stored catalog revision, polled every `REVISION_POLL`.
    pub async fn keep_fresh(self, stop: crate::shutdown::Shutdown) {
        let mut tick = tokio::time::interval(REVISION_POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = stop.triggered() => return,
                _ = tick.tick() => {}
            }
            let known = self.current().revision;
            let current = match self.db.pool().acquire().await {
                Ok(mut conn) => store::catalog_revision(&mut conn).await,
                Err(e) => Err(e),
            };
            match current {
                Ok(revision) if revision != known => {
                    // Behind: catch up (the fan-out may have built it meanwhile). A revision that
                    // went back (a restored database) is rebuilt as it is.
                    let rebuilt =
                        if revision > known { self.catch_up(revision).await } else { self.reload().await };
                    if let Err(e) = rebuilt {
                        tracing::warn!(error = %e, "reloading the catalog snapshot failed; serving the previous one");
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "cannot read the catalog revision"),
            }
        }
    }
}

/// How long a patched snapshot is served unchanged before it is persisted (`persist_when_settled`).
const PERSIST_PATCHED_AFTER: std::time::Duration = std::time::Duration::from_secs(5);

/// How often a node reads the stored catalog revision: one indexed row, so a change is noticed
/// within a tenth of a second for ten small queries a second, well inside the one second from
/// import to served that the service promises.
const REVISION_POLL: Duration = Duration::from_millis(100);

/// The snapshot of the stored catalog: the persisted one when `files` holds it, an older
/// persisted one patched forward when the change log leads from it, else built.
async fn read(db: &Db, files: Option<&SnapshotFiles>) -> Result<Snapshot, SnapshotError> {
    if let Some(files) = files {
        let started = std::time::Instant::now();
        let (revision, epoch) = {
            let mut conn = db.pool().acquire().await?;
            store::catalog_revision_and_epoch(&mut conn).await?
        };
        let reading = files.clone();
        let key = SnapshotKey::of(revision, epoch);
        let loaded = tokio::task::spawn_blocking(move || {
            crate::allocator::returning_freed_memory(|| reading.load(&key))
        })
        .await?;
        if let Some(loaded) = loaded {
            let build_seconds = started.elapsed().as_secs_f64();
            tracing::info!(
                revision,
                firearms = loaded.catalog.firearms.len(),
                read_ms = (build_seconds * 1000.0) as u64,
                "catalog snapshot reused"
            );
            return Ok(reused(key, loaded, build_seconds));
        }
        match patched_forward(db, files, revision).await {
            Ok(Some(patched)) => return Ok(patched),
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(error = %e, "patching a persisted snapshot forward failed; building instead")
            }
        }
    }
    build(db).await
}

/// A snapshot read from its file.
fn reused(key: SnapshotKey, loaded: persisted::Loaded, build_seconds: f64) -> Snapshot {
    let persisted::Loaded { catalog, meta, read } = loaded;
    let SnapshotKey { revision, epoch, .. } = key;
    let origin = Origin { build_seconds, reused: true, firearms_rendered: 0, patched_in_place: false };
    Snapshot::assembled((revision, epoch), catalog, meta, read, origin, None)
}

/// The newest persisted snapshot of an older revision, patched forward to the stored one, when
/// the change log leads there from it.
async fn patched_forward(
    db: &Db,
    files: &SnapshotFiles,
    revision: i64,
) -> Result<Option<Snapshot>, SnapshotError> {
    let Some(older) = files.newest_of_this_build().filter(|older| older.revision < revision) else {
        return Ok(None);
    };
    let files = files.clone();
    let Some(loaded) = tokio::task::spawn_blocking(move || files.load(&older)).await? else {
        return Ok(None);
    };
    update::patched(db, Arc::new(reused(older, loaded, 0.0))).await
}

/// Build a snapshot from the stored catalog.
async fn build(db: &Db) -> Result<Snapshot, SnapshotError> {
    let started = std::time::Instant::now();
    let mut tx = db.pool().begin().await?;
    let (revision, epoch) = store::catalog_revision_and_epoch(&mut tx).await?;
    // The records are parsed on another thread as this one reads them, a chunk at a time, so
    // their JSON is never all in memory at once; it then reads their versions, stats and users.
    // The parsing thread packs the large tables (`catalog::held`) once they are read: the typed
    // records, about 180 MB at 100,000 firearms, are freed by the thread that allocated them
    // (so handed back at once) before the read model is built from the packed ones.
    let (chunks, parser) = tokio::sync::mpsc::channel(4);
    let parsing = tokio::task::spawn_blocking(move || {
        crate::allocator::returning_freed_memory(|| {
            let mut catalog = store::parse_chunks(parser)?;
            catalog.pack();
            Ok::<_, store::StoredCatalogError>(catalog)
        })
    });
    store::send_records(&mut tx, &chunks).await?;
    drop(chunks);
    let mut meta = MetaTable::default();
    for table in crate::catalog::rows::TABLES {
        let sql = format!("SELECT id, version, created_at, updated_at FROM {}", table.name);
        let rows: Vec<(String, String, String, String)> =
            sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(&mut *tx).await?;
        for (id, version, created_at, updated_at) in rows {
            meta.insert(table.name, id, RecordMeta { version, created_at, updated_at });
        }
    }
    let stats = game_stats(&mut tx, None).await?;
    let user_ids = user_ids(&mut tx, None).await?;
    tx.commit().await?;
    let catalog = parsing.await??;
    let read_ms = started.elapsed().as_millis() as u64;
    // Rendering every firearm and indexing them is CPU work: keep it off the request threads.
    tokio::task::spawn_blocking(move || {
        let lookup = |table: &str, id: &str| meta.get(table, id);
        let built = std::time::Instant::now();
        let last_change = meta.last_change(&LAST_CHANGE_TABLES);
        let read = crate::allocator::returning_freed_memory(|| {
            ReadModel::build(&catalog, Stored { meta: &lookup, stats, user_ids, last_change })
        })?;
        let build_ms = built.elapsed().as_millis() as u64;
        tracing::info!(
            revision,
            firearms = catalog.firearms.len(),
            read_ms,
            build_ms,
            "catalog snapshot ready"
        );
        let build_seconds = started.elapsed().as_secs_f64();
        let firearms_rendered = catalog.firearms.len();
        let origin = Origin { build_seconds, reused: false, firearms_rendered, patched_in_place: false };
        Ok(Snapshot::assembled((revision, epoch), catalog, meta, read, origin, None))
    })
    .await?
}

/// The stored game stats of every firearm, or of the firearms `only` names.
pub(super) async fn game_stats(
    conn: &mut sqlx::AnyConnection,
    only: Option<&[String]>,
) -> sqlx::Result<HashMap<String, GameStats>> {
    #[derive(sqlx::FromRow)]
    struct StatsRow {
        firearm_id: String,
        #[sqlx(flatten)]
        stats: GameStats,
    }
    let columns = crate::catalog::game_stats::column_list("");
    let rows: Vec<StatsRow> =
        of_firearms(conn, &format!("SELECT firearm_id, {columns} FROM firearm_game_stats"), "", only).await?;
    Ok(rows.into_iter().map(|row| (row.firearm_id, row.stats)).collect())
}

/// The stored user ids of every firearm (or of those `only` names), in each firearm's order.
pub(super) async fn user_ids(
    conn: &mut sqlx::AnyConnection,
    only: Option<&[String]>,
) -> sqlx::Result<HashMap<String, Vec<i64>>> {
    let select = "SELECT firearm_id, id FROM firearm_users";
    let rows: Vec<(String, i64)> = of_firearms(conn, select, " ORDER BY firearm_id, position", only).await?;
    let mut out: HashMap<String, Vec<i64>> = HashMap::new();
    for (firearm, id) in rows {
        out.entry(firearm).or_default().push(id);
    }
    Ok(out)
}

/// The rows `select` reads, of every firearm or of those `only` names (`firearm_id IN …`).
async fn of_firearms<T>(
    conn: &mut sqlx::AnyConnection,
    select: &str,
    order: &str,
    only: Option<&[String]>,
) -> sqlx::Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    let Some(ids) = only else {
        return sqlx::query_as(sqlx::AssertSqlSafe(format!("{select}{order}"))).fetch_all(&mut *conn).await;
    };
    let mut out = Vec::new();
    for chunk in store::bindable(ids) {
        let sql = format!("{select} WHERE firearm_id IN ({}){order}", store::placeholders(chunk.len()));
        let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
        for id in chunk {
            query = query.bind(id.clone());
        }
        out.extend(query.fetch_all(&mut *conn).await?);
    }
    Ok(out)
}
