//! The game-balance analytics (operations 21, 27, 85 to 89): the contract of each operation
//! (plan gate, bad parameters, unknown ids and versions, 304), values worked out by hand from the
//! bundled catalog's stats, and frozen versions that stay put when the live stats move.

mod contract;
mod frozen;
mod values;

use std::collections::HashMap;
use std::path::Path;

use armory::access::plan::Plan;
use armory::catalog::game_stats::{self, GameStats};
use armory::catalog::load::load_dir;
use armory::catalog::model::Catalog;
use serde_json::Value;

use crate::support::TestApp;

pub fn bundled() -> Catalog {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap()
}

/// The live stats the import derives, by firearm id.
pub fn live_stats(catalog: &Catalog) -> HashMap<String, GameStats> {
    game_stats::derive(catalog)
}

pub async fn data(app: &TestApp, path: &str, key: &str) -> Value {
    let response = app.get_with_key(path, key).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

pub async fn builder(app: &TestApp) -> String {
    app.key(Plan::Builder).await.2
}
