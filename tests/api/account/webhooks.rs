//! Webhook endpoints as an account holder sees them (/v1/me/webhooks), and, in `delivery`, what a
//! receiver sees: signed deliveries over real loopback sockets, retries, pauses and the guard.

mod delivery;
pub mod receiver;

use std::time::Duration;

use armory::access::plan::Plan;
use armory::config::Config;
use armory::webhooks::allow::AllowList;
use serde_json::{Value, json};

use crate::support::{Backend, TestApp, error_reason};

crate::on_each_database!(
    an_endpoint_is_created_read_listed_updated_and_deleted,
    the_secret_is_returned_only_on_create,
    holding_endpoints_follows_the_plan,
    another_accounts_endpoint_is_not_found,
    bad_fields_are_named,
    each_url_rule_is_refused_at_registration,
    names_that_can_never_be_public_are_refused_at_registration,
    wildcard_dns_names_of_never_public_addresses_are_refused_at_registration,
);

/// The wait before each retry in delivery tests.
pub const RETRY: Duration = Duration::from_millis(400);

/// Deliveries allowed to the loopback receiver, a short schedule and timeout.
pub fn delivering(config: &mut Config) {
    config.webhooks.allow_targets = AllowList::parse("127.0.0.1").unwrap();
    config.webhooks.retry_schedule = vec![RETRY; 3];
    config.webhooks.timeout = Duration::from_secs(2);
    config.webhooks.claim_margin = Duration::from_millis(500);
}

pub async fn app(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, None, delivering).await
}

pub async fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    key: &str,
    body: Option<Value>,
) -> reqwest::Response {
    let mut request = app.client.request(method.parse().unwrap(), app.url(path)).header("x-api-key", key);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.expect("answered")
}

/// Register an endpoint; its id and signing secret.
pub async fn create(app: &TestApp, key: &str, url: &str, events: &[&str]) -> (String, String) {
    let response =
        send(app, "POST", "/v1/me/webhooks", key, Some(json!({ "url": url, "events": events }))).await;
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    let data = &body["data"];
    (data["id"].as_str().unwrap().to_owned(), data["secret"].as_str().unwrap().to_owned())
}

async fn an_endpoint_is_created_read_listed_updated_and_deleted(backend: Backend) {
    let app = app(backend).await;
    let (_, _, key) = app.key(Plan::Studio).await;
    let body = json!({ "url": "https://hooks.example.com/in", "events": ["firearm.updated", "firearm.updated"],
                       "description": "prod" });
    let response = send(&app, "POST", "/v1/me/webhooks", &key, Some(body)).await;
    assert_eq!(response.status(), 201);
    let created: Value = response.json().await.unwrap();
    let endpoint = &created["data"];
    let id = endpoint["id"].as_str().unwrap().to_owned();
    assert_eq!(endpoint["url"], "https://hooks.example.com/in");
    assert_eq!(endpoint["events"], json!(["firearm.updated"]), "duplicates collapse");
    assert_eq!(endpoint["description"], "prod");
    assert_eq!(endpoint["enabled"], true);
    let created_at = endpoint["createdAt"].as_str().unwrap();
    assert_eq!(created_at.len(), 19, "YYYY-MM-DD HH:MM:SS: {created_at}");
    assert!(endpoint["updatedAt"].as_str().unwrap().ends_with('Z'));

    let read: Value = app.get_with_key(&format!("/v1/me/webhooks/{id}"), &key).await.json().await.unwrap();
    assert_eq!(read["data"]["id"], id.as_str());
    assert_eq!(read["data"]["events"], json!(["firearm.updated"]));

    create(&app, &key, "https://second.example.com/", &["catalog.resynced"]).await;
    let list: Value = app.get_with_key("/v1/me/webhooks?per_page=1", &key).await.json().await.unwrap();
    assert_eq!(list["data"].as_array().unwrap().len(), 1);
    assert_eq!(list["data"][0]["id"], id.as_str(), "oldest first");
    assert_eq!(list["pagination"]["total"], 2);
    assert_eq!(list["pagination"]["per_page"], 1);

    let path = format!("/v1/me/webhooks/{id}");
    let changes = json!({ "active": false, "description": null, "events": ["caliber.created"] });
    let updated: Value = send(&app, "PUT", &path, &key, Some(changes)).await.json().await.unwrap();
    assert_eq!(updated["data"]["enabled"], false, "active is an alias of enabled");
    assert_eq!(updated["data"]["description"], Value::Null);
    assert_eq!(updated["data"]["events"], json!(["caliber.created"]));
    assert_eq!(updated["data"]["url"], "https://hooks.example.com/in", "absent fields keep their value");
    let resumed: Value =
        send(&app, "PUT", &path, &key, Some(json!({ "enabled": true }))).await.json().await.unwrap();
    assert_eq!(resumed["data"]["enabled"], true);

    let deleted = send(&app, "DELETE", &path, &key, None).await;
    assert_eq!(deleted.status(), 200);
    let deleted: Value = deleted.json().await.unwrap();
    assert_eq!(deleted["data"], json!({ "deleted": true, "id": id }));
    let (status, reason, _) = error_reason(app.get_with_key(&path, &key).await).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
}

