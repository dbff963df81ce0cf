//! The published contract, checked from inside: every documented operation's normal answer, on
//! the bundled catalog, holds to the response schema `/openapi.json` publishes for it, in the full
//! view (Enterprise) and, where the plan reaches, in Explorer's summary view.

use std::collections::BTreeSet;

use armory::access::operations;
use armory::access::plan::Plan;
use armory::http::self_check::arguments::Arguments;
use armory::http::self_check::json_schema::Checker;
use serde_json::{Value, json};

use crate::account::webhooks::receiver::Receiver;
use crate::support::{Backend, TestApp, roomy_plans, sample_path};

crate::on_each_database!(setup = contract_app; every_documented_answer_holds_to_its_published_schema);

/// The bundled catalog with a frozen game-stats version, roomy limits, and webhook deliveries
/// allowed to a loopback receiver (for the test delivery).
async fn contract_app(backend: Backend) -> TestApp {
    let app = TestApp::with_catalog(backend, |config| {
        config.plans = roomy_plans();
        crate::account::webhooks::delivering(config);
    })
    .await;
    armory::catalog::stats_versions::freeze(&app.state.db, "2026.1", Some("launch balance")).await.unwrap();
    app
}

/// Operations the loop over the description does not call, because each needs a state of its
/// own; `exercise_apart` calls every one of them.
const EXERCISED_APART: [(&str, &str); 8] = [
    ("get", "/v1/out/{offerId}"),
    ("get", "/v1/attachments/{id}/offers"),
    ("get", "/v1/firearms/{id}/images/{imageId}"),
    ("post", "/v1/me/favorites/{firearmId}"),
    ("delete", "/v1/me/favorites/{firearmId}"),
    ("post", "/v1/me/webhooks/{endpointId}/test"),
    ("patch", "/v1/vendor/offers/{id}"),
    ("delete", "/v1/vendor/offers/{id}"),
];

/// Writes whose answers are checked before the loop (they make what the reads show) or after it.
const WRITES_AROUND_THE_LOOP: [(&str, &str); 6] = [
    ("post", "/v1/me/webhooks"),
    ("post", "/v1/me/collections"),
    ("post", "/v1/me/reports"),
    ("post", "/v1/me/support"),
    ("post", "/v1/me/support/{id}/replies"),
    ("delete", "/v1/me/webhooks/{endpointId}"),
];

