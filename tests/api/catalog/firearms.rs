//! The firearm read operations checked field by field against the bundled catalog
//! (data/manufacturers/glock.toml, kalashnikov-concern.toml, springfield-armory.toml).

use std::path::Path;

use armory::access::plan::Plan;
use armory::catalog::load::load_dir;
use armory::catalog::{import, model::Source};
use serde_json::{Value, json};

use crate::support::TestApp;

crate::on_each_database!(setup = crate::support::read_catalog_app;
    the_list_filters_sorts_and_narrows_fields,
    the_detail_is_the_full_record_from_builder_and_the_summary_for_explorer,
    search_is_ranked_and_tolerant,
    resolve_finds_ids_from_free_text,
    the_sub_resources_match_the_data,
    facets_and_random_reflect_the_catalog,
    sources_naming_fields_are_served_per_source_and_per_field,
    catching_up_builds_a_snapshot_only_when_behind,
);

async fn data(app: &TestApp, path: &str, plan: Plan) -> Value {
    let (_, _, key) = app.key(plan).await;
    let response = app.get_with_key(path, &key).await;
    assert_eq!(response.status(), 200, "{path}");
    let body: Value = response.json().await.unwrap();
    body
}

fn ids(list: &Value) -> Vec<&str> {
    list.as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect()
}

async fn the_list_filters_sorts_and_narrows_fields(app: TestApp) {
    let catalog = load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap();
    let glocks: usize = catalog.firearms.iter().filter(|f| f.manufacturer_id == "glock").count();

    let body = data(&app, "/v1/firearms?manufacturer=glock&per_page=100", Plan::Builder).await;
    assert_eq!(body["pagination"]["total"], glocks);
    let names: Vec<&str> =
        body["data"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(names, sorted, "sorted by name by default");

    // Explorer: the ten list-item fields only, no totals.
    let body = data(&app, "/v1/firearms?manufacturer=glock&sort=weight", Plan::Explorer).await;
    let first = &body["data"][0];
    let keys: Vec<&str> = first.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "id",
            "name",
            "manufacturerId",
            "categoryId",
            "yearIntroduced",
            "status",
            "countryOfOrigin",
            "actionType",
            "weightEmptyG",
            "barrelLengthMm"
        ]
    );
    assert!(body["pagination"].get("total").is_none());
    let weights: Vec<f64> =
        body["data"].as_array().unwrap().iter().filter_map(|f| f["weightEmptyG"].as_f64()).collect();
    assert!(weights.windows(2).all(|w| w[0] <= w[1]), "ascending weight: {weights:?}");

    // Descending keeps unknown weights last; fields narrows (id always kept).
    let body = data(
        &app,
        "/v1/firearms?category=rifles&sort=year&order=desc&fields=name,yearIntroduced&per_page=100",
        Plan::Builder,
    )
    .await;
    let items = body["data"].as_array().unwrap();
    assert_eq!(items[0].as_object().unwrap().len(), 3, "{}", items[0]);
    let years: Vec<i64> = items.iter().filter_map(|f| f["yearIntroduced"].as_i64()).collect();
    assert!(years.windows(2).all(|w| w[0] >= w[1]));

    // Builder list items are the full record: AK-47's figures.
    let body = data(
        &app,
        "/v1/firearms?manufacturer=kalashnikov-concern&year_introduced_min=1949&year_introduced_max=1949",
        Plan::Builder,
    )
    .await;
    assert_eq!(ids(&body["data"]), ["ak-47"]);
    let ak = &body["data"][0];
    assert_eq!(ak["rateOfFireRpm"], 600);
    assert_eq!(ak["foldedLengthMm"], 645.0);
    assert!(ak.get("manufacturer").is_none(), "list items do not nest");

    // Numeric and vocabulary filters combine.
    let body = data(
        &app,
        "/v1/firearms?caliber=9x19mm-parabellum&country_of_origin=at&weight_max=700&status=in_production&per_page=100",
        Plan::Builder,
    )
    .await;
    for item in body["data"].as_array().unwrap() {
        assert_eq!(item["countryOfOrigin"], "AT");
        assert!(item["weightEmptyG"].as_f64().unwrap() <= 700.0);
    }
    assert!(ids(&body["data"]).contains(&"glock-17"));
    // A model is generated for every firearm with a stated overall length.
    let body =
        data(&app, "/v1/firearms?manufacturer=benelli&has_3d_model=false&per_page=100", Plan::Builder).await;
    assert!(ids(&body["data"]).contains(&"benelli-m4"), "no overall length, no model");
    let body =
        data(&app, "/v1/firearms?manufacturer=glock&has_3d_model=true&per_page=100", Plan::Builder).await;
    assert!(ids(&body["data"]).contains(&"glock-17"));
    assert!(!ids(&body["data"]).contains(&"benelli-m4"));
}