async fn the_secret_is_returned_only_on_create(backend: Backend) {
    let app = app(backend).await;
    let (_, _, key) = app.key(Plan::Enterprise).await;
    let (id, secret) = create(&app, &key, "https://hooks.example.com/", &["firearm.created"]).await;
    assert!(secret.starts_with("whsec_") && secret.len() > 40, "{secret}");
    let path = format!("/v1/me/webhooks/{id}");
    let read: Value = app.get_with_key(&path, &key).await.json().await.unwrap();
    let list: Value = app.get_with_key("/v1/me/webhooks", &key).await.json().await.unwrap();
    let updated: Value =
        send(&app, "PUT", &path, &key, Some(json!({ "description": "x" }))).await.json().await.unwrap();
    for answer in [&read["data"], &list["data"][0], &updated["data"]] {
        assert!(answer.get("secret").is_none(), "{answer}");
        assert!(!answer.to_string().contains(&secret));
    }
}

async fn holding_endpoints_follows_the_plan(backend: Backend) {
    let app = app(backend).await;
    for plan in [Plan::Explorer, Plan::Builder] {
        let (_, _, key) = app.key(plan).await;
        let body = json!({ "url": "https://hooks.example.com/", "events": ["firearm.created"] });
        let (status, reason, body) =
            error_reason(send(&app, "POST", "/v1/me/webhooks", &key, Some(body)).await).await;
        assert_eq!((status, reason.as_str()), (403, "LIMIT_REACHED"), "{plan}: {body}");
        assert_eq!(body["error"]["code"], "FORBIDDEN");
        // The other operations answer from Explorer up.
        assert_eq!(app.get_with_key("/v1/me/webhooks", &key).await.status(), 200);
    }
    let (_, _, key) = app.key(Plan::Studio).await;
    for n in 0..5 {
        create(&app, &key, &format!("https://hooks{n}.example.com/"), &["firearm.created"]).await;
    }
    let body = json!({ "url": "https://hooks6.example.com/", "events": ["firearm.created"] });
    let (status, reason, body) =
        error_reason(send(&app, "POST", "/v1/me/webhooks", &key, Some(body)).await).await;
    assert_eq!((status, reason.as_str()), (403, "LIMIT_REACHED"));
    assert_eq!(body["error"]["details"]["limit"], 5);

    // Concurrent creates cannot pass the allowance: with four held, one of five wins.
    let (account, _, key) = app.key(Plan::Studio).await;
    for n in 0..4 {
        create(&app, &key, &format!("https://held{n}.example.com/"), &["firearm.created"]).await;
    }
    let racers = (0..5).map(|n| {
        let body = json!({ "url": format!("https://race{n}.example.com/"), "events": ["firearm.created"] });
        send(&app, "POST", "/v1/me/webhooks", &key, Some(body))
    });
    let statuses: Vec<u16> =
        futures_util::future::join_all(racers).await.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 403).count(), 4, "{statuses:?}");
    assert_eq!(armory::webhooks::endpoints::count(&app.state.db, &account).await.unwrap(), 5);
}

