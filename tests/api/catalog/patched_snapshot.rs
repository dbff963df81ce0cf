//! The patched snapshot (`read::update`): after an import that changed a few records, a running
//! node patches the snapshot it serves from the change log, renders only the changed firearms, and
//! answers every catalog read exactly as a node that built the same revision from scratch does
//! (keeping the search index when no indexed text changed); an answer's ETag moves only when what
//! it shows changed. A change log that does not lead from
//! the served snapshot to the stored revision is never used.

use std::path::Path;

use armory::access::plan::Plan;
use armory::catalog::model::Catalog;

use super::persisted_snapshot::answers;
use crate::support::{Backend, TestApp};

crate::on_each_database!(
    a_few_changed_records_are_patched_in_and_answered_as_a_build_would,
    a_broken_change_log_is_never_used,
);

fn bundled() -> Catalog {
    armory::catalog::load::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap()
}

/// Import `catalog` and serve it on `app`, as the revision poll would; the import's revision.
async fn import_and_catch_up(app: &TestApp, catalog: Catalog) -> i64 {
    let summary = armory::catalog::import::import(&app.state.db, catalog, false).await.unwrap();
    app.state.catalog.catch_up(summary.revision).await.unwrap();
    assert_eq!(app.state.catalog.current().revision, summary.revision);
    summary.revision
}

/// The firearm's ETag as served now.
async fn etag(app: &TestApp, key: &str, path: &str) -> String {
    let response = app.get_with_key(path, key).await;
    assert_eq!(response.status(), 200, "{path}");
    response.headers()["etag"].to_str().unwrap().to_owned()
}

/// Each answer of `patched` equals the one a node building the same revision gives.
async fn assert_answers_as_built(app: &mut TestApp, backend: Backend, key: &str) {
    let patched = answers(app, key).await;
    assert!(patched.len() > 30, "{} reads compared", patched.len());
    app.restart(backend, |_| {}).await;
    let snapshot = app.state.catalog.current();
    assert_eq!(snapshot.firearms_rendered, snapshot.catalog.firearms.len(), "the restarted node builds");
    let built = answers(app, key).await;
    for (patched, built) in patched.iter().zip(&built) {
        assert_eq!(patched, built, "{} answers the same from a patched snapshot", patched.0);
    }
}

