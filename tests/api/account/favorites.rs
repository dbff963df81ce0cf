//! Favorites as a client sees them: added idempotently, listed newest first in the caller's plan
//! view, ids alone, removed (404 when it was not one), unknown firearms 404, and the 1,000 limit.

use armory::access::plan::Plan;
use serde_json::Value;

use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app; favorites_round_trip, the_thousand_and_first_favorite_is_refused);

async fn send(app: &TestApp, method: reqwest::Method, path: &str, key: &str) -> reqwest::Response {
    app.client.request(method, app.url(path)).header("x-api-key", key).send().await.unwrap()
}

async fn favorites_round_trip(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    for id in ["glock-17", "ak-47", "glock-17"] {
        let added = send(&app, reqwest::Method::POST, &format!("/v1/me/favorites/{id}"), &key).await;
        assert_eq!(added.status(), 200, "adding {id} succeeds, twice too");
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }
    let again: Value =
        send(&app, reqwest::Method::POST, "/v1/me/favorites/ak-47", &key).await.json().await.unwrap();
    assert_eq!(
        (again["data"]["favorite"].as_bool(), again["data"]["added"].as_bool()),
        (Some(true), Some(false))
    );

    let ids: Value =
        send(&app, reqwest::Method::GET, "/v1/me/favorites/ids", &key).await.json().await.unwrap();
    assert_eq!(ids["data"]["ids"], serde_json::json!(["ak-47", "glock-17"]), "one each, newest first");
    let list: Value = send(&app, reqwest::Method::GET, "/v1/me/favorites", &key).await.json().await.unwrap();
    let items = list["data"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["id"], "ak-47");
    assert!(
        items[0].get("manufacturerId").is_some() && items[0].get("muzzleVelocityMps").is_none(),
        "Explorer's list item"
    );
    assert!(list["pagination"]["total"].is_null(), "Explorer sees no totals");

    let unknown = send(&app, reqwest::Method::POST, "/v1/me/favorites/no-such-gun", &key).await;
    let (status, reason, _) = error_reason(unknown).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
    let malformed = send(&app, reqwest::Method::POST, "/v1/me/favorites/Glock_17", &key).await;
    assert_eq!(error_reason(malformed).await.0, 400);

    assert_eq!(send(&app, reqwest::Method::DELETE, "/v1/me/favorites/glock-17", &key).await.status(), 200);
    let gone = send(&app, reqwest::Method::DELETE, "/v1/me/favorites/glock-17", &key).await;
    let (status, reason, _) = error_reason(gone).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
    let ids: Value =
        send(&app, reqwest::Method::GET, "/v1/me/favorites/ids", &key).await.json().await.unwrap();
    assert_eq!(ids["data"]["ids"], serde_json::json!(["ak-47"]));

    // Another account's favorites are its own.
    let (_, _, other) = app.key(Plan::Builder).await;
    let theirs: Value =
        send(&app, reqwest::Method::GET, "/v1/me/favorites/ids", &other).await.json().await.unwrap();
    assert_eq!(theirs["data"]["ids"], serde_json::json!([]));
}

async fn the_thousand_and_first_favorite_is_refused(app: TestApp) {
    let (account, _, key) = app.key(Plan::Builder).await;
    // 1,000 stored favorites (ids need not be catalog firearms to count against the limit).
    for n in 0..1_000 {
        sqlx::query("INSERT INTO favorites (account_id, firearm_id, added_at) VALUES ($1, $2, $3)")
            .bind(&account)
            .bind(format!("stored-{n}"))
            .bind(n as i64)
            .execute(app.state.db.pool())
            .await
            .unwrap();
    }
    let refused = send(&app, reqwest::Method::POST, "/v1/me/favorites/glock-17", &key).await;
    let (status, reason, _) = error_reason(refused).await;
    assert_eq!((status, reason.as_str()), (403, "LIMIT_REACHED"));
}
