//! The catalog pipeline as an operator and a webhook consumer see it: what an import writes, the
//! events it records, and what it refuses.

use std::path::Path;

use armory::catalog::import::{self, RESYNC_THRESHOLD};
use armory::catalog::import_error::ImportError;
use armory::catalog::load::{self, load_dir};
use armory::catalog::model::{Catalog, Image};
use armory::catalog::{export, store};
use armory::db::Db;

use crate::support::{Backend, TestDatabase};

fn bundled() -> Catalog {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).expect("the bundled catalog loads")
}

async fn fresh_db(backend: Backend) -> (Db, TestDatabase) {
    let database = TestDatabase::create(backend).await;
    let db = Db::connect(&database.url).await.unwrap();
    db.migrate().await.unwrap();
    (db, database)
}

crate::on_each_database!(
    the_bundled_catalog_meets_the_first_installment,
    a_second_import_changes_nothing,
    one_changed_field_is_one_update_with_its_events,
    a_dangling_reference_refuses_the_import_and_writes_nothing,
    more_than_a_thousand_changes_become_one_resync,
    an_export_imports_back_unchanged,
    text_imports_back_as_written_whatever_it_holds,
    removing_a_firearm_records_its_deletion,
    a_catalog_of_several_chunks_imports_as_one,
    a_failure_part_way_leaves_the_previous_catalog_whole,
    a_bulk_import_checks_every_reference_and_keeps_the_constraints,
);

async fn events_of_revision(db: &Db, revision: i64) -> Vec<(String, Option<String>)> {
    sqlx::query_as("SELECT type, resource_id FROM catalog_events WHERE revision = $1 ORDER BY seq")
        .bind(revision)
        .fetch_all(db.pool())
        .await
        .unwrap()
}

async fn firearm_version(db: &Db, id: &str) -> (String, String) {
    sqlx::query_as("SELECT version, updated_at FROM firearms WHERE id = $1")
        .bind(id)
        .fetch_one(db.pool())
        .await
        .unwrap()
}

