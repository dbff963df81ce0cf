use armory::app::App;
use armory::config::Config;
use armory::db::Db;

use crate::on_each_backend;
use crate::support::{Backend, TestApp, TestDatabase};

on_each_backend!(health_reports_status_version_and_environment, ready_checks_the_database);

async fn health_reports_status_version_and_environment(app: TestApp) {
    let response = app.get("/health").await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().contains_key("x-request-id"));
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(body["environment"], "test");
    let timestamp = body["timestamp"].as_str().unwrap();
    time::OffsetDateTime::parse(timestamp, &time::format_description::well_known::Rfc3339)
        .expect("timestamp is ISO 8601");
    assert!(body.get("success").is_none(), "probes are flat, not enveloped");
}

async fn ready_checks_the_database(app: TestApp) {
    let response = app.get("/ready").await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().contains_key("x-request-id"));
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body, serde_json::json!({"status": "ready", "database": "connected"}));
}

#[tokio::test]
async fn ready_is_503_when_the_database_is_gone() {
    // A pool pointed at a port where nothing listens.
    let db = Db::connect_lazy("postgres://armory@127.0.0.1:1/gone").unwrap();
    let database = TestDatabase::create(Backend::Sqlite).await;
    let app =
        App::with_db(Config::for_database("postgres://armory@127.0.0.1:1/gone"), db, None).await.unwrap();
    let app = TestApp::start(app, database);

    let response = app.get("/ready").await;
    assert_eq!(response.status(), 503);
    assert!(response.headers().contains_key("x-request-id"));
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body, serde_json::json!({"status": "not_ready", "database": "disconnected"}));

    // Liveness does not depend on the database.
    assert_eq!(app.get("/health").await.status(), 200);
}