async fn the_detail_is_the_full_record_from_builder_and_the_summary_for_explorer(app: TestApp) {
    let body = data(&app, "/v1/firearms/glock-17", Plan::Builder).await;
    let g = &body["data"];
    assert_eq!(g["name"], "Glock 17");
    assert_eq!(g["manufacturerId"], "glock");
    assert_eq!(g["yearIntroduced"], 1982);
    assert_eq!(g["weightEmptyG"], 625.0);
    assert_eq!(g["weightLoadedG"], 905.0);
    assert_eq!(g["barrelLengthMm"], 114.0);
    assert_eq!(g["magazineCapacity"], 17);
    assert_eq!(g["triggerPullN"], Value::Null);
    assert_eq!(g["designer"], "Gaston Glock");
    // JSON held in strings, exactly as the spec serves them.
    assert_eq!(g["alternateNames"], json!("[\"P80\",\"Pistole 80\",\"Pistol 88\"]"));
    assert_eq!(g["sources"], json!("[\"https://en.wikipedia.org/wiki/Glock\"]"));
    assert_eq!(g["conflicts"], Value::Null);
    let safety: Vec<String> = serde_json::from_str(g["safetyMechanisms"].as_str().unwrap()).unwrap();
    assert_eq!(safety, ["trigger safety", "firing pin safety", "drop safety"]);
    // Nested records.
    assert_eq!(g["manufacturer"]["name"], "Glock Ges.m.b.H.");
    assert_eq!(g["manufacturer"]["countryCode"], "AT");
    assert_eq!(g["category"]["id"], "pistols");
    assert_eq!(
        g["calibers"],
        json!([{"caliberId": "9x19mm-parabellum", "isPrimary": 1, "name": "9×19mm Parabellum",
                "natoDesignation": "9mm NATO", "bulletDiameterMm": 9.01, "caseLengthMm": 19.15}])
    );
    let users = g["users"].as_array().unwrap();
    assert_eq!(users.len(), 3);
    assert_eq!(users[2]["userName"], "Swedish Armed Forces");
    assert_eq!(users[2]["designation"], "Pistol 88");
    assert_eq!(users[2]["adoptedYear"], 1988);
    assert!(users[0]["id"].is_i64());
    assert!(g["gameDamage"].is_i64() && g["gameConcealment"].is_i64());
    assert!(g["createdAt"].as_str().unwrap().len() == 19 && g["version"].is_string());
    let provenance = &g["provenance"];
    assert_eq!(provenance["sources"], json!(["https://en.wikipedia.org/wiki/Glock"]));
    assert_eq!(provenance["bestSourceKind"], "reference");
    assert_eq!(provenance["dataConfidence"], 0.6);
    assert_eq!(provenance["verifiedFields"], Value::Null);
    assert_eq!(provenance["version"], g["version"]);

    let body = data(&app, "/v1/firearms/glock-17", Plan::Explorer).await;
    let summary = body["data"].as_object().unwrap();
    assert_eq!(summary.len(), 11, "the list item's ten fields and provenance: {summary:?}");
    assert_eq!(summary["weightEmptyG"], 625.0);
    assert_eq!(summary["provenance"]["bestSourceKind"], "reference");

    let body = data(&app, "/v1/firearms/compare?ids=ak-47,glock-17", Plan::Builder).await;
    assert_eq!(ids(&body["data"]), ["ak-47", "glock-17"]);
    assert_eq!(body["data"][0]["conflicts"].as_str().map(|s| s.contains("Vietnam War")), Some(true));
    assert!(body["data"][1]["provenance"].is_object());
}