async fn another_accounts_endpoint_is_not_found(backend: Backend) {
    let app = app(backend).await;
    let (_, _, owner) = app.key(Plan::Studio).await;
    let (_, _, stranger) = app.key(Plan::Studio).await;
    let (id, _) = create(&app, &owner, "https://hooks.example.com/", &["firearm.created"]).await;
    let path = format!("/v1/me/webhooks/{id}");
    let test_path = format!("{path}/test");
    for (method, path, body) in [
        ("GET", path.as_str(), None),
        ("PUT", path.as_str(), Some(json!({ "enabled": false }))),
        ("DELETE", path.as_str(), None),
        ("POST", test_path.as_str(), None),
    ] {
        let (status, reason, _) = error_reason(send(&app, method, path, &stranger, body).await).await;
        assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"), "{method} {path}");
    }
    let list: Value = app.get_with_key("/v1/me/webhooks", &stranger).await.json().await.unwrap();
    assert_eq!(list["data"], json!([]));
    let read: Value = app.get_with_key(&path, &owner).await.json().await.unwrap();
    assert_eq!(read["data"]["enabled"], true, "the stranger changed nothing");
}

async fn bad_fields_are_named(backend: Backend) {
    let app = app(backend).await;
    let (_, _, key) = app.key(Plan::Studio).await;
    let post = |body: Value| send(&app, "POST", "/v1/me/webhooks", &key, Some(body));

    let bad_event =
        json!({ "url": "https://hooks.example.com/", "events": ["firearm.updated", "firearm.exploded"] });
    let (status, reason, body) = error_reason(post(bad_event).await).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
    assert!(body["error"]["details"]["events"].as_str().unwrap().contains("firearm.exploded"), "{body}");

    let (_, reason, body) = error_reason(post(json!({ "events": [] })).await).await;
    assert_eq!(reason, "INVALID_PARAMETER");
    assert!(body["error"]["details"]["url"].is_string() && body["error"]["details"]["events"].is_string());

    let wrong_types = json!({ "url": 5, "events": "firearm.created", "description": 7 });
    let (_, _, body) = error_reason(post(wrong_types).await).await;
    for field in ["url", "events", "description"] {
        assert!(body["error"]["details"][field].is_string(), "{field}: {body}");
    }

    let (id, _) = create(&app, &key, "https://hooks.example.com/", &["firearm.created"]).await;
    let path = format!("/v1/me/webhooks/{id}");
    let (status, _, body) =
        error_reason(send(&app, "PUT", &path, &key, Some(json!({ "enabled": "no" }))).await).await;
    assert_eq!(status, 400);
    assert!(body["error"]["details"]["enabled"].is_string());

    let invalid = app
        .client
        .post(app.url("/v1/me/webhooks"))
        .header("x-api-key", &key)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    let (status, reason, _) = error_reason(invalid).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_JSON"));

    let huge = json!({ "url": "https://hooks.example.com/", "events": ["firearm.created"],
                       "description": "x".repeat(1024 * 1024 + 1) });
    let (status, reason, body) = error_reason(send(&app, "PUT", &path, &key, Some(huge)).await).await;
    assert_eq!((status, reason.as_str()), (413, "PAYLOAD_TOO_LARGE"));
    assert_eq!(body["error"]["maxBytes"], 1024 * 1024);
}

