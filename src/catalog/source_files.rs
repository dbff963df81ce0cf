//! What the import remembers of the data files it read (migration 0013): per file, a digest of its
//! bytes and the records it holds, with the build of the binary that validated them. A later
//! import of the folder by the same build parses only the files whose digest moved
//! (`import::import_dir`): at 100,000 firearms parsing every file was most of an import that
//! changes one record.
//!
//! The memory is trusted only as a whole and only by the build that wrote it: a catalog imported
//! from anything but a folder empties it, and any other build finds nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sqlx::AnyConnection;

use super::load::{self, FileRecords, LoadErrors};
use super::store;
use crate::db::Db;

/// One remembered file: the digest of its bytes and its records as (kind, id).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredFile {
    pub digest: String,
    pub records: Vec<(&'static str, String)>,
}

/// The remembered files by path, empty when this build wrote none.
pub type StoredFiles = HashMap<String, StoredFile>;

/// The files behind the stored catalog, as this build validated them.
pub async fn read(conn: &mut AnyConnection) -> Result<StoredFiles, String> {
    let rows: Vec<(String, String, String, i64)> =
        sqlx::query_as("SELECT path, digest, records, build FROM catalog_files")
            .fetch_all(&mut *conn)
            .await
            .map_err(|e| format!("reading the imported files: {e}"))?;
    let build = crate::build_info::fingerprint() as i64;
    let mut files = StoredFiles::with_capacity(rows.len());
    for (path, digest, records, written_by) in rows {
        let Some(records) = (written_by == build).then(|| parse_records(&records)).flatten() else {
            return Ok(StoredFiles::new());
        };
        files.insert(path, StoredFile { digest, records });
    }
    Ok(files)
}

/// "kind id" lines back to keys; None when a kind is not one of `load::KINDS`.
fn parse_records(text: &str) -> Option<Vec<(&'static str, String)>> {
    text.lines()
        .map(|line| {
            let (kind, id) = line.split_once(' ')?;
            let kind = load::KINDS.iter().find(|(k, _)| *k == kind)?.0;
            Some((kind, id.to_owned()))
        })
        .collect()
}

/// Remember `files` in place of every file remembered before.
pub async fn replace(conn: &mut AnyConnection, db: &Db, files: &[FileRecords]) -> Result<(), String> {
    forget(conn).await?;
    write(conn, db, files).await
}

/// Remember `changed` anew and forget `removed`, leaving every other file as remembered.
pub async fn update(
    conn: &mut AnyConnection,
    db: &Db,
    changed: &[FileRecords],
    removed: &[String],
) -> Result<(), String> {
    let paths: Vec<String> = changed.iter().map(|f| f.path.clone()).chain(removed.iter().cloned()).collect();
    store::delete_where_in(conn, "catalog_files", "path", &paths).await.map_err(|e| e.to_string())?;
    write(conn, db, changed).await
}

/// Forget every file: the catalog now stored did not come from them.
pub async fn forget(conn: &mut AnyConnection) -> Result<(), String> {
    sqlx::query("DELETE FROM catalog_files")
        .execute(&mut *conn)
        .await
        .map(drop)
        .map_err(|e| format!("forgetting the imported files: {e}"))
}

async fn write(conn: &mut AnyConnection, db: &Db, files: &[FileRecords]) -> Result<(), String> {
    let build = crate::build_info::fingerprint() as i64;
    let rows: Vec<Vec<(String, Value)>> = files
        .iter()
        .map(|file| {
            let records: Vec<String> = file.records.iter().map(|(kind, id)| format!("{kind} {id}")).collect();
            vec![
                ("path".to_owned(), json!(file.path)),
                ("digest".to_owned(), json!(file.digest)),
                ("records".to_owned(), json!(records.join("\n"))),
                ("build".to_owned(), json!(build)),
            ]
        })
        .collect();
    let types = store::column_types(conn, db.backend(), "catalog_files").await.map_err(|e| e.to_string())?;
    store::write_rows(conn, db.backend(), "catalog_files", &types, &rows, None, &[]).await
}

/// A data folder against the remembered files.
#[derive(Debug, Default)]
pub struct Scan {
    /// The folder's files that are new or whose bytes moved, in path order.
    pub changed: Vec<PathBuf>,
    /// Remembered paths the folder no longer holds.
    pub removed: Vec<String>,
    /// How many data files the folder holds.
    pub files: usize,
}

/// Digest every data file of `dir` (side by side, one run of files per core) and compare.
pub fn scan(dir: &Path, stored: &StoredFiles) -> Result<Scan, LoadErrors> {
    let files = load::data_files(dir)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    let per_thread = files.len().div_ceil(threads).max(1);
    let moved = |run: &[PathBuf]| -> Vec<PathBuf> {
        run.iter()
            .filter(|path| {
                let remembered = stored.get(&load::relative_name(dir, path)).map(|f| f.digest.as_str());
                // An unreadable file counts as changed: parsing it reports why.
                std::fs::read(path).map_or(true, |bytes| remembered != Some(load::digest(&bytes).as_str()))
            })
            .cloned()
            .collect()
    };
    let changed = std::thread::scope(|scope| {
        let workers: Vec<_> = files.chunks(per_thread).map(|run| scope.spawn(move || moved(run))).collect();
        workers.into_iter().flat_map(|worker| worker.join().expect("digesting never panics")).collect()
    });
    let present: std::collections::HashSet<String> =
        files.iter().map(|path| load::relative_name(dir, path)).collect();
    let mut removed: Vec<String> = stored.keys().filter(|path| !present.contains(*path)).cloned().collect();
    removed.sort();
    Ok(Scan { changed, removed, files: files.len() })
}
