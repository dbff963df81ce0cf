//! The snapshot kept on disk, so a node that starts on a catalog it has served before is ready in
//! the time it takes to read one file rather than the time it takes to read and render the whole
//! catalog (at 100,000 firearms, seconds of database reads and rendering).
//!
//! One file per snapshot, `snapshot-<revision>-<epoch>-<build>.msgpack` in the snapshot folder
//! (`ARMORY_SNAPSHOT_DIR`, by default beside a SQLite database file): the catalog records, their
//! stored meta and the whole read model (forms, list index, orders, aggregates, statistics,
//! rankings, game analytics and the search index's files), as MessagePack. The name is the key:
//! - the catalog revision and the catalog epoch, a random number the import draws with every new
//!   revision (`service_state`), so a database restored to an older revision, or another database
//!   sharing the folder, never meets a snapshot of different contents under its own revision;
//! - a fingerprint of the running binary, since the rendered forms are the code's output: a new
//!   build renders again rather than serve what an older one rendered.
//!
//! A snapshot is written after it is built, on a blocking thread while the node already serves it,
//! to a temporary name and then renamed, so a reader never sees half a file; older files are then
//! removed. A file that cannot be read or decoded is ignored (and logged): the node builds instead.
//! A file of an older revision is not wasted: a node starting on a revision the change log leads
//! to from it loads it and patches it forward (`read::update`).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::catalog::model::Catalog;
use crate::read::ReadModel;
use crate::read::meta::MetaTable;

/// What a persisted snapshot must match to be served: the catalog it was built from and the
/// binary that built it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotKey {
    pub revision: i64,
    pub epoch: i64,
    pub build: u64,
}

impl SnapshotKey {
    /// The key of catalog `revision` / `epoch` as this binary builds it.
    pub fn of(revision: i64, epoch: i64) -> Self {
        Self { revision, epoch, build: crate::build_info::fingerprint() }
    }

    fn file_name(&self) -> String {
        format!("{PREFIX}{}-{:016x}-{:016x}{SUFFIX}", self.revision, self.epoch as u64, self.build)
    }

    /// The key a file name spells, if it is a snapshot's.
    fn of_file_name(name: &str) -> Option<Self> {
        let key = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
        let mut parts = key.split('-');
        let revision = parts.next()?.parse().ok()?;
        let epoch = u64::from_str_radix(parts.next()?, 16).ok()? as i64;
        let build = u64::from_str_radix(parts.next()?, 16).ok()?;
        parts.next().is_none().then_some(Self { revision, epoch, build })
    }
}

const PREFIX: &str = "snapshot-";
const SUFFIX: &str = ".msgpack";

/// A snapshot's parts as written: borrowed from the one being served.
#[derive(serde::Serialize)]
struct Writing<'a> {
    catalog: &'a Catalog,
    meta: &'a MetaTable,
    read: &'a ReadModel,
}

/// A snapshot's parts as read back.
#[derive(serde::Deserialize)]
pub struct Loaded {
    pub catalog: Catalog,
    pub meta: MetaTable,
    pub read: ReadModel,
}

/// The folder persisted snapshots live in.
#[derive(Debug, Clone)]
pub struct SnapshotFiles {
    dir: PathBuf,
}

impl SnapshotFiles {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of the newest snapshot this binary persisted in the folder, whatever its catalog:
    /// a node starting on a later revision patches it forward when the change log allows
    /// (`read::update`).
    pub fn newest_of_this_build(&self) -> Option<SnapshotKey> {
        let build = crate::build_info::fingerprint();
        std::fs::read_dir(&self.dir)
            .ok()?
            .flatten()
            .filter_map(|entry| SnapshotKey::of_file_name(&entry.file_name().to_string_lossy()))
            .filter(|key| key.build == build)
            .max_by_key(|key| key.revision)
    }

    /// The snapshot persisted under `key`, if there is one that decodes.
    pub fn load(&self, key: &SnapshotKey) -> Option<Loaded> {
        let path = self.dir.join(key.file_name());
        let file = match std::fs::File::open(&path) {
            Ok(file) => std::io::BufReader::with_capacity(1 << 20, file),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot read the persisted snapshot; building instead");
                return None;
            }
        };
        match rmp_serde::from_read(file) {
            Ok(loaded) => Some(loaded),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot decode the persisted snapshot; building instead");
                None
            }
        }
    }

    /// Persist a snapshot under `key`, then remove every other snapshot file of the folder.
    pub fn save(
        &self,
        key: &SnapshotKey,
        catalog: &Catalog,
        meta: &MetaTable,
        read: &ReadModel,
    ) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let name = key.file_name();
        let partial = self.dir.join(format!(".{name}.{}.partial", std::process::id()));
        let written = (|| {
            let mut out = BufWriter::new(std::fs::File::create(&partial)?);
            rmp_serde::encode::write(&mut out, &Writing { catalog, meta, read })
                .map_err(std::io::Error::other)?;
            out.flush()?;
            out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&partial, self.dir.join(&name))
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&partial);
            return written;
        }
        for entry in std::fs::read_dir(&self.dir)?.flatten() {
            let other = entry.file_name().to_string_lossy().into_owned();
            if other != name && other.starts_with(PREFIX) && other.ends_with(SUFFIX) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_name_spells_its_key_back() {
        let key = SnapshotKey { revision: 42, epoch: -7, build: 0xfeed };
        assert_eq!(SnapshotKey::of_file_name(&key.file_name()), Some(key));
        for other in ["snapshot-1-2.msgpack", "snapshot-x-1-2.msgpack", ".snapshot-1-2-3.msgpack.9.partial"] {
            assert_eq!(SnapshotKey::of_file_name(other), None, "{other}");
        }
    }
}
