//! /v1/vendor: a shop replaces its whole offer set (ids and clicks of surviving skus kept, every
//! bad row named and nothing written), changes and removes one offer, never reaches another shop's;
//! a shop under review reads but never writes; a key no shop names is refused.

use armory::access::plan::Plan;
use serde_json::{Value, json};

use super::{by_sku, held, offer, put};
use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app;
    a_replacement_keeps_the_ids_and_clicks_of_surviving_skus,
    a_refused_replacement_writes_nothing,
    one_offer_is_changed_and_removed,
    another_shops_offer_is_not_found,
    a_shop_under_review_reads_but_never_writes,
    a_key_no_shop_names_is_refused,
    a_key_of_several_shops_names_the_one_it_acts_for,
);

fn sku(n: usize) -> String {
    format!("sku-{n:03}")
}

async fn a_replacement_keeps_the_ids_and_clicks_of_surviving_skus(app: TestApp) {
    let (_, key) = app.shop_key("Range Supply", true).await;
    let rows: Vec<Value> = (0..500).map(|n| offer(&sku(n), "glock-17", 50_000 + n as i64, "USD")).collect();
    let response = put(&app, &key, rows).await;
    assert_eq!(response.status(), 200);
    let done: Value = response.json().await.unwrap();
    assert_eq!(
        done["data"],
        json!({ "total": 500, "created": 500, "updated": 0, "unchanged": 0, "deleted": 0 })
    );
    let before = held(&app, &key).await;
    assert_eq!(before.len(), 500);
    for n in 0..3 {
        let id = by_sku(&before, &sku(n))["id"].as_str().unwrap().to_owned();
        assert_eq!(app.get(&format!("/v1/out/{id}")).await.status(), 302);
    }

    // Keep three skus (two with a new price) and add one: the rest are gone.
    let rows = vec![
        offer(&sku(0), "glock-17", 50_000, "USD"),
        offer(&sku(1), "glock-17", 45_000, "USD"),
        offer(&sku(2), "glock-17", 44_000, "USD"),
        offer("sku-new", "ak-47", 80_000, "EUR"),
    ];
    let done: Value = put(&app, &key, rows).await.json().await.unwrap();
    assert_eq!(
        done["data"],
        json!({ "total": 4, "created": 1, "updated": 2, "unchanged": 1, "deleted": 497 })
    );
    let after = held(&app, &key).await;
    let skus: Vec<&str> = after.iter().map(|o| o["sku"].as_str().unwrap()).collect();
    assert_eq!(skus, ["sku-000", "sku-001", "sku-002", "sku-new"]);
    for n in 0..3 {
        let (old, new) = (by_sku(&before, &sku(n)), by_sku(&after, &sku(n)));
        assert_eq!(old["id"], new["id"], "a surviving sku keeps its id");
        assert_eq!(new["clicks"], 1, "and its clicks");
    }
    assert_eq!(by_sku(&after, &sku(1))["priceMinor"], 45_000);
    assert_eq!(by_sku(&after, &sku(2))["priceMinor"], 44_000);
    assert_eq!(by_sku(&before, &sku(0))["updatedAt"], by_sku(&after, &sku(0))["updatedAt"], "unchanged");
    assert_eq!(by_sku(&after, "sku-new")["clicks"], 0);
    assert_eq!(by_sku(&after, "sku-new")["target"], json!({ "type": "firearm", "id": "ak-47" }));
}

