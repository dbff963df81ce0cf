//! Data reports as a client sees them: filed field by field, one per firearm and section per 24
//! hours (429 REPORT_RATE_LIMITED with Retry-After), moved by staff through `armory reports` run as
//! a subprocess, and listed with the staff note, filtered by status; another account's are not shown.

use armory::access::plan::Plan;
use serde_json::{Value, json};

use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app;
    a_report_is_filed_listed_and_moved_by_staff,
    every_bad_field_is_named_and_nothing_is_stored,
    one_report_per_firearm_and_section_per_day);

pub async fn post(app: &TestApp, path: &str, key: &str, body: Value) -> reqwest::Response {
    app.client.post(app.url(path)).header("x-api-key", key).json(&body).send().await.unwrap()
}

/// Run `armory ARGS` against the test's database: (exit code, stdout, stderr).
pub fn armory(app: &TestApp, args: &[&str]) -> (i32, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_armory"))
        .args(args)
        .args(["--database-url", &app.database.url])
        .env_remove("ARMORY_DATABASE_URL")
        .output()
        .unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (output.status.code().unwrap_or(-1), text(output.stdout), text(output.stderr))
}

fn report(section: &str) -> Value {
    json!({
        "firearm_id": "walther-p38",
        "section": section,
        "issue_type": "incorrect",
        "description": "The empty weight should be 960 g, as published.",
        "references": ["https://example.com/p38"],
        "suggested_value": "960 g",
    })
}

