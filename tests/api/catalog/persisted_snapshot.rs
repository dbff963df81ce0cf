//! The persisted snapshot (`read::persisted`): a node restarting on the catalog it served before
//! reuses the snapshot file and answers every catalog read exactly as the node that built it did;
//! a file of an older catalog revision is patched forward, a damaged one is never served.

use std::path::{Path, PathBuf};

use armory::access::plan::Plan;

use super::read_contract::OPERATIONS;
use crate::support::{Backend, TestApp};

crate::on_each_database!(
    a_restarted_node_reuses_the_snapshot_and_answers_as_before,
    a_snapshot_of_an_older_revision_is_patched_forward,
    a_patched_snapshot_is_persisted_once_it_settles,
    a_damaged_snapshot_file_is_ignored,
);

/// A folder of its own under the system's temporary folder, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("armory-snapshots-{}", uuid::Uuid::new_v4().simple()));
        Self(dir)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The snapshot files in `dir`, once the node has written at least one.
async fn persisted_files(dir: &Path) -> Vec<PathBuf> {
    for _ in 0..600 {
        let files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "msgpack"))
                    .collect()
            })
            .unwrap_or_default();
        if !files.is_empty() {
            return files;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no snapshot was persisted in {}", dir.display());
}

async fn app_persisting_to(backend: Backend, dir: &Path) -> TestApp {
    let dir = dir.to_owned();
    TestApp::with_catalog(backend, move |config| config.snapshot_dir = Some(dir)).await
}

/// Status, ETag and body of every conditional catalog read of the read contract but the
/// popularity counts (requests move them) and the frozen game-stats versions (read from the
/// database, not the snapshot; this app freezes none).
pub(super) async fn answers(app: &TestApp, key: &str) -> Vec<(String, u16, Option<String>, String)> {
    let mut answers = Vec::new();
    for op in OPERATIONS.iter().filter(|op| {
        op.conditional && !op.ok.starts_with("/v1/popular") && !op.ok.starts_with("/v1/game-stats/versions/")
    }) {
        let response = app.get_with_key(op.ok, key).await;
        let status = response.status().as_u16();
        let etag = response.headers().get("etag").map(|e| e.to_str().unwrap().to_owned());
        answers.push((op.ok.to_owned(), status, etag, response.text().await.unwrap()));
    }
    answers
}

async fn a_restarted_node_reuses_the_snapshot_and_answers_as_before(backend: Backend) {
    let folder = Folder::new();
    let mut app = app_persisting_to(backend, &folder.0).await;
    assert!(!app.state.catalog.current().reused, "the first start builds");
    let key = app.key(Plan::Enterprise).await.2;
    let built = answers(&app, &key).await;
    assert!(built.len() > 30, "{} reads compared", built.len());
    let refused: Vec<_> = built.iter().filter(|a| a.1 != 200).map(|a| (&a.0, a.1, &a.3)).collect();
    assert!(refused.is_empty(), "{refused:?}");
    persisted_files(&folder.0).await;

    let dir = folder.0.clone();
    app.restart(backend, move |config| config.snapshot_dir = Some(dir)).await;
    let snapshot = app.state.catalog.current();
    assert!(snapshot.reused, "the restarted node reads the persisted snapshot");
    let reused = answers(&app, &key).await;
    for (built, reused) in built.iter().zip(&reused) {
        assert_eq!(built, reused, "{} answers the same from a reused snapshot", built.0);
    }
}

async fn a_snapshot_of_an_older_revision_is_patched_forward(backend: Backend) {
    let folder = Folder::new();
    let mut app = app_persisting_to(backend, &folder.0).await;
    let key = app.key(Plan::Enterprise).await.2;
    let old = persisted_files(&folder.0).await;

    // A change imported while the node is down moves the catalog revision.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut catalog = armory::catalog::load::load_dir(&data).unwrap();
    let glock = std::sync::Arc::make_mut(
        catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap(),
    );
    glock.name = "Glock 17 (renamed)".to_owned();
    armory::catalog::import::import(&app.state.db, catalog, false).await.unwrap();

    let dir = folder.0.clone();
    app.restart(backend, move |config| config.snapshot_dir = Some(dir)).await;
    let snapshot = app.state.catalog.current();
    assert!(!snapshot.reused, "a snapshot of another revision is not served as it is");
    assert_eq!(snapshot.firearms_rendered, 1, "it is patched forward: only the changed firearm rendered");
    let body: serde_json::Value = app.get_with_key("/v1/firearms/glock-17", &key).await.json().await.unwrap();
    assert_eq!(body["data"]["name"], "Glock 17 (renamed)");

    // The new revision's snapshot replaces the old one.
    for _ in 0..600 {
        let files = persisted_files(&folder.0).await;
        if !files.iter().any(|f| old.contains(f)) {
            assert_eq!(files.len(), 1, "{files:?}");
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the older snapshot file was never replaced");
}

async fn a_patched_snapshot_is_persisted_once_it_settles(backend: Backend) {
    let folder = Folder::new();
    let app = app_persisting_to(backend, &folder.0).await;
    let old = persisted_files(&folder.0).await;

    // A change imported while the node runs is patched in and served at once...
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut catalog = armory::catalog::load::load_dir(&data).unwrap();
    std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap())
        .weight_empty_g = Some(626.0);
    let summary = armory::catalog::import::import(&app.state.db, catalog, false).await.unwrap();
    app.state.catalog.catch_up(summary.revision).await.unwrap();
    let snapshot = app.state.catalog.current();
    assert_eq!((snapshot.revision, snapshot.firearms_rendered), (summary.revision, 1), "patched");
    // ...but written to the folder only after it has been served a while with no newer one.
    assert_eq!(persisted_files(&folder.0).await, old, "not written at once");
    for _ in 0..600 {
        let files = persisted_files(&folder.0).await;
        if !files.iter().any(|f| old.contains(f)) {
            assert_eq!(files.len(), 1, "{files:?}");
            let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
            assert!(name.starts_with(&format!("snapshot-{}-", summary.revision)), "{name}");
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the patched snapshot was never persisted");
}

async fn a_damaged_snapshot_file_is_ignored(backend: Backend) {
    let folder = Folder::new();
    let mut app = app_persisting_to(backend, &folder.0).await;
    let key = app.key(Plan::Enterprise).await.2;
    let expected = app.get_with_key("/v1/firearms/glock-17", &key).await.text().await.unwrap();
    let file = persisted_files(&folder.0).await.remove(0);
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();

    let dir = folder.0.clone();
    app.restart(backend, move |config| config.snapshot_dir = Some(dir)).await;
    assert!(!app.state.catalog.current().reused, "half a file is not served");
    let answer = app.get_with_key("/v1/firearms/glock-17", &key).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.text().await.unwrap(), expected);
}
