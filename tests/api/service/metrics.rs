//! /metrics as an operator scrapes it: absent unless configured, behind a token on the main
//! listener or open on its own listener, and a Prometheus text exposition that parses.

use std::collections::HashMap;

use armory::access::plan::{Plan, PlanTable};
use armory::app::App;
use armory::config::Config;
use armory::db::Db;

use crate::support::{Backend, TestApp, TestDatabase, error_reason};

/// Every sample of a text exposition: `name{labels}` → value; panics on a line that does not parse.
fn parse(text: &str) -> HashMap<String, f64> {
    let mut samples = HashMap::new();
    for line in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (series, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("not a sample: {line}"));
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("not a value: {line}"));
        samples.insert(series.to_owned(), value);
    }
    assert!(text.contains("# TYPE armory_http_requests counter"), "{text}");
    samples
}

#[tokio::test]
async fn metrics_are_not_served_unless_configured() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (status, reason, _) = error_reason(app.get("/metrics").await).await;
    assert_eq!((status, reason.as_str()), (404, "ROUTE_NOT_FOUND"));
}

#[tokio::test]
async fn metrics_behind_a_token_count_requests_refusals_and_the_snapshot() {
    let plans = PlanTable::default().with_overrides("builder.per_minute=1").unwrap();
    let app = TestApp::with_catalog(Backend::Sqlite, |config| {
        config.metrics_token = Some("scrape-secret".to_owned());
        config.plans = plans;
    })
    .await;
    let (_, _, key) = app.key(Plan::Builder).await;
    assert_eq!(app.get_with_key("/v1/manufacturers/glock", &key).await.status(), 200);
    assert_eq!(app.get_with_key("/v1/manufacturers/glock", &key).await.status(), 429);

    let (status, _, _) = error_reason(app.get("/metrics").await).await;
    assert_eq!(status, 404, "without the token the endpoint is not there");
    let wrong = app.client.get(app.url("/metrics")).bearer_auth("guess").send().await.unwrap();
    assert_eq!(wrong.status(), 404);
    let scraped = app.client.get(app.url("/metrics")).bearer_auth("scrape-secret").send().await.unwrap();
    assert_eq!(scraped.status(), 200);
    assert!(scraped.headers()["content-type"].to_str().unwrap().starts_with("text/plain; version=0.0.4"));
    let samples = parse(&scraped.text().await.unwrap());
    let requests = samples
        .iter()
        .find(|(series, _)| {
            series.contains("armory_http_requests_total")
                && series.contains("getManufacturer")
                && series.contains("\"200\"")
        })
        .map(|(_, v)| *v);
    assert!(requests.is_some_and(|n| n >= 1.0), "{samples:?}");
    assert!(
        samples.keys().any(|s| s.contains("armory_limiter_refusals_total") && s.contains("RATE_LIMITED"))
    );
    assert!(samples.keys().any(|s| s.starts_with("armory_http_request_duration_seconds_bucket")));
    assert!(samples["armory_catalog_snapshot_revision"] >= 1.0);
    assert!(samples.contains_key("armory_catalog_snapshot_build_seconds"));
    let firearms = app.state.catalog.current().catalog.firearms.len() as f64;
    assert_eq!(
        samples["armory_catalog_snapshot_firearms_rendered"], firearms,
        "a built snapshot renders all"
    );
    assert_eq!(samples["armory_webhook_queue_depth"], 0.0);
}

#[tokio::test]
async fn metrics_on_their_own_listener_need_no_token() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    let mut config = Config::for_database(database.url.clone());
    config.metrics_bind = Some("127.0.0.1:0".parse().unwrap());
    let db = Db::connect(&database.url).await.unwrap();
    db.migrate().await.unwrap();
    let app = App::with_db(config, db, None).await.unwrap();
    let metrics_addr = app.metrics_addr().expect("a metrics listener");
    let app = TestApp::start(app, database);
    let scraped = app.client.get(format!("http://{metrics_addr}/metrics")).send().await.unwrap();
    assert_eq!(scraped.status(), 200);
    parse(&scraped.text().await.unwrap());
    let (status, _, _) = error_reason(app.get("/metrics").await).await;
    assert_eq!(status, 404, "the main listener still hides it");
}