async fn each_url_rule_is_refused_at_registration(backend: Backend) {
    let app = TestApp::spawn_with(backend, None, |config| {
        config.webhooks.public_hosts = vec!["api.armory.test".into()];
        config.webhooks.worker_domain = Some("workers.dev".into());
    })
    .await;
    let (_, _, key) = app.key(Plan::Enterprise).await;
    let long = format!("https://hooks.example.com/{}", "a".repeat(2048));
    let refused = [
        "http://hooks.example.com/",          // 1: https only
        "https://hooks.example.com:8443/",    // 1: port 443 only
        "https://93.184.216.34/",             // 2: no IP address...
        "https://2130706433/",                // ...in decimal
        "https://0x7f.1/",                    // ...in hex
        "https://0177.0.0.1/",                // ...in octal
        "https://127.1/",                     // ...short
        "https://[::1]/",                     // ...IPv6
        "https://[::ffff:7f00:1]/",           // ...mapped
        "https://user:pw@hooks.example.com/", // 2: no credentials
        "https://api.armory.test/hook",       // 3: not the service itself
        "https://fn.workers.dev/",            // 3: not the worker domain
        long.as_str(),                        // 5: at most 2,048 characters
        "not a url",
    ];
    for url in refused {
        let body = json!({ "url": url, "events": ["firearm.created"] });
        let (status, reason, body) =
            error_reason(send(&app, "POST", "/v1/me/webhooks", &key, Some(body)).await).await;
        assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"), "{url}");
        assert!(body["error"]["details"]["url"].is_string(), "{url}: {body}");
    }
    // Update is held to the same rules.
    let (id, _) = create(&app, &key, "https://hooks.example.com/", &["firearm.created"]).await;
    let change = json!({ "url": "https://10.0.0.1/" });
    let response = send(&app, "PUT", &format!("/v1/me/webhooks/{id}"), &key, Some(change)).await;
    let (status, _, body) = error_reason(response).await;
    assert_eq!(status, 400);
    assert!(body["error"]["details"]["url"].is_string());
}

/// Host names that can never be public are refused when registered (not only at delivery), each
/// with the rule it breaks; on update too.
async fn names_that_can_never_be_public_are_refused_at_registration(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, _, key) = app.key(Plan::Enterprise).await;
    for (url, rule) in [
        ("https://localhost./hook", "localhost"),
        ("https://foo.localhost/hook", "localhost"),
        ("https://intranet/hook", "single-label"),
        ("https://hooks.internal/hook", "internal"),
        ("https://printer.local/hook", "local"),
        ("https://nas.home.arpa/hook", "home.arpa"),
    ] {
        let body = json!({ "url": url, "events": ["firearm.created"] });
        let (status, reason, body) =
            error_reason(send(&app, "POST", "/v1/me/webhooks", &key, Some(body)).await).await;
        assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"), "{url}");
        let problem = body["error"]["details"]["url"].as_str().unwrap();
        assert!(problem.contains("public host") && problem.contains(rule), "{url}: {problem}");
    }
    let (id, _) = create(&app, &key, "https://hooks.example.com/", &["firearm.created"]).await;
    let change = json!({ "url": "https://hooks.internal/" });
    let (status, _, _) =
        error_reason(send(&app, "PUT", &format!("/v1/me/webhooks/{id}"), &key, Some(change)).await).await;
    assert_eq!(status, 400);
}

/// A name that spells a never-public address under a wildcard-DNS service is refused when it is
/// registered, with the same reason and problem as the address itself, and nothing is stored.
async fn wildcard_dns_names_of_never_public_addresses_are_refused_at_registration(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (_, _, key) = app.key(Plan::Enterprise).await;
    let register = |url: &str| {
        let body = json!({ "url": url, "events": ["firearm.created"] });
        send(&app, "POST", "/v1/me/webhooks", &key, Some(body))
    };
    let (_, _, literal) = error_reason(register("https://10.0.0.1/hook").await).await;
    let literal = literal["error"]["details"]["url"].as_str().unwrap().to_owned();
    for url in [
        "https://10.0.0.1.nip.io/hook",
        "https://192.168.1.10.sslip.io/hook",
        "https://hooks-127-0-0-1.nip.io/hook",
        "https://app.localtest.me/hook",
    ] {
        let (status, reason, body) = error_reason(register(url).await).await;
        assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"), "{url}");
        let problem = body["error"]["details"]["url"].as_str().unwrap();
        assert!(problem.starts_with(&literal), "{url}: {problem} (the address itself: {literal})");
    }
    let listed: Value = send(&app, "GET", "/v1/me/webhooks", &key, None).await.json().await.unwrap();
    assert_eq!(listed["data"], json!([]), "nothing refused was stored");
    let (id, _) = create(&app, &key, "https://hooks.example.com/", &["firearm.created"]).await;
    let change = json!({ "url": "https://10.0.0.1.nip.io/" });
    let (status, _, _) =
        error_reason(send(&app, "PUT", &format!("/v1/me/webhooks/{id}"), &key, Some(change)).await).await;
    assert_eq!(status, 400);
}
