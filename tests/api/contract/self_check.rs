//! The live self-checks as a client sees them: the contract run (132) and the samples (131), made
//! by calling the service's own router in process as the in-process caller, and `armory contract`.

use std::process::Command;

use armory::access::plan::Plan;
use armory::http::self_check::contract;
use serde_json::{Value, json};

use crate::support::{TestApp, read_catalog_app};

crate::on_each_database!(setup = read_catalog_app;
    the_contract_passes_on_the_bundled_catalog,
    a_broken_description_fails_the_operation_naming_the_field,
    the_samples_show_real_requests_and_answers,
    the_in_process_caller_needs_no_key_and_counts_no_usage,
    the_cli_fails_on_a_broken_description_and_passes_on_the_served_one,
);

const ARMORY: &str = env!("CARGO_BIN_EXE_armory");

/// The served description with one required field added to the 200 schema of GET /v1/firearms/{id}.
fn broken_description(app: &TestApp) -> Value {
    let mut description = contract::served_description(&app.state);
    let schema = &mut description["paths"]["/v1/firearms/{id}"]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"];
    assert!(!schema.is_null(), "GET /v1/firearms/{{id}} publishes a schema");
    *schema = json!({ "allOf": [schema.take(), { "required": ["brokenField"] }] });
    description
}

fn operation<'a>(run: &'a Value, method: &str, path: &str) -> &'a Value {
    let operations = run["operations"].as_array().expect("the run lists its operations");
    operations
        .iter()
        .find(|op| op["method"] == method && op["path"] == path)
        .expect("the operation is listed")
}

