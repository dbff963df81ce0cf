//! Deliveries as a receiver sees them. The worker is driven with `run_once`; the retry schedule
//! is a few hundred milliseconds, so waits are short and only ever lower bounds.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::time::{Duration, Instant};

use armory::access::plan::Plan;
use armory::app::App;
use armory::catalog::import;
use armory::db::{Backend as DbBackend, Db};
use serde_json::{Value, json};

use super::receiver::Receiver;
use super::{RETRY, create, delivering, send};
use crate::support::{Backend, TestApp, TestDatabase};

crate::on_each_database!(
    an_import_reaches_the_receiver_signed,
    a_failing_receiver_is_retried_on_the_schedule,
    a_receiver_that_never_answers_2xx_gets_four_attempts,
    pausing_stops_deliveries_and_retries,
    deleting_drops_pending_retries,
    a_claim_left_by_a_killed_worker_is_retried,
    two_nodes_deliver_each_event_once,
    the_test_delivery_is_signed_and_reports_the_status,
    a_name_resolving_to_loopback_is_refused_at_delivery,
    shutdown_lets_an_attempt_in_flight_finish,
    an_image_event_carries_the_image_and_its_firearm,
);

/// An image event's data is the image with the id of the firearm carrying it (found off the
/// snapshot's image index, not a walk over the packed firearms), or the id alone when no
/// firearm carries it.
async fn an_image_event_carries_the_image_and_its_firearm(backend: Backend) {
    let app = TestApp::with_catalog(backend, delivering).await;
    let db = Db::connect(&app.database.url).await.unwrap();
    let mut catalog =
        armory::catalog::load::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap();
    let image: armory::catalog::model::Image = serde_json::from_value(json!({
        "id": 900_002, "url": "https://example.org/an-image.jpg", "type": null, "source": null,
        "license": null, "altText": null, "widthPx": null, "heightPx": null
    }))
    .unwrap();
    let carrier = catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-19").unwrap();
    std::sync::Arc::make_mut(carrier).images.push(image);
    import::import(&db, catalog, false).await.unwrap();
    app.state.catalog.reload().await.unwrap();
    let snapshot = app.state.catalog.current();
    assert!(snapshot.catalog.firearms.is_packed(), "a served snapshot holds its firearms packed");
    let data = armory::webhooks::payload::event_data(&snapshot, "image", "900002", Plan::Enterprise);
    assert_eq!(data["firearmId"], json!("glock-19"));
    assert_eq!(data["id"], json!(900_002));
    assert_eq!(data["url"], json!("https://example.org/an-image.jpg"));
    let unknown = armory::webhooks::payload::event_data(&snapshot, "image", "999999999", Plan::Enterprise);
    assert_eq!(unknown, json!({ "id": "999999999" }));
}

