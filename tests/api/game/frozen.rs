//! A frozen version answers as the live stats did when it was frozen, and keeps answering so when
//! a rebalance moves the live stats.

use armory::catalog::import;
use serde_json::Value;

use super::{builder, bundled, data};
use crate::support::TestApp;

crate::on_each_database!(setup = crate::support::read_catalog_app; a_frozen_version_keeps_its_answers_when_the_live_stats_move);

const PATHS: &[&str] = &[
    "/v1/game/stat-distribution?stat=gameMobility",
    "/v1/game/tier-list?category=pistols&stat=gameMobility&per_tier=50",
    "/v1/firearms/glock-17/game-profile",
    "/v1/firearms/game-meta",
    "/v1/game/balance-report?category=pistols&threshold=1",
];

/// The answer without the firearm records (those always show the catalog as it is now) and
/// without the version label.
fn figures(mut body: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("firearm");
                map.remove("version");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut body);
    body
}

fn with_version(path: &str) -> String {
    format!("{path}{}version=2026.1", if path.contains('?') { '&' } else { '?' })
}

async fn a_frozen_version_keeps_its_answers_when_the_live_stats_move(app: TestApp) {
    let key = builder(&app).await;
    let mut before = Vec::new();
    for path in PATHS {
        let live = figures(data(&app, path, &key).await);
        let frozen = figures(data(&app, &with_version(path), &key).await);
        assert_eq!(live, frozen, "{path}: freshly frozen, the version answers as the live stats");
        before.push(frozen);
    }

    // Rebalance: the Glock 17 gets much heavier; the import recomputes its stats.
    let mut catalog = bundled();
    std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap())
        .weight_loaded_g = Some(4_000.0);
    import::import(&app.state.db, catalog.clone(), false).await.unwrap();
    app.state.catalog.reload().await.unwrap();

    let live = data(&app, "/v1/firearms/glock-17/game-profile", &key).await;
    let frozen = data(&app, &with_version("/v1/firearms/glock-17/game-profile"), &key).await;
    assert_ne!(live["data"]["stats"]["gameMobility"], frozen["data"]["stats"]["gameMobility"]);
    assert_eq!(frozen["data"]["firearm"]["weightLoadedG"], 4_000.0, "records show the catalog as it is");
    for (path, before) in PATHS.iter().zip(&before) {
        let frozen = figures(data(&app, &with_version(path), &key).await);
        assert_eq!(&frozen, before, "{path}: the frozen version did not move");
    }
    let live = figures(data(&app, PATHS[0], &key).await);
    assert_ne!(&live, &before[0], "the live distribution moved");
    // The live tier list was kept answered by the snapshot before; the new one answers afresh.
    let tier_list = data(&app, PATHS[1], &key).await;
    assert_ne!(&figures(tier_list.clone()), &before[1], "the live tier list moved");
    let listed = tier_list["data"]["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|tier| tier["firearms"].as_array().unwrap());
    let glock = listed.into_iter().find(|ranked| ranked["id"] == "glock-17").expect("the Glock 17 is listed");
    assert_eq!(glock["firearm"]["weightLoadedG"], 4_000.0, "and lists the records as they are");
}

crate::on_each_database!(setup = crate::support::read_catalog_app; a_frozen_version_is_read_once_per_catalog_revision);

/// The version is read from the database once and kept: with its rows gone it still answers,
/// until the catalog revision moves and the kept analytics are dropped.
async fn a_frozen_version_is_read_once_per_catalog_revision(app: TestApp) {
    let key = builder(&app).await;
    let path = "/v1/game/stat-distribution?stat=gameDamage&version=2026.1";
    let first = data(&app, path, &key).await;
    for table in ["game_stats_entries", "game_stats_versions"] {
        sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))
            .execute(app.state.db.pool())
            .await
            .unwrap();
    }
    assert_eq!(data(&app, path, &key).await, first, "answered from the kept analytics, not the database");
    let mut catalog = bundled();
    std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap())
        .weight_loaded_g = Some(4_000.0);
    import::import(&app.state.db, catalog.clone(), false).await.unwrap();
    app.state.catalog.reload().await.unwrap();
    assert_eq!(app.get_with_key(path, &key).await.status(), 404, "a new revision reads the version again");
}