async fn a_report_is_filed_listed_and_moved_by_staff(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    let (_, _, stranger) = app.key(Plan::Explorer).await;

    let filed = post(&app, "/v1/me/reports", &key, report("weights")).await;
    assert_eq!(filed.status(), 201);
    let filed: Value = filed.json().await.unwrap();
    let data = &filed["data"];
    let id = data["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("rpt-"));
    assert_eq!(data["firearmId"], "walther-p38");
    assert_eq!(data["section"], "weights");
    assert_eq!(data["issueType"], "incorrect");
    assert_eq!(data["description"], "The empty weight should be 960 g, as published.");
    assert_eq!(data["references"], json!(["https://example.com/p38"]));
    assert_eq!(data["suggestedValue"], "960 g");
    assert_eq!(data["status"], "pending");
    assert!(data["staffNote"].is_null() && data["reviewedAt"].is_null());
    assert_eq!(data["createdAt"].as_str().unwrap().len(), 19);

    // camelCase names are accepted too; a second section is its own report.
    let other = json!({ "firearmId": "glock-17", "section": "ballistics", "issueType": "missing",
                        "description": "The muzzle velocity is not given." });
    assert_eq!(post(&app, "/v1/me/reports", &key, other).await.status(), 201);

    let list: Value = app.get_with_key("/v1/me/reports", &key).await.json().await.unwrap();
    assert_eq!(list["data"].as_array().unwrap().len(), 2);
    assert_eq!(list["data"][1]["id"], id.as_str(), "newest first");
    assert!(list["pagination"]["total"].is_null(), "Explorer sees no totals");
    let theirs: Value = app.get_with_key("/v1/me/reports", &stranger).await.json().await.unwrap();
    assert_eq!(theirs["data"], json!([]), "another account's reports are never shown");

    // Staff move it: pending -> reviewed -> resolved; every other move is refused with a reason.
    let (code, _, stderr) = armory(&app, &["reports", "resolve", &id]);
    assert_eq!(code, 1);
    assert!(stderr.contains("pending") && stderr.contains("cannot become resolved"), "{stderr}");
    let (code, stdout, _) = armory(&app, &["reports", "review", &id, "--note", "Checking the manual."]);
    assert_eq!((code, stdout.trim()), (0, "reviewed"));
    let (code, stdout, _) = armory(&app, &["reports", "list", "--status", "reviewed"]);
    assert_eq!(code, 0);
    assert!(stdout.contains(&id) && stdout.lines().count() == 2, "{stdout}");
    let (code, stdout, _) = armory(&app, &["reports", "resolve", &id, "--note", "Fixed in the catalog."]);
    assert_eq!((code, stdout.trim()), (0, "resolved"));
    let (code, _, stderr) = armory(&app, &["reports", "dismiss", &id]);
    assert_eq!(code, 1, "a resolved report stays resolved: {stderr}");
    assert_eq!(armory(&app, &["reports", "review", "rpt-0000000000000000"]).0, 1);

    let resolved: Value =
        app.get_with_key("/v1/me/reports?status=resolved", &key).await.json().await.unwrap();
    assert_eq!(resolved["data"].as_array().unwrap().len(), 1);
    assert_eq!(resolved["data"][0]["status"], "resolved");
    assert_eq!(resolved["data"][0]["staffNote"], "Fixed in the catalog.");
    assert!(resolved["data"][0]["reviewedAt"].is_string());
    let pending: Value = app.get_with_key("/v1/me/reports?status=pending", &key).await.json().await.unwrap();
    assert_eq!(pending["data"].as_array().unwrap().len(), 1);
    let (status, reason, body) =
        error_reason(app.get_with_key("/v1/me/reports?status=open", &key).await).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
    assert!(body["error"]["details"]["status"].is_string());

    // Pending straight to dismissed is allowed.
    let third: Value = post(&app, "/v1/me/reports", &key, report("history")).await.json().await.unwrap();
    let third = third["data"]["id"].as_str().unwrap();
    assert_eq!(armory(&app, &["reports", "dismiss", third]).1.trim(), "dismissed");
}

async fn every_bad_field_is_named_and_nothing_is_stored(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    let bad = json!({
        "firearm_id": "Not A Slug",
        "section": "price",
        "issue_type": "wrong",
        "description": "too short",
        "references": ["http://example.com/insecure"],
        "suggested_value": { "weightEmptyG": 960 },
        "unknown_field": "ignored",
    });
    let (status, reason, body) = error_reason(post(&app, "/v1/me/reports", &key, bad).await).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
    let details = body["error"]["details"].as_object().unwrap();
    let mut named: Vec<&str> = details.keys().map(String::as_str).collect();
    named.sort_unstable();
    assert_eq!(
        named,
        ["description", "firearm_id", "issue_type", "references", "section", "suggested_value"]
    );
    assert!(details["section"].as_str().unwrap().contains("game_stats"), "the allowed values are listed");

    let (_, _, body) = error_reason(post(&app, "/v1/me/reports", &key, json!({})).await).await;
    assert_eq!(body["error"]["details"]["firearm_id"], "is required");
    assert_eq!(body["error"]["details"]["description"], "is required");

    let eleven: Vec<String> = (0..11).map(|n| format!("https://example.com/{n}")).collect();
    let mut too_many = report("weights");
    too_many["references"] = json!(eleven);
    let (status, _, body) = error_reason(post(&app, "/v1/me/reports", &key, too_many).await).await;
    assert_eq!(status, 400);
    assert!(body["error"]["details"]["references"].as_str().unwrap().contains("at most 10"));

    let mut unknown = report("weights");
    unknown["firearm_id"] = json!("no-such-gun");
    let (status, reason, _) = error_reason(post(&app, "/v1/me/reports", &key, unknown).await).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));

    let not_json = app
        .client
        .post(app.url("/v1/me/reports"))
        .header("x-api-key", &key)
        .header("content-type", "application/json")
        .body("{\"firearm_id\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(error_reason(not_json).await.1, "INVALID_JSON");
    let mut huge = report("weights");
    huge["description"] = json!("x".repeat(1024 * 1024 + 1));
    let (status, reason, _) = error_reason(post(&app, "/v1/me/reports", &key, huge).await).await;
    assert_eq!((status, reason.as_str()), (413, "PAYLOAD_TOO_LARGE"));

    let list: Value = app.get_with_key("/v1/me/reports", &key).await.json().await.unwrap();
    assert_eq!(list["data"], json!([]), "nothing refused was stored");
}

async fn one_report_per_firearm_and_section_per_day(app: TestApp) {
    let (account, _, key) = app.key(Plan::Explorer).await;
    assert_eq!(post(&app, "/v1/me/reports", &key, report("weights")).await.status(), 201);

    let again = post(&app, "/v1/me/reports", &key, report("weights")).await;
    let retry_after: u64 = again.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((86_300..=86_400).contains(&retry_after), "{retry_after}");
    let (status, reason, body) = error_reason(again).await;
    assert_eq!((status, reason.as_str()), (429, "REPORT_RATE_LIMITED"));
    assert_eq!(body["error"]["code"], "RATE_LIMITED");

    // Another section of the same firearm, and another account, are not held back.
    assert_eq!(post(&app, "/v1/me/reports", &key, report("dimensions")).await.status(), 201);
    let (_, _, other) = app.key(Plan::Explorer).await;
    assert_eq!(post(&app, "/v1/me/reports", &other, report("weights")).await.status(), 201);

    // A day later the section is open again.
    sqlx::query("UPDATE data_reports SET created_ms = created_ms - 86400000 WHERE account_id = $1")
        .bind(&account)
        .execute(app.state.db.pool())
        .await
        .unwrap();
    assert_eq!(post(&app, "/v1/me/reports", &key, report("weights")).await.status(), 201);
}