/// Record an outbox event the way the import does (same table, same id and time forms).
async fn record_event(app: &TestApp, event_type: &str, resource_id: Option<&str>) -> String {
    let id = uuid::Uuid::now_v7().to_string();
    let resource = resource_id.map(|_| event_type.split('.').next().unwrap());
    sqlx::query(
        "INSERT INTO catalog_events (id, type, resource, resource_id, revision, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&id)
    .bind(event_type)
    .bind(resource)
    .bind(resource_id)
    .bind(app.state.catalog.current().revision)
    .bind(armory::clock::iso_millis_now())
    .execute(app.state.db.pool())
    .await
    .unwrap();
    id
}

/// A receiver answering `script` then `otherwise`, and a new Studio account's endpoint on it
/// subscribed to `event`: the receiver, the account's key and the endpoint id.
async fn subscribed(
    app: &TestApp,
    script: &[u16],
    otherwise: u16,
    event: &str,
) -> (Receiver, String, String) {
    let receiver = Receiver::start(script, otherwise).await;
    let (_, _, key) = app.key(Plan::Studio).await;
    let (id, _) = create(app, &key, &receiver.url("/hook"), &[event]).await;
    (receiver, key, id)
}

/// Run worker passes until `done` holds or `within` passes.
async fn drain(app: &TestApp, within: Duration, done: impl Fn() -> bool) {
    let deadline = Instant::now() + within;
    loop {
        app.state.webhooks.run_once().await.expect("a worker pass");
        if done() || Instant::now() > deadline {
            return;
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Keep the worker running well past every retry the schedule allows.
async fn settle(app: &TestApp) {
    let started = Instant::now();
    drain(app, RETRY * 5, || false).await;
    assert!(started.elapsed() >= RETRY * 5);
}

async fn an_import_reaches_the_receiver_signed(backend: Backend) {
    let app = TestApp::with_catalog(backend, delivering).await;
    let receiver = Receiver::start(&[], 200).await;
    let (_, _, studio) = app.key(Plan::Studio).await;
    let (_, _, enterprise) = app.key(Plan::Enterprise).await;
    let events = ["firearm.updated", "firearm.variant.updated"];
    let (_, secret_a) = create(&app, &studio, &receiver.url("/a"), &events).await;
    let (_, secret_b) = create(&app, &enterprise, &receiver.url("/b"), &["firearm.updated"]).await;

    let db = Db::connect(&app.database.url).await.unwrap();
    let mut catalog =
        armory::catalog::load::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap();
    let variant = std::sync::Arc::make_mut(
        catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-19").unwrap(),
    );
    variant.notes = Some("Changed by the webhook test.".into());
    let summary = import::import(&db, catalog.clone(), false).await.unwrap();
    assert_eq!(summary.changed(), 1);

    drain(&app, Duration::from_secs(10), || receiver.count() >= 3).await;
    let received = receiver.received();
    assert_eq!(received.len(), 3, "two events to /a, one to /b");
    let outbox: Vec<(String, String)> =
        sqlx::query_as("SELECT id, type FROM catalog_events WHERE revision = $1 ORDER BY seq")
            .bind(summary.revision)
            .fetch_all(db.pool())
            .await
            .unwrap();
    for request in &received {
        let secret = if request.path == "/a" { &secret_a } else { &secret_b };
        request.assert_signed_with(secret);
        assert_eq!(request.header("content-type"), "application/json");
        let body = request.json();
        let keys: Vec<&str> = body.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["id", "type", "created_at", "data"]);
        assert_eq!(body["id"], request.header("x-webhook-id").as_str());
        assert_eq!(body["type"], request.header("x-webhook-event").as_str());
        assert!(outbox.contains(&(request.header("x-webhook-id"), request.header("x-webhook-event"))));
        let created_at = body["created_at"].as_str().unwrap();
        assert!(created_at.len() == 24 && created_at.ends_with('Z') && created_at.as_bytes()[19] == b'.');
        assert_eq!(body["data"]["id"], "glock-19");
        assert_eq!(body["data"]["notes"], "Changed by the webhook test.", "the detail shape (Studio)");
        assert!(body["data"]["provenance"].is_object());
    }
    let update_ids: BTreeSet<String> = received
        .iter()
        .filter(|r| r.header("x-webhook-event") == "firearm.updated")
        .map(|r| r.header("x-webhook-id"))
        .collect();
    assert_eq!(update_ids.len(), 1, "one X-Webhook-Id for every endpoint receiving the change");
}

async fn a_failing_receiver_is_retried_on_the_schedule(backend: Backend) {
    let app = super::app(backend).await;
    let (receiver, _, _) = subscribed(&app, &[500, 500], 200, "manufacturer.updated").await;
    record_event(&app, "manufacturer.updated", Some("glock")).await;

    drain(&app, Duration::from_secs(10), || receiver.count() >= 3).await;
    settle(&app).await;
    let received = receiver.received();
    assert_eq!(received.len(), 3, "500, 500, then 200 and nothing more");
    let ids: BTreeSet<String> = received.iter().map(|r| r.header("x-webhook-id")).collect();
    let deliveries: BTreeSet<String> = received.iter().map(|r| r.header("x-webhook-delivery")).collect();
    assert_eq!(ids.len(), 1, "one X-Webhook-Id across retries");
    assert_eq!(deliveries.len(), 3, "a new X-Webhook-Delivery per attempt");
    for pair in received.windows(2) {
        assert!(pair[1].at - pair[0].at >= RETRY, "a retry waits for its turn in the schedule");
    }
    assert_eq!(received[0].body, received[2].body, "every attempt sends the same bytes");
}

async fn a_receiver_that_never_answers_2xx_gets_four_attempts(backend: Backend) {
    let app = super::app(backend).await;
    // A redirect is a failure too: it is never followed.
    let (receiver, _, _) = subscribed(&app, &[302], 503, "caliber.created").await;
    record_event(&app, "caliber.created", Some("9x19mm-parabellum")).await;

    drain(&app, Duration::from_secs(10), || receiver.count() >= 4).await;
    settle(&app).await;
    let received = receiver.received();
    assert_eq!(received.len(), 4, "the first attempt and three retries, then abandoned");
    assert!(received.iter().all(|r| r.path == "/hook"), "the redirect was not followed");
}

async fn pausing_stops_deliveries_and_retries(backend: Backend) {
    let app = super::app(backend).await;
    let (receiver, key, id) = subscribed(&app, &[500], 200, "category.updated").await;
    let path = format!("/v1/me/webhooks/{id}");
    record_event(&app, "category.updated", Some("pistols")).await;
    drain(&app, Duration::from_secs(5), || receiver.count() >= 1).await;
    assert_eq!(receiver.count(), 1, "the first attempt failed; a retry is pending");

    let paused = send(&app, "PUT", &path, &key, Some(json!({ "enabled": false }))).await;
    assert_eq!(paused.status(), 200);
    record_event(&app, "category.updated", Some("rifles")).await;
    settle(&app).await;
    assert_eq!(receiver.count(), 1, "no retry and no new event while paused");

    let resumed = send(&app, "PUT", &path, &key, Some(json!({ "active": true }))).await;
    assert_eq!(resumed.status(), 200);
    settle(&app).await;
    assert_eq!(receiver.count(), 1, "resuming replays nothing");

    let after = record_event(&app, "category.updated", Some("carbines")).await;
    drain(&app, Duration::from_secs(5), || receiver.count() >= 2).await;
    assert_eq!(receiver.count(), 2);
    assert_eq!(receiver.received()[1].header("x-webhook-id"), after);
}

async fn deleting_drops_pending_retries(backend: Backend) {
    let app = super::app(backend).await;
    let (receiver, key, id) = subscribed(&app, &[], 500, "firearm.deleted").await;
    record_event(&app, "firearm.deleted", Some("gone-1")).await;
    drain(&app, Duration::from_secs(5), || receiver.count() >= 1).await;
    assert_eq!(
        receiver.received()[0].json()["data"],
        json!({ "id": "gone-1" }),
        "a deletion sends the id alone"
    );

    let deleted = send(&app, "DELETE", &format!("/v1/me/webhooks/{id}"), &key, None).await;
    assert_eq!(deleted.status(), 200);
    settle(&app).await;
    assert_eq!(receiver.count(), 1, "the pending retries went with the endpoint");
}

async fn a_claim_left_by_a_killed_worker_is_retried(backend: Backend) {
    let app = super::app(backend).await;
    let (receiver, _, _) = subscribed(&app, &[], 200, "image.created").await;
    record_event(&app, "image.created", Some("1")).await;
    // A worker claims the delivery and dies before sending: its claim is all that is left.
    armory::webhooks::fanout::fan_out(&app.state.db, &app.state.catalog).await.unwrap();
    let claim_until = armory::clock::unix_millis_now() + 1_500;
    sqlx::query("UPDATE webhook_deliveries SET claimed_until = $1")
        .bind(claim_until)
        .execute(app.state.db.pool())
        .await
        .unwrap();
    app.state.webhooks.run_once().await.unwrap();
    assert_eq!(receiver.count(), 0, "a live claim is left alone");
    drain(&app, Duration::from_secs(6), || receiver.count() >= 1).await;
    assert_eq!(receiver.count(), 1, "the expired claim was taken over and sent once");
}

async fn two_nodes_deliver_each_event_once(backend: Backend) {
    let app = super::app(backend).await;
    if app.state.db.backend() != DbBackend::Postgres {
        return; // several nodes share a PostgreSQL database; SQLite is one node's store
    }
    let mut config = armory::config::Config::for_database(app.database.url.clone());
    delivering(&mut config);
    let second = App::with_db(config, Db::connect(&app.database.url).await.unwrap(), None).await.unwrap();
    let second_node = second.state().clone();

    let receiver = Receiver::start(&[500], 200).await;
    let (_, _, key) = app.key(Plan::Studio).await;
    create(&app, &key, &receiver.url("/one"), &["manufacturer.created"]).await;
    create(&app, &key, &receiver.url("/two"), &["manufacturer.created"]).await;
    for n in 0..20 {
        record_event(&app, "manufacturer.created", Some(&format!("maker-{n}"))).await;
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while receiver.count() < 41 && Instant::now() < deadline {
        let (a, b) = tokio::join!(app.state.webhooks.run_once(), second_node.webhooks.run_once());
        a.unwrap();
        b.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for _ in 0..5 {
        let (a, b) = tokio::join!(app.state.webhooks.run_once(), second_node.webhooks.run_once());
        a.unwrap();
        b.unwrap();
        tokio::time::sleep(RETRY / 2).await;
    }
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    for request in receiver.received() {
        *seen.entry((request.path.clone(), request.header("x-webhook-id"))).or_default() += 1;
    }
    assert_eq!(seen.len(), 40, "every event reached both endpoints");
    let twice: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
    // One delivery was scripted to fail once, so exactly one pair was attempted twice.
    assert_eq!(twice.len(), 1, "each attempt was made by one node only: {twice:?}");
    assert_eq!(receiver.count(), 41);
    second.shutdown().trigger();
}

async fn the_test_delivery_is_signed_and_reports_the_status(backend: Backend) {
    let app = super::app(backend).await;
    let receiver = Receiver::start(&[200], 418).await;
    let (_, _, key) = app.key(Plan::Studio).await;
    let (id, secret) = create(&app, &key, &receiver.url("/hook"), &["firearm.created"]).await;
    let path = format!("/v1/me/webhooks/{id}/test");
    let answer: Value = send(&app, "POST", &path, &key, None).await.json().await.unwrap();
    assert_eq!(answer["data"], json!({ "success": true, "status": 200, "error": null }));
    let request = &receiver.received()[0];
    request.assert_signed_with(&secret);
    assert_eq!(request.header("x-webhook-event"), "webhook.test");

    let answer: Value = send(&app, "POST", &path, &key, None).await.json().await.unwrap();
    assert_eq!(answer["data"]["success"], false);
    assert_eq!(answer["data"]["status"], 418);
    assert!(answer["data"]["error"].as_str().unwrap().contains("418"));
}

async fn a_name_resolving_to_loopback_is_refused_at_delivery(backend: Backend) {
    // `localhost` is refused at registration now; an endpoint stored before that rule existed is
    // refused again when it is delivered to (rule 6), before any connection is made. The guard on
    // the resolved addresses themselves is unit-tested in `webhooks::guard` (this sandbox has no
    // dotted name that resolves to loopback).
    let app = TestApp::spawn(backend).await;
    let (_, _, key) = app.key(Plan::Studio).await;
    let (id, _) = create(&app, &key, "https://hooks.example.com/hook", &["firearm.created"]).await;
    sqlx::query("UPDATE webhook_endpoints SET url = 'https://localhost/hook' WHERE id = $1")
        .bind(&id)
        .execute(app.state.db.pool())
        .await
        .unwrap();
    let path = format!("/v1/me/webhooks/{id}/test");
    let answer: Value = send(&app, "POST", &path, &key, None).await.json().await.unwrap();
    assert_eq!(answer["data"]["success"], false);
    assert_eq!(answer["data"]["status"], Value::Null, "no connection was made");
    let error = answer["data"]["error"].as_str().unwrap();
    assert!(error.contains("public host") && error.contains("localhost"), "{error}");
}

async fn shutdown_lets_an_attempt_in_flight_finish(backend: Backend) {
    // The app is built here, not by TestApp, so that its database outlives the app and can be
    // read after shutdown closed the app's pool.
    let database = TestDatabase::create(backend).await;
    let mut config = armory::config::Config::for_database(database.url.clone());
    delivering(&mut config);
    config.webhooks.run_worker = true;
    config.webhooks.poll_interval = Duration::from_millis(50);
    let db = Db::connect(&database.url).await.unwrap();
    db.migrate().await.unwrap();
    let app = App::with_db(config, db.clone(), None).await.unwrap();
    let shutdown = app.shutdown();
    let server = tokio::spawn(app.run());

    let receiver = Receiver::slow(&[], 200, Duration::from_millis(800)).await;
    let account = armory::accounts::create_account(&db, "slow@test.invalid", Plan::Studio).await.unwrap();
    let rules = armory::webhooks::WebhookSettings {
        allow_targets: armory::webhooks::allow::AllowList::parse("127.0.0.1").unwrap(),
        ..Default::default()
    };
    let url = armory::webhooks::url::WebhookUrl::parse(&receiver.url("/hook"), &rules.url_rules()).unwrap();
    let new = armory::webhooks::endpoints::NewEndpoint {
        url,
        events: vec!["category.created".into()],
        description: None,
    };
    armory::webhooks::endpoints::create(&db, &account, new, 5).await.unwrap().expect("under the allowance");
    sqlx::query(
        "INSERT INTO catalog_events (id, type, resource, resource_id, revision, created_at) \
         VALUES ($1, 'category.created', 'category', 'pistols', 0, $2)",
    )
    .bind(uuid::Uuid::now_v7().to_string())
    .bind(armory::clock::iso_millis_now())
    .execute(db.pool())
    .await
    .unwrap();

    let deadline = Instant::now() + Duration::from_secs(5);
    while receiver.count() == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(receiver.count(), 1, "the attempt is in flight");
    shutdown.trigger();
    server.await.unwrap().unwrap();

    let db = Db::connect(&database.url).await.unwrap();
    let (state, attempts): (String, i64) =
        sqlx::query_as("SELECT state, attempts FROM webhook_deliveries").fetch_one(db.pool()).await.unwrap();
    assert_eq!((state.as_str(), attempts), ("delivered", 1), "the attempt finished and was recorded");
    db.close().await;
}
