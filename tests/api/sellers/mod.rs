//! Sellers as clients see them: a shop's offers under /v1/vendor (`vendor`), the buyers' lists
//! and the outbound link (`buyers`). `offer` and `put` are the shared vocabulary of both.

mod buyers;
mod vendor;

use serde_json::{Value, json};

use crate::support::TestApp;

/// One valid offer row for a firearm.
pub fn offer(sku: &str, firearm: &str, price_minor: i64, currency: &str) -> Value {
    json!({
        "sku": sku,
        "target": { "type": "firearm", "id": firearm },
        "priceMinor": price_minor,
        "currency": currency,
        "url": format!("https://shop.example.com/p/{sku}"),
        "stock": "in_stock",
        "condition": "new",
        "status": "published",
    })
}

/// PUT /v1/vendor/offers with these rows.
pub async fn put(app: &TestApp, key: &str, rows: Vec<Value>) -> reqwest::Response {
    app.client
        .put(app.url("/v1/vendor/offers"))
        .header("x-api-key", key)
        .json(&json!({ "offers": rows }))
        .send()
        .await
        .unwrap()
}

/// The shop's offers by sku (every page).
pub async fn held(app: &TestApp, key: &str) -> Vec<Value> {
    let mut all = Vec::new();
    for page in 1.. {
        let path = format!("/v1/vendor/offers?per_page=100&page={page}");
        let body: Value = app.get_with_key(&path, key).await.json().await.unwrap();
        let rows = body["data"].as_array().unwrap_or_else(|| panic!("{body}")).clone();
        if rows.is_empty() {
            break;
        }
        all.extend(rows);
    }
    all
}

/// The offer with this sku among `offers`.
pub fn by_sku<'a>(offers: &'a [Value], sku: &str) -> &'a Value {
    offers.iter().find(|o| o["sku"] == sku).unwrap_or_else(|| panic!("no offer with sku {sku}"))
}
