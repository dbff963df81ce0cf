//! The examples in the description (src/http/openapi/examples.json): taken here, from a node over
//! the bundled catalog, and held current; the examples run (133) and the client run (134) as a
//! client sees them.
//!
//! The reads are the samples (`self_check::samples`, taken in process); the writes, the account's
//! and the shop's reads, an offer's link and the self-checks are a scripted session with a real key
//! over HTTP. `ARMORY_UPDATE_SNAPSHOTS=1` writes the file anew; rebuild and run it once more so the
//! self-checks' own examples show the new file, then update the description's snapshot.

use std::collections::BTreeMap;

use armory::access::operations;
use armory::access::plan::Plan;
use armory::http::openapi::examples::{Example, ExampleRequest, ExampleResponse, Examples};
use armory::http::self_check::agreement::{self, Compare};
use armory::http::self_check::arguments::Arguments;
use armory::http::self_check::{contract, examples, run, samples};
use serde_json::{Value, json};

use crate::account::webhooks::delivering;
use crate::account::webhooks::receiver::Receiver;
use crate::support::{Backend, TestApp, read_catalog_app, roomy_plans};

crate::on_each_database!(setup = example_app; the_examples_in_the_description_are_current);
crate::on_each_database!(setup = read_catalog_app;
    the_examples_run_passes_on_the_bundled_catalog,
    a_changed_example_fails_naming_where,
    the_client_run_reports_each_call,
);

/// The operations the bundled catalog cannot illustrate: it holds no attachment yet (they come
/// with the compatibility engine), so there is no attachment whose offers could be listed, and no
/// stored image file, so there is no image to serve by id.
const WITHOUT_EXAMPLE: [&str; 2] = ["listAttachmentOffers", "getFirearmImage"];

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/http/openapi/examples.json");

/// A node over the bundled catalog with game stats 2026.1 frozen, as `read_catalog_app`, that may
/// deliver webhooks to a loopback receiver.
async fn example_app(backend: Backend) -> TestApp {
    let app = TestApp::with_catalog(backend, |config| {
        config.plans = roomy_plans();
        delivering(config);
    })
    .await;
    armory::catalog::stats_versions::freeze(&app.state.db, "2026.1", Some("launch balance")).await.unwrap();
    app
}

/// One exchange over HTTP, kept as the example of the operation `method template`.
struct Session<'a> {
    app: &'a TestApp,
    key: String,
    taken: Examples,
}

impl Session<'_> {
    async fn send(
        &mut self,
        method: &str,
        template: &str,
        url: &str,
        body: Option<Value>,
        keyed: bool,
    ) -> Value {
        let mut request = self.app.client.request(method.parse().unwrap(), self.app.url(url));
        if keyed {
            request = request.header("x-api-key", &self.key);
        }
        if let Some(body) = &body {
            request = request.json(body);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        assert!((200..400).contains(&status), "{method} {url} answered {status}");
        let header =
            |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let (content_type, location) = (header("content-type").unwrap_or_default(), header("location"));
        let text = response.text().await.unwrap();
        let answer: Value = match location {
            Some(location) if text.is_empty() => Value::String(location),
            _ => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        };
        let mut kept = answer.clone();
        samples::cut(&mut kept);
        let name = operations::find(method, template).expect("a documented operation").name;
        let request = ExampleRequest { method: method.to_owned(), url: url.to_owned(), body };
        let response = ExampleResponse { status, content_type, body: kept };
        self.taken.insert(name.to_owned(), Example { request, response });
        answer
    }
}