async fn the_contract_passes_on_the_bundled_catalog(app: TestApp) {
    let response = app.get("/v1/contract").await;
    assert_eq!(response.status(), 200);
    let run = response.json::<Value>().await.unwrap()["data"].take();
    assert_eq!(run["failures"], json!([]), "{:#}", run["failures"]);
    assert_eq!((run["passed"].as_bool(), run["totals"]["failed"].as_u64()), (Some(true), Some(0)));
    assert!(run["totals"]["passed"].as_u64().unwrap() >= 60, "{}", run["totals"]);
    assert!(run["startedAt"].as_str().is_some_and(|at| at.ends_with('Z')), "{}", run["startedAt"]);
    assert!(run["durationMs"].is_u64() && run["revision"].as_i64().unwrap() > 0);
    let documented = contract::served_description(&app.state)["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| item.as_object().unwrap().len())
        .sum::<usize>();
    assert_eq!(run["operations"].as_array().unwrap().len(), documented, "every documented operation");
    for op in run["operations"].as_array().unwrap() {
        match op["status"].as_str() {
            Some("passed") => assert!(op["httpStatus"].as_u64().is_some_and(|s| (200..300).contains(&s))),
            Some("skipped") => assert!(op["reason"].is_string(), "a skip says why: {op}"),
            _ => panic!("neither passed nor skipped: {op}"),
        }
    }
    for (method, path) in [("GET", "/v1/firearms"), ("GET", "/v1/firearms/{id}"), ("GET", "/health")] {
        assert_eq!(operation(&run, method, path)["status"], "passed", "{method} {path}");
    }
    assert_eq!(operation(&run, "GET", "/v1/game-stats/versions/{version}/firearms")["status"], "passed");
    assert_eq!(operation(&run, "GET", "/v1/docs/samples")["status"], "passed");
    let write = operation(&run, "POST", "/v1/me/collections");
    assert_eq!(write["status"], "skipped");
    assert!(write["reason"].as_str().unwrap().starts_with("not run against the live service: "));
    assert_eq!(operation(&run, "GET", "/v1/me/usage")["status"], "skipped");
    assert_eq!(operation(&run, "GET", "/v1/contract")["status"], "skipped");

    // Kept 5 minutes: the next request gets the same run.
    let again = app.get("/v1/contract").await.json::<Value>().await.unwrap();
    assert_eq!(again["data"]["startedAt"], run["startedAt"]);
}

async fn a_broken_description_fails_the_operation_naming_the_field(app: TestApp) {
    let run = contract::run(&app.state, &broken_description(&app)).await.unwrap();
    let run = serde_json::to_value(&run).unwrap();
    assert_eq!(run["passed"], false);
    assert_eq!(run["totals"]["failed"], 1, "{:#}", run["failures"]);
    let failed = operation(&run, "GET", "/v1/firearms/{id}");
    assert_eq!((failed["status"].as_str(), failed["httpStatus"].as_u64()), (Some("failed"), Some(200)));
    let reason = failed["reason"].as_str().unwrap();
    assert!(reason.contains("brokenField"), "the reason names the field: {reason}");
    assert_eq!(run["failures"][0]["path"], "/v1/firearms/{id}", "the failure is listed at the top");
    assert_eq!(operation(&run, "GET", "/v1/firearms")["status"], "passed");
}

async fn the_samples_show_real_requests_and_answers(app: TestApp) {
    let response = app.get("/v1/docs/samples").await;
    assert_eq!(response.status(), 200);
    let samples = response.json::<Value>().await.unwrap()["data"].take();
    let list = samples["samples"].as_array().unwrap();
    let firearms =
        list.iter().find(|s| s["method"] == "GET" && s["path"] == "/v1/firearms").expect("a sample");
    let url = firearms["request"]["url"].as_str().unwrap();
    assert!(url.starts_with("/v1/firearms?") && url.contains("per_page=2"), "{url}");
    assert_eq!(firearms["response"]["status"], 200);
    let items = firearms["response"]["body"]["data"].as_array().expect("the answer's data");
    assert!(!items.is_empty() && items.len() <= 2, "{} items", items.len());
    assert!(items[0]["id"].is_string());
    let detail = list.iter().find(|s| s["path"] == "/v1/firearms/{id}").expect("a detail sample");
    assert_eq!(detail["response"]["status"], 200);
    assert!(detail["request"]["url"].as_str().unwrap().starts_with("/v1/firearms/"));
    assert!(list.iter().all(|s| s["method"] == "GET"));
    let skipped = samples["skipped"].as_array().unwrap();
    assert!(skipped.iter().any(|s| s["path"] == "/v1/docs/samples" && s["reason"].is_string()));
    assert_eq!(samples["revision"], app.state.catalog.current().revision);
}

/// Usage rows: (subject, day, count), ordered.
async fn usage(app: &TestApp) -> Vec<(String, String, i64)> {
    app.state.access.usage.flush().await.unwrap();
    sqlx::query_as("SELECT subject, day, count FROM usage_daily ORDER BY subject, day")
        .fetch_all(app.state.db.pool())
        .await
        .unwrap()
}

async fn the_in_process_caller_needs_no_key_and_counts_no_usage(app: TestApp) {
    // A keyed request from outside is counted, for the key's account and the firearm's popularity.
    let (_, _, key) = app.key(Plan::Enterprise).await;
    let detail =
        app.client.get(app.url("/v1/firearms/glock-17")).header("x-api-key", &key).send().await.unwrap();
    assert_eq!(detail.status(), 200);
    let before = usage(&app).await;
    assert_eq!(before.len(), 2, "the account and the firearm were counted: {before:?}");

    // Nothing a client sends makes an outside request the in-process caller.
    for (name, value) in
        [("x-in-process-caller", "1"), ("inprocesscaller", "true"), ("x-api-key", "in-process")]
    {
        let response = app.client.get(app.url("/v1/firearms")).header(name, value).send().await.unwrap();
        assert_eq!(response.status(), 401, "{name}: {value}");
    }

    // The run calls every keyed catalog read without a key, and counts nothing.
    let run = app.get("/v1/contract").await.json::<Value>().await.unwrap()["data"].take();
    assert_eq!(run["passed"], true, "{:#}", run["failures"]);
    assert_eq!(operation(&run, "GET", "/v1/firearms/{id}")["status"], "passed");
    assert_eq!(usage(&app).await, before, "the run counted no usage and no view");
}

async fn the_cli_fails_on_a_broken_description_and_passes_on_the_served_one(app: TestApp) {
    let broken = std::env::temp_dir().join(format!("armory-broken-{}.json", uuid::Uuid::new_v4().simple()));
    std::fs::write(&broken, broken_description(&app).to_string()).unwrap();
    let url = app.database.url.clone();
    let contract = move |openapi: Option<std::path::PathBuf>| {
        let mut command = Command::new(ARMORY);
        command.args(["contract", "--database-url", &url]).env("RUST_LOG", "warn");
        if let Some(file) = openapi {
            command.arg("--openapi").arg(file);
        }
        command.output().unwrap()
    };
    let failing = {
        let broken = broken.clone();
        let contract = contract.clone();
        tokio::task::spawn_blocking(move || contract(Some(broken))).await.unwrap()
    };
    let stdout = String::from_utf8_lossy(&failing.stdout);
    assert_eq!(failing.status.code(), Some(1), "{stdout}\n{}", String::from_utf8_lossy(&failing.stderr));
    assert!(stdout.contains("FAILED GET /v1/firearms/{id}") && stdout.contains("brokenField"), "{stdout}");
    assert!(stdout.contains("contract: ") && stdout.contains(" 1 failed"), "{stdout}");

    let passing = tokio::task::spawn_blocking(move || contract(None)).await.unwrap();
    let stdout = String::from_utf8_lossy(&passing.stdout);
    assert_eq!(passing.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&passing.stderr));
    assert!(stdout.contains(" 0 failed") && !stdout.contains("FAILED"), "{stdout}");
    let _ = std::fs::remove_file(&broken);
}