async fn a_refused_replacement_writes_nothing(app: TestApp) {
    let (_, key) = app.shop_key("Range Supply", true).await;
    let first: Vec<Value> = (0..3).map(|n| offer(&sku(n), "glock-17", 1_000, "USD")).collect();
    assert_eq!(put(&app, &key, first).await.status(), 200);
    let kept = held(&app, &key).await;

    let too_many: Vec<Value> = (0..501).map(|n| offer(&sku(n), "glock-17", 1_000, "USD")).collect();
    let (status, reason, body) = error_reason(put(&app, &key, too_many).await).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
    assert_eq!(body["error"]["details"].as_object().unwrap().keys().collect::<Vec<_>>(), ["offers"]);

    let mut rows: Vec<Value> = (0..50).map(|n| offer(&sku(n), "glock-17", 1_000, "USD")).collect();
    rows[42]["url"] = json!("http://shop.example.com/p/42");
    let (status, _, body) = error_reason(put(&app, &key, rows.clone()).await).await;
    assert_eq!(status, 400);
    let details = body["error"]["details"].as_object().unwrap();
    assert_eq!(details.keys().collect::<Vec<_>>(), ["offers[42].url"], "{body}");
    assert!(details["offers[42].url"].as_str().unwrap().contains("https"));

    // Every bad row is named, each by its index.
    rows[42]["url"] = json!("https://203.0.113.7/p/42");
    rows[3]["priceMinor"] = json!(-5);
    rows[7]["currency"] = json!("usd");
    rows[9]["sku"] = rows[8]["sku"].clone();
    rows[11]["target"] = json!({ "type": "scope", "id": "glock-17" });
    rows[12]["url"] = json!("https://user:secret@shop.example.com/");
    let (status, _, body) = error_reason(put(&app, &key, rows).await).await;
    assert_eq!(status, 400);
    let named: Vec<&String> = body["error"]["details"].as_object().unwrap().keys().collect();
    assert_eq!(
        named,
        [
            "offers[3].priceMinor",
            "offers[7].currency",
            "offers[9].sku",
            "offers[11].target.type",
            "offers[12].url",
            "offers[42].url"
        ]
    );

    // A record the catalog does not have: 404 naming the row; attachments do not exist yet.
    let mut unknown = offer("x", "no-such-gun", 1_000, "USD");
    let mut attachment = offer("y", "glock-17", 1_000, "USD");
    attachment["target"] = json!({ "type": "attachment", "id": "aimpoint-pro" });
    unknown["stock"] = json!("preorder");
    let (status, reason, body) = error_reason(put(&app, &key, vec![unknown, attachment]).await).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
    let named: Vec<&String> = body["error"]["details"].as_object().unwrap().keys().collect();
    assert_eq!(named, ["offers[0].target.id", "offers[1].target.id"]);

    let missing = app
        .client
        .put(app.url("/v1/vendor/offers"))
        .header("x-api-key", &key)
        .json(&json!({ "offer": [] }))
        .send()
        .await
        .unwrap();
    let (status, _, body) = error_reason(missing).await;
    assert_eq!((status, body["error"]["details"]["offers"].as_str()), (400, Some("is required")));

    assert_eq!(held(&app, &key).await, kept, "nothing was written");
}

async fn one_offer_is_changed_and_removed(app: TestApp) {
    let (_, key) = app.shop_key("Range Supply", true).await;
    let rows = vec![offer("a", "glock-17", 1_000, "USD"), offer("b", "glock-17", 2_000, "USD")];
    put(&app, &key, rows).await;
    let offers = held(&app, &key).await;
    let id = by_sku(&offers, "a")["id"].as_str().unwrap().to_owned();
    let path = format!("/v1/vendor/offers/{id}");
    let patch = |body: Value| {
        let request = app.client.patch(app.url(&path)).header("x-api-key", &key).json(&body);
        async move { request.send().await.unwrap() }
    };

    let changed = patch(json!({ "priceMinor": 900, "stock": "out_of_stock", "status": "draft" })).await;
    assert_eq!(changed.status(), 200);
    let changed: Value = changed.json().await.unwrap();
    let data = &changed["data"];
    assert_eq!((data["id"].as_str(), data["sku"].as_str()), (Some(id.as_str()), Some("a")));
    assert_eq!((data["priceMinor"].as_i64(), data["stock"].as_str()), (Some(900), Some("out_of_stock")));
    assert_eq!((data["status"].as_str(), data["currency"].as_str()), (Some("draft"), Some("USD")));
    assert_eq!(by_sku(&held(&app, &key).await, "a")["priceMinor"], 900);

    let (status, _, body) = error_reason(
        patch(json!({ "priceMinor": 1.5, "url": "http://shop.example.com/a", "stock": "sold" })).await,
    )
    .await;
    assert_eq!(status, 400);
    let named: Vec<&String> = body["error"]["details"].as_object().unwrap().keys().collect();
    assert_eq!(named, ["priceMinor", "url", "stock"]);
    let moved = patch(json!({ "url": "https://other.example.com/a" })).await.json::<Value>().await.unwrap();
    assert_eq!(moved["data"]["url"], "https://other.example.com/a");

    let delete = || {
        let request = app.client.delete(app.url(&path)).header("x-api-key", &key);
        async move { request.send().await.unwrap() }
    };
    let deleted: Value = delete().await.json().await.unwrap();
    assert_eq!(deleted["data"], json!({ "deleted": true, "id": id }));
    let left = held(&app, &key).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["sku"], "b");
    let (status, reason, _) = error_reason(delete().await).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
    let (status, _, _) = error_reason(patch(json!({ "priceMinor": 1 })).await).await;
    assert_eq!(status, 404);
}

