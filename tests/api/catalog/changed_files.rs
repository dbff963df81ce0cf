//! A folder imported again: only the data files whose bytes moved are parsed and validated among
//! the stored records (`import::import_dir`, `catalog::source_files`), and the database ends as a
//! whole import of the same folder leaves it; a change that could reach other files' records takes
//! the whole folder.

use std::path::{Path, PathBuf};

use armory::catalog::Table;
use armory::catalog::import::{self, Summary};
use armory::catalog::import_error::ImportError;
use armory::catalog::model::DataFile;
use armory::catalog::synth::synthesize;
use armory::catalog::{export, store};
use armory::db::Db;

use crate::support::{Backend, TestDatabase};

crate::on_each_database!(
    one_changed_file_is_parsed_alone_and_stores_what_a_whole_import_stores,
    a_new_file_and_an_unchanged_folder_import_in_part,
    a_changed_file_is_validated_among_the_stored_records,
    a_record_gone_or_a_cartridge_energy_moved_loads_the_whole_folder,
    a_catalog_imported_from_elsewhere_makes_the_next_folder_import_whole,
);

/// A synthetic catalog written as data files into a folder of its own, removed on drop.
struct Folder {
    dir: PathBuf,
    files: usize,
}

impl Folder {
    fn synthetic(firearms: usize) -> Self {
        let dir = std::env::temp_dir().join(format!("armory-folder-{}", uuid::Uuid::new_v4().simple()));
        let files = export::write_dir(&synthesize(firearms, 3), &dir).unwrap();
        Self { dir, files }
    }

    /// Edit the `nth` maker file of `maker_files` in place; its path relative to the folder.
    fn edit_maker_file(&self, nth: usize, edit: impl FnOnce(&mut DataFile)) -> String {
        let path = self.maker_files()[nth].clone();
        let mut data: DataFile = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        edit(&mut data);
        std::fs::write(&path, toml::to_string(&data).unwrap()).unwrap();
        path.strip_prefix(&self.dir).unwrap().display().to_string()
    }

