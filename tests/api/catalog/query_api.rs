//! The query API is enough for a second consumer: five operations answered through
//! `read::query` alone, with no HTTP on that side, give byte for byte the bodies (and the ETags)
//! the HTTP handlers serve.

use armory::access::paging::Paging;
use armory::access::plan::Plan;
use armory::read::orders::Sort;
use armory::read::query::firearms::{self, FirearmFilter, ListRequest};
use armory::read::query::{rankings, search, statistics};
use armory::read::rendered::Rendered;
use armory::read::views::View;

use crate::support::{Backend, TestApp, read_catalog_app};

/// The body and ETag the HTTP layer serves for `path` with `key` (no compression asked).
async fn served(app: &TestApp, path: &str, key: &str) -> (Vec<u8>, String) {
    let response = app.get_with_key(path, key).await;
    assert_eq!(response.status(), 200, "{path}");
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    (response.bytes().await.unwrap().to_vec(), etag)
}

fn same(path: &str, http: (Vec<u8>, String), queried: Rendered) {
    assert_eq!(String::from_utf8_lossy(&http.0), String::from_utf8_lossy(&queried.body), "{path}: the body");
    assert_eq!(http.1, queried.etag.as_str(), "{path}: the ETag");
}

#[tokio::test]
async fn five_operations_answer_through_the_query_api_as_over_http() {
    let app = read_catalog_app(Backend::Sqlite).await;
    let (_, _, explorer) = app.key(Plan::Explorer).await;
    let (_, _, builder) = app.key(Plan::Builder).await;
    let snapshot = app.state.catalog.current();
    snapshot.figures_built().await;

    // A detail in both views.
    let path = "/v1/firearms/glock-17";
    same(
        path,
        served(&app, path, &explorer).await,
        firearms::detail(&snapshot, "glock-17", View::Summary).unwrap(),
    );
    same(
        path,
        served(&app, path, &builder).await,
        firearms::detail(&snapshot, "glock-17", View::Full).unwrap(),
    );

    // A filtered, sorted list page, from Builder up (totals shown).
    let path = "/v1/firearms?caliber=9x19mm-parabellum&sort=weight&order=desc&page=2&per_page=5";
    let request = ListRequest {
        filter: FirearmFilter { caliber: Some("9x19mm-parabellum".into()), ..FirearmFilter::default() },
        sort: Sort::Weight,
        descending: true,
        fields: None,
        paging: Paging { page: 2, per_page: 5, totals: true },
        view: View::Full,
    };
    same(path, served(&app, path, &builder).await, firearms::list(&snapshot, &request).unwrap());

    // A search.
    let path = "/v1/firearms/search?q=kalashnikov";
    let paging = Paging { page: 1, per_page: 20, totals: true };
    same(
        path,
        served(&app, path, &builder).await,
        search::firearms(&snapshot, "kalashnikov", false, &paging, View::Full).unwrap(),
    );

    // A ranking within a category.
    let path = "/v1/firearms/top?stat=heaviest&category=pistols&limit=7";
    same(
        path,
        served(&app, path, &builder).await,
        rankings::top(&snapshot, "heaviest", Some("pistols"), 7, View::Full).unwrap(),
    );

    // A statistic.
    let path = "/v1/stats/summary";
    same(path, served(&app, path, &explorer).await, statistics::summary(&snapshot).unwrap());

    // And the query API's own refusals, which the HTTP layer words as the contract does.
    let unknown = firearms::detail(&snapshot, "no-such-firearm", View::Full).unwrap_err();
    assert!(
        matches!(unknown, armory::read::error::QueryError::NotFound { kind: "firearm", .. }),
        "{unknown:?}"
    );
}
