//! Field-level verification as an operator and a reader see it: `armory catalog verify` writes
//! the check into a data file and imports it, the firearm's provenance shows it, and an import
//! that changes the verified figure clears that verification, in the file too. Runs on a copy of
//! the bundled data, never on data/ itself.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use armory::access::plan::Plan;
use serde_json::{Value, json};

use crate::support::TestApp;

crate::on_each_database!(setup = crate::support::read_catalog_app;
    a_verified_field_shows_in_provenance_until_an_import_changes_it,
    a_field_the_record_lacks_or_an_unlisted_host_is_refused_and_nothing_written,
);

const ARMORY: &str = env!("CARGO_BIN_EXE_armory");
/// The Bergmann MP 18's museum page, already cited for its rate of fire.
const SOURCE: &str = "https://vhu.cz/exhibit/samopal-bergmann-mp-18i";
const FILE: &str = "firearms/bergmann/mp-18.toml";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A copy of the bundled data, removed when dropped.
pub(crate) struct DataCopy(PathBuf);

impl Drop for DataCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn data_copy() -> (DataCopy, PathBuf) {
    let dir = std::env::temp_dir().join(format!("armory-verify-{}", uuid::Uuid::new_v4().simple()));
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data"), &dir);
    (DataCopy(dir.clone()), dir)
}

fn armory(app: &TestApp, args: &[&str]) -> Output {
    Command::new(ARMORY)
        .args(args)
        .args(["--database-url", &app.database.url])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

/// The firearm's provenance once the node serves the catalog revision the command wrote.
async fn provenance(app: &TestApp, id: &str, until: impl Fn(&Value) -> bool) -> Value {
    let (_, _, key) = app.key(Plan::Builder).await;
    let started = std::time::Instant::now();
    loop {
        let body: Value = app.get_with_key(&format!("/v1/firearms/{id}"), &key).await.json().await.unwrap();
        let provenance = body["data"]["provenance"].clone();
        if until(&provenance) || started.elapsed() > std::time::Duration::from_secs(10) {
            return provenance;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

async fn a_verified_field_shows_in_provenance_until_an_import_changes_it(app: TestApp) {
    let (_temp, dir) = data_copy();
    let data = dir.to_str().unwrap();
    let verify = ["catalog", "verify", "mp-18", "--fields", "rateOfFireRpm", "--source", SOURCE];
    let done = armory(&app, &[&verify[..], &["--data", data, "--date", "2026-12-01"]].concat());
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let said = String::from_utf8_lossy(&done.stdout);
    assert!(said.contains("mp-18: verified rateOfFireRpm (dataConfidence 0.6)"), "{said}");

    let text = std::fs::read_to_string(dir.join(FILE)).unwrap();
    assert!(text.contains("verifiedAt = \"2026-12-01\"\nverifiedFields = [\"rateOfFireRpm\"]"), "{text}");
    let shown = provenance(&app, "mp-18", |p| p["verifiedAt"].is_string()).await;
    assert_eq!(shown["verifiedFields"], json!(["rateOfFireRpm"]), "{shown}");
    assert_eq!(shown["verifiedAt"].as_str().map(|d| &d[..10]), Some("2026-12-01"));
    assert_eq!(shown["dataConfidence"], 0.6, "one key figure of five verified: unchanged");

    // The verified figure changes in the file: the import clears its verification, there and
    // in what is served.
    let changed = text.replace("rateOfFireRpm = 350", "rateOfFireRpm = 400");
    std::fs::write(dir.join(FILE), changed).unwrap();
    let imported = armory(&app, &["catalog", "import", data]);
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let text = std::fs::read_to_string(dir.join(FILE)).unwrap();
    assert!(!text.contains("verifiedFields") && !text.contains("verifiedAt"), "{text}");
    let shown = provenance(&app, "mp-18", |p| p["verifiedAt"].is_null()).await;
    assert_eq!((&shown["verifiedAt"], &shown["verifiedFields"]), (&Value::Null, &Value::Null), "{shown}");

    // Imported again as it is now, nothing comes back.
    assert!(armory(&app, &["catalog", "import", data]).status.success());
    assert!(!std::fs::read_to_string(dir.join(FILE)).unwrap().contains("verifiedFields"));
}

async fn a_field_the_record_lacks_or_an_unlisted_host_is_refused_and_nothing_written(app: TestApp) {
    let (_temp, dir) = data_copy();
    let data = dir.to_str().unwrap();
    let before = std::fs::read_to_string(dir.join(FILE)).unwrap();
    for (fields, source, says) in [
        ("heightMm", SOURCE, "mp-18 has no heightMm"),
        ("calibre", SOURCE, "calibre is not a figure of a firearm"),
        ("rateOfFireRpm", "https://unlisted.example/mp18", "unlisted.example is not in hosts.toml"),
        ("rateOfFireRpm", "http://vhu.cz/exhibit/samopal-bergmann-mp-18i", "is not an https page"),
    ] {
        let refused = armory(
            &app,
            &["catalog", "verify", "mp-18", "--fields", fields, "--source", source, "--data", data],
        );
        assert_eq!(refused.status.code(), Some(1), "{fields} {source}");
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(said.contains(says), "{said}");
    }
    let wrong_kind = armory(
        &app,
        &[
            "catalog",
            "verify",
            "mp-18",
            "--fields",
            "rateOfFireRpm",
            "--source",
            SOURCE,
            "--kind",
            "manufacturer",
            "--data",
            data,
        ],
    );
    assert!(String::from_utf8_lossy(&wrong_kind.stderr).contains("lists vhu.cz as government"));
    assert_eq!(std::fs::read_to_string(dir.join(FILE)).unwrap(), before, "nothing written");
}
