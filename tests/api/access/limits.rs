//! Limits that cannot be raced or gamed, on the in-memory counters (SQLite runs) and on Redis
//! (PostgreSQL runs, when `ARMORY_TEST_REDIS_URL` is set): the daily cap under 200 concurrent requests, the
//! sliding per-minute window, and the page-burst guard keyed by caller and operation.

use std::time::Duration;

use armory::access::limiter::Limiter;
use armory::access::plan::{Plan, PlanTable};

use crate::support::{Backend, TestApp, error_reason, shared_redis_url};

crate::on_each_database!(
    two_hundred_concurrent_requests_pass_a_daily_cap_of_twenty_exactly,
    the_minute_window_slides,
    padding_the_query_does_not_restart_a_page_walk,
);

async fn app_with(backend: Backend, limits: &str) -> TestApp {
    let plans = PlanTable::default().with_overrides(limits).unwrap();
    TestApp::with_catalog(backend, |config| config.plans = plans).await
}

async fn two_hundred_concurrent_requests_pass_a_daily_cap_of_twenty_exactly(backend: Backend) {
    let app = app_with(backend, "builder.per_minute=100000,builder.per_day=20").await;
    let (_, _, key) = app.key(Plan::Builder).await;
    let requests = (0..200).map(|_| {
        let request = app.client.get(app.url("/v1/manufacturers/glock")).header("x-api-key", &key);
        async move { request.send().await.unwrap() }
    });
    let answers = futures_util::future::join_all(requests).await;
    let mut passed = 0;
    for answer in answers {
        if answer.status() == 200 {
            passed += 1;
        } else {
            let (status, reason, _) = error_reason(answer).await;
            assert_eq!((status, reason.as_str()), (429, "DAILY_CAP_EXCEEDED"));
        }
    }
    assert_eq!(passed, 20, "exactly the daily cap passes");
}

/// The same sequence gives the same answers on either store: a request is admitted while fewer
/// than the limit were admitted in the window before it, so a window boundary never doubles it.
async fn the_minute_window_slides(backend: Backend) {
    let limiter = match (backend, shared_redis_url()) {
        (Backend::Postgres, Some(url)) => Limiter::redis(&url).await.unwrap(),
        _ => Limiter::memory(),
    };
    let key = format!("test:window:{}", uuid::Uuid::new_v4().simple());
    let window = Duration::from_millis(600);
    let mut answers = Vec::new();
    for _ in 0..4 {
        answers.push(limiter.admit_in_window(&key, 3, window).await.unwrap());
    }
    assert_eq!(answers, [true, true, true, false], "three in the window, the fourth refused");
    tokio::time::sleep(Duration::from_millis(350)).await;
    assert!(!limiter.admit_in_window(&key, 3, window).await.unwrap(), "still within the first window");
    tokio::time::sleep(Duration::from_millis(350)).await;
    assert!(limiter.admit_in_window(&key, 3, window).await.unwrap(), "the first three have left");
}

async fn padding_the_query_does_not_restart_a_page_walk(backend: Backend) {
    let app = app_with(backend, "studio.per_minute=100000").await;
    let (_, _, key) = app.key(Plan::Studio).await;
    for page in 1..=9 {
        let path = format!("/v1/manufacturers?per_page=2&page={page}&_={page}");
        assert_eq!(app.get_with_key(&path, &key).await.status(), 200, "page {page}");
    }
    let burst = app.get_with_key("/v1/manufacturers?page=10&per_page=3&_=cache-buster", &key).await;
    let (status, reason, _) = error_reason(burst).await;
    assert_eq!((status, reason.as_str()), (429, "PAGINATION_BURST"));
    for n in 0..500 {
        let path = format!("/v1/manufacturers?page=1&_={n}");
        app.get_with_key(&path, &key).await;
    }
    assert_eq!(app.state.access.burst.len(), 1, "one streak per caller and operation, whatever the query");
}