    /// The files of makers that have firearms, in path order.
    fn maker_files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.join("manufacturers"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| std::fs::read_to_string(path).unwrap().contains("[[firearms]]"))
            .collect();
        files.sort();
        files
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn fresh_db(backend: Backend) -> (Db, TestDatabase) {
    let database = TestDatabase::create(backend).await;
    let db = Db::connect(&database.url).await.unwrap();
    db.migrate().await.unwrap();
    (db, database)
}

fn counts(summary: &Summary, table: &str) -> (usize, usize, usize, usize) {
    let (_, c) = summary.per_table.iter().find(|(name, _)| *name == table).unwrap();
    (c.created, c.updated, c.deleted, c.unchanged)
}

/// Every catalog table's ids and versions, and the whole catalog read back.
async fn stored_state(db: &Db) -> (Vec<Vec<(String, String)>>, armory::catalog::model::Catalog) {
    let mut conn = db.pool().acquire().await.unwrap();
    let mut versions = Vec::new();
    for table in Table::ALL {
        let sql = format!("SELECT id, version FROM {} ORDER BY id", table.name());
        versions.push(sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(&mut *conn).await.unwrap());
    }
    (versions, store::read_catalog(&mut conn).await.unwrap())
}

/// What a fresh database holds after a whole import of `dir`.
async fn whole_import_of(
    backend: Backend,
    dir: &Path,
) -> (Vec<Vec<(String, String)>>, armory::catalog::model::Catalog) {
    let (db, _database) = fresh_db(backend).await;
    let summary = import::import_dir(&db, dir, false).await.unwrap();
    assert_eq!(summary.files_parsed.map(|(parsed, all)| parsed == all), Some(true));
    stored_state(&db).await
}

async fn revision(db: &Db) -> i64 {
    store::catalog_revision(&mut db.pool().acquire().await.unwrap()).await.unwrap()
}

async fn one_changed_file_is_parsed_alone_and_stores_what_a_whole_import_stores(backend: Backend) {
    let folder = Folder::synthetic(120);
    let (db, _database) = fresh_db(backend).await;
    let first = import::import_dir(&db, &folder.dir, false).await.unwrap();
    assert_eq!(first.files_parsed, Some((folder.files, folder.files)));
    let mut renamed = String::new();
    folder.edit_maker_file(2, |data| {
        data.firearms[0].name = "A Renamed Synthetic Rifle".into();
        data.firearms[0].weight_empty_g = Some(4321.0);
        renamed = data.firearms[0].id.clone();
    });

    let summary = import::import_dir(&db, &folder.dir, false).await.unwrap();
    assert_eq!(summary.files_parsed, Some((1, folder.files)));
    assert_eq!(counts(&summary, "firearms"), (0, 1, 0, 119));
    assert_eq!(counts(&summary, "manufacturers").3, first.per_table[1].1.created);
    assert_eq!(summary.revision, first.revision + 1);
    let events: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT type, resource_id FROM catalog_events WHERE revision = $1 ORDER BY seq")
            .bind(summary.revision)
            .fetch_all(db.pool())
            .await
            .unwrap();
    assert_eq!(events, vec![("firearm.updated".to_owned(), Some(renamed.clone()))]);
    assert_eq!(stored_state(&db).await, whole_import_of(backend, &folder.dir).await);
}

async fn a_new_file_and_an_unchanged_folder_import_in_part(backend: Backend) {
    let folder = Folder::synthetic(60);
    let (db, _database) = fresh_db(backend).await;
    import::import_dir(&db, &folder.dir, false).await.unwrap();

    let unchanged = import::import_dir(&db, &folder.dir, false).await.unwrap();
    assert_eq!(unchanged.files_parsed, Some((0, folder.files)));
    assert_eq!(unchanged.changed(), 0);

    // A new file with a new maker and a firearm of its own, another maker's cartridge and
    // category: references reach into the files not read again.
    let template = folder.maker_files()[0].clone();
    let mut data: DataFile = toml::from_str(&std::fs::read_to_string(&template).unwrap()).unwrap();
    let mut maker = data.manufacturer.take().unwrap();
    maker.id = "zz-new-works".into();
    maker.name = "New Works".into();
    let mut firearm = data.firearms.swap_remove(0);
    firearm.id = "zz-new-rifle".into();
    firearm.manufacturer_id = maker.id.clone();
    firearm.parent_firearm_id = None;
    firearm.images.clear();
    let added = DataFile { manufacturer: Some(maker), firearms: vec![firearm], ..DataFile::default() };
    std::fs::write(folder.dir.join("manufacturers/zz-new-works.toml"), toml::to_string(&added).unwrap())
        .unwrap();

    let summary = import::import_dir(&db, &folder.dir, false).await.unwrap();
    assert_eq!(summary.files_parsed, Some((1, folder.files + 1)));
    assert_eq!(counts(&summary, "firearms"), (1, 0, 0, 60));
    assert_eq!(counts(&summary, "manufacturers").0, 1);
    assert_eq!(stored_state(&db).await, whole_import_of(backend, &folder.dir).await);
}

async fn a_changed_file_is_validated_among_the_stored_records(backend: Backend) {
    let folder = Folder::synthetic(60);
    let (db, _database) = fresh_db(backend).await;
    import::import_dir(&db, &folder.dir, false).await.unwrap();
    let before = (revision(&db).await, stored_state(&db).await);
    let taken = {
        let other: DataFile =
            toml::from_str(&std::fs::read_to_string(&folder.maker_files()[0]).unwrap()).unwrap();
        other.firearms[0].id.clone()
    };
    let taken_in = folder.maker_files()[0].strip_prefix(&folder.dir).unwrap().display().to_string();

    let original = std::fs::read_to_string(&folder.maker_files()[1]).unwrap();
    folder.edit_maker_file(1, |data| data.firearms[0].manufacturer_id = "nobody-at-all".into());
    let refused = import::import_dir(&db, &folder.dir, false).await.unwrap_err();
    assert!(matches!(refused, ImportError::Refused(_)) && !refused.is_unavailable(), "{refused:?}");
    assert!(refused.to_string().contains("no manufacturer has the id 'nobody-at-all'"), "{refused}");

    std::fs::write(&folder.maker_files()[1], &original).unwrap();
    folder.edit_maker_file(1, |data| {
        let mut twin = data.firearms[0].clone();
        twin.id = taken.clone();
        twin.images.clear();
        data.firearms.push(twin);
    });
    let refused = import::import_dir(&db, &folder.dir, false).await.unwrap_err();
    assert!(refused.to_string().contains(&format!("duplicate firearm id (also in {taken_in})")), "{refused}");
    assert_eq!((revision(&db).await, stored_state(&db).await), before, "a refused import writes nothing");
}

async fn a_record_gone_or_a_cartridge_energy_moved_loads_the_whole_folder(backend: Backend) {
    let folder = Folder::synthetic(60);
    let (db, _database) = fresh_db(backend).await;
    import::import_dir(&db, &folder.dir, false).await.unwrap();

    let mut removed = String::new();
    folder.edit_maker_file(0, |data| removed = data.firearms.pop().unwrap().id);
    let summary = import::import_dir(&db, &folder.dir, false).await.unwrap();
    assert_eq!(summary.files_parsed, Some((folder.files, folder.files)));
    assert_eq!(counts(&summary, "firearms").2, 1);
    let deleted: Vec<(String,)> = sqlx::query_as("SELECT id FROM firearms WHERE id = $1")
        .bind(&removed)
        .fetch_all(db.pool())
        .await
        .unwrap();
    assert!(deleted.is_empty());

    // Every firearm firing the cartridge has its game stats, and so its version, follow the energy.
    let calibers = std::fs::read_dir(folder.dir.join("calibers")).unwrap().next().unwrap().unwrap().path();
    let mut data: DataFile = toml::from_str(&std::fs::read_to_string(&calibers).unwrap()).unwrap();
    for caliber in &mut data.calibers {
        caliber.typical_muzzle_energy_j = Some(caliber.typical_muzzle_energy_j.unwrap_or(500.0) * 2.0);
    }
    std::fs::write(&calibers, toml::to_string(&data).unwrap()).unwrap();
    let summary = import::import_dir(&db, &folder.dir, false).await.unwrap();
    assert_eq!(summary.files_parsed, Some((folder.files, folder.files)));
    assert_eq!(stored_state(&db).await, whole_import_of(backend, &folder.dir).await);
}

async fn a_catalog_imported_from_elsewhere_makes_the_next_folder_import_whole(backend: Backend) {
    let folder = Folder::synthetic(40);
    let (db, _database) = fresh_db(backend).await;
    import::import_dir(&db, &folder.dir, false).await.unwrap();
    let mut elsewhere = synthesize(40, 3);
    std::sync::Arc::make_mut(&mut elsewhere.firearms.typed_mut()[0]).name = "Changed Elsewhere".into();
    import::import(&db, elsewhere, false).await.unwrap();

    let summary = import::import_dir(&db, &folder.dir, false).await.unwrap();
    assert_eq!(summary.files_parsed, Some((folder.files, folder.files)));
    assert_eq!(counts(&summary, "firearms").1, 1, "the folder's name is back");
    assert_eq!(stored_state(&db).await, whole_import_of(backend, &folder.dir).await);
}
