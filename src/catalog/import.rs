//! The one pipeline by which the catalog changes.
//!
//! validate (done by the loader) → diff every record's version against the stored one → write only
//! the changed records, with a new version and updatedAt → record the change events in the outbox
//! → move the catalog revision and log which records it changed (`change_log`). All of it in one
//! transaction: a failure part-way leaves the previous catalog whole, and importing the same data
//! twice changes nothing.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use super::bulk_references;
use super::change_log;
use super::content::{self, Content};
use super::image_files;
use super::import_error::ImportError;
use super::insert;
use super::load::{self, FileRecords};
use super::model::Catalog;
use super::row_feed::{CHUNK, PreparedChunk, RowFeed, Writing, Written};
use super::rows::{self, Table};
use super::source_files::{self, ChangedPart};
use super::store;
use super::verify;
use crate::db::Db;

/// More changed records than this in one import become one `catalog.resynced` event.
pub const RESYNC_THRESHOLD: usize = 1000;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub created: usize,
    pub updated: usize,
    pub deleted: usize,
    pub unchanged: usize,
}

impl Counts {
    fn changed(&self) -> usize {
        self.created + self.updated + self.deleted
    }
}

#[derive(Debug, Default)]
pub struct Summary {
    pub per_table: Vec<(&'static str, Counts)>,
    /// Event type to how many were recorded.
    pub events: BTreeSet<(String, usize)>,
    pub revision: i64,
    /// For an import of a folder: how many of its data files were parsed, and how many it holds.
    pub files_parsed: Option<(usize, usize)>,
    /// For an import of a folder with a `content/` folder: the changelog, blog and notices.
    pub content: Vec<(&'static str, Counts)>,
}

impl Summary {
    pub fn changed(&self) -> usize {
        self.per_table.iter().map(|(_, c)| c.changed()).sum()
    }

    pub fn events_recorded(&self) -> usize {
        self.events.iter().map(|(_, n)| n).sum()
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<14} {:>8} {:>8} {:>8} {:>10}",
            "resource", "created", "updated", "deleted", "unchanged"
        )?;
        for (table, c) in self.per_table.iter().chain(&self.content) {
            writeln!(
                f,
                "{table:<14} {:>8} {:>8} {:>8} {:>10}",
                c.created, c.updated, c.deleted, c.unchanged
            )?;
        }
        writeln!(f, "events recorded: {}", self.events_recorded())?;
        for (event, n) in &self.events {
            writeln!(f, "  {event}: {n}")?;
        }
        write!(f, "catalog revision: {}", self.revision)?;
        if let Some((parsed, files)) = self.files_parsed {
            write!(f, "\ndata files parsed: {parsed} of {files}")?;
            if parsed < files {
                write!(f, " (the others are unchanged since the last import)")?;
            }
        }
        Ok(())
    }
}