/// Takes every operation's example on `app`.
async fn take(app: &TestApp) -> (Examples, Vec<String>) {
    let (account, key_id, key) = app.key(Plan::Enterprise).await;
    app.link_shop(&account, &key_id, "Example Arms", true).await;
    let arguments = Arguments::find(&app.state).await;
    let firearm = arguments.firearm.as_ref().unwrap().id.clone();
    let other = arguments.other_firearm.clone().unwrap();
    let mut s = Session { app, key, taken: Examples::new() };

    for id in [&firearm, &other] {
        s.send("POST", "/v1/me/favorites/{firearmId}", &format!("/v1/me/favorites/{id}"), None, true).await;
    }
    s.send("GET", "/v1/me/favorites", "/v1/me/favorites", None, true).await;
    s.send("GET", "/v1/me/favorites/ids", "/v1/me/favorites/ids", None, true).await;
    let shared = json!({ "name": "Service arms", "firearmIds": [firearm, other] });
    s.send("POST", "/v1/me/collections", "/v1/me/collections", Some(shared), true).await;

    let report = json!({ "firearm_id": firearm, "section": "weights", "issue_type": "incorrect",
                         "description": "The empty weight differs from the manufacturer's manual." });
    s.send("POST", "/v1/me/reports", "/v1/me/reports", Some(report), true).await;
    s.send("GET", "/v1/me/reports", "/v1/me/reports", None, true).await;

    let ticket =
        json!({ "subject": "Invoice for November", "description": "Please send the invoice again." });
    let created = s.send("POST", "/v1/me/support", "/v1/me/support", Some(ticket), true).await;
    let ticket = format!("/v1/me/support/{}", created["data"]["id"].as_str().unwrap());
    s.send("GET", "/v1/me/support", "/v1/me/support", None, true).await;
    s.send("GET", "/v1/me/support/{id}", &ticket, None, true).await;
    let reply = json!({ "message": "It should go to accounts@example.com." });
    s.send("POST", "/v1/me/support/{id}/replies", &format!("{ticket}/replies"), Some(reply), true).await;

    let endpoint = json!({ "url": "https://hooks.example.com/armory", "events": ["firearm.updated"] });
    let created = s.send("POST", "/v1/me/webhooks", "/v1/me/webhooks", Some(endpoint), true).await;
    let endpoint = format!("/v1/me/webhooks/{}", created["data"]["id"].as_str().unwrap());
    s.send("GET", "/v1/me/webhooks", "/v1/me/webhooks", None, true).await;
    s.send("GET", "/v1/me/webhooks/{endpointId}", &endpoint, None, true).await;
    let change = json!({ "events": ["firearm.updated", "firearm.created"], "description": "Catalog mirror" });
    s.send("PUT", "/v1/me/webhooks/{endpointId}", &endpoint, Some(change), true).await;
    // The test delivery goes to a loopback receiver, the only place a test may deliver to.
    let receiver = Receiver::start(&[], 200).await;
    let body = json!({ "url": receiver.url("/hook"), "events": ["firearm.updated"] });
    let reachable = s.app.client.post(s.app.url("/v1/me/webhooks")).header("x-api-key", &s.key).json(&body);
    let reachable: Value = reachable.send().await.unwrap().json().await.unwrap();
    let test = format!("/v1/me/webhooks/{}/test", reachable["data"]["id"].as_str().unwrap());
    s.send("POST", "/v1/me/webhooks/{endpointId}/test", &test, None, true).await;
    s.send("DELETE", "/v1/me/webhooks/{endpointId}", &endpoint, None, true).await;

    let offer = json!({ "sku": "ex-1001", "target": { "type": "firearm", "id": firearm }, "priceMinor": 64_900,
                        "currency": "USD", "url": "https://shop.example.com/p/ex-1001", "stock": "in_stock",
                        "condition": "new", "status": "published" });
    s.send("PUT", "/v1/vendor/offers", "/v1/vendor/offers", Some(json!({ "offers": [offer] })), true).await;
    let held = s.send("GET", "/v1/vendor/offers", "/v1/vendor/offers", None, true).await;
    let held = format!("/v1/vendor/offers/{}", held["data"][0]["id"].as_str().unwrap());
    s.send("GET", "/v1/vendor/shops", "/v1/vendor/shops", None, true).await;
    let price = json!({ "priceMinor": 62_900 });
    s.send("PATCH", "/v1/vendor/offers/{id}", &held, Some(price), true).await;
    let offers: Value =
        s.app.get_with_key(&format!("/v1/firearms/{firearm}/offers"), &s.key).await.json().await.unwrap();
    let offer_id = offers["data"][0]["id"].as_str().expect("the published offer is listed").to_owned();
    s.send("GET", "/v1/out/{offerId}", &format!("/v1/out/{offer_id}"), None, false).await;
    s.send("DELETE", "/v1/vendor/offers/{id}", &held, None, true).await;

    let tool_call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                            "params": { "name": "get_firearm", "arguments": { "id": firearm } } });
    s.send("POST", "/v1/mcp", "/v1/mcp", Some(tool_call), true).await;
    let names = json!({ "queries": ["m1 garand", "glock 17"] });
    s.send("POST", "/v1/firearms/resolve", "/v1/firearms/resolve", Some(names), true).await;
    s.send("DELETE", "/v1/me/favorites/{firearmId}", &format!("/v1/me/favorites/{other}"), None, true).await;
    s.send("GET", "/v1/me/usage", "/v1/me/usage", None, true).await;
    for check in ["/v1/contract", "/v1/docs/samples", "/v1/examples/verification", "/v1/sdk/verification"] {
        s.send("GET", check, check, None, false).await;
    }

    // The shared collection the samples read is the one this session shared: its id is the session's.
    let scripted: Vec<String> = s.taken.keys().cloned().chain(["getSharedCollection".to_owned()]).collect();
    let reads = samples::take(&app.state).await.unwrap();
    for sample in reads.samples {
        let name = operations::find(&sample.method, &sample.path).expect("a documented operation").name;
        let response = ExampleResponse {
            status: sample.response.status,
            content_type: sample.response.content_type.unwrap_or_default(),
            body: sample.response.body,
        };
        let request = ExampleRequest { method: sample.method, url: sample.request.url, body: None };
        s.taken.entry(name.to_owned()).or_insert(Example { request, response });
    }
    (s.taken, scripted)
}