async fn the_bundled_catalog_meets_the_first_installment(backend: Backend) {
    let catalog = bundled();
    assert!(catalog.firearms.len() >= 150, "{} firearms", catalog.firearms.len());
    assert!(catalog.manufacturers.len() >= 40);
    assert!(catalog.calibers.len() >= 50);
    assert!(catalog.ammunition.len() >= 60);
    for category in [
        "pistols",
        "revolvers",
        "rifles",
        "carbines",
        "shotguns",
        "submachine-guns",
        "machine-guns",
        "precision-rifles",
        "historical-arms",
    ] {
        assert!(
            catalog.firearms.as_typed().iter().any(|f| f.category_id == category),
            "no firearm in {category}"
        );
    }
    for (variant, parent) in
        [("glock-19", "glock-17"), ("m4-carbine", "m16a2"), ("akm", "ak-47"), ("karabiner-98k", "gewehr-98")]
    {
        let firearm = catalog
            .firearms
            .as_typed()
            .iter()
            .find(|f| f.id == variant)
            .unwrap_or_else(|| panic!("{variant} missing"));
        assert_eq!(firearm.parent_firearm_id.as_deref(), Some(parent));
    }
    assert!(
        catalog.firearms.as_typed().iter().all(|f| f.verified_fields.is_none()),
        "verifiedFields stays null"
    );

    let (db, _database) = fresh_db(backend).await;
    let summary = import::import(&db, catalog.clone(), false).await.unwrap();
    assert_eq!(summary.revision, 1);
    let (count,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM firearms").fetch_one(db.pool()).await.unwrap();
    assert_eq!(count as usize, catalog.firearms.len());
    let (primary,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM firearm_calibers WHERE is_primary = 1")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(primary as usize, catalog.firearms.len(), "one primary caliber per firearm");
    let (kind,): (Option<String>,) =
        sqlx::query_as("SELECT best_source_kind FROM firearms WHERE id = 'glock-17'")
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert!(kind.is_some());
}

async fn a_second_import_changes_nothing(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    let catalog = bundled();
    let first = import::import(&db, catalog.clone(), false).await.unwrap();
    let before = firearm_version(&db, "glock-17").await;

    let second = import::import(&db, catalog.clone(), false).await.unwrap();
    assert_eq!(second.changed(), 0);
    assert!(second.per_table.iter().all(|(_, c)| c.created + c.updated + c.deleted == 0));
    assert_eq!(second.events_recorded(), 0);
    assert_eq!(second.revision, first.revision, "the revision does not move");
    assert_eq!(firearm_version(&db, "glock-17").await, before);
    assert!(events_of_revision(&db, first.revision + 1).await.is_empty());
}

async fn one_changed_field_is_one_update_with_its_events(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    let mut catalog = bundled();
    let first = import::import(&db, catalog.clone(), false).await.unwrap();
    let (old_version, old_updated) = firearm_version(&db, "glock-19").await;
    let untouched = firearm_version(&db, "glock-17").await;

    tokio::time::sleep(std::time::Duration::from_millis(1100)).await; // updatedAt has one-second resolution
    let variant = std::sync::Arc::make_mut(
        catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-19").unwrap(),
    );
    variant.notes = Some("A note changed by the test.".into());
    let summary = import::import(&db, catalog.clone(), false).await.unwrap();

    assert_eq!(summary.changed(), 1);
    assert_eq!(summary.revision, first.revision + 1);
    let events = events_of_revision(&db, summary.revision).await;
    let expected = vec![
        ("firearm.updated".to_owned(), Some("glock-19".to_owned())),
        ("firearm.variant.updated".to_owned(), Some("glock-19".to_owned())),
    ];
    assert_eq!(events, expected);
    let (new_version, new_updated) = firearm_version(&db, "glock-19").await;
    assert_ne!(new_version, old_version);
    assert!(new_updated > old_updated, "{new_updated} after {old_updated}");
    assert_eq!(firearm_version(&db, "glock-17").await, untouched, "other records keep version and updatedAt");

    // A firearm without a parent: its sources and confidence changed.
    let root = std::sync::Arc::make_mut(
        catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap(),
    );
    root.data_confidence = Some(0.55);
    root.sources.push(armory::catalog::model::Source {
        url: "https://en.wikipedia.org/wiki/Glock_17".into(),
        kind: "reference".into(),
        fields: vec!["weightEmptyG".into()],
    });
    let summary = import::import(&db, catalog.clone(), false).await.unwrap();
    let types: Vec<String> =
        events_of_revision(&db, summary.revision).await.into_iter().map(|(t, _)| t).collect();
    assert_eq!(types, ["firearm.updated", "firearm.source.changed", "firearm.confidence.changed"]);
}

async fn a_dangling_reference_refuses_the_import_and_writes_nothing(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    let catalog = bundled();
    let first = import::import(&db, catalog.clone(), false).await.unwrap();

    // Drop the manufacturer that the Glock firearms still reference.
    let mut broken = catalog.clone();
    broken.manufacturers.retain(|m| m.id != "glock");
    let files = vec![(
        "manufacturers.toml".to_owned(),
        armory::catalog::model::DataFile {
            manufacturers: broken.manufacturers.clone(),
            firearms: broken.firearms.iter().map(|f| f.as_ref().clone()).collect(),
            categories: broken.categories.clone(),
            calibers: broken.calibers.clone(),
            ammunition: broken.ammunition.iter().map(|a| a.as_ref().clone()).collect(),
            ..Default::default()
        },
    )];
    let errors = load::build(files).unwrap_err().0;
    let glock = errors.iter().find(|e| e.record == "firearm glock-17").expect("glock-17 is named");
    assert_eq!(glock.field, "manufacturerId");
    assert_eq!(glock.file, "manufacturers.toml");

    let mut conn = db.pool().acquire().await.unwrap();
    assert_eq!(store::catalog_revision(&mut conn).await.unwrap(), first.revision);
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM manufacturers WHERE id = 'glock'")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(count, 1, "nothing was written");
}

async fn more_than_a_thousand_changes_become_one_resync(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    let mut catalog = bundled();
    let first = import::import(&db, catalog.clone(), false).await.unwrap();

    let template = catalog.firearms.as_typed().iter().find(|f| f.id == "glock-17").unwrap().as_ref().clone();
    for n in 0..=RESYNC_THRESHOLD {
        let mut copy = template.clone();
        copy.id = format!("test-copy-{n:04}");
        catalog.firearms.typed_mut().push(copy.into());
    }
    catalog.sort();
    let summary = import::import(&db, catalog.clone(), false).await.unwrap();
    assert_eq!(summary.changed(), RESYNC_THRESHOLD + 1);
    let events = events_of_revision(&db, first.revision + 1).await;
    assert_eq!(events, vec![("catalog.resynced".to_owned(), None)]);
}

async fn an_export_imports_back_unchanged(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    import::import(&db, bundled(), false).await.unwrap();
    let mut conn = db.pool().acquire().await.unwrap();
    let stored = store::read_catalog(&mut conn).await.unwrap();
    drop(conn);
    let dir = std::env::temp_dir().join(format!("armory-export-{}", uuid::Uuid::new_v4().simple()));
    export::write_dir(&stored, &dir).unwrap();
    let exported = load_dir(&dir).expect("the export loads");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(exported, bundled());
    let summary = import::import(&db, exported.clone(), false).await.unwrap();
    assert_eq!(summary.changed(), 0);
}

/// PostgreSQL's rows travel as one text per column, values parted by control characters: text
/// holding those characters, and an empty text as a chunk's only row, still come back as written.
async fn text_imports_back_as_written_whatever_it_holds(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    let mut catalog = bundled();
    for (id, notes) in [("glock-19", "parted\u{1e}by\u{1f}separators"), ("glock-17", "")] {
        let firearm =
            std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == id).unwrap());
        firearm.notes = Some(notes.into());
    }
    import::import(&db, catalog.clone(), false).await.unwrap();
    let stored_notes = |id: &'static str| {
        let db = db.clone();
        async move {
            let (notes,): (Option<String>,) = sqlx::query_as("SELECT notes FROM firearms WHERE id = $1")
                .bind(id)
                .fetch_one(db.pool())
                .await
                .unwrap();
            notes
        }
    };
    assert_eq!(stored_notes("glock-19").await.as_deref(), Some("parted\u{1e}by\u{1f}separators"));
    assert_eq!(stored_notes("glock-17").await.as_deref(), Some(""));

    // One changed firearm: a chunk of one row, its notes empty.
    let firearm = std::sync::Arc::make_mut(
        catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-19").unwrap(),
    );
    firearm.notes = Some(String::new());
    let summary = import::import(&db, catalog.clone(), false).await.unwrap();
    assert_eq!(summary.changed(), 1);
    assert_eq!(stored_notes("glock-19").await.as_deref(), Some(""));
    let mut conn = db.pool().acquire().await.unwrap();
    let stored = store::read_catalog(&mut conn).await.unwrap();
    let notes_of = |catalog: &Catalog| -> std::collections::BTreeMap<String, Option<String>> {
        catalog.firearms.as_typed().iter().map(|f| (f.id.clone(), f.notes.clone())).collect()
    };
    assert_eq!(notes_of(&stored), notes_of(&catalog));
}

