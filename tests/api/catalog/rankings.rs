//! The rankings (11 to 19) and a maker's history (44, 45) against the bundled data, each figure
//! worked out in the test from the data files.

use std::path::Path;

use armory::access::plan::Plan;
use armory::catalog::load::load_dir;
use armory::catalog::model::{Catalog, Firearm};
use serde_json::{Value, json};

use crate::support::TestApp;

crate::on_each_database!(setup = crate::support::read_catalog_app;
    rankings_agree_with_the_data,
    explorer_sees_list_items_in_slices);

fn catalog() -> Catalog {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap()
}

async fn body(app: &TestApp, key: &str, path: &str) -> Value {
    let response = app.get_with_key(path, key).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap().to_owned()).collect()
}

fn by_name(a: &&Firearm, b: &&Firearm) -> std::cmp::Ordering {
    a.name.to_lowercase().cmp(&b.name.to_lowercase()).then(a.id.cmp(&b.id))
}

async fn rankings_agree_with_the_data(app: TestApp) {
    let catalog = catalog();
    let (_, _, key) = app.key(Plan::Studio).await;
    let key = key.as_str();

    // One ranking worked out: the five heaviest pistols, ties by name, unknown weights never ranked.
    let top =
        body(&app, key, "/v1/firearms/top?stat=heaviest&category=pistols&limit=5").await["data"].clone();
    let mut pistols: Vec<&Firearm> = catalog
        .firearms
        .as_typed()
        .iter()
        .map(|f| &**f)
        .filter(|f| f.category_id == "pistols" && f.weight_empty_g.is_some())
        .collect();
    pistols
        .sort_by(|a, b| b.weight_empty_g.unwrap().total_cmp(&a.weight_empty_g.unwrap()).then(by_name(a, b)));
    let expected: Vec<String> = pistols.iter().take(5).map(|f| f.id.clone()).collect();
    assert_eq!(ids(&top["firearms"]), expected);
    assert_eq!(top["firearms"][0]["rank"], 1);
    assert_eq!(top["firearms"][0]["value"], json!(pistols[0].weight_empty_g.unwrap()));
    assert_eq!(top["firearms"][0]["unit"], "g");
    assert_eq!((top["field"].as_str(), top["better"].as_str()), (Some("weightEmptyG"), Some("higher")));
    let oldest = body(&app, key, "/v1/firearms/top?stat=oldest&limit=25").await["data"]["firearms"].clone();
    let years: Vec<i64> = oldest.as_array().unwrap().iter().map(|f| f["value"].as_i64().unwrap()).collect();
    assert_eq!(years.len(), 25);
    assert!(years.windows(2).all(|w| w[0] <= w[1]));

    let duel = body(&app, key, "/v1/firearms/head-to-head?a=glock-17&b=ak-47").await["data"].clone();
    let weight = duel["fields"].as_array().unwrap().iter().find(|f| f["field"] == "weightEmptyG").unwrap();
    assert_eq!(
        (weight["better"].as_str(), weight["winner"].as_str()),
        (Some("lower"), Some("a")),
        "{weight}"
    );
    let wins: u64 = duel["fields"].as_array().unwrap().iter().filter(|f| f["winner"] == "a").count() as u64;
    assert_eq!(duel["wins"]["a"], wins);

    // One score worked out: the power rating of the first rated rifle from its own inputs.
    let rated = body(&app, key, "/v1/firearms/power-rating?category=rifles&per_page=100").await;
    let first = &rated["data"][0];
    let power = &first["power"];
    let rate = power["rateOfFireRpm"].as_f64().unwrap_or(60.0);
    let score = (power["muzzleEnergyJ"].as_f64().unwrap() * (rate / 60.0).sqrt() * 10.0).round() / 10.0;
    assert_eq!(power["score"].as_f64().unwrap(), score);
    let scores: Vec<f64> =
        rated["data"].as_array().unwrap().iter().map(|f| f["power"]["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "highest first");
    let rifle = catalog.firearms.as_typed().iter().find(|f| f.id == first["id"].as_str().unwrap()).unwrap();
    assert_eq!(power["energySource"], if rifle.muzzle_energy_j.is_some() { "firearm" } else { "cartridge" });

    let timeline = body(&app, key, "/v1/firearms/timeline?from=1900&to=1919&per_page=100").await;
    let expected = catalog
        .firearms
        .iter()
        .filter(|f| f.year_introduced.is_some_and(|y| (1900..=1919).contains(&y)))
        .count();
    assert_eq!(timeline["pagination"]["total"], expected);
    let years: Vec<i64> =
        timeline["data"].as_array().unwrap().iter().map(|f| f["yearIntroduced"].as_i64().unwrap()).collect();
    assert!(years.windows(2).all(|w| w[0] <= w[1]));

    let count_where =
        |keep: &dyn Fn(&Firearm) -> bool| catalog.firearms.as_typed().iter().filter(|f| keep(f)).count();
    let total = |path: &str| {
        let path = path.to_owned();
        let app = &app;
        async move { body(app, key, &path).await["pagination"]["total"].as_u64().unwrap() as usize }
    };
    assert_eq!(
        total("/v1/firearms/by-designer?designer=KALASHNIKOV").await,
        count_where(&|f| f.designer.as_deref().is_some_and(|d| d.to_lowercase().contains("kalashnikov")))
    );
    assert_eq!(
        total("/v1/firearms/by-conflict?conflict=vietnam").await,
        count_where(&|f| f.conflicts.iter().flatten().any(|c| c.name.to_lowercase().contains("vietnam")))
    );
    assert_eq!(
        total("/v1/firearms/by-action?action=bolt_action").await,
        count_where(&|f| f.action_type.as_deref() == Some("bolt_action"))
    );
    assert_eq!(
        total("/v1/firearms/by-material?material=Polymer&component=frame").await,
        count_where(&|f| f.frame_material.as_deref().is_some_and(|m| m.to_lowercase().contains("polymer")))
    );
    assert_eq!(
        total("/v1/firearms/by-feature?feature=rail&category=pistols").await,
        count_where(&|f| f.category_id == "pistols"
            && f.features.iter().flatten().any(|x| x.to_lowercase().contains("rail")))
    );

    let glock: Vec<&Firearm> =
        catalog.firearms.as_typed().iter().map(|f| &**f).filter(|f| f.manufacturer_id == "glock").collect();
    let stats = body(&app, key, "/v1/manufacturers/glock/stats").await["data"].clone();
    assert_eq!(stats["firearmCount"], glock.len());
    let pistols =
        stats["byCategory"].as_array().unwrap().iter().find(|c| c["category"] == "pistols").unwrap();
    assert_eq!(pistols["count"], glock.iter().filter(|f| f.category_id == "pistols").count());
    let history = body(&app, key, "/v1/manufacturers/glock/timeline").await["data"].clone();
    let first_year = glock.iter().filter_map(|f| f.year_introduced).min().unwrap();
    assert_eq!(history["years"][0]["year"], first_year);
    let listed: usize = history["years"]
        .as_array()
        .unwrap()
        .iter()
        .map(|y| y["firearms"].as_array().unwrap().len())
        .sum::<usize>()
        + history["unknownYear"].as_array().unwrap().len();
    assert_eq!(listed, glock.len());
}

async fn explorer_sees_list_items_in_slices(app: TestApp) {
    let (_, _, explorer) = app.key(Plan::Explorer).await;
    let (_, _, builder) = app.key(Plan::Builder).await;
    let path = "/v1/firearms/by-action?action=short_recoil&per_page=1";
    let summary = body(&app, &explorer, path).await;
    let full = body(&app, &builder, path).await;
    assert_eq!(summary["data"][0]["id"], full["data"][0]["id"]);
    let keys = |item: &Value| item.as_object().unwrap().len();
    assert!(keys(&summary["data"][0]) < keys(&full["data"][0]), "Explorer gets the summary fields");
    assert!(summary["pagination"]["total"].is_null(), "and no totals");
}

crate::on_each_database!(two_nodes_agree_on_the_popular_firearms);

/// Detail requests on two nodes count towards one list, read back from the shared database.
async fn two_nodes_agree_on_the_popular_firearms(backend: crate::support::Backend) {
    use std::time::Duration;
    let first = TestApp::with_catalog(backend, |config| config.plans = crate::support::roomy_plans()).await;
    let db = armory::db::Db::connect(&first.database.url).await.unwrap();
    let mut config = armory::config::Config::for_database(first.database.url.clone());
    config.plans = crate::support::roomy_plans();
    let second = armory::app::App::with_db(config, db, None).await.unwrap();
    let second_addr = second.local_addr();
    let stop_second = second.shutdown();
    tokio::spawn(second.run());
    let (_, _, key) = first.key(Plan::Explorer).await;
    tokio::time::sleep(Duration::from_millis(600)).await; // the second node's key cache polls every 250 ms

    let on_second = |path: &str| format!("http://{second_addr}{path}");
    for _ in 0..3 {
        assert_eq!(first.get_with_key("/v1/firearms/ak-47", &key).await.status(), 200);
    }
    for _ in 0..2 {
        let response =
            first.client.get(on_second("/v1/firearms/glock-17")).header("x-api-key", &key).send().await;
        assert_eq!(response.unwrap().status(), 200);
    }
    let response =
        first.client.get(on_second("/v1/firearms/glock-17")).header("x-api-key", &key).send().await;
    assert_eq!(response.unwrap().status(), 200);
    assert_eq!(first.get_with_key("/v1/firearms/glock-17", &key).await.status(), 200);
    assert_eq!(first.get_with_key("/v1/firearms/no-such-gun", &key).await.status(), 404);

    // Each node flushes every 2 seconds; then both answer the same list.
    let expected = json!([["glock-17", 4], ["ak-47", 3]]);
    let rows = |body: &Value| -> Value {
        json!(
            body["data"]["firearms"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| json!([f["id"], f["requests"]]))
                .collect::<Vec<_>>()
        )
    };
    let started = std::time::Instant::now();
    loop {
        let here: Value = body(&first, &key, "/v1/popular/firearms?days=1").await;
        let there: Value = first
            .client
            .get(on_second("/v1/popular/firearms?days=1"))
            .header("x-api-key", &key)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if rows(&here) == expected && rows(&there) == expected {
            assert_eq!(here["data"]["firearms"][0]["rank"], 1);
            assert!(here["data"]["firearms"][0].get("muzzleVelocityMps").is_none(), "Explorer's list item");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{here} / {there}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    stop_second.trigger();
}

/// The list after `label` in a description, up to the next full stop: "Lower wins: a, b." -> [a, b].
fn listed_after<'a>(description: &'a str, label: &str) -> Vec<&'a str> {
    let start =
        description.find(label).unwrap_or_else(|| panic!("'{label}' in: {description}")) + label.len();
    let rest = &description[start..];
    rest[..rest.find('.').unwrap()].split(", ").map(str::trim).collect()
}

/// Each ranking's description says which end ranks first; every answer agrees with it: for
/// `/v1/firearms/top`, each stat's `better` and the order of its values, for head-to-head, each
/// field's `better`.
#[tokio::test]
async fn every_ranking_does_what_its_description_says() {
    let app = crate::support::read_catalog_app(crate::support::Backend::Sqlite).await;
    let (_, _, key) = app.key(Plan::Studio).await;
    let doc: Value = app.get("/openapi.json").await.json().await.unwrap();
    let describe = |path: &str| doc["paths"][path]["get"]["description"].as_str().unwrap().to_owned();

    let top = describe("/v1/firearms/top");
    let published: Vec<String> = doc["paths"]["/v1/firearms/top"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "stat")
        .unwrap()["schema"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let (mut described, mut ordered_stats) = (0, 0);
    for (label, better) in [("Lowest figure first: ", "lower"), ("Highest figure first: ", "higher")] {
        for entry in listed_after(&top, label) {
            let (stat, field) = entry.split_once(" (").unwrap();
            let field = field.trim_end_matches(')');
            let answer = body(&app, &key, &format!("/v1/firearms/top?stat={stat}&limit=25")).await;
            assert_eq!(answer["data"]["better"], better, "{stat}: the description says {better} first");
            assert_eq!(answer["data"]["field"], field, "{stat}");
            let values: Vec<f64> = answer["data"]["firearms"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["value"].as_f64().unwrap())
                .collect();
            // A stat no firearm states (muzzle energy, so far) ranks nothing, and says so just the same.
            ordered_stats += usize::from(values.len() > 1);
            let ordered =
                values.windows(2).all(|w| if better == "lower" { w[0] <= w[1] } else { w[0] >= w[1] });
            assert!(ordered, "{stat}: {values:?} are not {better} first");
            described += 1;
        }
    }
    assert_eq!(described, published.len(), "every published stat is described: {top}");
    assert!(ordered_stats >= 8, "only {ordered_stats} stats ranked two firearms or more");

    let head_to_head = describe("/v1/firearms/head-to-head");
    let answer = body(&app, &key, "/v1/firearms/head-to-head?a=glock-17&b=ak-47").await;
    let fields = answer["data"]["fields"].as_array().unwrap();
    let mut described = 0;
    for (label, better) in [("Lower wins: ", "lower"), ("Higher wins: ", "higher")] {
        for field in listed_after(&head_to_head, label) {
            let compared = fields.iter().find(|f| f["field"] == field).unwrap_or_else(|| panic!("{field}"));
            assert_eq!(compared["better"], better, "{field}: the description says {better} wins");
            described += 1;
        }
    }
    assert_eq!(described, fields.len(), "every compared field is described: {head_to_head}");
}
