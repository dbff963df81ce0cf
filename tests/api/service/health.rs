use armory::db::Db;

use crate::support::{Backend, TestApp};

crate::on_each_database!(setup = crate::support::fresh_app; health_reports_status_version_and_environment, ready_checks_the_database);

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
    // With shared counters in Redis (the PostgreSQL runs, when configured) Redis is checked too.
    let expected = match app.state.config.redis_url {
        Some(_) => serde_json::json!({"status": "ready", "database": "connected", "redis": "connected"}),
        None => serde_json::json!({"status": "ready", "database": "connected"}),
    };
    assert_eq!(body, expected);
}

#[tokio::test]
async fn ready_is_503_when_the_database_is_gone() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    assert_eq!(app.get("/ready").await.status(), 200);
    // The database goes away under a running node: its pool no longer yields a connection.
    app.state.db.close().await;

    let response = app.get("/ready").await;
    assert_eq!(response.status(), 503);
    assert!(response.headers().contains_key("x-request-id"));
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body, serde_json::json!({"status": "not_ready", "database": "disconnected"}));

    // Liveness does not depend on the database.
    assert_eq!(app.get("/health").await.status(), 200);
}

#[tokio::test]
async fn a_pool_pointed_at_a_closed_port_is_disconnected() {
    let db = Db::connect_lazy("postgres://armory@127.0.0.1:1/gone").unwrap();
    assert!(!db.ping().await);
}
