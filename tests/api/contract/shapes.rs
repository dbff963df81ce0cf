//! The pre-rendered answers read into their published shapes (`read::rendered::shapes`) as a Rust
//! client reads them, in both plan views, and every field they carry is a property the
//! description names.

use armory::access::plan::Plan;
use armory::read::rendered::shapes::{
    Ammunition, Caliber, CategoryFirearm, FirearmDetail, FirearmListItem, ManufacturerDetail,
    ManufacturerFirearm,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::support::TestApp;

crate::on_each_database!(setup = crate::support::read_catalog_app; pre_rendered_answers_read_into_their_shapes);

async fn pre_rendered_answers_read_into_their_shapes(app: TestApp) {
    let document = serde_json::to_value(armory::http::routes::openapi_document()).unwrap();
    let (_, _, explorer) = app.key(Plan::Explorer).await;
    let (_, _, enterprise) = app.key(Plan::Enterprise).await;
    let data = |key: String, path: &'static str| {
        let request = app.client.get(app.url(path)).header("x-api-key", key);
        async move {
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), 200, "{path}");
            response.json::<Value>().await.unwrap()["data"].take()
        }
    };
    let explorer_list = data(explorer.clone(), "/v1/firearms?per_page=100").await;
    let ids: Vec<String> = explorer_list
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), 100);
    for item in explorer_list.as_array().unwrap() {
        reads_as::<FirearmListItem>(&document, "FirearmListItem", item);
    }
    // Loads are Builder's and up.
    let load = data(enterprise.clone(), "/v1/ammunition/9x19mm-parabellum-115gr-fmj").await;
    reads_as::<Ammunition>(&document, "Ammunition", &load);
    for key in [&explorer, &enterprise] {
        for id in ids.iter().step_by(5) {
            let path = format!("/v1/firearms/{id}");
            let answer =
                app.client.get(app.url(&path)).header("x-api-key", key.as_str()).send().await.unwrap();
            let detail = answer.json::<Value>().await.unwrap()["data"].take();
            let read: FirearmDetail = reads_as(&document, "FirearmDetail", &detail);
            assert_eq!(&read.id, id);
            reads_as::<armory::read::rendered::shapes::Provenance>(
                &document,
                "Provenance",
                &detail["provenance"],
            );
        }
        let caliber = data(key.clone(), "/v1/calibers/9x19mm-parabellum").await;
        reads_as::<Caliber>(&document, "Caliber", &caliber);
        let maker = data(key.clone(), "/v1/manufacturers/glock").await;
        let read: ManufacturerDetail =
            serde_json::from_value(maker).expect("a manufacturer reads as ManufacturerDetail");
        assert_eq!(read.manufacturer.id, "glock");
        for item in data(key.clone(), "/v1/manufacturers/glock/firearms").await.as_array().unwrap() {
            reads_as::<ManufacturerFirearm>(&document, "ManufacturerFirearm", item);
        }
        for item in data(key.clone(), "/v1/categories/pistols/firearms").await.as_array().unwrap() {
            reads_as::<CategoryFirearm>(&document, "CategoryFirearm", item);
        }
    }
}

/// `value` read as `T`, after checking that each of its fields is a property of the component.
fn reads_as<T: DeserializeOwned>(document: &Value, component: &str, value: &Value) -> T {
    let properties = document["components"]["schemas"][component]["properties"].as_object().expect(component);
    let undescribed: Vec<&String> =
        value.as_object().expect("an object").keys().filter(|key| !properties.contains_key(*key)).collect();
    assert!(undescribed.is_empty(), "{component} does not describe {undescribed:?}");
    serde_json::from_value(value.clone())
        .unwrap_or_else(|error| panic!("{value} does not read as {component}: {error}"))
}
