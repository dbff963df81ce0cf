//! Idempotency-Key on the account area's POSTs: a retry with the same key and body replays the
//! first answer without a second write, a different body is 409 CONFLICT, ten concurrent identical
//! POSTs store one record, a refused request does not keep its key, and keys are per account.

use armory::access::plan::Plan;
use serde_json::{Value, json};

use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app;
    a_retry_replays_the_first_answer,
    concurrent_duplicates_write_once,
    webhook_registration_is_idempotent_too);

async fn post(
    app: &TestApp,
    path: &str,
    key: &str,
    idempotency_key: &str,
    body: &Value,
) -> reqwest::Response {
    let request = app.client.post(app.url(path)).header("x-api-key", key);
    request.header("idempotency-key", idempotency_key).json(body).send().await.unwrap()
}

async fn count(app: &TestApp, path: &str, key: &str) -> usize {
    let list: Value = app.get_with_key(path, key).await.json().await.unwrap();
    list["data"].as_array().unwrap().len()
}

async fn a_retry_replays_the_first_answer(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    let ticket = json!({ "subject": "Invoice", "description": "Please resend it." });
    let first = post(&app, "/v1/me/support", &key, "order-1", &ticket).await;
    assert_eq!(first.status(), 201);
    assert!(first.headers().get("idempotent-replayed").is_none());
    let first: Value = first.json().await.unwrap();

    let again = post(&app, "/v1/me/support", &key, "order-1", &ticket).await;
    assert_eq!(again.status(), 201);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    assert!(again.headers().get("x-request-id").is_some());
    let again: Value = again.json().await.unwrap();
    assert_eq!(again, first, "the same status and body");
    assert_eq!(count(&app, "/v1/me/support", &key).await, 1, "no second write");

    let changed = json!({ "subject": "Invoice", "description": "Another text." });
    let (status, reason, _) =
        error_reason(post(&app, "/v1/me/support", &key, "order-1", &changed).await).await;
    assert_eq!((status, reason.as_str()), (409, "CONFLICT"));
    let (status, _, _) = error_reason(post(&app, "/v1/me/reports", &key, "order-1", &ticket).await).await;
    assert_eq!(status, 409, "the key is bound to its first operation too");

    // Keys are per account: another account's "order-1" is its own.
    let (_, _, other) = app.key(Plan::Explorer).await;
    let theirs = post(&app, "/v1/me/support", &other, "order-1", &ticket).await;
    assert_eq!(theirs.status(), 201);
    assert!(theirs.headers().get("idempotent-replayed").is_none());

    // A refused request does not keep its key: corrected, the retry runs.
    let bad = json!({ "firearm_id": "glock-17", "section": "weights", "issue_type": "incorrect", "description": "short" });
    assert_eq!(post(&app, "/v1/me/reports", &key, "report-1", &bad).await.status(), 400);
    let good = json!({ "firearm_id": "glock-17", "section": "weights", "issue_type": "incorrect",
                       "description": "The weight is off by 100 g." });
    let filed = post(&app, "/v1/me/reports", &key, "report-1", &good).await;
    assert_eq!(filed.status(), 201);
    assert!(filed.headers().get("idempotent-replayed").is_none());

    // A key that is not visible ASCII is named.
    let request = app.client.post(app.url("/v1/me/support")).header("x-api-key", &key);
    let response = request.header("idempotency-key", "two words").json(&ticket).send().await.unwrap();
    let (status, _, body) = error_reason(response).await;
    assert_eq!(status, 400);
    assert!(body["error"]["details"]["Idempotency-Key"].is_string());
}

async fn concurrent_duplicates_write_once(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    let ticket = json!({ "subject": "Twice?", "description": "Sent from a flaky network." });
    let sends = (0..10).map(|_| post(&app, "/v1/me/support", &key, "flaky-1", &ticket));
    let answers = futures_util::future::join_all(sends).await;
    let mut ids = Vec::new();
    let mut replayed = 0;
    for answer in answers {
        assert_eq!(answer.status(), 201);
        replayed += usize::from(answer.headers().get("idempotent-replayed").is_some());
        let body: Value = answer.json().await.unwrap();
        ids.push(body["data"]["id"].as_str().unwrap().to_owned());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1, "every answer names the one ticket");
    assert_eq!(replayed, 9);
    assert_eq!(count(&app, "/v1/me/support", &key).await, 1, "one stored record");

    // The same for a favorite, which has no body.
    let favorite = (0..10).map(|_| post(&app, "/v1/me/favorites/ak-47", &key, "fav-1", &Value::Null));
    for answer in futures_util::future::join_all(favorite).await {
        assert_eq!(answer.status(), 200);
    }
    assert_eq!(count(&app, "/v1/me/favorites", &key).await, 1);
}

async fn webhook_registration_is_idempotent_too(app: TestApp) {
    let (_, _, key) = app.key(Plan::Studio).await;
    let endpoint = json!({ "url": "https://hooks.example.com/armory", "events": ["firearm.updated"] });
    let first: Value = post(&app, "/v1/me/webhooks", &key, "hook-1", &endpoint).await.json().await.unwrap();
    let again = post(&app, "/v1/me/webhooks", &key, "hook-1", &endpoint).await;
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    let again: Value = again.json().await.unwrap();
    assert_eq!(again["data"]["id"], first["data"]["id"]);
    assert_eq!(count(&app, "/v1/me/webhooks", &key).await, 1);
}
