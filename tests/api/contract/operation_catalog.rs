//! The operation catalog (GET /v1/docs/operations, 128), the router and the OpenAPI description
//! agree for all 135 operations, and GET /v1/docs/limits (129) is the plan table (issue 48, item 4).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::support::{Backend, TestApp, sample_path};

const METRICS_TOKEN: &str = "agreement-scrape";

/// What the description publishes of one operation, by `METHOD /path`.
fn documented(description: &Value) -> BTreeMap<String, Value> {
    let mut operations = BTreeMap::new();
    for (path, item) in description["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            operations.insert(format!("{} {path}", method.to_uppercase()), operation.clone());
        }
    }
    operations
}

/// The bounds the description publishes for a query parameter.
fn bounds(operation: &Value, name: &str) -> Option<(Value, Value)> {
    let parameter =
        operation["parameters"].as_array()?.iter().find(|p| p["name"] == name && p["in"] == "query")?;
    Some((parameter["schema"]["default"].clone(), parameter["schema"]["maximum"].clone()))
}

#[tokio::test]
async fn the_operation_catalog_the_router_and_the_description_agree() {
    let app = TestApp::spawn_with(Backend::Sqlite, None, |config| {
        config.metrics_token = Some(METRICS_TOKEN.to_owned());
    })
    .await;
    let body: Value = app.get("/v1/docs/operations").await.json().await.unwrap();
    let catalog = &body["data"];
    let rows = catalog["operations"].as_array().unwrap();
    assert_eq!(rows.len(), 135);
    assert_eq!(catalog["count"], 135);
    let description: Value = app.get("/openapi.json").await.json().await.unwrap();
    let mut documented = documented(&description);
    let bound = serde_json::to_value(armory::http::routes::openapi_document()).unwrap();
    assert_eq!(description["paths"], bound["paths"], "/openapi.json is `openapi_document()`");

    for (row, table) in rows.iter().zip(&armory::access::operations::OPERATIONS) {
        // 128 is the table the gate reads.
        let id = row["operationId"].as_str().unwrap();
        assert_eq!(
            (&row["number"], id, &row["method"], &row["path"]),
            (&json!(table.number), table.name, &json!(table.method), &json!(table.path))
        );
        assert_eq!(row["minPlan"], json!(table.min_plan.map(|plan| plan.id())), "{id}");
        assert_eq!(row["paging"], serde_json::to_value(table.style).unwrap(), "{id}");

        // Each row called once (a keyed one without a key: 401); the router's verdict is read
        // from /metrics below, by operation name, since a path the router does not route can
        // match another row's template (/v1/firearms/media is then /v1/firearms/{id}).
        let method = row["method"].as_str().unwrap();
        let url = app.url(&sample_path(table.path));
        app.client.request(method.parse().unwrap(), url).send().await.unwrap();

        // The description: every served operation, with the row's operationId, plan and paging.
        let key = format!("{method} {}", table.path);
        let Some(operation) = documented.remove(&key) else {
            assert_eq!(row["served"], false, "{key} ({id}) is served but not in the description");
            continue;
        };
        assert_eq!(row["served"], true, "{key} ({id}) is documented but not served");
        assert_eq!(operation["operationId"], id, "{key}");
        assert_eq!(operation["x-operation"]["number"], row["number"], "{id}");
        assert_eq!(operation["x-operation"]["minPlan"], row["minPlan"], "{id}");
        let keyless = operation["security"].as_array().is_some_and(|s| s.is_empty());
        assert_eq!(keyless, row["minPlan"].is_null(), "{id}: security");
        let published = match row["paging"]["style"].as_str().unwrap() {
            "page" => bounds(&operation, "per_page"),
            "limit" => bounds(&operation, "limit"),
            _ => None,
        };
        let expected = row["paging"].get("max").map(|max| (row["paging"]["default"].clone(), max.clone()));
        assert_eq!(published, expected, "{id}: paging bounds");
    }
    assert!(documented.is_empty(), "documented but not in the operation catalog: {:?}", documented.keys());

    // The router: exactly the served rows were answered as themselves (each was called above; a
    // row the router does not route is never counted under its name).
    let metrics = app.client.get(app.url("/metrics")).bearer_auth(METRICS_TOKEN).send().await.unwrap();
    let metrics = metrics.text().await.unwrap();
    for row in rows {
        let label = format!("operation=\"{}\"", row["operationId"].as_str().unwrap());
        let answered = metrics
            .lines()
            .any(|line| line.starts_with("armory_http_requests_total{") && line.contains(&label));
        assert_eq!(row["served"], answered, "{label}: served says what the router does");
    }
    let served = rows.iter().filter(|row| row["served"] == true).count();
    assert_eq!(catalog["servedCount"], served);

    // 129 and 128's limits are the plan table in force.
    let plans = serde_json::to_value(app.state.access.plans.rows()).unwrap();
    let limits: Value = app.get("/v1/docs/limits").await.json().await.unwrap();
    assert_eq!(limits["data"], plans);
    assert_eq!(catalog["limits"], plans);
    let names: Vec<&str> = plans.as_array().unwrap().iter().map(|p| p["plan"].as_str().unwrap()).collect();
    assert_eq!(names, ["explorer", "builder", "studio", "enterprise"]);
}