async fn the_examples_in_the_description_are_current(app: TestApp) {
    let (fresh, scripted) = take(&app).await;
    let documented: Vec<String> = contract::served_description(&app.state)["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| {
            item.as_object().unwrap().values().map(|op| op["operationId"].as_str().unwrap().to_owned())
        })
        .collect();
    let mut missing: Vec<&String> = documented.iter().filter(|id| !fresh.contains_key(*id)).collect();
    missing.sort();
    let mut expected = WITHOUT_EXAMPLE;
    expected.sort();
    assert_eq!(missing, expected, "operations without an example");

    let committed: Examples = serde_json::from_str(&std::fs::read_to_string(FILE).unwrap()).unwrap();
    let mut stale = BTreeMap::new();
    for (name, example) in &fresh {
        let found = match committed.get(name) {
            Some(kept) => staleness(kept, example, scripted.contains(name)),
            None => vec!["no example in examples.json".to_owned()],
        };
        if !found.is_empty() {
            stale.insert(name.clone(), found);
        }
    }
    if std::env::var_os("ARMORY_UPDATE_SNAPSHOTS").is_some() && app.database.url.starts_with("sqlite:") {
        // Only the stale examples are taken anew, so a file that still holds is not rewritten.
        let mut kept = committed;
        kept.retain(|name, _| fresh.contains_key(name));
        for name in stale.keys() {
            kept.insert(name.clone(), fresh[name].clone());
        }
        std::fs::write(FILE, serde_json::to_string_pretty(&kept).unwrap() + "\n").unwrap();
        return;
    }
    assert!(
        stale.is_empty(),
        "examples.json no longer matches the bundled catalog; rerun with ARMORY_UPDATE_SNAPSHOTS=1 (twice, \
         then the description's snapshot): {stale:#?}"
    );
}

/// Where the example in the file no longer holds for a fresh one. A scripted exchange's ids are
/// its own session's, so it is compared by shape and its request by method and body; a random
/// draw and a deployment's own stores by status; a self-check's report by its verdict and totals.
fn staleness(kept: &Example, fresh: &Example, scripted: bool) -> Vec<String> {
    let (before, now) = (&kept.response.body, &fresh.response.body);
    let url = kept.request.url.split('?').next().unwrap_or_default();
    let mut found = if run::SELF_CHECKS.contains(&url) {
        let verdict = |body: &Value| (body["data"]["passed"].clone(), body["data"]["totals"].clone());
        match verdict(before) == verdict(now) {
            true => Vec::new(),
            false => vec![format!("the verdict {:?} in the file, {:?} now", verdict(before), verdict(now))],
        }
    } else if examples::BODY_NOT_COMPARED.contains(&url) {
        Vec::new()
    } else {
        agreement::differences(before, now, if scripted { Compare::Shape } else { Compare::Values })
    };
    if kept.response.status != fresh.response.status {
        found.push(format!("status {} in the file, {} now", kept.response.status, fresh.response.status));
    }
    let same_request = match scripted {
        true => (&kept.request.method, &kept.request.body) == (&fresh.request.method, &fresh.request.body),
        false => kept.request == fresh.request,
    };
    if !same_request {
        found.push(format!("request {:?} in the file, {:?} now", kept.request, fresh.request));
    }
    found
}

fn checks<'a>(run: &'a Value, list: &str) -> &'a Vec<Value> {
    run[list].as_array().expect("the run lists its checks")
}

