//! Data quality in the open (93 to 97), each answer checked against the bundled data files read
//! here on their own (`catalog::load`), not against the service's own figures.

use std::path::Path;

use armory::access::plan::Plan;
use armory::catalog::load::load_dir;
use armory::catalog::model::Catalog;
use serde_json::Value;

use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app;
    the_gaps_count_the_records_lacking_each_field,
    the_records_behind_a_gap_are_those_lacking_it,
    records_are_listed_least_confident_first,
    the_coverage_counts_records_by_their_strongest_source,
    tasks_rank_thin_records_and_follow_demand,
);

fn bundled() -> Catalog {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap()
}

async fn read(app: &TestApp, path: &str, plan: Plan) -> Value {
    let (_, _, key) = app.key(plan).await;
    let response = app.get_with_key(path, &key).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

fn resource<'a>(data: &'a Value, name: &str) -> &'a Value {
    data["resources"].as_array().unwrap().iter().find(|r| r["resource"] == name).unwrap()
}

fn field<'a>(resource: &'a Value, name: &str) -> &'a Value {
    resource["fields"].as_array().unwrap().iter().find(|f| f["field"] == name).unwrap()
}

async fn the_gaps_count_the_records_lacking_each_field(app: TestApp) {
    let catalog = bundled();
    let response = app.get("/v1/data/gaps").await;
    assert_eq!(response.status(), 200, "no key is needed");
    let data = response.json::<Value>().await.unwrap()["data"].take();
    let names: Vec<&str> =
        data["resources"].as_array().unwrap().iter().map(|r| r["resource"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["firearms", "manufacturers", "calibers", "ammunition", "interfaces", "attachments", "platforms"]
    );

    let firearms = resource(&data, "firearms");
    assert_eq!(firearms["total"], catalog.firearms.len());
    let without_weight = catalog.firearms.iter().filter(|f| f.weight_empty_g.is_none()).count();
    assert_eq!(field(firearms, "weightEmptyG")["missing"], without_weight);
    let share = field(firearms, "weightEmptyG")["share"].as_f64().unwrap();
    assert!((share - without_weight as f64 / catalog.firearms.len() as f64).abs() < 0.0001);
    let unsourced = catalog.firearms.iter().filter(|f| f.sources.is_empty()).count();
    assert_eq!(field(firearms, "sources")["missing"], unsourced);

    let calibers = resource(&data, "calibers");
    assert_eq!(calibers["total"], catalog.calibers.len());
    let without_case = catalog.calibers.iter().filter(|c| c.case_length_mm.is_none()).count();
    assert_eq!(field(calibers, "caseLengthMm")["missing"], without_case);
    let loads = resource(&data, "ammunition");
    let without_bc = catalog.ammunition.iter().filter(|a| a.ballistic_coefficient_g1.is_none()).count();
    assert_eq!(field(loads, "ballisticCoefficientG1")["missing"], without_bc);
    let makers = resource(&data, "manufacturers");
    let without_year = catalog.manufacturers.iter().filter(|m| m.founded_year.is_none()).count();
    assert_eq!(field(makers, "foundedYear")["missing"], without_year);
    assert_eq!(resource(&data, "attachments")["total"], catalog.attachments.len());
}

async fn the_records_behind_a_gap_are_those_lacking_it(app: TestApp) {
    let catalog = bundled();
    let mut lacking: Vec<String> =
        catalog.firearms.iter().filter(|f| f.barrel_length_mm.is_none()).map(|f| f.id.clone()).collect();
    lacking.sort_unstable();
    let path = "/v1/data/gaps/records?resource=firearms&field=barrelLengthMm&per_page=100";
    let body = read(&app, path, Plan::Enterprise).await;
    assert_eq!(body["pagination"]["total"], lacking.len());
    let items = body["data"].as_array().unwrap();
    let ids: Vec<&str> = items.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        lacking[..100.min(lacking.len())].iter().map(String::as_str).collect::<Vec<_>>(),
        "in id order"
    );
    for item in items {
        let missing: Vec<&str> =
            item["missing"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        assert!(missing.contains(&"barrelLengthMm"), "{item}");
    }
    let second = read(&app, &format!("{path}&page=2"), Plan::Enterprise).await;
    if lacking.len() > 100 {
        assert_eq!(second["data"][0]["id"], lacking[100]);
    }

    // Another resource's field is refused naming this resource's fields; the plan is Enterprise.
    let (_, _, key) = app.key(Plan::Enterprise).await;
    let other = app.get_with_key("/v1/data/gaps/records?resource=firearms&field=foundedYear", &key).await;
    let (status, reason, body) = error_reason(other).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
    assert!(body["error"]["details"]["field"].as_str().unwrap().contains("weightEmptyG"), "{body}");
    let bare = app.get_with_key("/v1/data/gaps/records", &key).await;
    let (status, _, body) = error_reason(bare).await;
    assert_eq!(status, 400);
    assert!(body["error"]["details"]["resource"].is_string(), "{body}");
    let (_, _, studio) = app.key(Plan::Studio).await;
    let refused = app.get_with_key("/v1/data/gaps/records?resource=calibers", &studio).await;
    assert_eq!(error_reason(refused).await.0, 403);

    // Without a field: the records lacking any, each with all it lacks.
    let any = read(&app, "/v1/data/gaps/records?resource=manufacturers&per_page=5", Plan::Enterprise).await;
    assert!(any["data"].as_array().unwrap().iter().all(|r| !r["missing"].as_array().unwrap().is_empty()));
}

async fn records_are_listed_least_confident_first(app: TestApp) {
    let catalog = bundled();
    let under = |c: Option<f64>| c.is_none_or(|c| c < 0.7);
    let expected = catalog.firearms.iter().filter(|f| under(f.data_confidence)).count()
        + catalog.manufacturers.iter().filter(|m| under(m.data_confidence)).count()
        + catalog.calibers.iter().filter(|c| under(c.data_confidence)).count()
        + catalog.ammunition.iter().filter(|a| under(a.data_confidence)).count();
    let body = read(&app, "/v1/data/confidence?below=0.7&per_page=100", Plan::Enterprise).await;
    assert_eq!(body["pagination"]["total"], expected);
    let ranks: Vec<f64> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["dataConfidence"].as_f64().unwrap_or(-1.0))
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "least confident first: {ranks:?}");
    assert!(ranks.iter().all(|r| *r < 0.7));

    let calibers = read(&app, "/v1/data/confidence?resource=calibers&per_page=100", Plan::Enterprise).await;
    assert_eq!(calibers["pagination"]["total"], catalog.calibers.len());
    assert!(calibers["data"].as_array().unwrap().iter().all(|r| r["resource"] == "calibers"));
}

