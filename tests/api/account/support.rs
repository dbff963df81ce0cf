//! Support tickets as a client sees them: opened field by field (at most 20 attachments), listed
//! with `status`, `sort` and `order`, read with their messages oldest first, replied to; staff
//! answer through `armory support` run as a subprocess; a closed ticket takes no reply (403
//! ACTION_NOT_ALLOWED) and another account's ticket is 404.

use armory::access::plan::Plan;
use serde_json::{Value, json};

use super::reports::{armory, post};
use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app;
    a_ticket_is_opened_answered_and_closed,
    tickets_list_by_status_sort_and_order,
    bad_tickets_are_refused_field_by_field);

fn attachments(n: usize) -> Value {
    json!((0..n).map(|i| json!({ "name": format!("shot-{i}.png"), "url": format!("https://files.example.com/{i}.png") })).collect::<Vec<_>>())
}

async fn a_ticket_is_opened_answered_and_closed(app: TestApp) {
    let (_, _, key) = app.key(Plan::Builder).await;
    let (_, _, stranger) = app.key(Plan::Builder).await;
    let body = json!({ "subject": "Export fails", "description": "The CSV export stops at row 100.",
                       "category": "technical", "priority": "high", "attachments": attachments(2) });
    let opened = post(&app, "/v1/me/support", &key, body).await;
    assert_eq!(opened.status(), 201);
    let opened: Value = opened.json().await.unwrap();
    let ticket = &opened["data"];
    let id = ticket["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("tkt-"));
    assert_eq!(ticket["subject"], "Export fails");
    assert_eq!(ticket["description"], "The CSV export stops at row 100.");
    assert_eq!(ticket["category"], "technical");
    assert_eq!(ticket["priority"], "high");
    assert_eq!(ticket["status"], "open");
    assert_eq!(
        ticket["attachments"][1],
        json!({ "name": "shot-1.png", "url": "https://files.example.com/1.png" })
    );
    assert_eq!(ticket["messageCount"], 0);
    assert!(ticket["closedAt"].is_null());

    let path = format!("/v1/me/support/{id}");
    let (status, reason, _) = error_reason(app.get_with_key(&path, &stranger).await).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"), "another account's ticket");
    let replies = format!("{path}/replies");
    let (status, _, _) =
        error_reason(post(&app, &replies, &stranger, json!({ "message": "hi" })).await).await;
    assert_eq!(status, 404);

    // Staff answer: the ticket waits for the customer; the customer's reply opens it again.
    let (code, stdout, _) = armory(&app, &["support", "reply", &id, "--message", "Which browser?"]);
    assert_eq!((code, stdout.trim()), (0, "waiting"));
    let replied =
        post(&app, &replies, &key, json!({ "message": "Firefox 140.", "attachments": attachments(1) })).await;
    assert_eq!(replied.status(), 201);
    let replied: Value = replied.json().await.unwrap();
    assert_eq!(replied["data"]["status"], "open");

    let read: Value = app.get_with_key(&path, &key).await.json().await.unwrap();
    let messages = read["data"]["messages"].as_array().unwrap();
    assert_eq!(read["data"]["messageCount"], 2);
    assert_eq!(messages.len(), 2);
    assert_eq!((messages[0]["id"].as_i64(), messages[0]["author"].as_str()), (Some(1), Some("staff")));
    assert_eq!(messages[0]["message"], "Which browser?");
    assert_eq!((messages[1]["id"].as_i64(), messages[1]["author"].as_str()), (Some(2), Some("customer")));
    assert_eq!(messages[1]["attachments"][0]["name"], "shot-0.png");

    let (code, stdout, _) = armory(&app, &["support", "list", "--status", "open"]);
    assert_eq!(code, 0);
    assert!(stdout.contains(&id), "{stdout}");
    assert_eq!(armory(&app, &["support", "set-status", &id, "done"]).0, 1, "not a status");
    assert_eq!(armory(&app, &["support", "set-status", "tkt-0000000000000000", "open"]).0, 1);
    let (code, stdout, _) = armory(&app, &["support", "set-status", &id, "closed"]);
    assert_eq!((code, stdout.trim()), (0, "closed"));

    let (status, reason, _) =
        error_reason(post(&app, &replies, &key, json!({ "message": "One more" })).await).await;
    assert_eq!((status, reason.as_str()), (403, "ACTION_NOT_ALLOWED"));
    let read: Value = app.get_with_key(&path, &key).await.json().await.unwrap();
    assert_eq!(read["data"]["status"], "closed");
    assert!(read["data"]["closedAt"].is_string());
    assert_eq!(read["data"]["messageCount"], 2, "the refused reply was not stored");
}

async fn tickets_list_by_status_sort_and_order(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    let mut ids = Vec::new();
    for (subject, priority) in [("first", "low"), ("second", "urgent"), ("third", "normal")] {
        let body = json!({ "subject": subject, "description": "text", "priority": priority });
        let opened: Value = post(&app, "/v1/me/support", &key, body).await.json().await.unwrap();
        ids.push(opened["data"]["id"].as_str().unwrap().to_owned());
        // Distinct creation seconds, so the default order is certain.
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    }
    let subjects = |page: &Value| -> Vec<String> {
        page["data"].as_array().unwrap().iter().map(|t| t["subject"].as_str().unwrap().to_owned()).collect()
    };
    let newest: Value = app.get_with_key("/v1/me/support", &key).await.json().await.unwrap();
    assert_eq!(subjects(&newest), ["third", "second", "first"]);
    assert_eq!(newest["data"][0]["category"], "other", "the default category");
    let oldest: Value = app.get_with_key("/v1/me/support?order=asc", &key).await.json().await.unwrap();
    assert_eq!(subjects(&oldest), ["first", "second", "third"]);
    let by_priority: Value =
        app.get_with_key("/v1/me/support?sort=priority&order=desc", &key).await.json().await.unwrap();
    assert_eq!(subjects(&by_priority), ["second", "third", "first"], "urgent, normal, low");

    armory(&app, &["support", "set-status", &ids[0], "resolved"]);
    let resolved: Value =
        app.get_with_key("/v1/me/support?status=resolved", &key).await.json().await.unwrap();
    assert_eq!(subjects(&resolved), ["first"]);
    let paged: Value = app.get_with_key("/v1/me/support?per_page=2&page=2", &key).await.json().await.unwrap();
    assert_eq!(subjects(&paged), ["first"]);

    for bad in ["status=new", "sort=subject", "order=up"] {
        let (status, _, body) =
            error_reason(app.get_with_key(&format!("/v1/me/support?{bad}"), &key).await).await;
        let name = bad.split('=').next().unwrap();
        assert_eq!(status, 400, "{bad}");
        assert!(body["error"]["details"][name].is_string(), "{bad}: {body}");
    }
}

async fn bad_tickets_are_refused_field_by_field(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    let bad = json!({ "subject": "", "description": "x".repeat(10_001), "category": "sales",
                      "priority": "asap", "attachments": attachments(21) });
    let (status, reason, body) = error_reason(post(&app, "/v1/me/support", &key, bad).await).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
    let details = body["error"]["details"].as_object().unwrap();
    let mut named: Vec<&str> = details.keys().map(String::as_str).collect();
    named.sort_unstable();
    assert_eq!(named, ["attachments", "category", "description", "priority", "subject"]);
    assert!(details["attachments"].as_str().unwrap().contains("at most 20"));

    let insecure = json!({ "subject": "s", "description": "d",
                           "attachments": [{ "name": "a", "url": "http://files.example.com/a" }] });
    let (_, _, body) = error_reason(post(&app, "/v1/me/support", &key, insecure).await).await;
    assert!(body["error"]["details"]["attachments"].as_str().unwrap().starts_with("[0] url"));

    // Twenty is the most a ticket holds, replies included.
    let full = json!({ "subject": "s", "description": "d", "attachments": attachments(20) });
    let opened: Value = post(&app, "/v1/me/support", &key, full).await.json().await.unwrap();
    let replies = format!("/v1/me/support/{}/replies", opened["data"]["id"].as_str().unwrap());
    let more = json!({ "message": "and one more", "attachments": attachments(1) });
    let (status, _, body) = error_reason(post(&app, &replies, &key, more).await).await;
    assert_eq!(status, 400);
    assert!(body["error"]["details"]["attachments"].is_string());
    let (_, _, body) = error_reason(post(&app, &replies, &key, json!({ "message": "  " })).await).await;
    assert!(body["error"]["details"]["message"].is_string());

    let list: Value = app.get_with_key("/v1/me/support", &key).await.json().await.unwrap();
    assert_eq!(list["data"].as_array().unwrap().len(), 1, "only the valid ticket was stored");
    assert_eq!(list["data"][0]["messageCount"], 0);
}