/// What an import changed: the outbox's events, and each record it created, changed or deleted
/// (table, id) for the change log (`change_log`).
#[derive(Default)]
struct ChangeLog {
    events: Vec<Event>,
    records: Vec<(&'static str, String)>,
}

/// One change event for the outbox.
#[derive(Debug, Clone, PartialEq)]
struct Event {
    event_type: String,
    resource: Option<&'static str>,
    resource_id: Option<String>,
}

impl Event {
    fn of(event_type: String, resource: &'static str, id: &str) -> Self {
        Self { event_type, resource: Some(resource), resource_id: Some(id.to_owned()) }
    }
}

/// First start: a database without a catalog gets the one in `dir` (the bundled `data/`).
pub async fn import_dir_if_empty(db: &Db, dir: &std::path::Path) -> Result<Option<Summary>, ImportError> {
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM firearms")
        .fetch_one(db.pool())
        .await
        .map_err(ImportError::database("cannot read the catalog"))?;
    if count > 0 {
        return Ok(None);
    }
    import_dir(db, dir, false)
        .await
        .map(Some)
        .map_err(|source| ImportError::InFolder { dir: dir.to_owned(), source: Box::new(source) })
}

/// Import the data files of `dir`.
///
/// When the stored catalog came from this folder, imported by this build, only the files whose
/// bytes moved are parsed, and their records are validated among the stored ones
/// (`source_files`, `load::build_among`); every other record is as stored. Unless the change
/// could reach records of other files, which takes the whole folder: a record gone (another file
/// may still refer to it), or a caliber's typical energy moved (the game stats of every firearm
/// firing it follow it). The whole folder is loaded too when another import came between.
pub async fn import_dir(db: &Db, dir: &Path, progress: bool) -> Result<Summary, ImportError> {
    // The content is read and checked first: a bad file refuses the import before anything is written.
    let content = content::load_dir(dir)?;
    let content = content.as_ref();
    // A changed image file leaves its data file as it was, so a catalog naming image files is
    // imported whole: its files are read again and a changed one changes its firearm's version.
    let stored_files =
        image_files::any_named(db).await.map_err(ImportError::database("reading the stored image files"))?;
    let part = match stored_files {
        true => None,
        false => {
            source_files::changed_part(db, dir).await?.filter(|(catalog, _)| !names_image_files(catalog))
        }
    };
    if let Some((mut catalog, part)) = part {
        clear_changed_verifications(db, &mut catalog, &part.files, dir).await?;
        let images = image_files::read_into(dir, &mut catalog).map_err(ImportError::ImageFile)?;
        let files_parsed = Some((part.files.len(), part.files_in_folder));
        let read = Read { content, images: &images };
        if let Some(summary) = import_scoped(db, Arc::new(catalog), Scope::Part(part), read, progress).await?
        {
            return Ok(Summary { files_parsed, ..summary });
        }
        tracing::info!(
            "another import came between the reading of the changed files and their writing; loading the whole folder"
        );
    }
    let (mut catalog, files) = load::load_dir_with_files(dir)?;
    clear_changed_verifications(db, &mut catalog, &files, dir).await?;
    let images = image_files::read_into(dir, &mut catalog).map_err(ImportError::ImageFile)?;
    let files_parsed = Some((files.len(), files.len()));
    let read = Read { content, images: &images };
    let summary =
        import_scoped(db, Arc::new(catalog), Scope::Whole { files: Some(files) }, read, progress).await?;
    Ok(Summary { files_parsed, ..summary.expect("an import of the whole catalog is never outdated") })
}

fn names_image_files(catalog: &Catalog) -> bool {
    catalog.firearms.iter().any(|f| f.images.iter().any(|image| image.file.is_some()))
}

/// A verified firearm field whose value the import changes loses its verification, in the
/// catalog imported and in its data file (`verify::clear_changed`). The stored catalog is read
/// only when some firearm carries a verification.
async fn clear_changed_verifications(
    db: &Db,
    catalog: &mut Catalog,
    files: &[FileRecords],
    dir: &Path,
) -> Result<(), ImportError> {
    let verified = catalog.firearms.iter().any(|f| f.verified_fields.as_ref().is_some_and(|v| !v.is_empty()));
    if !verified {
        return Ok(());
    }
    let mut conn =
        db.pool().acquire().await.map_err(ImportError::database("cannot read the stored catalog"))?;
    let stored = store::read_catalog(&mut conn).await?;
    drop(conn);
    for cleared in verify::clear_changed(&stored, catalog, files, dir).map_err(ImportError::Verification)? {
        tracing::warn!("{cleared}");
    }
    Ok(())
}

/// What an import read from its folder besides the records: the content (None leaves the stored
/// content as it is) and the image files.
#[derive(Clone, Copy, Default)]
struct Read<'a> {
    content: Option<&'a Content>,
    images: &'a [image_files::ImageFile],
}

/// What an import covers.
enum Scope {
    /// The whole catalog: a stored record it does not hold is deleted. `files` are the data files
    /// it was read from, remembered for the next import of their folder; None forgets the files
    /// remembered (the catalog came from elsewhere).
    Whole { files: Option<Vec<FileRecords>> },
    /// The records of the data files changed since the last import of their folder: every other
    /// stored record stays as it is.
    Part(ChangedPart),
}