async fn search_is_ranked_and_tolerant(app: TestApp) {
    for (query, expected) in [
        ("ak47", "ak-47"),
        ("AK-47", "ak-47"),
        ("m1%20garand", "m1-garand"),
        ("glock%2017", "glock-17"),
        ("glokc%2017", "glock-17"),
        ("Avtomat%20Kalashnikova", "ak-47"),
    ] {
        let body = data(&app, &format!("/v1/firearms/search?q={query}"), Plan::Builder).await;
        assert_eq!(body["data"][0]["id"], expected, "{query}: {}", body["data"]);
    }
    // The maker's name and the cartridge's aliases are searched too.
    let body = data(&app, "/v1/firearms/search?q=kalashnikov%20concern&per_page=100", Plan::Builder).await;
    assert!(ids(&body["data"]).contains(&"akm"));
    let body = data(&app, "/v1/firearms/search?q=9mm%20luger&per_page=100", Plan::Builder).await;
    assert!(ids(&body["data"]).contains(&"glock-17"));
    let total = body["pagination"]["total"].as_u64().unwrap();
    // Descending is the same ranking reversed: the best match closes its last page.
    let last_page = total.div_ceil(100);
    let reversed = data(
        &app,
        &format!("/v1/firearms/search?q=9mm%20luger&per_page=100&order=desc&page={last_page}"),
        Plan::Builder,
    )
    .await;
    assert_eq!(reversed["pagination"]["total"].as_u64().unwrap(), total);
    assert_eq!(reversed["data"].as_array().unwrap().last().unwrap()["id"], body["data"][0]["id"]);

    let (_, _, key) = app.key(Plan::Builder).await;
    let long = "x".repeat(201);
    let response = app.get_with_key(&format!("/v1/firearms/search?q={long}"), &key).await;
    assert_eq!(response.status(), 400);
    let nothing = data(&app, "/v1/firearms/search?q=zzzzqqqq", Plan::Builder).await;
    assert_eq!(nothing["data"], json!([]));

    // Typos: two edits for a word of eight letters or more, a doubled letter written once.
    let body = data(&app, "/v1/firearms/search?q=kalashnikof&per_page=50", Plan::Builder).await;
    let found = ids(&body["data"]);
    assert!(found.contains(&"ak-47") && found.contains(&"akm"), "kalashnikof: {found:?}");
    let body = data(&app, "/v1/firearms/search?q=berreta&per_page=5", Plan::Builder).await;
    let makers: Vec<&str> =
        body["data"].as_array().unwrap().iter().map(|f| f["manufacturerId"].as_str().unwrap()).collect();
    assert!(!makers.is_empty() && makers.iter().all(|m| *m == "beretta"), "berreta: {makers:?}");
    // Spelled right, the same query ranks exact matches first: Beretta's own name word.
    let body = data(&app, "/v1/firearms/search?q=beretta%2092fs", Plan::Builder).await;
    assert_eq!(body["data"][0]["id"], "beretta-92fs");
    // A three-letter word has no typo allowance: "akn" is not "akm".
    let body = data(&app, "/v1/firearms/search?q=akn", Plan::Builder).await;
    assert!(!ids(&body["data"]).contains(&"akm"));
}

