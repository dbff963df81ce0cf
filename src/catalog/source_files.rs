//! What the import remembers of the data files it read (migration 0013): per file, a digest of its
//! bytes and the records it holds, with the build of the binary that validated them. A later
//! import of the folder by the same build parses only the files whose digest moved
//! (`import::import_dir`): at 100,000 firearms parsing every file was most of an import that
//! changes one record.
//!
//! The memory is trusted only as a whole and only by the build that wrote it: a catalog imported
//! from anything but a folder empties it, and any other build finds nothing.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sqlx::AnyConnection;

use super::game_stats::{self, CartridgeEnergies};
use super::import_error::ImportError;
use super::load::{self, FileRecords, LoadErrors};
use super::model::Catalog;
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
pub async fn read(conn: &mut AnyConnection) -> Result<StoredFiles, ImportError> {
    let rows: Vec<(String, String, String, i64)> =
        sqlx::query_as("SELECT path, digest, records, build FROM catalog_files")
            .fetch_all(&mut *conn)
            .await
            .map_err(ImportError::database("reading the imported files"))?;
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
            let kind = load::KINDS.iter().find(|table| table.kind() == kind)?.kind();
            Some((kind, id.to_owned()))
        })
        .collect()
}

/// Remember `files` in place of every file remembered before.
pub async fn replace(conn: &mut AnyConnection, db: &Db, files: &[FileRecords]) -> Result<(), ImportError> {
    forget(conn).await?;
    write(conn, db, files).await
}

/// Remember `changed` anew and forget `removed`, leaving every other file as remembered.
pub async fn update(
    conn: &mut AnyConnection,
    db: &Db,
    changed: &[FileRecords],
    removed: &[String],
) -> Result<(), ImportError> {
    let paths: Vec<String> = changed.iter().map(|f| f.path.clone()).chain(removed.iter().cloned()).collect();
    store::delete_where_in(conn, "catalog_files", "path", &paths).await?;
    write(conn, db, changed).await
}

/// Forget every file: the catalog now stored did not come from them.
pub async fn forget(conn: &mut AnyConnection) -> Result<(), ImportError> {
    sqlx::query("DELETE FROM catalog_files")
        .execute(&mut *conn)
        .await
        .map(drop)
        .map_err(ImportError::database("forgetting the imported files"))
}

async fn write(conn: &mut AnyConnection, db: &Db, files: &[FileRecords]) -> Result<(), ImportError> {
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
    store::append_rows(conn, db.backend(), "catalog_files", &rows).await
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

/// The part of a folder that changed since its last import, read and validated among the stored
/// catalog (`changed_part`), for `import::import_dir` to write.
pub struct ChangedPart {
    /// The changed files, each with the records it holds now.
    pub files: Vec<FileRecords>,
    /// Remembered files the folder no longer holds (none of their records gone).
    pub removed: Vec<String>,
    /// Every caliber's typical energy, stored or in the part, for the part's game stats.
    pub energies: CartridgeEnergies,
    /// The catalog revision the part was read against: another one at writing means another
    /// import came between.
    pub revision: i64,
    pub files_in_folder: usize,
}

/// The files of `dir` that changed since its last import, parsed and validated among the stored
/// records, with their records as a catalog; None when the whole folder has to be loaded (see
/// `import::import_dir`).
pub async fn changed_part(db: &Db, dir: &Path) -> Result<Option<(Catalog, ChangedPart)>, ImportError> {
    let mut conn = db.pool().acquire().await.map_err(ImportError::database("cannot read the catalog"))?;
    // Read first: an import that changes anything after this moves it, and the part is not written.
    let revision = store::catalog_revision(&mut conn).await?;
    let stored = read(&mut conn).await?;
    if stored.is_empty() || !accounts_for_every_record(&mut conn, &stored).await? {
        return Ok(None);
    }
    let scan = scan(dir, &stored)?;
    let (parsed, errors) = load::parse_files(dir, &scan.changed);
    if !errors.is_empty() {
        return Err(LoadErrors(errors).into());
    }
    let files: Vec<FileRecords> = parsed
        .iter()
        .map(|(path, digest, data)| FileRecords {
            path: path.clone(),
            digest: digest.clone(),
            records: load::record_keys(data),
        })
        .collect();
    let read_again: HashSet<&str> =
        files.iter().map(|f| f.path.as_str()).chain(scan.removed.iter().map(String::as_str)).collect();
    let held_now: HashSet<&(&str, String)> = files.iter().flat_map(|f| &f.records).collect();
    // A record gone: whether another file still refers to it takes the whole catalog.
    let gone = read_again
        .iter()
        .filter_map(|path| stored.get(*path))
        .flat_map(|file| &file.records)
        .any(|key| !held_now.contains(key));
    if gone {
        return Ok(None);
    }
    let around = surroundings(&mut conn, &stored, &read_again, &held_now).await?;
    let catalog =
        load::build_among(parsed.into_iter().map(|(path, _, data)| (path, data)).collect(), &around)?;
    // A caliber's typical energy feeds the game stats, and so the version, of every firearm
    // firing it, in whatever file.
    let mut energies = game_stats::cartridge_energies(&store::read_calibers(&mut conn).await?);
    let energy_moved = catalog
        .calibers
        .iter()
        .any(|c| energies.get(&c.id).is_some_and(|stored| *stored != c.typical_muzzle_energy_j));
    if energy_moved {
        return Ok(None);
    }
    energies.extend(game_stats::cartridge_energies(&catalog.calibers));
    let part = ChangedPart { files, removed: scan.removed, energies, revision, files_in_folder: scan.files };
    Ok(Some((catalog, part)))
}

/// Whether the remembered files hold as many records of each kind as the tables: otherwise a
/// record in no remembered file could outlive the folder it came from.
async fn accounts_for_every_record(
    conn: &mut AnyConnection,
    stored: &StoredFiles,
) -> Result<bool, ImportError> {
    for table in load::KINDS {
        let remembered =
            stored.values().flat_map(|file| &file.records).filter(|(kind, _)| *kind == table.kind()).count();
        if store::count(conn, table).await? != remembered {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The records of the files not read again, where each is, and the image ids their firearms hold.
async fn surroundings(
    conn: &mut AnyConnection,
    stored: &StoredFiles,
    read_again: &HashSet<&str>,
    held_now: &HashSet<&(&str, String)>,
) -> Result<load::Surroundings, ImportError> {
    let mut around = load::Surroundings::default();
    for (path, file) in stored.iter().filter(|(path, _)| !read_again.contains(path.as_str())) {
        around.records.extend(file.records.iter().map(|key| (key.clone(), path.clone())));
    }
    let part_firearms: HashSet<&str> =
        held_now.iter().filter(|(kind, _)| *kind == "firearm").map(|(_, id)| id.as_str()).collect();
    let images: Vec<(i64, String)> = sqlx::query_as("SELECT id, firearm_id FROM images")
        .fetch_all(&mut *conn)
        .await
        .map_err(ImportError::database("reading the stored images"))?;
    around.image_ids = images
        .into_iter()
        .filter(|(_, firearm)| !part_firearms.contains(firearm.as_str()))
        .map(|(id, _)| id)
        .collect();
    Ok(around)
}
