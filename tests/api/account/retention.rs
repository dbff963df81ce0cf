//! Retention: on a node that runs for years the worker prunes, in batches, delivered and abandoned
//! deliveries, fanned-out events and per-day usage older than their windows, and nothing else.

use armory::access::plan::Plan;
use armory::webhooks::retention::{Pruned, RetentionSettings, prune};

use crate::account::webhooks::create;
use crate::support::{Backend, TestApp};

crate::on_each_database!(old_delivery_event_and_usage_rows_are_pruned_and_nothing_else);

async fn old_delivery_event_and_usage_rows_are_pruned_and_nothing_else(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (account, _, key) = app.key(Plan::Studio).await;
    let (endpoint, _) = create(&app, &key, "https://hooks.example.com/in", &["firearm.updated"]).await;
    let db = app.state.db.pool();
    let old = "2020-01-01T00:00:00.000Z";
    let recent = armory::clock::iso_millis_now();
    let deliveries = [
        ("d-old-delivered", "delivered", old),
        ("d-old-abandoned", "abandoned", old),
        ("d-old-pending", "pending", old),
        ("d-new-delivered", "delivered", recent.as_str()),
    ];
    for (n, (id, state, at)) in deliveries.iter().enumerate() {
        sqlx::query(
            "INSERT INTO webhook_deliveries (id, event_id, event_type, endpoint_id, body, state, next_attempt_at, \
             created_at, updated_at) VALUES ($1, $2, 'firearm.updated', $3, '{}', $4, 0, $5, $5)",
        )
        .bind(*id)
        .bind(format!("evt-{n}"))
        .bind(&endpoint)
        .bind(*state)
        .bind(*at)
        .execute(db)
        .await
        .unwrap();
    }
    for (id, at) in [("e-old-1", old), ("e-old-2", old), ("e-new", recent.as_str())] {
        sqlx::query(
            "INSERT INTO catalog_events (id, type, resource, resource_id, revision, created_at) \
             VALUES ($1, 'firearm.updated', 'firearm', 'x', 1, $2)",
        )
        .bind(id)
        .bind(at)
        .execute(db)
        .await
        .unwrap();
    }
    // The first two events are fanned out; a third old one is not yet, and must stay.
    let (second,): (i64,) =
        sqlx::query_as("SELECT seq FROM catalog_events WHERE id = 'e-old-2'").fetch_one(db).await.unwrap();
    sqlx::query("UPDATE webhook_fanout SET last_seq = $1").bind(second).execute(db).await.unwrap();
    sqlx::query(
        "INSERT INTO catalog_events (id, type, resource, resource_id, revision, created_at) \
         VALUES ('e-old-unsent', 'firearm.updated', 'firearm', 'y', 2, $1)",
    )
    .bind(old)
    .execute(db)
    .await
    .unwrap();
    for day in ["2020-01-01", "2020-01-02", &armory::clock::day(armory::clock::now())] {
        sqlx::query("INSERT INTO usage_daily (subject, day, count) VALUES ($1, $2, 3)")
            .bind(&account)
            .bind(day)
            .execute(db)
            .await
            .unwrap();
    }

    // A batch of one shows the pass loops until nothing is left.
    let settings = RetentionSettings { batch: 1, ..RetentionSettings::default() };
    let pruned = prune(&app.state.db, &settings).await.unwrap();
    assert_eq!(pruned, Pruned { deliveries: 2, events: 2, usage_days: 2, idempotency_keys: 0 });
    let left = |sql: &'static str| async move {
        let rows: Vec<(String,)> = sqlx::query_as(sql).fetch_all(db).await.unwrap();
        let mut ids: Vec<String> = rows.into_iter().map(|(id,)| id).collect();
        ids.sort();
        ids
    };
    assert_eq!(left("SELECT id FROM webhook_deliveries").await, ["d-new-delivered", "d-old-pending"]);
    assert_eq!(left("SELECT id FROM catalog_events").await, ["e-new", "e-old-unsent"]);
    assert_eq!(left("SELECT day FROM usage_daily").await.len(), 1, "today's usage is kept");
    assert_eq!(
        prune(&app.state.db, &settings).await.unwrap(),
        Pruned::default(),
        "a second pass finds nothing"
    );
}