async fn removing_a_firearm_records_its_deletion(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    let mut catalog = bundled();
    import::import(&db, catalog.clone(), false).await.unwrap();
    catalog.firearms.typed_mut().retain(|f| f.id != "glock-34");
    let summary = import::import(&db, catalog.clone(), false).await.unwrap();
    let events = events_of_revision(&db, summary.revision).await;
    assert_eq!(events, vec![("firearm.deleted".to_owned(), Some("glock-34".to_owned()))]);
    let (count,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM firearm_calibers WHERE firearm_id = 'glock-34'")
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert_eq!(count, 0, "its caliber links went with it");
}

/// The import turns records into rows a few thousand at a time. Across chunks it writes what one
/// pass over the whole table would: an image taken over by a record of an earlier chunk from one
/// of a later chunk moves, deletions and their children go, and the stored catalog equals a fresh
/// import of the same files.
async fn a_catalog_of_several_chunks_imports_as_one(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    let mut catalog = bundled();
    let template = catalog.firearms.as_typed().iter().find(|f| f.id == "glock-17").unwrap().as_ref().clone();
    for n in 0..5_000 {
        let mut copy = template.clone();
        copy.id = format!("test-copy-{n:04}");
        catalog.firearms.typed_mut().push(copy.into());
    }
    catalog.sort();
    let image = Image {
        id: 900_001,
        url: "https://example.org/test-image.jpg".into(),
        image_type: None,
        source: None,
        license: None,
        alt_text: None,
        width_px: None,
        height_px: None,
        file: None,
        file_digest: None,
    };
    let last = catalog.firearms.len() - 1;
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[last]).images.push(image.clone());
    import::import(&db, catalog.clone(), false).await.unwrap();

    // The image moves to the first firearm (first chunk) from the last one (last chunk), and a
    // firearm of a middle chunk goes.
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[last]).images.clear();
    std::sync::Arc::make_mut(&mut catalog.firearms.typed_mut()[0]).images.push(image);
    let gone = catalog.firearms.typed_mut().remove(3_000).id.clone();
    let summary = import::import(&db, catalog.clone(), false).await.unwrap();
    assert_eq!(summary.per_table.iter().find(|(t, _)| *t == "firearms").unwrap().1.updated, 2);
    let owner: (String,) =
        sqlx::query_as("SELECT firearm_id FROM images WHERE id = 900001").fetch_one(db.pool()).await.unwrap();
    assert_eq!(owner.0, catalog.firearms.as_typed()[0].id);
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM firearm_calibers WHERE firearm_id = $1")
        .bind(&gone)
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(left, 0, "the deleted firearm's children went with it");

    let (fresh, _fresh_database) = fresh_db(backend).await;
    import::import(&fresh, catalog.clone(), false).await.unwrap();
    let read = async |db: &Db| store::read_catalog(&mut db.pool().acquire().await.unwrap()).await.unwrap();
    assert_eq!(read(&db).await, read(&fresh).await, "chunked updates equal a fresh import");
    assert_eq!(read(&db).await.firearms.len(), catalog.firearms.len());
}

