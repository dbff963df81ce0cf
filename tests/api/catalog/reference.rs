//! Calibers, ammunition, countries, conflicts and game-stats versions, checked field by field
//! against the bundled catalog; and the snapshot swap and the freeze as an operator sees them.

use std::path::Path;
use std::time::{Duration, Instant};

use armory::access::plan::Plan;
use armory::catalog::{import, load::load_dir, model::Catalog, stats_versions};
use serde_json::{Value, json};

use crate::support::roomy_plans;
use crate::support::{Backend, TestApp};

crate::on_each_database!(setup = crate::support::read_catalog_app; calibers_and_ammunition_match_the_data, countries_and_conflicts_are_counted);

fn bundled() -> Catalog {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap()
}

async fn data(app: &TestApp, path: &str, plan: Plan) -> Value {
    let (_, _, key) = app.key(plan).await;
    let response = app.get_with_key(path, &key).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

async fn calibers_and_ammunition_match_the_data(app: TestApp) {
    let body = data(&app, "/v1/calibers/9x19mm-parabellum", Plan::Builder).await;
    let c = &body["data"];
    assert_eq!(c["name"], "9×19mm Parabellum");
    assert_eq!(
        c["aliases"],
        json!("[\"9mm Luger\",\"9mm Parabellum\",\"9mm NATO\",\"9×19mm\",\"9mm Para\"]")
    );
    assert_eq!(c["bulletDiameterMm"], 9.01);
    assert_eq!(c["caseLengthMm"], 19.15);
    assert_eq!(c["maxPressureMpa"], 235.0);
    assert_eq!(c["typicalMuzzleEnergyJ"], 483.0);
    assert_eq!(c["parentCartridgeId"], "765x21mm-parabellum");
    assert_eq!(c["yearIntroduced"], 1902);
    assert_eq!(c["provenance"]["specSource"], "C.I.P.");
    let summary = data(&app, "/v1/calibers/9x19mm-parabellum", Plan::Explorer).await;
    assert!(summary["data"].get("maxPressureMpa").is_none(), "Explorer gets the summary set");
    assert_eq!(summary["data"]["provenance"]["specSource"], "C.I.P.");

    let body = data(&app, "/v1/calibers?cartridge_type=centerfire_pistol&per_page=100", Plan::Builder).await;
    let expected = bundled()
        .calibers
        .iter()
        .filter(|c| c.cartridge_type.as_deref() == Some("centerfire_pistol"))
        .count();
    assert_eq!(body["pagination"]["total"], expected);

    let body = data(&app, "/v1/calibers/556x45mm-nato/parent-chain", Plan::Builder).await;
    let chain: Vec<&str> =
        body["data"]["chain"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(chain[..3], ["556x45mm-nato", "223-remington", "222-remington"]);
    assert_eq!(body["data"]["rootId"], *chain.last().unwrap());

    let body = data(&app, "/v1/calibers/223-remington/family", Plan::Builder).await;
    assert_eq!(body["data"]["parent"]["id"], "222-remington");
    let children: Vec<&str> =
        body["data"]["children"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert!(children.contains(&"556x45mm-nato") && children.contains(&"300-aac-blackout"), "{children:?}");

    let body = data(&app, "/v1/calibers/compare?ids=556x45mm-nato,9x19mm-parabellum", Plan::Builder).await;
    assert_eq!(body["data"][1]["id"], "9x19mm-parabellum");
    assert!(body["data"][0]["provenance"].is_object());

    let body = data(&app, "/v1/calibers/9x19mm-parabellum/firearms?per_page=100", Plan::Explorer).await;
    let first = body["data"][0].as_object().unwrap();
    let keys: Vec<&str> = first.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["id", "name", "manufacturerId", "categoryId", "yearIntroduced", "status", "actionType"]
    );
    let ids: Vec<&str> = body["data"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"glock-17"));

    let body = data(&app, "/v1/calibers/9x19mm-parabellum/ammunition", Plan::Builder).await;
    assert!(body["data"].as_array().unwrap().iter().all(|a| a["caliberId"] == "9x19mm-parabellum"));

    let body = data(&app, "/v1/ammunition/9x19mm-parabellum-115gr-fmj", Plan::Builder).await;
    let a = &body["data"];
    assert_eq!(a["bulletWeightG"], 7.45);
    assert_eq!(a["bulletType"], "fmj");
    assert_eq!(a["muzzleVelocityMps"], 390.0);
    assert_eq!(a["muzzleEnergyJ"], 567.0);
    assert_eq!(a["testBarrelLengthMm"], 150.0);
    assert_eq!(a["isCommon"], true);
    assert_eq!(a["caliber"], json!({"id": "9x19mm-parabellum", "name": "9×19mm Parabellum"}));
    assert_eq!(a["provenance"]["bestSourceKind"], "reference");

    let body = data(
        &app,
        "/v1/ammunition?caliber_id=338-lapua-magnum&bullet_type=fmjbt&is_common=true",
        Plan::Builder,
    )
    .await;
    let loads = body["data"].as_array().unwrap();
    assert!(
        loads
            .iter()
            .any(|a| a["id"] == "338-lapua-magnum-250gr-lock-base-l115a3" && a["manufacturerId"] == "lapua")
    );
}

async fn countries_and_conflicts_are_counted(app: TestApp) {
    let catalog = bundled();
    let body = data(&app, "/v1/countries", Plan::Explorer).await;
    let austria = body["data"].as_array().unwrap().iter().find(|c| c["code"] == "AT").unwrap().clone();
    let origin = catalog.firearms.iter().filter(|f| f.country_of_origin.as_deref() == Some("AT")).count();
    let makers = catalog.manufacturers.iter().filter(|m| m.country_code.as_deref() == Some("AT")).count();
    assert_eq!(austria["firearmsOfOrigin"], origin);
    assert_eq!(austria["manufacturers"], makers);

    let body = data(&app, "/v1/countries/at/arsenal", Plan::Builder).await;
    assert_eq!(body["data"]["code"], "AT");
    let military = body["data"]["userTypes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["userType"] == "military")
        .unwrap()
        .clone();
    assert!(
        military["firearms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["id"] == "glock-17" && f["designation"] == "P80")
    );

    let body = data(&app, "/v1/conflicts?name=VIETNAM", Plan::Builder).await;
    let vietnam =
        body["data"].as_array().unwrap().iter().find(|c| c["name"] == "Vietnam War").unwrap().clone();
    let expected = catalog
        .firearms
        .iter()
        .filter(|f| f.conflicts.iter().flatten().any(|c| c.name == "Vietnam War"))
        .count();
    assert_eq!(vietnam["firearmCount"], expected);
    assert!(vietnam["firearmIds"].as_array().unwrap().contains(&json!("ak-47")));
}

/// Freezing copies the live stats; a later rebalance moves the live stats and the firearm's
/// version, never a frozen version.
async fn a_rebalance_leaves_frozen_versions_as_they_were(backend: Backend) {
    let app = TestApp::with_catalog(backend, |config| config.plans = roomy_plans()).await;
    let frozen = stats_versions::freeze(&app.state.db, "2026.1", Some("launch")).await.unwrap();
    assert_eq!(frozen.firearm_count as usize, bundled().firearms.len());
    assert!(stats_versions::freeze(&app.state.db, "2026.1", None).await.is_err(), "a label is used once");
    let (_, _, key) = app.key(Plan::Builder).await;
    let get = |path: &'static str| {
        let request = app.client.get(app.url(path)).header("x-api-key", key.clone());
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };

    let entry = get("/v1/game-stats/versions/2026.1/firearms/glock-17").await;
    let before = get("/v1/firearms/glock-17").await;
    assert_eq!(entry["data"]["firearm_name"], "Glock 17");
    assert_eq!(entry["data"]["game_mobility"], before["data"]["gameMobility"]);
    let versions = get("/v1/game-stats/versions").await;
    assert_eq!(versions["data"][0]["version"], "2026.1");
    assert_eq!(versions["data"][0]["description"], "launch");
    let page = get("/v1/game-stats/versions/2026.1/firearms").await;
    assert_eq!(page["pagination"]["total"], frozen.firearm_count);
    assert!(page["data"][0].get("game_damage").is_some(), "snake_case entries");

    // Rebalance: the Glock gets heavier; the import recomputes its stats.
    let mut catalog = bundled();
    std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap())
        .weight_loaded_g = Some(2_000.0);
    import::import(&app.state.db, catalog.clone(), false).await.unwrap();
    app.state.catalog.reload().await.unwrap();
    let after = get("/v1/firearms/glock-17").await;
    assert_ne!(after["data"]["gameMobility"], before["data"]["gameMobility"]);
    assert_ne!(after["data"]["version"], before["data"]["version"]);
    assert_eq!(
        get("/v1/game-stats/versions/2026.1/firearms/glock-17").await,
        entry,
        "the frozen entry is unchanged"
    );
}

/// A second node over the same database serves an import without a restart: its snapshot polls
/// the catalog revision every 500 ms and rebuilds. The deadline is loose on purpose (a loaded CI
/// machine runs the suite in parallel on a debug build); this checks the swap, not its speed.
async fn another_node_serves_an_import_without_a_restart(backend: Backend) {
    let first = TestApp::with_catalog(backend, |config| config.plans = roomy_plans()).await;
    let db = armory::db::Db::connect(&first.database.url).await.unwrap();
    let mut config = armory::config::Config::for_database(first.database.url.clone());
    config.plans = roomy_plans();
    let second = armory::app::App::with_db(config, db, None).await.unwrap();
    let second_addr = second.local_addr();
    let stop_second = second.shutdown();
    tokio::spawn(second.run());
    let (_, _, key) = first.key(Plan::Builder).await;
    tokio::time::sleep(Duration::from_millis(600)).await; // the second node's key cache polls every 250 ms

    let mut catalog = bundled();
    std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap())
        .notes = Some("Changed by a test.".into());
    import::import(&first.state.db, catalog.clone(), false).await.unwrap();
    let imported = Instant::now();
    let url = format!("http://{second_addr}/v1/firearms/glock-17");
    loop {
        let body: Value =
            first.client.get(&url).header("x-api-key", &key).send().await.unwrap().json().await.unwrap();
        if body["data"]["notes"] == "Changed by a test." {
            break;
        }
        assert!(imported.elapsed() < Duration::from_secs(10), "the second node still serves the old record");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop_second.trigger();
}

crate::on_each_database!(
    a_rebalance_leaves_frozen_versions_as_they_were,
    another_node_serves_an_import_without_a_restart
);
