use std::time::Duration;

use axum::Router;
use axum::routing::get;

use crate::support::{Backend, TestApp};

/// A real socket: a request in flight when shutdown starts still gets its answer, /ready turns 503
/// at once, and the server then stops.
#[tokio::test]
async fn shutdown_drains_in_flight_requests_and_reports_not_ready() {
    let slow = Router::new().route(
        "/test/slow",
        get(|| async {
            tokio::time::sleep(Duration::from_millis(800)).await;
            "done"
        }),
    );
    let app = TestApp::spawn_with(Backend::Sqlite, Some(slow), |config| {
        config.shutdown_drain = Duration::from_millis(400);
    })
    .await;

    let in_flight = tokio::spawn({
        let (client, url) = (app.client.clone(), app.url("/test/slow"));
        async move { client.get(url).send().await }
    });
    tokio::time::sleep(Duration::from_millis(150)).await;
    app.shutdown.trigger();

    let ready = app.get("/ready").await;
    assert_eq!(ready.status(), 503);
    let body: serde_json::Value = ready.json().await.unwrap();
    assert_eq!(body["status"], "not_ready");

    let answered = in_flight.await.unwrap().expect("the in-flight request is answered");
    assert_eq!(answered.status(), 200);
    assert_eq!(answered.text().await.unwrap(), "done");

    tokio::time::timeout(Duration::from_secs(5), app.stop()).await.expect("server stops").unwrap();
}