#[tokio::test]
async fn a_fresh_database_is_seeded_once_from_the_bundled_catalog() {
    let (db, _database) = fresh_db(Backend::Sqlite).await;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let summary = import::import_dir_if_empty(&db, &dir).await.unwrap().expect("an empty database is seeded");
    assert_eq!(summary.revision, 1);
    assert!(
        import::import_dir_if_empty(&db, &dir).await.unwrap().is_none(),
        "a seeded database is left alone"
    );
}

/// `sqlite::memory:` is one database for the whole pool: seeded through one connection, the
/// catalog is there for every other (each pooled connection used to open an empty one of its own).
#[tokio::test]
async fn an_in_memory_database_is_one_database_for_every_connection() {
    let db = Db::connect("sqlite::memory:").await.unwrap();
    db.migrate().await.unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    import::import_dir_if_empty(&db, &dir).await.unwrap().expect("an empty database is seeded");
    // Several connections held at once, so the pool cannot hand back the one that seeded.
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut conn = db.pool().acquire().await.unwrap();
        let (firearms,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM firearms").fetch_one(&mut *conn).await.unwrap();
        assert_eq!(firearms as usize, bundled().firearms.len());
        held.push(conn);
    }
    // And a second pool on the same URL is a database of its own.
    let other = Db::connect("sqlite::memory:").await.unwrap();
    other.migrate().await.unwrap();
    let (firearms,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM firearms").fetch_one(other.pool()).await.unwrap();
    assert_eq!(firearms, 0);
}

async fn a_failure_part_way_leaves_the_previous_catalog_whole(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    let mut catalog = bundled();
    let first = import::import(&db, catalog.clone(), false).await.unwrap();
    let before = firearm_version(&db, "glock-19").await;

    // The firearm rows write fine; their adopters' table is gone, so the import fails after them.
    sqlx::query("ALTER TABLE firearm_users RENAME TO firearm_users_elsewhere")
        .execute(db.pool())
        .await
        .unwrap();
    let variant = std::sync::Arc::make_mut(
        catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-19").unwrap(),
    );
    variant.notes = Some("A change that must not land.".into());
    catalog.manufacturers[0].description = Some("Neither must this.".into());
    assert!(import::import(&db, catalog.clone(), false).await.is_err());
    sqlx::query("ALTER TABLE firearm_users_elsewhere RENAME TO firearm_users")
        .execute(db.pool())
        .await
        .unwrap();

    assert_eq!(firearm_version(&db, "glock-19").await, before, "the firearm kept its version and updatedAt");
    let mut conn = db.pool().acquire().await.unwrap();
    assert_eq!(store::catalog_revision(&mut conn).await.unwrap(), first.revision);
    let stored = store::read_catalog(&mut conn).await.unwrap();
    assert_eq!(stored, bundled(), "the previous catalog is whole");
    drop(conn);
    assert!(events_of_revision(&db, first.revision + 1).await.is_empty(), "no event was recorded");
}

/// The foreign keys of the database (PostgreSQL; SQLite declares none the import could drop).
async fn foreign_keys(db: &Db, backend: Backend) -> Vec<(String, String)> {
    if matches!(backend, Backend::Sqlite) {
        return vec![];
    }
    sqlx::query_as(
        "SELECT CAST(conname AS TEXT), pg_get_constraintdef(oid) FROM pg_constraint \
         WHERE contype = 'f' ORDER BY 1",
    )
    .fetch_all(db.pool())
    .await
    .unwrap()
}

/// A bulk import (most of a large catalog new to the database) checks the references once after
/// its writes on PostgreSQL (`catalog::bulk_references`): it still refuses a dangling one and
/// writes nothing, and the database keeps every constraint it had, whether the import lands or not.
async fn a_bulk_import_checks_every_reference_and_keeps_the_constraints(backend: Backend) {
    let (db, _database) = fresh_db(backend).await;
    let constraints = foreign_keys(&db, backend).await;
    let catalog = armory::catalog::synth::synthesize(7_000, 4);
    assert!(catalog.record_count() >= 10_000, "{} records make a bulk import", catalog.record_count());

    // A firearm whose maker is not in the catalog: the loader refuses it, and so does the database.
    let mut dangling = catalog.clone();
    std::sync::Arc::make_mut(&mut dangling.firearms.typed_mut()[4_321]).manufacturer_id =
        "no-such-maker".into();
    let refused = import::import(&db, dangling, false).await.unwrap_err();
    assert!(refused.to_string().to_lowercase().contains("foreign key"), "{refused}");
    assert!(!refused.is_unavailable(), "a reference the database refuses is not an unavailable database");
    let (written,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM firearms").fetch_one(db.pool()).await.unwrap();
    assert_eq!(written, 0, "nothing was written");
    assert_eq!(foreign_keys(&db, backend).await, constraints, "the refused import dropped no constraint");

    let summary = import::import(&db, catalog.clone(), false).await.unwrap();
    assert_eq!(summary.per_table.iter().find(|(t, _)| *t == "firearms").unwrap().1.created, 7_000);
    assert_eq!(foreign_keys(&db, backend).await, constraints, "every constraint is back");
    let caliber_rows: usize = catalog.firearms.as_typed().iter().map(|f| f.calibers.len()).sum();
    let (stored_calibers,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM firearm_calibers").fetch_one(db.pool()).await.unwrap();
    assert_eq!(stored_calibers as usize, caliber_rows, "every firearm's calibers were written");
    assert_eq!(
        import::import(&db, catalog, false).await.unwrap().changed(),
        0,
        "a second import changes nothing"
    );
}

/// A database that cannot be reached is an unavailable dependency, worth trying again, not
/// refused data; the message says what the import was doing.
#[tokio::test]
async fn an_import_into_an_unreachable_database_is_reported_unavailable() {
    let db = Db::connect_lazy("postgres://armory@127.0.0.1:1/nowhere").unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let error = import::import_dir_if_empty(&db, &dir).await.unwrap_err();
    assert!(error.is_unavailable(), "{error:?}");
    assert!(error.to_string().starts_with("cannot read the catalog: "), "{error}");
}

/// A data file with a misspelt key is refused as data, naming the file, the record and the field.
#[tokio::test]
async fn a_malformed_data_file_is_refused_naming_its_file_and_field() {
    let (db, _database) = fresh_db(Backend::Sqlite).await;
    let dir = std::env::temp_dir().join(format!("armory-malformed-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bad.toml"), "[[firearms]]\nid = \"x-1\"\nname = \"X\"\nwieght = 3\n").unwrap();
    let error = import::import_dir(&db, &dir, false).await.unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!error.is_unavailable(), "{error:?}");
    let ImportError::Refused(load::LoadErrors(problems)) = &error else { panic!("not refused: {error:?}") };
    assert_eq!((problems[0].file.as_str(), problems[0].field.as_str()), ("bad.toml", "wieght"), "{error}");
    assert!(error.to_string().contains("bad.toml: x-1 wieght: line 4: unknown field `wieght`"), "{error}");
}
