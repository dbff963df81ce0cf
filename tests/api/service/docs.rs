//! The public documentation reads as a client sees them: the operation catalog (128).

use serde_json::json;

use crate::support::TestApp;

crate::on_each_database!(setup = crate::support::fresh_app; the_operation_catalog_lists_every_operation_without_a_key);

async fn the_operation_catalog_lists_every_operation_without_a_key(app: TestApp) {
    let response = app.get("/v1/docs/operations").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "public, max-age=60");
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let body: serde_json::Value = response.json().await.unwrap();
    let catalog = &body["data"];
    assert_eq!(catalog["count"], 135);
    let operations = catalog["operations"].as_array().unwrap();
    assert_eq!(operations.len(), 135);
    let numbers: Vec<u64> = operations.iter().map(|op| op["number"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=135).collect::<Vec<_>>(), "in operation-number order");
    let served = operations.iter().filter(|op| op["served"] == true).count();
    assert_eq!(catalog["servedCount"], served);

    let keyless = operations.iter().find(|op| op["operationId"] == "listOperations").unwrap();
    assert_eq!(
        keyless,
        &json!({
            "number": 128, "operationId": "listOperations", "method": "GET", "path": "/v1/docs/operations",
            "minPlan": null, "paging": {"style": "one"}, "limitBucket": null, "served": true
        })
    );
    let paged = operations.iter().find(|op| op["operationId"] == "listManufacturerFirearms").unwrap();
    assert_eq!(
        paged,
        &json!({
            "number": 43, "operationId": "listManufacturerFirearms", "method": "GET",
            "path": "/v1/manufacturers/{id}/firearms", "minPlan": "explorer",
            "paging": {"style": "page", "default": 20, "max": 100},
            "limitBucket": "api", "served": true
        })
    );
    let limited = operations.iter().find(|op| op["operationId"] == "listTopFirearms").unwrap();
    assert_eq!(limited["paging"], json!({"style": "limit", "default": 10, "max": 25}));
    assert_eq!(limited["minPlan"], "builder");
    let webhooks = operations.iter().find(|op| op["operationId"] == "createMyWebhook").unwrap();
    assert_eq!((&webhooks["method"], &webhooks["limitBucket"]), (&json!("POST"), &json!("webhooks")));

    let limits: serde_json::Value = app.get("/v1/docs/limits").await.json().await.unwrap();
    assert_eq!(catalog["limits"], limits["data"], "the plans as /v1/docs/limits serves them");

    let again =
        app.client.get(app.url("/v1/docs/operations")).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(again.status(), 304);
}
