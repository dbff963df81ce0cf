//! Refusals as a client reads them: one 400 names every bad parameter (paging, ranking limits and
//! the operation's own query together), and every refusal names the parameter it is about.

use armory::access::plan::Plan;
use serde_json::{Value, json};

use crate::support::{TestApp, error_reason, read_catalog_app, sample_path};

async fn catalog() -> TestApp {
    read_catalog_app(crate::support::Backend::Sqlite).await
}

/// The names `details` carries.
fn named(body: &Value) -> Vec<String> {
    let details = body["error"]["details"].as_object().cloned().unwrap_or_default();
    details.keys().cloned().collect()
}

#[tokio::test]
async fn one_400_names_the_bad_paging_and_the_bad_query_together() {
    let app = catalog().await;
    let (_, _, key) = app.key(Plan::Enterprise).await;
    for (path, expected) in [
        (
            "/v1/firearms?sort=bogus&order=sideways&page=0&per_page=0",
            &["order", "page", "per_page", "sort"][..],
        ),
        ("/v1/manufacturers?country=1&page=0", &["country", "page"][..]),
        ("/v1/firearms/top?stat=bogus&limit=0", &["limit", "stat"][..]),
    ] {
        let (status, reason, body) = error_reason(app.get_with_key(path, &key).await).await;
        assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"), "{path}");
        let mut names = named(&body);
        names.sort();
        assert_eq!(names, expected, "{path}: {body}");
    }
}

/// A value the published schema of a query parameter refuses, if one can be written.
fn refused_value(schema: &Value) -> Option<&'static str> {
    if schema.get("enum").is_some() {
        return Some("zz-not-listed");
    }
    match schema["type"].as_str() {
        Some("integer") | Some("number") => Some("not-a-number"),
        Some("boolean") => Some("maybe"),
        Some("string") => match schema["pattern"].as_str() {
            Some("\\S") => Some("   "),
            Some(_) => Some("!!"),
            None => None,
        },
        _ => None,
    }
}

/// Every paged or ranked operation, asked with `page` (or `limit`) out of bounds and every other
/// query parameter it publishes given a value its schema refuses: the one 400 names them all,
/// whatever order the handler reads them in.
#[tokio::test]
async fn every_paged_and_ranked_operation_names_all_its_bad_parameters_at_once() {
    let app = catalog().await;
    let (_, shop_key) = app.shop_key("Refusals", true).await;
    let doc: Value = app.get("/openapi.json").await.json().await.unwrap();
    let mut checked = 0;
    for (template, item) in doc["paths"].as_object().unwrap() {
        let Some(operation) = item.get("get") else { continue };
        let parameters = operation["parameters"].as_array().cloned().unwrap_or_default();
        let query: Vec<&Value> = parameters.iter().filter(|p| p["in"] == "query").collect();
        let paging = query.iter().find(|p| p["name"] == "page" || p["name"] == "limit");
        let Some(paging) = paging else { continue };
        let mut sent = vec![(paging["name"].as_str().unwrap().to_owned(), "0")];
        for parameter in &query {
            let name = parameter["name"].as_str().unwrap();
            if matches!(name, "page" | "limit" | "per_page") {
                continue;
            }
            if let Some(value) = refused_value(&parameter["schema"]) {
                sent.push((name.to_owned(), value));
            }
        }
        let encoded: Vec<String> =
            sent.iter().map(|(name, value)| format!("{name}={}", value.replace(' ', "%20"))).collect();
        let path = format!("{}?{}", sample_path(template), encoded.join("&"));
        let (status, reason, body) = error_reason(app.get_with_key(&path, &shop_key).await).await;
        assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"), "{path}: {body}");
        let names = named(&body);
        for (name, _) in &sent {
            assert!(names.contains(name), "{path}: {name} is not named in {body}");
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} paged or ranked operations were found");
}

#[tokio::test]
async fn a_path_that_is_not_utf8_names_its_parameter() {
    let app = catalog().await;
    let (_, _, key) = app.key(Plan::Enterprise).await;
    for (path, parameter) in [
        ("/v1/firearms/%FF", "id"),
        ("/v1/manufacturers/%C3/firearms", "id"),
        ("/v1/game-stats/versions/%FF/firearms/glock-17", "version"),
    ] {
        let (status, reason, body) = error_reason(app.get_with_key(path, &key).await).await;
        assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"), "{path}");
        assert_eq!(named(&body), [parameter], "{path}: {body}");
    }
}

/// The game operations name an unknown category as every other category filter does.
#[tokio::test]
async fn an_unknown_category_filter_is_named_in_every_game_operation() {
    let app = catalog().await;
    let (_, _, key) = app.key(Plan::Enterprise).await;
    for path in [
        "/v1/game/balance-report?category=no-such-category",
        "/v1/game/tier-list?category=no-such-category",
        "/v1/game/stat-distribution?stat=gameDamage&category=no-such-category",
        "/v1/firearms/top?stat=heaviest&category=no-such-category",
    ] {
        let (status, reason, body) = error_reason(app.get_with_key(path, &key).await).await;
        assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"), "{path}");
        assert_eq!(
            body["error"]["details"],
            json!({ "parameter": "category", "missing": ["no-such-category"] }),
            "{path}"
        );
    }
}
