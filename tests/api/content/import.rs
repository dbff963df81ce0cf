//! Content goes through the catalog import: checked first (a bad file refuses the import and
//! writes nothing), diffed (an unchanged item keeps its version and times), served within a
//! second of the import, and its feed entry ids do not move.

use std::path::{Path, PathBuf};

use armory::catalog::import;
use serde_json::Value;

use crate::support::{TestApp, fresh_app};

crate::on_each_database!(setup = fresh_app;
    a_bad_front_matter_refuses_the_import_naming_file_and_key,
    an_import_diffs_the_content_and_nodes_follow_it);

/// A data folder holding only content: `files` under `content/`.
struct Folder(PathBuf);

impl Folder {
    fn new(files: &[(&str, &str)]) -> Self {
        let dir = std::env::temp_dir().join(format!("armory-content-test-{}", uuid::Uuid::new_v4().simple()));
        let folder = Self(dir);
        for (name, text) in files {
            folder.write(name, text);
        }
        folder
    }

    fn write(&self, name: &str, text: &str) {
        let path = self.0.join("content").join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn entry(title: &str) -> String {
    format!(
        "+++\ntitle = \"{title}\"\ncategory = \"feature\"\nposted_at = 2026-11-22T05:38:13Z\n+++\nWhat changed.\n"
    )
}

/// The changelog once `served` holds for it, failing after a second.
async fn served_within_a_second(app: &TestApp, served: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    loop {
        let (_, list) = super::json(app, "/v1/changelog").await;
        if served(&list) {
            return list;
        }
        assert!(std::time::Instant::now() < deadline, "the node serves the import within a second: {list}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

async fn a_bad_front_matter_refuses_the_import_naming_file_and_key(app: TestApp) {
    let folder = Folder::new(&[("changelog/2026-11-22-first.md", &entry("First"))]);
    import::import_dir(&app.state.db, folder.path(), false).await.unwrap();
    folder.write("changelog/2026-11-23-second.md", &entry("Second").replace("feature", "news"));
    let error = import::import_dir(&app.state.db, folder.path(), false).await.unwrap_err().to_string();
    assert!(error.contains("content/changelog/2026-11-23-second.md"), "{error}");
    assert!(error.contains("category"), "{error}");
    assert!(error.contains("feature, improvement, bugfix, data, breaking"), "{error}");
    // Nothing was written: the first entry is still the only one stored.
    let (count,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM content_items").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(count, 1);
}

async fn an_import_diffs_the_content_and_nodes_follow_it(app: TestApp) {
    let folder = Folder::new(&[
        ("changelog/2026-11-22-first.md", &entry("First")),
        ("changelog/2026-11-23-second.md", &entry("Second")),
    ]);
    let summary = import::import_dir(&app.state.db, folder.path(), false).await.unwrap();
    let changelog = summary.content.iter().find(|(kind, _)| *kind == "changelog").unwrap().1;
    assert_eq!(changelog.created, 2);
    // The node follows within a second, without a restart.
    let list = served_within_a_second(&app, |list| list["data"].as_array().unwrap().len() == 2).await;
    // Posted at the same second: ties go by id.
    assert_eq!((&list["data"][0]["title"], &list["data"][1]["title"]), (&"First".into(), &"Second".into()));
    let first_feed = app.get("/v1/changelog/feed").await.text().await.unwrap();

    folder.write("changelog/2026-11-23-second.md", &entry("Second, reworded"));
    std::fs::remove_file(folder.path().join("content/changelog/2026-11-22-first.md")).unwrap();
    let summary = import::import_dir(&app.state.db, folder.path(), false).await.unwrap();
    let changelog = summary.content.iter().find(|(kind, _)| *kind == "changelog").unwrap().1;
    assert_eq!((changelog.updated, changelog.deleted, changelog.unchanged), (1, 1, 0));
    let list = served_within_a_second(&app, |list| list["data"].as_array().unwrap().len() == 1).await;
    assert_eq!(list["data"][0]["title"], "Second, reworded");
    // The reworded entry keeps its feed id.
    let second_feed = app.get("/v1/changelog/feed").await.text().await.unwrap();
    let id_of = |feed: &str, title: &str| -> String {
        let document = roxmltree::Document::parse(feed).unwrap();
        let entry = document
            .descendants()
            .filter(|n| n.tag_name().name() == "entry")
            .find(|e| e.descendants().any(|c| c.tag_name().name() == "title" && c.text() == Some(title)))
            .unwrap();
        entry.descendants().find(|c| c.tag_name().name() == "id").unwrap().text().unwrap().to_owned()
    };
    assert_eq!(id_of(&first_feed, "Second"), id_of(&second_feed, "Second, reworded"));

    // Imported again unchanged, nothing moves.
    let summary = import::import_dir(&app.state.db, folder.path(), false).await.unwrap();
    let changelog = summary.content.iter().find(|(kind, _)| *kind == "changelog").unwrap().1;
    assert_eq!((changelog.created, changelog.updated, changelog.deleted, changelog.unchanged), (0, 0, 0, 1));
}
