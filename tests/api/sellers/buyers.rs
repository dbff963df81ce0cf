//! Buyers: a record's published offers of approved shops, cheapest first within a currency, with
//! the shop's name and the outbound link; the link counts every click exactly and redirects.

use armory::access::plan::Plan;
use serde_json::{Value, json};

use super::{by_sku, held, offer, put};
use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app;
    buyers_see_published_offers_cheapest_first,
    a_hundred_concurrent_clicks_count_a_hundred,
    attachment_offers_reach_buyers_once_the_catalog_has_attachments,
);

async fn buyers_see_published_offers_cheapest_first(app: TestApp) {
    let (_, alpha) = app.shop_key("Alpha Arms", true).await;
    let (_, bravo) = app.shop_key("Bravo Guns", true).await;
    let (hidden_shop, hidden) = app.shop_key("Hidden Shop", true).await;
    let mut draft = offer("a-draft", "glock-17", 100, "USD");
    draft["status"] = json!("draft");
    put(
        &app,
        &alpha,
        vec![offer("a-usd", "glock-17", 59_900, "USD"), offer("a-eur", "glock-17", 55_000, "EUR"), draft],
    )
    .await;
    put(
        &app,
        &bravo,
        vec![offer("b-usd", "glock-17", 49_900, "USD"), offer("b-tie", "glock-17", 59_900, "USD")],
    )
    .await;
    put(&app, &hidden, vec![offer("h-usd", "glock-17", 1, "USD")]).await;
    // Back under review: its offers leave the buyers' lists.
    sqlx::query("UPDATE shops SET approved = 0 WHERE id = $1")
        .bind(&hidden_shop)
        .execute(app.state.db.pool())
        .await
        .unwrap();

    let (_, _, buyer) = app.key(Plan::Builder).await;
    let listed = |query: &'static str| {
        let buyer = buyer.clone();
        let app = &app;
        async move {
            let response = app.get_with_key(&format!("/v1/firearms/glock-17/offers{query}"), &buyer).await;
            assert_eq!(response.status(), 200);
            response.json::<Value>().await.unwrap()["data"].as_array().unwrap().clone()
        }
    };
    let offers = listed("").await;
    let seen: Vec<(&str, i64, &str)> = offers
        .iter()
        .map(|o| {
            (
                o["currency"].as_str().unwrap(),
                o["priceMinor"].as_i64().unwrap(),
                o["shop"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("EUR", 55_000, "Alpha Arms"),
            ("USD", 49_900, "Bravo Guns"),
            ("USD", 59_900, "Alpha Arms"),
            ("USD", 59_900, "Bravo Guns")
        ]
    );
    let first = &offers[0];
    assert_eq!(first["url"], format!("/v1/out/{}", first["id"].as_str().unwrap()));
    assert!(
        first.get("sku").is_none() && first.get("clicks").is_none(),
        "the shop's own fields stay its own"
    );
    assert_eq!(listed("?currency=usd").await.len(), 3);

    // A shop's change shows at once.
    let id = by_sku(&held(&app, &bravo).await, "b-usd")["id"].as_str().unwrap().to_owned();
    app.client
        .patch(app.url(&format!("/v1/vendor/offers/{id}")))
        .header("x-api-key", &bravo)
        .json(&json!({ "priceMinor": 69_900 }))
        .send()
        .await
        .unwrap();
    let usd = listed("?currency=USD").await;
    assert_eq!(usd.last().unwrap()["id"], id.as_str());

    let (status, reason, _) =
        error_reason(app.get_with_key("/v1/firearms/no-such-gun/offers", &buyer).await).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
    let (status, _, _) =
        error_reason(app.get_with_key("/v1/attachments/aimpoint-pro/offers", &buyer).await).await;
    assert_eq!(status, 404, "no attachment exists yet");
    let (status, _, body) =
        error_reason(app.get_with_key("/v1/firearms/glock-17/offers?currency=XXX", &buyer).await).await;
    assert_eq!((status, body["error"]["details"]["currency"].is_string()), (400, true));
}

async fn a_hundred_concurrent_clicks_count_a_hundred(app: TestApp) {
    let (_, key) = app.shop_key("Range Supply", true).await;
    let mut draft = offer("draft", "glock-17", 1_000, "USD");
    draft["status"] = json!("draft");
    put(&app, &key, vec![offer("live", "glock-17", 1_000, "USD"), draft]).await;
    let offers = held(&app, &key).await;
    let live = by_sku(&offers, "live")["id"].as_str().unwrap().to_owned();

    let mut clicks = tokio::task::JoinSet::new();
    for _ in 0..100 {
        let (client, url) = (app.client.clone(), app.url(&format!("/v1/out/{live}")));
        clicks.spawn(async move { client.get(url).send().await.unwrap() });
    }
    while let Some(response) = clicks.join_next().await {
        let response = response.unwrap();
        assert_eq!(response.status(), 302);
        assert_eq!(response.headers()["location"], "https://shop.example.com/p/live");
        assert_eq!(response.headers()["cache-control"], "no-store", "every click reaches the service");
    }
    // A HEAD shows where the link goes without counting.
    let head = app.client.head(app.url(&format!("/v1/out/{live}"))).send().await.unwrap();
    assert_eq!(head.status(), 302);
    assert_eq!(by_sku(&held(&app, &key).await, "live")["clicks"], 100);

    let draft = by_sku(&offers, "draft")["id"].as_str().unwrap().to_owned();
    for id in [draft.as_str(), "off-0000000000000000"] {
        let (status, reason, _) = error_reason(app.get(&format!("/v1/out/{id}")).await).await;
        assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"), "{id}");
    }
    assert_eq!(by_sku(&held(&app, &key).await, "draft")["clicks"], 0);
}

/// The bundled catalog has no attachments yet; one imported beside it can be offered and listed.
async fn attachment_offers_reach_buyers_once_the_catalog_has_attachments(app: TestApp) {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut catalog = armory::catalog::load::load_dir(&data).unwrap();
    catalog.attachments.push(
        serde_json::from_value(json!({ "id": "aimpoint-pro", "name": "Aimpoint PRO", "vendor": "Aimpoint" }))
            .unwrap(),
    );
    catalog.attachments.push(
        serde_json::from_value(json!({ "id": "eotech-exps3", "name": "EOTech EXPS3", "vendor": "EOTech" }))
            .unwrap(),
    );
    armory::catalog::import::import(&app.state.db, catalog.clone(), false).await.unwrap();
    app.state.catalog.reload().await.unwrap();

    let (_, _, explorer) = app.key(Plan::Explorer).await;
    let ids = |body: Value| -> Vec<String> {
        body["data"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap().to_owned()).collect()
    };
    let list = |query: &'static str| {
        let app = &app;
        let explorer = explorer.clone();
        async move {
            let response = app.get_with_key(&format!("/v1/attachments{query}"), &explorer).await;
            assert_eq!(response.status(), 200);
            response.json::<Value>().await.unwrap()
        }
    };
    assert_eq!(ids(list("").await), ["aimpoint-pro", "eotech-exps3"]);
    assert_eq!(ids(list("?vendor=eotech").await), ["eotech-exps3"]);
    assert!(ids(list("?only_offered=true").await).is_empty(), "nothing is offered yet");

    let (_, key) = app.shop_key("Optics Depot", true).await;
    let mut sight = offer("pro", "glock-17", 45_000, "USD");
    sight["target"] = json!({ "type": "attachment", "id": "aimpoint-pro" });
    assert_eq!(put(&app, &key, vec![sight]).await.status(), 200);
    let (_, _, buyer) = app.key(Plan::Builder).await;
    let listed: Value =
        app.get_with_key("/v1/attachments/aimpoint-pro/offers", &buyer).await.json().await.unwrap();
    let offers = listed["data"].as_array().unwrap();
    assert_eq!(offers.len(), 1);
    assert_eq!(
        (offers[0]["shop"]["name"].as_str(), offers[0]["priceMinor"].as_i64()),
        (Some("Optics Depot"), Some(45_000))
    );
    let glock: Value = app.get_with_key("/v1/firearms/glock-17/offers", &buyer).await.json().await.unwrap();
    assert_eq!(glock["data"], json!([]), "an attachment's offer is not the firearm's");
    // Offered now: `only_offered` sees it with the next request, no snapshot rebuilt.
    assert_eq!(ids(list("?only_offered=true").await), ["aimpoint-pro"]);
    assert_eq!(ids(list("?only_offered=false").await).len(), 2);
    let first = &list("?vendor=AIMPOINT").await["data"][0];
    assert_eq!((first["name"].as_str(), first["vendor"].as_str()), (Some("Aimpoint PRO"), Some("Aimpoint")));
}
