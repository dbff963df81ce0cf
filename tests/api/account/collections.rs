//! Shared collections as a client sees them: published under an unguessable share id (explicit ids
//! or the caller's favorites), read without a key with the owner's display name and never the
//! e-mail, every bad field named, unknown ids 404, and deleted through the operator's command.

use armory::access::plan::Plan;
use serde_json::{Value, json};

use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app; a_collection_is_published_read_without_a_key_and_deleted);

async fn publish(app: &TestApp, key: &str, body: Value) -> reqwest::Response {
    app.client.post(app.url("/v1/me/collections")).header("x-api-key", key).json(&body).send().await.unwrap()
}

async fn a_collection_is_published_read_without_a_key_and_deleted(app: TestApp) {
    let (account, _, key) = app.key(Plan::Explorer).await;

    // Nothing to share by default yet: the body is valid, the account's state refuses it (409, with
    // what to do), and nothing is stored.
    for name in ["Mine", "0"] {
        let (status, reason, body) = error_reason(publish(&app, &key, json!({ "name": name })).await).await;
        assert_eq!((status, reason.as_str()), (409, "FAVORITES_REQUIRED"));
        assert_eq!(body["error"]["code"], "CONFLICT");
        assert!(body["error"]["message"].as_str().unwrap().contains("/v1/me/favorites"));
    }
    let held: Vec<(String,)> = sqlx::query_as("SELECT share_id FROM collections WHERE account_id = $1")
        .bind(&account)
        .fetch_all(app.state.db.pool())
        .await
        .unwrap();
    assert!(held.is_empty(), "a refused collection is not stored");
    // Every bad field named at once.
    let (status, _, body) =
        error_reason(publish(&app, &key, json!({ "name": " ", "firearmIds": "glock-17" })).await).await;
    assert_eq!(status, 400);
    assert!(
        body["error"]["details"]["name"].is_string() && body["error"]["details"]["firearmIds"].is_string()
    );
    let unknown =
        publish(&app, &key, json!({ "name": "Mine", "firearmIds": ["glock-17", "no-such-gun"] })).await;
    let (status, reason, body) = error_reason(unknown).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
    assert_eq!(body["error"]["details"]["missing"], json!(["no-such-gun"]));

    let created = publish(
        &app,
        &key,
        json!({ "name": "Cold War rifles", "firearmIds": ["ak-47", "glock-17", "ak-47"] }),
    )
    .await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.unwrap();
    let share_id = created["data"]["shareId"].as_str().unwrap().to_owned();
    assert_eq!(share_id.len(), 32, "128 random bits in hex");
    assert!(share_id.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(created["data"]["firearmCount"], 2);
    assert_eq!(created["data"]["url"], format!("/v1/collections/{share_id}"));

    // Read without a key; the owner has no display name yet and the e-mail never shows.
    let path = format!("/v1/collections/{share_id}");
    let shared: Value = app.get(&path).await.json().await.unwrap();
    assert_eq!(shared["data"]["name"], "Cold War rifles");
    assert!(shared["data"]["owner"]["displayName"].is_null());
    let ids: Vec<&str> =
        shared["data"]["firearms"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["ak-47", "glock-17"]);
    assert!(shared["data"]["firearms"][0].get("muzzleVelocityMps").is_none(), "the summary view");
    assert!(!shared.to_string().contains("@test.invalid"), "never the e-mail");

    let armory = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_armory"))
            .args(args)
            .args(["--database-url", &app.database.url])
            .env_remove("ARMORY_DATABASE_URL")
            .output()
            .unwrap()
    };
    assert!(armory(&["accounts", "set-display-name", &account, "Range Officer"]).status.success());
    let shared: Value = app.get(&path).await.json().await.unwrap();
    assert_eq!(shared["data"]["owner"]["displayName"], "Range Officer");

    // By default the caller's favorites are shared.
    app.client.post(app.url("/v1/me/favorites/glock-17")).header("x-api-key", &key).send().await.unwrap();
    let favorites: Value = publish(&app, &key, json!({ "name": "Favorites" })).await.json().await.unwrap();
    assert_eq!(favorites["data"]["firearmCount"], 1);

    assert!(armory(&["accounts", "delete-collection", &share_id]).status.success());
    let (status, reason, _) = error_reason(app.get(&path).await).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
    assert_eq!(armory(&["accounts", "delete-collection", &share_id]).status.code(), Some(1));
}