async fn the_examples_run_passes_on_the_bundled_catalog(app: TestApp) {
    let response = app.get("/v1/examples/verification").await;
    assert_eq!(response.status(), 200);
    let run = response.json::<Value>().await.unwrap()["data"].take();
    // The only failures are the operations the bundled catalog cannot illustrate, not hidden.
    let failures = checks(&run, "failures");
    assert_eq!(failures.len(), WITHOUT_EXAMPLE.len(), "{failures:#?}");
    for failure in failures {
        assert!(WITHOUT_EXAMPLE.contains(&failure["operationId"].as_str().unwrap()), "{failure}");
        assert_eq!(failure["reason"], "the description carries no response example");
    }
    assert_eq!(run["passed"], false);
    let operations = checks(&run, "operations");
    let passed = operations.iter().filter(|op| op["status"] == "passed").count();
    assert!(passed >= 75, "{}", run["totals"]);
    let by_path = |path: &str| operations.iter().find(|op| op["path"] == path).unwrap();
    assert_eq!(by_path("/v1/firearms/{id}")["status"], "passed");
    assert_eq!(by_path("/v1/firearms/{id}")["httpStatus"], 200);
    let skipped = by_path("/v1/me/webhooks");
    assert_eq!(skipped["status"], "skipped");
    assert!(skipped["reason"].as_str().unwrap().starts_with("not run against the live service"), "{skipped}");
    assert!(by_path("/v1/examples/verification")["reason"].as_str().unwrap().contains("self-check"));
}

async fn a_changed_example_fails_naming_where(app: TestApp) {
    let mut description = contract::served_description(&app.state);
    let example = &mut description["paths"]["/v1/firearms/{id}"]["get"]["responses"]["200"]["content"]["application/json"]
        ["example"];
    assert!(example["data"]["name"].is_string(), "the firearm's example names it");
    example["data"]["name"] = json!("Not its name");
    description["paths"]["/v1/calibers/{id}"]["get"]["responses"]["200"]["content"]["application/json"]
        .as_object_mut()
        .unwrap()
        .remove("example");
    let run = serde_json::to_value(examples::run(&app.state, &description).await.unwrap()).unwrap();
    assert_eq!(run["passed"], false);
    let failures = checks(&run, "failures");
    let reason =
        |path: &str| failures.iter().find(|f| f["path"] == path).unwrap()["reason"].as_str().unwrap();
    assert!(reason("/v1/firearms/{id}").contains("differs from the example at /data/name"), "{failures:#?}");
    assert_eq!(reason("/v1/calibers/{id}"), "the description carries no response example");
    assert_eq!(
        failures.len(),
        2 + WITHOUT_EXAMPLE.len(),
        "the two changed and the ones without an example: {failures:#?}"
    );
}

async fn the_client_run_reports_each_call(app: TestApp) {
    let response = app.get("/v1/sdk/verification").await;
    assert_eq!(response.status(), 200);
    let run = response.json::<Value>().await.unwrap()["data"].take();
    assert_eq!((run["client"].as_str(), run["version"].as_str()), (Some("gunspec"), Some("0.9.0")));
    let calls = checks(&run, "calls");
    assert!(calls.len() >= 130, "every recorded call: {}", calls.len());
    let call =
        |name: &str| calls.iter().find(|c| c["call"] == name).unwrap_or_else(|| panic!("{name} is listed"));
    let get = call("firearms.get");
    assert_eq!((get["status"].as_str(), get["operationId"].as_str()), (Some("passed"), Some("getFirearm")));
    assert!(get["url"].as_str().unwrap().starts_with("/v1/firearms/"));
    assert_eq!(call("collections.get_shared")["status"], "skipped", "no collection was shared here");
    assert_eq!(call("favorites.add")["status"], "skipped");
    // A route this node does not serve fails, naming the answer it got.
    let ballistics = call("ammunition.ballistics");
    assert_eq!(ballistics["status"], "failed");
    assert!(ballistics["operationId"].is_null());
    assert!(ballistics["reason"].as_str().unwrap().contains("404 (ROUTE_NOT_FOUND)"), "{ballistics}");
    // Every call that reaches a documented operation passes or says why it was not made.
    for check in calls.iter().filter(|c| c["operationId"].is_string()) {
        assert_ne!(check["status"], "failed", "{check}");
    }
    assert_eq!(run["passed"], false, "the unserved routes fail the run");
    assert_eq!(run["failures"].as_array().unwrap().len(), run["totals"]["failed"].as_u64().unwrap() as usize);
}
