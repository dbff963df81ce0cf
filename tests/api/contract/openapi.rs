use std::collections::BTreeSet;

use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::fresh_app; the_description_is_openapi_3_1_with_the_contract_components);

async fn the_description_is_openapi_3_1_with_the_contract_components(app: TestApp) {
    let response = app.get("/openapi.json").await;
    assert_eq!(response.status(), 200);
    let doc: serde_json::Value = response.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["version"], "1.0.0");
    let servers = doc["servers"].as_array().unwrap();
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0]["url"], "/", "relative without ARMORY_PUBLIC_URL");

    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["ApiKeyHeader"]["in"], "header");
    assert_eq!(schemes["ApiKeyHeader"]["name"], "X-API-Key");
    assert_eq!(schemes["BearerKey"]["scheme"], "bearer");

    let schemas = &doc["components"]["schemas"];
    for name in ["ErrorEnvelope", "ErrorBody", "Pagination", "ErrorReason"] {
        assert!(schemas.get(name).is_some(), "component {name} is published");
    }
    let reasons = schemas["ErrorReason"]["enum"].as_array().unwrap();
    // The 39 of the contract and FAVORITES_REQUIRED, added since.
    assert_eq!(reasons.len(), 40);
    assert_eq!(schemas["ErrorReason"]["x-reasons"].as_array().unwrap().len(), 40);
    assert!(reasons.contains(&serde_json::json!("ROUTE_NOT_FOUND")));
}

/// Every operation the description lists is routed, and the routed operations are exactly the
/// expected set (a new route must appear in the description to pass).
#[tokio::test]
async fn the_router_and_the_description_list_the_same_operations() {
    let app = TestApp::spawn(crate::support::Backend::Sqlite).await;
    let doc: serde_json::Value = app.get("/openapi.json").await.json().await.unwrap();
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            documented.insert(format!("{} {path}", method.to_uppercase()));
        }
    }
    for operation in &documented {
        let (method, path) = operation.split_once(' ').unwrap();
        let concrete = path.replace(['{', '}'], "");
        let response = app.client.request(method.parse().unwrap(), app.url(&concrete)).send().await.unwrap();
        if response.status() == 404 {
            let (_, reason, _) = error_reason(response).await;
            assert_ne!(reason, "ROUTE_NOT_FOUND", "{operation} is documented but not routed");
        }
    }
    let snapshot: BTreeSet<String> = include_str!("operations.txt").lines().map(str::to_owned).collect();
    assert_eq!(documented, snapshot, "tests/api/operations.txt lists the routed operations");
}

#[tokio::test]
async fn the_description_matches_its_snapshot() {
    // The contract in a diff: regenerate with ARMORY_UPDATE_SNAPSHOTS=1 when a change is meant.
    let document = armory::http::routes::openapi_document();
    let rendered = serde_json::to_string_pretty(&document).unwrap() + "\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/api/contract/openapi.snapshot.json");
    if std::env::var("ARMORY_UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(path, &rendered).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == rendered,
        "the OpenAPI description changed; review and run with ARMORY_UPDATE_SNAPSHOTS=1"
    );
}

#[tokio::test]
async fn swagger_ui_is_served_from_the_binary() {
    let app = TestApp::spawn(crate::support::Backend::Sqlite).await;
    let index = app.get("/docs/").await;
    assert_eq!(index.status(), 200);
    let html = index.text().await.unwrap();
    assert!(!html.contains("//cdn") && !html.contains("unpkg"), "no asset from another host");
    let initializer = app.get("/docs/swagger-initializer.js").await.text().await.unwrap();
    assert!(initializer.contains("/openapi.json"));
    for asset in ["/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js"] {
        assert_eq!(app.get(asset).await.status(), 200, "{asset}");
    }
}

/// The operations table binds the description: each documented operation carries its row's
/// operationId (unique), its security (none for keyless rows) and its paging bounds.
#[test]
fn every_documented_operation_is_bound_to_its_table_row() {
    use armory::access::operations::{self, Style};
    let document = serde_json::to_value(armory::http::routes::openapi_document()).unwrap();
    let mut ids = BTreeSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let row = operations::find(&method.to_uppercase(), path).expect("every route is a table row");
            let id = operation["operationId"].as_str().unwrap();
            assert_eq!(id, row.name, "{method} {path}");
            assert!(ids.insert(id.to_owned()), "operationId {id} is used twice");
            let keyless = operation["security"].as_array().is_some_and(|s| s.is_empty());
            assert_eq!(keyless, row.min_plan.is_none(), "security of {id}");
            if row.min_plan.is_some() {
                for status in ["401", "403", "429"] {
                    assert!(operation["responses"].get(status).is_some(), "{id} documents {status}");
                }
            }
            if let Style::Page { default, max } = row.style {
                let per_page = operation["parameters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["name"] == "per_page")
                    .unwrap_or_else(|| panic!("{id} publishes per_page"));
                assert_eq!(per_page["schema"]["maximum"], max, "{id}");
                assert_eq!(per_page["schema"]["default"], default, "{id}");
                assert_eq!(per_page["schema"]["minimum"], 1, "{id}");
            }
        }
    }
}

/// The description's server is ARMORY_PUBLIC_URL, or relative; a forged Host header is never
/// echoed into it.
#[tokio::test]
async fn the_server_is_the_configured_public_url_never_the_host_header() {
    let app = TestApp::spawn(crate::support::Backend::Sqlite).await;
    let forged =
        app.client.get(app.url("/openapi.json")).header("host", "evil.example").send().await.unwrap();
    let text = forged.text().await.unwrap();
    assert!(!text.contains("evil.example"), "the Host header is not echoed");

    let app = TestApp::spawn_with(crate::support::Backend::Sqlite, None, |config| {
        config.public_url = Some("https://api.armory.example".to_owned());
    })
    .await;
    let doc: serde_json::Value = app.get("/openapi.json").await.json().await.unwrap();
    assert_eq!(doc["servers"][0]["url"], "https://api.armory.example");
}