async fn resolve_finds_ids_from_free_text(app: TestApp) {
    let body = data(&app, "/v1/firearms/resolve?q=AK47", Plan::Explorer).await;
    assert_eq!(body["data"]["id"], "ak-47");
    assert_eq!(body["data"]["confidence"], 1.0);
    assert!(body["data"]["alternatives"].as_array().unwrap().len() <= 4);

    let body = data(&app, "/v1/firearms/resolve?q=glock%2017%20gen%205", Plan::Explorer).await;
    assert_eq!(body["data"]["id"], "glock-17-gen5");
    assert_eq!(body["data"]["name"], "Glock 17 Gen 5");

    // A typo still resolves, with less than full confidence: (0.8 + 1 + 0.8 + 1) / 4.
    let body = data(&app, "/v1/firearms/resolve?q=berreta%2092FS", Plan::Explorer).await;
    assert_eq!(body["data"]["id"], "beretta-92fs");
    assert_eq!(body["data"]["confidence"], 0.9);
    // The search finds candidates for a query that names no firearm, but none reaches the
    // confidence floor (0.6): no match rather than a guess.
    let searched = data(&app, "/v1/firearms/search?q=semi%20automatic%20pistol", Plan::Builder).await;
    assert!(!searched["data"].as_array().unwrap().is_empty());
    let body = data(&app, "/v1/firearms/resolve?q=semi%20automatic%20pistol", Plan::Explorer).await;
    assert_eq!(body["data"]["id"], Value::Null, "{}", body["data"]);
    assert_eq!(body["data"]["name"], Value::Null);
    assert_eq!(body["data"]["confidence"], 0.0);
    let alternatives = body["data"]["alternatives"].as_array().unwrap();
    assert!(alternatives.iter().all(|a| a["confidence"].as_f64().unwrap() < 0.6), "{alternatives:?}");
    // U+0085 holds to the published pattern \S in JavaScript's reading: it is a query, not a
    // blank one, and finds nothing; a value of spaces under every reading is refused.
    let body = data(&app, "/v1/firearms/resolve?q=%C2%85", Plan::Explorer).await;
    assert_eq!(body["data"]["id"], Value::Null);
    let (_, _, key) = app.key(Plan::Explorer).await;
    let blank = app.get_with_key("/v1/firearms/resolve?q=%20%C2%A0%E3%80%80", &key).await;
    let (status, reason, body) = crate::support::error_reason(blank).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
    assert!(body["error"]["details"]["q"].is_string(), "{body}");

    let (_, _, key) = app.key(Plan::Explorer).await;
    let post = |payload: Value| {
        app.client.post(app.url("/v1/firearms/resolve")).header("x-api-key", &key).json(&payload).send()
    };
    let response = post(json!({"queries": ["m1 garand", "qqqqzzzz"]})).await.unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["data"][0]["id"], "m1-garand");
    assert_eq!(body["data"][1]["id"], Value::Null);
    assert_eq!(body["data"][1]["confidence"], 0.0);

    let too_many: Vec<String> = (0..51).map(|i| format!("glock {i}")).collect();
    let response = post(json!({ "queries": too_many })).await.unwrap();
    let (status, reason, body) = crate::support::error_reason(response).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
    assert!(body["error"]["details"].get("queries").is_some());
    let response = post(json!({ "queries": ["x".repeat(2_000_000)] })).await.unwrap();
    assert_eq!(response.status(), 413);
}