async fn the_coverage_counts_records_by_their_strongest_source(app: TestApp) {
    let catalog = bundled();
    let body = read(&app, "/v1/data/coverage", Plan::Builder).await;
    let firearms = resource(&body["data"], "firearms");
    assert_eq!(firearms["total"], catalog.firearms.len());
    let kinds = firearms["byBestSourceKind"].as_array().unwrap();
    assert_eq!(kinds[0]["kind"], "manufacturer", "strongest first");
    assert_eq!(kinds.last().unwrap()["kind"], "none");
    let counted: u64 = kinds.iter().map(|k| k["records"].as_u64().unwrap()).sum();
    assert_eq!(counted as usize, catalog.firearms.len(), "every record counted once");
    let from_makers = catalog
        .firearms
        .iter()
        .filter(|f| f.sources.iter().any(|s| s.kind.as_str() == "manufacturer"))
        .count();
    assert_eq!(kinds[0]["records"], from_makers);
    let verified = catalog.firearms.iter().filter(|f| f.verified_at.is_some()).count();
    assert_eq!(firearms["verified"], verified);

    let (_, _, explorer) = app.key(Plan::Explorer).await;
    assert_eq!(error_reason(app.get_with_key("/v1/data/coverage", &explorer).await).await.0, 403);
}

async fn tasks_rank_thin_records_and_follow_demand(app: TestApp) {
    let body = read(&app, "/v1/data/tasks", Plan::Explorer).await;
    let tasks = body["data"].as_array().unwrap();
    assert_eq!(tasks.len(), 50, "the default limit");
    let scores: Vec<f64> = tasks.iter().map(|t| t["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first: {scores:?}");
    for task in tasks {
        // The score is the documented formula over the fields listed.
        let weight = |state: &str| -> f64 {
            let fields = task["fields"].as_array().unwrap().iter().filter(|f| f["state"] == state);
            fields.map(|f| f["weight"].as_f64().unwrap()).sum()
        };
        let requests = task["requests"].as_f64().unwrap();
        let expected = (weight("missing") + 0.25 * weight("unverified")) * (1.0 + (1.0 + requests).ln());
        assert!((task["score"].as_f64().unwrap() - expected).abs() < 0.006, "{task}");
        assert!(task["why"].as_str().unwrap().ends_with('.'));
    }
    assert_eq!(
        read(&app, "/v1/data/tasks?limit=200", Plan::Explorer).await["data"].as_array().unwrap().len(),
        200
    );

    // A firearm people ask for rises: the thinnest firearm outside the top 50, requested 20 times.
    let all = read(&app, "/v1/data/tasks?limit=200", Plan::Explorer).await;
    let outside =
        all["data"].as_array().unwrap()[150..].iter().find(|t| t["resource"] == "firearms").unwrap();
    let id = outside["id"].as_str().unwrap();
    let (_, _, key) = app.key(Plan::Explorer).await;
    for _ in 0..20 {
        assert_eq!(app.get_with_key(&format!("/v1/firearms/{id}"), &key).await.status(), 200);
    }
    // Counts are written in batches; write this one now rather than wait for the next.
    app.state.access.usage.flush().await.unwrap();
    let after = read(&app, "/v1/data/tasks?limit=200", Plan::Explorer).await;
    let rows = after["data"].as_array().unwrap();
    let at = rows.iter().position(|t| t["id"] == id).expect("still listed");
    assert_eq!(rows[at]["requests"], 20);
    assert!(rows[at]["score"].as_f64().unwrap() > outside["score"].as_f64().unwrap() * 3.0);
    assert!(rows[at]["why"].as_str().unwrap().contains("requested 20 times"));
    assert!(at < 150, "it moved up from past 150 to {at}");
}
