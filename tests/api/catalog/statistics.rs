//! The statistics (71 to 84) against the bundled data: every figure checked here is worked out in
//! the test from the data files, independently of the read model that serves it.

use std::collections::BTreeMap;
use std::path::Path;

use armory::access::plan::Plan;
use armory::catalog::load::load_dir;
use armory::catalog::model::{Catalog, Firearm};
use serde_json::Value;

use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app; the_statistics_agree_with_the_data);

fn catalog() -> Catalog {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap()
}

async fn data(app: &TestApp, key: &str, path: &str) -> Value {
    let response = app.get_with_key(path, key).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json::<Value>().await.unwrap()["data"].clone()
}

fn count(catalog: &Catalog, keep: impl Fn(&Firearm) -> bool) -> usize {
    catalog.firearms.as_typed().iter().filter(|f| keep(f)).count()
}

async fn the_statistics_agree_with_the_data(app: TestApp) {
    let catalog = catalog();
    let (_, _, key) = app.key(Plan::Builder).await;
    let key = key.as_str();

    let summary = data(&app, key, "/v1/stats/summary").await;
    assert_eq!(summary["firearms"], catalog.firearms.len());
    assert_eq!(summary["baseModels"], count(&catalog, |f| f.parent_firearm_id.is_none()));
    assert_eq!(summary["calibers"], catalog.calibers.len());
    assert!(summary["catalogRevision"].as_i64().unwrap() >= 1);
    assert_eq!(summary["lastUpdatedAt"].as_str().unwrap().len(), 19);

    let status = data(&app, key, "/v1/stats/production-status").await;
    let in_production = count(&catalog, |f| f.status.as_deref() == Some("in_production"));
    assert_eq!(status["statuses"][0]["status"], "in_production");
    assert_eq!(status["statuses"][0]["count"], in_production);
    let share = status["statuses"][0]["share"].as_f64().unwrap();
    assert!((share - in_production as f64 / catalog.firearms.len() as f64).abs() < 0.0001);

    let coverage = data(&app, key, "/v1/stats/field-coverage").await;
    let weight =
        coverage["fields"].as_array().unwrap().iter().find(|f| f["field"] == "weightEmptyG").unwrap();
    assert_eq!(weight["filled"], count(&catalog, |f| f.weight_empty_g.is_some()));
    assert_eq!(coverage["fieldCount"], 50);

    let decade_of = |f: &Firearm| f.year_introduced.map(|y| y - y.rem_euclid(10));
    let by_decade = data(&app, key, "/v1/stats/catalog-coverage").await;
    let pistols = by_decade.as_array().unwrap().iter().find(|c| c["category"]["id"] == "pistols").unwrap();
    let eighties = pistols["decades"].as_array().unwrap().iter().find(|d| d["decade"] == "1980s").unwrap();
    assert_eq!(
        eighties["count"],
        count(&catalog, |f| f.category_id == "pistols" && decade_of(f) == Some(1980))
    );

    // One ranking: cartridges by the firearms chambered for them, most first.
    let popular = data(&app, key, "/v1/stats/calibers/popular?limit=3").await;
    let mut chambered: BTreeMap<&str, usize> = BTreeMap::new();
    for firearm in catalog.firearms.as_typed() {
        let mut ids: Vec<&str> = firearm.calibers.iter().map(|c| c.caliber_id.as_str()).collect();
        ids.dedup();
        for id in ids {
            *chambered.entry(id).or_default() += 1;
        }
    }
    let mut ranked: Vec<(&str, usize)> = chambered.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let served: Vec<(&str, u64)> = popular
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["caliber"]["id"].as_str().unwrap(), row["firearmCount"].as_u64().unwrap()))
        .collect();
    let expected: Vec<(&str, u64)> = ranked.iter().take(3).map(|(id, n)| (*id, *n as u64)).collect();
    assert_eq!(served, expected);

    let makers = data(&app, key, "/v1/stats/manufacturers/prolific?category=pistols&limit=100").await;
    let glock = makers.as_array().unwrap().iter().find(|m| m["manufacturer"]["id"] == "glock").unwrap();
    assert_eq!(
        glock["firearmCount"],
        count(&catalog, |f| f.manufacturer_id == "glock" && f.category_id == "pistols")
    );
    let counts: Vec<u64> =
        makers.as_array().unwrap().iter().map(|m| m["firearmCount"].as_u64().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "most first");

    // One mean, worked out: the empty weight of the pistols that state it.
    let by_category = data(&app, key, "/v1/stats/by-category").await;
    let pistols = by_category.as_array().unwrap().iter().find(|c| c["category"]["id"] == "pistols").unwrap();
    let weights: Vec<f64> = catalog
        .firearms
        .iter()
        .filter(|f| f.category_id == "pistols")
        .filter_map(|f| f.weight_empty_g)
        .collect();
    let mean = (weights.iter().sum::<f64>() / weights.len() as f64 * 10.0).round() / 10.0;
    assert_eq!(pistols["means"]["weightEmptyG"]["mean"].as_f64().unwrap(), mean);
    assert_eq!(pistols["means"]["weightEmptyG"]["count"], weights.len());
    assert_eq!(pistols["firearmCount"], count(&catalog, |f| f.category_id == "pistols"));

    let forties = data(&app, key, "/v1/stats/by-era?decade=1940s").await;
    let in_forties = count(&catalog, |f| decade_of(f) == Some(1940));
    assert_eq!(forties["firearmCount"], in_forties);
    assert_eq!(forties["firearms"].as_array().unwrap().len(), in_forties.min(100));
    let years: Vec<i64> = forties["firearms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["yearIntroduced"].as_i64().unwrap())
        .collect();
    assert!(years.windows(2).all(|w| w[0] <= w[1]) && years.iter().all(|y| (1940..1950).contains(y)));
    let empty = data(&app, key, "/v1/stats/by-era?decade=1210s").await;
    assert_eq!(empty["firearmCount"], 0);

    let materials = data(&app, key, "/v1/stats/materials").await;
    let frames = materials.as_array().unwrap().iter().find(|c| c["component"] == "frame").unwrap();
    let polymer =
        frames["materials"].as_array().unwrap().iter().find(|m| m["material"] == "polymer").unwrap();
    let polymer_frames = count(&catalog, |f| {
        f.frame_material.as_deref().is_some_and(|m| m.trim().eq_ignore_ascii_case("polymer"))
    });
    assert_eq!(polymer["count"], polymer_frames);

    let users = |keep: &dyn Fn(&armory::catalog::model::Adopter) -> bool| {
        catalog.firearms.as_typed().iter().flat_map(|f| f.users.iter()).filter(|u| keep(u)).count()
    };
    let austria = data(&app, key, "/v1/stats/adoption/by-country?code=at").await;
    assert_eq!(austria["countryCode"], "AT");
    assert_eq!(austria["adopters"], users(&|u| u.country_code.as_deref() == Some("AT")));
    assert!(austria["firearms"].as_array().unwrap().iter().any(|f| f["id"] == "glock-17"));
    let police = data(&app, key, "/v1/stats/adoption/by-type?type=law_enforcement").await;
    assert_eq!(police["adopters"], users(&|u| u.user_type.as_deref() == Some("law_enforcement")));
    // An unknown country's 404 names the parameter alone, with no `missing` list.
    let unknown = app.get_with_key("/v1/stats/adoption/by-country?code=ZZ", key).await;
    let (status, reason, body) = error_reason(unknown).await;
    assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"));
    assert_eq!(body["error"]["message"], "No country has the id 'ZZ'.");
    assert_eq!(body["error"]["details"], serde_json::json!({ "parameter": "code" }));

    let actions = data(&app, key, "/v1/stats/action-types?category=rifles").await;
    let rifles = count(&catalog, |f| f.category_id == "rifles");
    assert_eq!(actions["total"], rifles);
    let top = &actions["actionTypes"][0];
    let action = top["actionType"].as_str().unwrap();
    assert_eq!(
        top["count"],
        count(&catalog, |f| f.category_id == "rifles" && f.action_type.as_deref() == Some(action))
    );
    let known: u64 =
        actions["actionTypes"].as_array().unwrap().iter().map(|a| a["count"].as_u64().unwrap()).sum();
    assert_eq!(known + actions["unknown"].as_u64().unwrap(), rifles as u64);

    let features = data(&app, key, "/v1/stats/feature-frequency?limit=1").await;
    let feature = features[0]["feature"].as_str().unwrap();
    let listing =
        count(&catalog, |f| f.features.iter().flatten().any(|x| x.trim().to_lowercase() == feature));
    assert_eq!(features[0]["count"], listing);

    let eras = data(&app, key, "/v1/stats/caliber-popularity-by-era?from_decade=1940s&to_decade=1950s").await;
    let decades: Vec<&str> = eras.as_array().unwrap().iter().map(|d| d["decade"].as_str().unwrap()).collect();
    assert_eq!(decades, ["1940s", "1950s"]);
    assert_eq!(eras[0]["firearmCount"], in_forties);
    assert!(eras[0]["calibers"].as_array().unwrap().len() <= 5);
    let reversed =
        data(&app, key, "/v1/stats/caliber-popularity-by-era?from_decade=1950s&to_decade=1940s").await;
    assert_eq!(reversed, serde_json::json!([]));
}