/// Import a validated catalog, whole: a stored record it does not hold is deleted. `progress`
/// draws a bar on a terminal (it hides itself elsewhere).
pub async fn import(
    db: &Db,
    catalog: impl Into<Arc<Catalog>>,
    progress: bool,
) -> Result<Summary, ImportError> {
    let summary =
        import_scoped(db, catalog.into(), Scope::Whole { files: None }, Read::default(), progress).await?;
    Ok(summary.expect("an import of the whole catalog is never outdated"))
}

/// Import `catalog` as `scope` says, and `content` when the folder has some (None leaves the
/// stored content as it is); None when a part was read against an outdated revision.
/// The catalog is shared with the thread that builds its rows (`RowFeed`).
async fn import_scoped(
    db: &Db,
    catalog: Arc<Catalog>,
    scope: Scope,
    read: Read<'_>,
    progress: bool,
) -> Result<Option<Summary>, ImportError> {
    let mut writer =
        db.bulk_writer().await.map_err(ImportError::database("cannot connect for the import"))?;
    let outcome = import_on(&mut writer, db, catalog, scope, read, progress).await;
    writer.finish().await;
    outcome
}

/// `import_scoped` on `conn`, in a transaction of its own.
async fn import_on(
    conn: &mut sqlx::AnyConnection,
    db: &Db,
    catalog: Arc<Catalog>,
    scope: Scope,
    Read { content, images }: Read<'_>,
    progress: bool,
) -> Result<Option<Summary>, ImportError> {
    let total = catalog.record_count();
    let bar = if progress { ProgressBar::new(total as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{msg:>14} [{bar:40}] {pos}/{len}").expect("a valid template"),
    );

    let now = crate::clock::sql_now();
    tracing::debug!(records = total, "rows prepared");
    let mut tx = db
        .begin_write_on(conn)
        .await
        .map_err(ImportError::database("cannot start the import transaction"))?;
    if let Scope::Part(part) = &scope
        && store::catalog_revision(&mut tx).await? != part.revision
    {
        return Ok(None);
    }
    let mut summary = Summary::default();
    let mut log = ChangeLog::default();
    // What is stored, read before the rows are built, so that an unchanged record's row is its
    // version alone (`RowSource`); of a part, only its own records' versions, and each table's
    // size, for the count of records it leaves unchanged.
    let mut stored = rows::StoredTables::new();
    let mut stored_counts = HashMap::new();
    for table in Table::ALL {
        let versions = match &scope {
            Scope::Whole { .. } => store::stored_versions(&mut tx, table).await,
            Scope::Part(_) => {
                let ids: Vec<String> = rows::ids(&catalog, table).map(str::to_owned).collect();
                stored_counts.insert(table, store::count(&mut tx, table).await?);
                store::stored_versions_of(&mut tx, table, &ids).await
            }
        };
        stored.insert(table, versions?);
    }
    let stored = Arc::new(stored);
    let suspended = bulk_references::suspend_for_bulk(&mut tx, db.backend(), &catalog).await?;
    let energies = match &scope {
        Scope::Whole { .. } => None,
        Scope::Part(part) => Some(part.energies.clone()),
    };
    let mut types = HashMap::new();
    for table in Table::ALL {
        let names = std::iter::once(table.name()).chain(table.children().iter().map(|(child, _)| *child));
        for name in names {
            let columns = store::column_types(&mut tx, db.backend(), name).await?;
            types.insert(name, columns);
        }
    }
    let writing = Writing { backend: db.backend(), types, now: now.clone() };
    let mut feed = RowFeed::start(catalog.clone(), stored.clone(), energies, writing);
    let whole = matches!(scope, Scope::Whole { .. });
    for table in Table::ALL {
        bar.set_message(table.name());
        let started = std::time::Instant::now();
        let row_count = rows::len(&catalog, table);
        let stored = &stored[&table];
        let mut counts = sync_table(&mut tx, table, &catalog, stored, whole, &mut feed, &mut log).await?;
        if let Some(&count) = stored_counts.get(&table) {
            counts.unchanged = count - counts.updated;
        }
        tracing::debug!(
            table = table.name(),
            ?counts,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "synced"
        );
        summary.per_table.push((table.name(), counts));
        bar.inc(row_count as u64);
    }
    bar.finish_and_clear();
    match &scope {
        Scope::Whole { files: Some(files) } => source_files::replace(&mut tx, db, files).await?,
        Scope::Whole { files: None } => source_files::forget(&mut tx).await?,
        Scope::Part(part) => source_files::update(&mut tx, db, &part.files, &part.removed).await?,
    }

    if let Some(content) = content {
        summary.content = content::store::sync(&mut tx, content, &now)
            .await
            .map_err(ImportError::database("writing the content"))?;
    }

    if summary.changed() > 0 {
        // One statement reads and moves the revision, so concurrent imports queue on the row lock
        // and get distinct revisions; their events are inserted under that lock, so outbox `seq`
        // order is commit order (the webhook fan-out's cursor relies on it).
        let (revision,): (i64,) = sqlx::query_as(
            "UPDATE service_state SET value = value + 1 WHERE name = 'catalog_revision' RETURNING value",
        )
        .fetch_one(&mut *tx)
        .await
        .map_err(ImportError::database("moving the catalog revision"))?;
        summary.revision = revision;
        change_log::record(&mut tx, db, revision, &log.records, RESYNC_THRESHOLD).await?;
        if summary.changed() > RESYNC_THRESHOLD {
            log.events =
                vec![Event { event_type: "catalog.resynced".into(), resource: None, resource_id: None }];
        }
        record_events(&mut tx, db, &log.events, summary.revision).await?;
    }
    if summary.changed() == 0 {
        summary.revision = store::catalog_revision(&mut tx).await?;
    }
    let mut counted: HashMap<String, usize> = HashMap::new();
    for event in &log.events {
        *counted.entry(event.event_type.clone()).or_default() += 1;
    }
    summary.events = counted.into_iter().collect();
    if let Some(suspended) = suspended {
        let checking = std::time::Instant::now();
        bulk_references::restore(&mut tx, suspended).await?;
        tracing::debug!(elapsed_ms = checking.elapsed().as_millis() as u64, "references checked");
    }
    image_files::store(&mut tx, images).await.map_err(ImportError::database("storing the image files"))?;
    let committing = std::time::Instant::now();
    tx.commit().await.map_err(ImportError::database("committing the import"))?;
    tracing::debug!(elapsed_ms = committing.elapsed().as_millis() as u64, "committed");
    Ok(Some(summary))
}

async fn sync_table(
    conn: &mut sqlx::AnyConnection,
    table: Table,
    catalog: &Catalog,
    stored: &HashMap<String, store::Stored>,
    whole: bool,
    feed: &mut RowFeed,
    log: &mut ChangeLog,
) -> Result<Counts, ImportError> {
    let mut counts = Counts::default();

    // Vanished records go first, children before parents, so no id they held is in the way. Only
    // the whole catalog says which records vanished.
    let new_ids: HashSet<&str> = rows::ids(catalog, table).collect();
    let mut deleted: Vec<String> =
        stored.keys().filter(|id| whole && !new_ids.contains(id.as_str())).cloned().collect();
    deleted.sort();
    drop(new_ids);
    counts.deleted = deleted.len();
    let deleted_records = if table == Table::Firearms && !deleted.is_empty() {
        store::stored_records(conn, table, &deleted).await?
    } else {
        HashMap::new()
    };
    delete_with_children(conn, table, &deleted).await?;

    for _ in 0..rows::len(catalog, table).div_ceil(CHUNK) {
        let chunk = feed.next().await?;
        let written = write_chunk(conn, table, chunk, log, &mut counts).await?;
        feed.dispose(written);
    }

    if let Some(prefix) = table.event_prefix() {
        for id in &deleted {
            log.events.push(Event::of(format!("{prefix}.deleted"), prefix, id));
            if let Some(old) = deleted_records.get(id) {
                log.events.extend(image_events(Some(old), &Value::Null));
            }
        }
    }
    log.records.extend(deleted.into_iter().map(|id| (table.name(), id)));
    Ok(counts)
}

async fn delete_with_children(
    conn: &mut sqlx::AnyConnection,
    table: Table,
    ids: &[String],
) -> Result<(), ImportError> {
    for (child_table, parent_column) in table.children() {
        store::delete_where_in(conn, child_table, parent_column, ids).await?;
    }
    Ok(store::delete_where_in(conn, table.name(), "id", ids).await?)
}

/// Write one chunk's created and changed records (unchanged ones are only counted), replacing the
/// changed records' children, and note their events. Answers the records written, for the feed
/// to free (`RowFeed::dispose`).
async fn write_chunk(
    conn: &mut sqlx::AnyConnection,
    table: Table,
    chunk: PreparedChunk,
    log: &mut ChangeLog,
    counts: &mut Counts,
) -> Result<Vec<Written>, ImportError> {
    let PreparedChunk { created, updated, unchanged, statements } = chunk;
    counts.unchanged += unchanged;
    counts.created += created.len();
    counts.updated += updated.len();
    if created.is_empty() && updated.is_empty() {
        return Ok(vec![]);
    }

    // The old records of changed firearms decide the finer firearm and image events.
    let replaced: Vec<String> = updated.iter().map(|r| r.id.clone()).collect();
    let old_records = if table == Table::Firearms && !replaced.is_empty() {
        store::stored_records(conn, table, &replaced).await?
    } else {
        HashMap::new()
    };
    for (child_table, parent_column) in table.children() {
        store::delete_where_in(conn, child_table, parent_column, &replaced).await?;
    }
    insert::run(conn, statements).await?;

    if let Some(prefix) = table.event_prefix() {
        let events = &mut log.events;
        for row in &created {
            events.push(Event::of(format!("{prefix}.created"), prefix, &row.id));
            events.extend(firearm_events(table, None, &row.record));
        }
        for row in &updated {
            events.push(Event::of(format!("{prefix}.updated"), prefix, &row.id));
            events.extend(firearm_events(table, old_records.get(&row.id), &row.record));
        }
    }
    let mut written = created;
    written.extend(updated);
    log.records.extend(written.iter().map(|row| (table.name(), row.id.clone())));
    Ok(written)
}

/// The events that go with firearm.created / firearm.updated.
fn firearm_events(table: Table, old: Option<&Value>, new: &Value) -> Vec<Event> {
    if table != Table::Firearms {
        return vec![];
    }
    let id = new["id"].as_str().unwrap_or_default();
    let mut events = Vec::new();
    if !new["parentFirearmId"].is_null() {
        events.push(Event::of("firearm.variant.updated".into(), "firearm", id));
    }
    if let Some(old) = old {
        if old["sources"] != new["sources"] {
            events.push(Event::of("firearm.source.changed".into(), "firearm", id));
        }
        if old["dataConfidence"] != new["dataConfidence"] {
            events.push(Event::of("firearm.confidence.changed".into(), "firearm", id));
        }
    }
    events.extend(image_events(old, new));
    events
}

fn image_events(old: Option<&Value>, new: &Value) -> Vec<Event> {
    let ids = |record: Option<&Value>| -> BTreeSet<i64> {
        record
            .and_then(|r| r["images"].as_array())
            .map(|images| images.iter().filter_map(|i| i["id"].as_i64()).collect())
            .unwrap_or_default()
    };
    let (before, after) = (ids(old), ids(Some(new)));
    let created =
        after.difference(&before).map(|id| Event::of("image.created".into(), "image", &id.to_string()));
    let deleted =
        before.difference(&after).map(|id| Event::of("image.deleted".into(), "image", &id.to_string()));
    created.chain(deleted).collect()
}

async fn record_events(
    conn: &mut sqlx::AnyConnection,
    db: &Db,
    events: &[Event],
    revision: i64,
) -> Result<(), ImportError> {
    let created_at = crate::clock::iso_millis_now();
    let rows: Vec<Vec<(String, Value)>> = events
        .iter()
        .map(|event| {
            vec![
                ("id".to_owned(), json!(uuid::Uuid::now_v7().to_string())),
                ("type".to_owned(), json!(event.event_type)),
                ("resource".to_owned(), json!(event.resource)),
                ("resource_id".to_owned(), json!(event.resource_id)),
                ("revision".to_owned(), json!(revision)),
                ("created_at".to_owned(), json!(created_at)),
            ]
        })
        .collect();
    store::append_rows(conn, db.backend(), "catalog_events", &rows).await
}