async fn another_shops_offer_is_not_found(app: TestApp) {
    let (_, mine) = app.shop_key("Mine", true).await;
    let (_, theirs) = app.shop_key("Theirs", true).await;
    put(&app, &theirs, vec![offer("t", "glock-17", 1_000, "USD")]).await;
    let id = held(&app, &theirs).await[0]["id"].as_str().unwrap().to_owned();
    let path = app.url(&format!("/v1/vendor/offers/{id}"));

    let patched = app.client.patch(&path).header("x-api-key", &mine).json(&json!({ "priceMinor": 1 })).send();
    let (status, reason, _) = error_reason(patched.await.unwrap()).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
    let (status, _, _) =
        error_reason(app.client.delete(&path).header("x-api-key", &mine).send().await.unwrap()).await;
    assert_eq!(status, 404);
    assert!(held(&app, &mine).await.is_empty(), "a shop lists only its own offers");
    assert_eq!(held(&app, &theirs).await[0]["priceMinor"], 1_000, "untouched");
}

async fn a_shop_under_review_reads_but_never_writes(app: TestApp) {
    let (shop, key) = app.shop_key("New Shop", false).await;
    let shops: Value = app.get_with_key("/v1/vendor/shops", &key).await.json().await.unwrap();
    assert_eq!(shops["data"][0]["id"], shop.as_str());
    assert_eq!(shops["data"][0]["status"], "under_review");
    assert_eq!(app.get_with_key("/v1/vendor/offers", &key).await.status(), 200);

    let (status, reason, _) =
        error_reason(put(&app, &key, vec![offer("a", "glock-17", 1, "USD")]).await).await;
    assert_eq!((status, reason.as_str()), (403, "SHOP_UNDER_REVIEW"));

    armory::accounts::approve_shop(&app.state.db, &shop).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    assert_eq!(put(&app, &key, vec![offer("a", "glock-17", 1, "USD")]).await.status(), 200);
    let shops: Value = app.get_with_key("/v1/vendor/shops", &key).await.json().await.unwrap();
    assert_eq!(shops["data"][0]["status"], "approved");
    assert_eq!(shops["data"][0]["offers"], json!({ "total": 1, "published": 1 }));

    // Back under review (an operator's decision): its offer may be read, not changed.
    sqlx::query("UPDATE shops SET approved = 0 WHERE id = $1")
        .bind(&shop)
        .execute(app.state.db.pool())
        .await
        .unwrap();
    app.state.access.keys.reload().await.unwrap();
    let id = held(&app, &key).await[0]["id"].as_str().unwrap().to_owned();
    let path = app.url(&format!("/v1/vendor/offers/{id}"));
    let patched = app.client.patch(&path).header("x-api-key", &key).json(&json!({ "priceMinor": 2 })).send();
    let (status, reason, _) = error_reason(patched.await.unwrap()).await;
    assert_eq!((status, reason.as_str()), (403, "SHOP_UNDER_REVIEW"));
    let (_, reason, _) =
        error_reason(app.client.delete(&path).header("x-api-key", &key).send().await.unwrap()).await;
    assert_eq!(reason, "SHOP_UNDER_REVIEW");
}

async fn a_key_no_shop_names_is_refused(app: TestApp) {
    let (_, _, key) = app.key(Plan::Enterprise).await;
    for response in [
        app.get_with_key("/v1/vendor/shops", &key).await,
        app.get_with_key("/v1/vendor/offers", &key).await,
        put(&app, &key, vec![]).await,
    ] {
        let (status, reason, _) = error_reason(response).await;
        assert_eq!((status, reason.as_str()), (403, "KEY_NOT_LINKED_TO_SHOP"));
    }
}

async fn a_key_of_several_shops_names_the_one_it_acts_for(app: TestApp) {
    let (account, key_id, key) = app.key(Plan::Enterprise).await;
    let first = app.link_shop(&account, &key_id, "Alpha", true).await;
    let second = app.link_shop(&account, &key_id, "Bravo", false).await;
    let (status, _, body) = error_reason(app.get_with_key("/v1/vendor/offers", &key).await).await;
    assert_eq!(status, 400);
    assert!(body["error"]["details"]["shop"].as_str().unwrap().contains(&first));

    let put_to = |shop: &str| {
        app.client
            .put(app.url(&format!("/v1/vendor/offers?shop={shop}")))
            .header("x-api-key", &key)
            .json(&json!({ "offers": [offer("a", "glock-17", 1, "USD")] }))
            .send()
    };
    assert_eq!(put_to(&first).await.unwrap().status(), 200);
    let (_, reason, _) = error_reason(put_to(&second).await.unwrap()).await;
    assert_eq!(reason, "SHOP_UNDER_REVIEW", "the shop it acts for decides");
    let (status, _, _) = error_reason(put_to("shop_0000000000000000").await.unwrap()).await;
    assert_eq!(status, 404);
    let listed: Value =
        app.get_with_key(&format!("/v1/vendor/offers?shop={first}"), &key).await.json().await.unwrap();
    assert_eq!(listed["data"].as_array().unwrap().len(), 1);
    let shops: Value = app.get_with_key("/v1/vendor/shops", &key).await.json().await.unwrap();
    let names: Vec<&str> =
        shops["data"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Alpha", "Bravo"]);
}