async fn the_sub_resources_match_the_data(app: TestApp) {
    let body = data(&app, "/v1/firearms/glock-17/variants", Plan::Explorer).await;
    let variants = body["data"].as_array().unwrap();
    assert!(variants.iter().any(|v| v["id"] == "glock-17-gen5"
        && v["variantType"] == "generation"
        && v["yearIntroduced"] == 2017));
    let years: Vec<i64> = variants.iter().filter_map(|v| v["yearIntroduced"].as_i64()).collect();
    assert!(years.windows(2).all(|w| w[0] <= w[1]), "by year: {years:?}");

    let body = data(&app, "/v1/firearms/glock-17/users", Plan::Explorer).await;
    assert_eq!(body["data"][0]["userName"], "Austrian Armed Forces");
    assert_eq!(body["data"][0]["firearmId"], "glock-17");

    let body = data(&app, "/v1/firearms/glock-17/adoption-map", Plan::Builder).await;
    let codes: Vec<&str> = body["data"]["countries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["countryCode"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["AT", "NO", "SE"]);

    let body = data(&app, "/v1/firearms/glock-17/dimensions", Plan::Explorer).await;
    let overall = body["data"]["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["field"] == "overallLengthMm")
        .unwrap()
        .clone();
    assert_eq!(overall["metric"], json!({"value": 202.0, "unit": "mm"}));
    assert_eq!(overall["imperial"], json!({"value": 7.95, "unit": "in"}));
    let empty = body["data"]["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["field"] == "weightEmptyG")
        .unwrap()
        .clone();
    assert_eq!(empty["imperial"], json!({"value": 1.38, "unit": "lb"}));
    assert!(!body["data"]["known"].as_array().unwrap().contains(&json!("widthMm")));

    let body = data(&app, "/v1/firearms/glock-17-gen5/family-tree", Plan::Builder).await;
    assert_eq!(body["data"]["rootId"], "glock-17");
    assert_eq!(ids(&body["data"]["ancestors"]), ["glock-17"]);
    assert!(body["data"]["ancestors"][0]["provenance"]["sources"].is_array());
    let body = data(&app, "/v1/firearms/ak-47/family-tree", Plan::Builder).await;
    let descendants = ids(&body["data"]["firearm"]["variants"]).join(",");
    assert!(descendants.contains("akm"), "{descendants}");

    let body = data(&app, "/v1/firearms/glock-17/similar?limit=5", Plan::Builder).await;
    let similar = body["data"].as_array().unwrap();
    assert_eq!(similar.len(), 5);
    assert!(similar.iter().all(|s| s["id"] != "glock-17"));
    assert_eq!(similar[0]["categoryId"], "pistols");
    let scores: Vec<f64> = similar.iter().map(|s| s["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]));

    let body = data(&app, "/v1/firearms/glock-17/game-stats", Plan::Builder).await;
    let stats = &body["data"];
    assert_eq!(stats["name"], "Glock 17");
    // 625 g empty, 905 g loaded, 202 mm long, detachable box of 17 (see game_stats.rs).
    assert_eq!(stats["gameMobility"], 77);
    assert_eq!(stats["gameConcealment"], 66);
    assert_eq!(stats["gameReloadSpeed"], 70);
    let images = data(&app, "/v1/firearms/glock-17/images", Plan::Builder).await;
    assert!(images["data"].is_array());
}

async fn facets_and_random_reflect_the_catalog(app: TestApp) {
    let catalog = load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap();
    let body = data(&app, "/v1/firearms/filter-options", Plan::Explorer).await;
    let categories = body["data"]["category"].as_array().unwrap();
    let pistols = catalog.firearms.iter().filter(|f| f.category_id == "pistols").count();
    assert!(categories.contains(&json!({"value": "pistols", "count": pistols})));
    let earliest = catalog.firearms.iter().filter_map(|f| f.year_introduced).min().unwrap();
    assert_eq!(body["data"]["year_introduced"]["min"], earliest as f64);

    let body = data(&app, "/v1/firearms/action-types", Plan::Explorer).await;
    let short_recoil =
        catalog.firearms.iter().filter(|f| f.action_type.as_deref() == Some("short_recoil")).count();
    assert!(
        body["data"]
            .as_array()
            .unwrap()
            .contains(&json!({"actionType": "short_recoil", "count": short_recoil}))
    );

    let body = data(&app, "/v1/firearms/random?category=revolvers&country=US", Plan::Explorer).await;
    let id = body["data"]["id"].as_str().unwrap();
    let firearm = catalog.firearms.iter().find(|f| f.id == id).unwrap();
    assert_eq!(
        (firearm.category_id.as_str(), firearm.country_of_origin.as_deref()),
        ("revolvers", Some("US"))
    );
}

/// A source's `fields` are served in its sourceKinds entry and, per field, in fieldSources (on
/// every plan), and follow the data when a source's fields change.
async fn sources_naming_fields_are_served_per_source_and_per_field(app: TestApp) {
    let wikipedia = "https://en.wikipedia.org/wiki/Glock";
    let maker = "https://www.glock.com/en/pistols/g17";
    let mut catalog = load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap();
    let glock = std::sync::Arc::make_mut(
        catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap(),
    );
    assert_eq!(glock.sources.len(), 1, "the bundled Glock 17 cites one page");
    assert_eq!(glock.sources[0].url, wikipedia);
    let bundled: serde_json::Map<String, serde_json::Value> =
        glock.sources[0].fields.iter().map(|field| (field.clone(), json!([wikipedia]))).collect();
    let before = data(&app, "/v1/firearms/glock-17", Plan::Explorer).await;
    assert_eq!(before["data"]["provenance"]["fieldSources"], json!(bundled));

    glock.sources[0].fields = vec!["weightEmptyG".into(), "barrelLengthMm".into()];
    glock.sources.push(Source {
        url: maker.into(),
        kind: "manufacturer".into(),
        fields: vec!["weightEmptyG".into()],
    });
    import::import(&app.state.db, catalog.clone(), false).await.unwrap();
    app.state.catalog.reload().await.unwrap();

    for plan in [Plan::Explorer, Plan::Builder] {
        let body = data(&app, "/v1/firearms/glock-17", plan).await;
        let provenance = &body["data"]["provenance"];
        assert_eq!(
            provenance["sourceKinds"],
            json!([
                { "url": wikipedia, "kind": "reference", "fields": ["weightEmptyG", "barrelLengthMm"] },
                { "url": maker, "kind": "manufacturer", "fields": ["weightEmptyG"] },
            ]),
            "{plan:?}"
        );
        assert_eq!(
            provenance["fieldSources"],
            json!({ "weightEmptyG": [wikipedia, maker], "barrelLengthMm": [wikipedia] }),
            "{plan:?}"
        );
        assert_eq!(provenance["sources"], json!([wikipedia, maker]));
        assert_eq!(provenance["bestSourceKind"], "manufacturer");
    }
}

/// The revision poll and the webhook fan-out both catch up with new revisions: a caller that asks
/// for a revision already served (another caller built it while it waited) builds nothing, and one
/// behind builds once and then serves the change.
async fn catching_up_builds_a_snapshot_only_when_behind(app: TestApp) {
    let served = app.state.catalog.current();
    app.state.catalog.catch_up(served.revision).await.unwrap();
    assert!(std::sync::Arc::ptr_eq(&served, &app.state.catalog.current()), "nothing new was built");

    let mut catalog = load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap();
    std::sync::Arc::make_mut(catalog.firearms.typed_mut().iter_mut().find(|f| f.id == "glock-17").unwrap())
        .name = "Glock 17 (caught up)".into();
    let revision = import::import(&app.state.db, catalog.clone(), false).await.unwrap().revision;
    assert!(revision > served.revision);
    app.state.catalog.catch_up(revision).await.unwrap();
    let current = app.state.catalog.current();
    assert_eq!(current.revision, revision);
    let body = data(&app, "/v1/firearms/glock-17", Plan::Builder).await;
    assert_eq!(body["data"]["name"], "Glock 17 (caught up)");
    app.state.catalog.catch_up(revision).await.unwrap();
    assert!(std::sync::Arc::ptr_eq(&current, &app.state.catalog.current()), "built once");
}