async fn a_few_changed_records_are_patched_in_and_answered_as_a_build_would(backend: Backend) {
    let mut app = TestApp::with_catalog(backend, |_| {}).await;
    let key = app.key(Plan::Enterprise).await.2;
    let untouched = etag(&app, &key, "/v1/firearms/ak-47").await;
    let glock_before = etag(&app, &key, "/v1/firearms/glock-17").await;

    // One firearm changed (a figure the lists sort and filter on, and its name, which search
    // finds), one created as a variant of another, and a manufacturer and a cartridge changed.
    let mut catalog = bundled();
    let glock = std::sync::Arc::make_mut(
        catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap(),
    );
    glock.name = "Glock 17 Patched".to_owned();
    glock.weight_empty_g = Some(1234.0);
    let mut copy = catalog.firearms.iter().find(|f| f.id == "ak-47").unwrap().as_ref().clone();
    copy.id = "ak-47-patch-test".to_owned();
    copy.name = "Kalashnikov Patchwork Carbine".to_owned();
    copy.parent_firearm_id = Some("ak-47".to_owned());
    catalog.firearms.typed_mut().push(copy.into());
    let glock_maker = catalog.manufacturers.iter_mut().find(|m| m.id == "glock").unwrap();
    glock_maker.description = Some("Austrian maker of polymer-framed pistols (patched).".to_owned());
    let nine = catalog.calibers.iter_mut().find(|c| c.id == "9x19mm-parabellum").unwrap();
    nine.name = "9×19mm Parabellum (patched)".to_owned();
    import_and_catch_up(&app, catalog.clone()).await;

    let snapshot = app.state.catalog.current();
    assert_eq!(snapshot.firearms_rendered, 2, "only the changed and the created firearm are rendered");
    assert!(!snapshot.patched_in_place, "a firearm was created and a cartridge changed: built");
    let body: serde_json::Value = app.get_with_key("/v1/firearms/glock-17", &key).await.json().await.unwrap();
    assert_eq!(
        (body["data"]["name"].as_str(), body["data"]["weightEmptyG"].as_f64()),
        (Some("Glock 17 Patched"), Some(1234.0))
    );
    let found: serde_json::Value =
        app.get_with_key("/v1/firearms/search?q=patchwork", &key).await.json().await.unwrap();
    assert_eq!(found["data"][0]["id"], "ak-47-patch-test", "{found}");
    assert_eq!(
        etag(&app, &key, "/v1/firearms/ak-47").await,
        untouched,
        "an unchanged firearm keeps its ETag"
    );
    assert_ne!(etag(&app, &key, "/v1/firearms/glock-17").await, glock_before, "a changed one's moves");

    // A second import deletes the created firearm again: the patch takes it out of every read.
    catalog.firearms.typed_mut().retain(|f| f.id != "ak-47-patch-test");
    import_and_catch_up(&app, catalog.clone()).await;
    assert_eq!(app.state.catalog.current().firearms_rendered, 0, "a deletion renders nothing");
    assert_eq!(app.get_with_key("/v1/firearms/ak-47-patch-test", &key).await.status(), 404);

    // A third changes figures only (no text search reads): the search index is kept as it is.
    let before = app.state.catalog.current();
    let ak =
        std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "ak-47").unwrap());
    ak.weight_empty_g = Some(4321.0);
    ak.barrel_length_mm = Some(400.0);
    catalog.manufacturers.iter_mut().find(|m| m.id == "glock").unwrap().founded_year = Some(1964);
    import_and_catch_up(&app, catalog.clone()).await;
    let after = app.state.catalog.current();
    assert_eq!(after.firearms_rendered, 1);
    assert!(after.patched_in_place, "every firearm kept its place: the read model is taken in place");
    assert!(std::sync::Arc::ptr_eq(before.search_index(), after.search_index()), "the index is kept");
    assert_ne!(etag(&app, &key, "/v1/firearms/ak-47").await, untouched, "the changed figures are served");

    // A fourth renames a firearm and a maker (which every firearm it makes is indexed under):
    // the search index is patched with those firearms, not built again.
    let renamed =
        std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "ak-47").unwrap());
    renamed.name = "Kalashnikov Rewritten".to_owned();
    catalog.manufacturers.iter_mut().find(|m| m.id == "glock").unwrap().name = "Glock Patchworks".to_owned();
    let made_by_glock = catalog.firearms.iter().filter(|f| f.manufacturer_id == "glock").count();
    import_and_catch_up(&app, catalog).await;
    let patched = app.state.catalog.current();
    assert_eq!(
        patched.search_index().patched_firearms(),
        made_by_glock + 1,
        "the renamed firearms re-indexed"
    );
    assert!(patched.patched_in_place);
    let found: serde_json::Value =
        app.get_with_key("/v1/firearms/search?q=patchworks", &key).await.json().await.unwrap();
    assert_eq!(found["data"].as_array().unwrap().len(), made_by_glock.min(20), "{found}");
    let found: serde_json::Value =
        app.get_with_key("/v1/firearms/search?q=rewritten", &key).await.json().await.unwrap();
    assert_eq!(found["data"][0]["id"], "ak-47", "{found}");
    assert_answers_as_built(&mut app, backend, &key).await;
}

async fn a_broken_change_log_is_never_used(backend: Backend) {
    let app = TestApp::with_catalog(backend, |_| {}).await;
    let all = app.state.catalog.current().catalog.firearms.len();
    // As if the database had been restored from another copy: the epoch the next revision leaves
    // is not the served snapshot's, so the log does not lead from it.
    sqlx::query("UPDATE service_state SET value = value + 1 WHERE name = 'catalog_epoch'")
        .execute(app.state.db.pool())
        .await
        .unwrap();
    let mut catalog = bundled();
    std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap())
        .name = "Glock 17 Rebuilt".to_owned();
    let revision = import_and_catch_up(&app, catalog).await;
    let snapshot = app.state.catalog.current();
    assert_eq!((snapshot.revision, snapshot.firearms_rendered), (revision, all), "built whole");
    let key = app.key(Plan::Enterprise).await.2;
    let body: serde_json::Value = app.get_with_key("/v1/firearms/glock-17", &key).await.json().await.unwrap();
    assert_eq!(body["data"]["name"], "Glock 17 Rebuilt");
}