async fn every_documented_answer_holds_to_its_published_schema(app: TestApp) {
    let document = serde_json::to_value(armory::http::routes::openapi_document()).unwrap();
    let checker = Checker::new(&document);
    let (account, key_id, enterprise) = app.key(Plan::Enterprise).await;
    // The Enterprise key acts for an approved shop with one published offer, so the vendor reads
    // and the buyers' list answer with data.
    app.link_shop(&account, &key_id, "Contract Arms", true).await;
    let offers = json!({ "offers": [{
        "sku": "contract-1",
        "target": { "type": "firearm", "id": "glock-17" },
        "priceMinor": 59_900,
        "currency": "USD",
        "url": "https://shop.example.com/glock-17",
    }] });
    let put = app.client.put(app.url("/v1/vendor/offers")).header("x-api-key", &enterprise).json(&offers);
    assert_eq!(put.send().await.unwrap().status(), 200);
    let (_, _, explorer) = app.key(Plan::Explorer).await;
    let created = app
        .client
        .post(app.url("/v1/me/webhooks"))
        .header("x-api-key", &enterprise)
        .json(&json!({ "url": "https://hooks.example.com/armory", "events": ["firearm.updated"] }))
        .send()
        .await
        .unwrap();
    let created_body: Value = created.json().await.unwrap();
    let endpoint = created_body["data"]["id"].as_str().expect("an endpoint was created").to_owned();

    let published: Value = app
        .client
        .post(app.url("/v1/me/collections"))
        .header("x-api-key", &enterprise)
        .json(&json!({ "name": "Contract", "firearmIds": ["glock-17", "ak-47"] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let share_id = published["data"]["shareId"].as_str().expect("a collection was published").to_owned();

    // A report, and a ticket with a reply, so their lists and the ticket read have something to show;
    // the answers to the POSTs are checked too.
    let mut posted = Vec::new();
    let writes = [
        (
            "/v1/me/reports".to_owned(),
            json!({ "firearm_id": "glock-17", "section": "weights",
            "issue_type": "incorrect", "description": "The empty weight looks too low.",
            "references": ["https://example.com/glock-17"], "suggested_value": 625 }),
        ),
        (
            "/v1/me/support".to_owned(),
            json!({ "subject": "Contract", "description": "A question.",
            "attachments": [{ "name": "a.png", "url": "https://example.com/a.png" }] }),
        ),
    ];
    for (path, body) in writes {
        let response = app
            .client
            .post(app.url(&path))
            .header("x-api-key", &enterprise)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201, "POST {path}");
        posted.push((path, response.json::<Value>().await.unwrap()));
    }
    let ticket = posted[1].1["data"]["id"].as_str().expect("a ticket was opened").to_owned();
    let replies = format!("/v1/me/support/{ticket}/replies");
    let reply = app.client.post(app.url(&replies)).header("x-api-key", &enterprise);
    let reply = reply.json(&json!({ "message": "More detail." })).send().await.unwrap();
    assert_eq!(reply.status(), 201);
    posted.push(("/v1/me/support/{id}/replies".to_owned(), reply.json().await.unwrap()));
    for (template, answer) in &posted {
        let schema = &document["paths"][template.as_str()]["post"]["responses"]["201"]["content"]["application/json"]
            ["schema"];
        assert!(
            checker.problems(schema, answer).is_empty(),
            "POST {template}: {:?}",
            checker.problems(schema, answer)
        );
    }

    let arguments = Arguments::find(&app.state).await;
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut exercised = BTreeSet::new();
    for (template, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let sample = if template.contains("{shareId}") {
                &share_id
            } else if template.starts_with("/v1/me/support/") {
                &ticket
            } else {
                &endpoint
            };
            let query =
                arguments.required_query(method, template).expect("the bundled catalog has every argument");
            // Only parameters become "sample" (a path such as /v1/docs/samples holds the word).
            let path = if template.contains('{') {
                sample_path(template).replace("sample", sample)
            } else {
                template.clone()
            } + &query;
            let operation_id = (method.as_str(), template.as_str());
            let body = match operation_id {
                _ if EXERCISED_APART.contains(&operation_id)
                    || WRITES_AROUND_THE_LOOP.contains(&operation_id) =>
                {
                    continue;
                }
                ("get", _) => None,
                ("post", "/v1/firearms/resolve") => Some(json!({ "queries": ["ak47", "glock 17"] })),
                ("post", "/v1/mcp") => Some(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" })),
                ("put", "/v1/me/webhooks/{endpointId}") => Some(json!({ "description": "contract" })),
                ("put", "/v1/vendor/offers") => Some(offers.clone()),
                _ => panic!("{method} {template} is documented but this test does not call it: add it"),
            };
            exercised.insert((method.clone(), template.clone()));
            let row = operations::find(&method.to_uppercase(), template).unwrap();
            let mut keys = vec![&enterprise];
            if row.min_plan == Some(Plan::Explorer) && !template.starts_with("/v1/me") {
                keys.push(&explorer);
            }
            for key in keys {
                let mut request = app.client.request(method.to_uppercase().parse().unwrap(), app.url(&path));
                request = request.header("x-api-key", key.as_str());
                if let Some(body) = &body {
                    request = request.json(body);
                }
                let response = request.send().await.unwrap();
                let status = response.status().as_u16().to_string();
                assert!(status.starts_with('2'), "{method} {path} answered {status}");
                let media_type = response.headers()["content-type"]
                    .to_str()
                    .unwrap()
                    .split(';')
                    .next()
                    .unwrap()
                    .to_owned();
                if media_type != "application/json" {
                    // A document that is not JSON (the Atom feed): its media type is the documented one.
                    let documented = &operation["responses"][&status]["content"][&media_type];
                    assert!(!documented.is_null(), "{method} {template} documents {media_type} for {status}");
                    checked += 1;
                    continue;
                }
                let answer: Value = response.json().await.unwrap();
                let schema = &operation["responses"][&status]["content"]["application/json"]["schema"];
                assert!(!schema.is_null(), "{method} {template} publishes a schema for {status}");
                let problems = checker.problems(schema, &answer);
                if let Some(first) = problems.first() {
                    let plan = if *key == enterprise { "enterprise" } else { "explorer" };
                    failures
                        .push(format!("{method} {path} ({plan}): {first} (+{} more)", problems.len() - 1));
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "answers that break their schema:\n{}", failures.join("\n"));
    let deleted = app
        .client
        .delete(app.url(&format!("/v1/me/webhooks/{endpoint}")))
        .header("x-api-key", &enterprise)
        .send()
        .await
        .unwrap();
    let schema = &document["paths"]["/v1/me/webhooks/{endpointId}"]["delete"]["responses"]["200"]["content"]
        ["application/json"]["schema"];
    let problems = checker.problems(schema, &deleted.json().await.unwrap());
    assert!(problems.is_empty(), "DELETE: {problems:#?}");
    let schema = &document["paths"]["/v1/me/webhooks"]["post"]["responses"]["201"]["content"]["application/json"]
        ["schema"];
    assert!(checker.problems(schema, &created_body).is_empty(), "POST /v1/me/webhooks");
    assert!(checked >= 60, "every documented operation was checked ({checked} answers)");

    exercise_apart(&app, &checker, &document, &enterprise).await;
    exercised.extend(
        EXERCISED_APART.iter().chain(&WRITES_AROUND_THE_LOOP).map(|(m, t)| (m.to_string(), t.to_string())),
    );
    let documented: BTreeSet<(String, String)> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(template, item)| {
            item.as_object().unwrap().keys().map(|method| (method.clone(), template.clone()))
        })
        .collect();
    let missed: Vec<_> = documented.difference(&exercised).collect();
    assert!(missed.is_empty(), "documented operations this test never called: {missed:?}");
}

/// Calls each operation of `EXERCISED_APART` in the state it needs and holds its answer to the
/// published schema of its status.
async fn exercise_apart(app: &TestApp, checker: &Checker<'_>, document: &Value, key: &str) {
    let send = |method: &str, path: String, body: Option<Value>| {
        let mut request = app
            .client
            .request(method.to_uppercase().parse().unwrap(), app.url(&path))
            .header("x-api-key", key);
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send()
    };
    let holds = |method: &str, template: &str, status: u16, answer: &Value| {
        let schema = &document["paths"][template][method]["responses"][status.to_string()]["content"]["application/json"]
            ["schema"];
        assert!(!schema.is_null(), "{method} {template} publishes a schema for {status}");
        let problems = checker.problems(schema, answer);
        assert!(problems.is_empty(), "{method} {template} ({status}): {problems:#?}");
    };

    for method in ["post", "delete"] {
        let response = send(method, "/v1/me/favorites/glock-17".to_owned(), None).await.unwrap();
        assert_eq!(response.status(), 200, "{method} a favorite");
        holds(method, "/v1/me/favorites/{firearmId}", 200, &response.json().await.unwrap());
    }

    let receiver = Receiver::start(&[], 204).await;
    let created = send(
        "post",
        "/v1/me/webhooks".to_owned(),
        Some(json!({ "url": receiver.url("/hook"), "events": ["firearm.updated"] })),
    );
    let created: Value = created.await.unwrap().json().await.unwrap();
    let endpoint = created["data"]["id"].as_str().expect("a loopback endpoint was created");
    let tested = send("post", format!("/v1/me/webhooks/{endpoint}/test"), None).await.unwrap();
    assert_eq!(tested.status(), 200);
    let tested: Value = tested.json().await.unwrap();
    assert_eq!(tested["data"]["status"], 204, "the receiver was reached: {tested}");
    holds("post", "/v1/me/webhooks/{endpointId}/test", 200, &tested);
    assert_eq!(receiver.count(), 1);

    // The buyers' link answers a redirect with no body; its Location is the shop's page.
    let listed = send("get", "/v1/firearms/glock-17/offers".to_owned(), None).await.unwrap();
    let listed: Value = listed.json().await.unwrap();
    let link = listed["data"][0]["url"].as_str().expect("the published offer is listed");
    let redirect = app.client.get(app.url(link)).send().await.unwrap();
    assert_eq!(redirect.status(), 302);
    assert_eq!(redirect.headers()["location"], "https://shop.example.com/glock-17");

    // The bundled catalog holds no attachment yet, so an attachment's offers are its documented 404.
    let missing = send("get", "/v1/attachments/no-such-attachment/offers".to_owned(), None).await.unwrap();
    assert_eq!(missing.status(), 404);
    holds("get", "/v1/attachments/{id}/offers", 404, &missing.json().await.unwrap());
    // Nor any stored image file, so an image by id is its documented 404.
    let missing = send("get", "/v1/firearms/glock-17/images/1".to_owned(), None).await.unwrap();
    assert_eq!(missing.status(), 404);
    holds("get", "/v1/firearms/{id}/images/{imageId}", 404, &missing.json().await.unwrap());

    let held: Value = send("get", "/v1/vendor/offers".to_owned(), None).await.unwrap().json().await.unwrap();
    let offer = held["data"][0]["id"].as_str().expect("the shop holds its offer").to_owned();
    let changed = send("patch", format!("/v1/vendor/offers/{offer}"), Some(json!({ "priceMinor": 54_900 })));
    let changed = changed.await.unwrap();
    assert_eq!(changed.status(), 200);
    holds("patch", "/v1/vendor/offers/{id}", 200, &changed.json().await.unwrap());
    let deleted = send("delete", format!("/v1/vendor/offers/{offer}"), None).await.unwrap();
    assert_eq!(deleted.status(), 200);
    holds("delete", "/v1/vendor/offers/{id}", 200, &deleted.json().await.unwrap());
}
