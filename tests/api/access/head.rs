//! HEAD on every operation of the table answers exactly as GET does: the same gate (401 without a
//! key, 403 below the plan), the same status and headers, no body, and it counts like a GET.

use armory::access::operations::OPERATIONS;
use armory::access::plan::{Plan, PlanTable};

use crate::support::{Backend, TestApp, sample_path};

crate::on_each_database!(setup = crate::support::read_catalog_app; head_answers_as_get_on_every_operation);

/// Headers that must agree between a GET and a HEAD of the same resource.
const COMPARED: &[&str] = &["content-type", "etag", "cache-control", "retry-after", "vary"];

async fn head_answers_as_get_on_every_operation(app: TestApp) {
    let (_, _, enterprise) = app.key(Plan::Enterprise).await;
    let (_, _, explorer) = app.key(Plan::Explorer).await;
    let mut checked = 0;
    for operation in OPERATIONS.iter().filter(|op| op.method == "GET") {
        let path = sample_path(operation.path);
        let head = |key: Option<&str>| {
            let mut request = app.client.head(app.url(&path));
            if let Some(key) = key {
                request = request.header("x-api-key", key);
            }
            request.send()
        };
        let anonymous = head(None).await.unwrap();
        assert!(anonymous.headers().contains_key("x-request-id"), "{path}");
        let get_anonymous = app.get(&path).await;
        assert_eq!(anonymous.status(), get_anonymous.status(), "HEAD {path} without a key");
        if operation.min_plan.is_some() {
            assert!(
                [401, 404].contains(&anonymous.status().as_u16()),
                "HEAD {path} without a key answered {}",
                anonymous.status()
            );
        }
        if operation.min_plan.is_some_and(|plan| plan > Plan::Explorer) {
            let below = head(Some(&explorer)).await.unwrap();
            let get_below = app.get_with_key(&path, &explorer).await;
            assert_eq!(below.status(), get_below.status(), "HEAD {path} below the plan");
        }
        let head_answer = head(Some(&enterprise)).await.unwrap();
        let get_answer = app.get_with_key(&path, &enterprise).await;
        assert_eq!(head_answer.status(), get_answer.status(), "HEAD {path}");
        // A random draw changes between two calls, and usage moves with the HEAD just counted.
        if !["/v1/firearms/random", "/v1/me/usage"].contains(&operation.path) {
            for name in COMPARED {
                assert_eq!(
                    head_answer.headers().get(*name),
                    get_answer.headers().get(*name),
                    "{name} of {path}"
                );
            }
        }
        assert!(head_answer.bytes().await.unwrap().is_empty(), "HEAD {path} has no body");
        checked += 1;
    }
    assert!(checked > 100, "every GET operation of the table was tried ({checked})");
}

/// A HEAD is counted against the day like the GET it mirrors.
#[tokio::test]
async fn head_spends_the_daily_allowance() {
    let plans = PlanTable::default().with_overrides("explorer.per_day=2").unwrap();
    let app = TestApp::with_catalog(Backend::Sqlite, |config| config.plans = plans).await;
    let (_, _, key) = app.key(Plan::Explorer).await;
    let path = "/v1/manufacturers/glock";
    for _ in 0..2 {
        let head = app.client.head(app.url(path)).header("x-api-key", &key).send().await.unwrap();
        assert_eq!(head.status(), 200);
    }
    let capped = app.client.head(app.url(path)).header("x-api-key", &key).send().await.unwrap();
    assert_eq!((capped.status().as_u16(), capped.headers()["retry-after"].to_str().unwrap()), (429, "3600"));
    assert_eq!(app.get_with_key(path, &key).await.status(), 429);
}
