//! The access layer as a client sees it: 401 and 403 reasons, limits, paging, conditional requests.

use std::time::{Duration, Instant};

use armory::access::plan::{Plan, PlanTable};
use armory::accounts::{self, KeyStatus};

use crate::support::{Backend, TestApp, error_reason};

const DETAIL: &str = "/v1/manufacturers/glock";

async fn catalog_app(backend: Backend) -> TestApp {
    TestApp::with_catalog(backend, |_| {}).await
}

crate::on_each_database!(
    setup = catalog_app;
    each_credential_problem_is_its_own_401,
    account_and_key_states_are_enforced,
    explorer_pages_five_deep_without_totals_and_builder_sees_totals,
    a_matching_if_none_match_is_304_after_authentication,
    manufacturers_and_categories_answer_from_the_catalog,
);
crate::on_each_database!(setup = crate::support::fresh_app; the_limits_table_is_public);

async fn expect_reason(response: reqwest::Response, status: u16, reason: &str) -> serde_json::Value {
    let (got_status, got_reason, body) = error_reason(response).await;
    assert_eq!((got_status, got_reason.as_str()), (status, reason), "{body}");
    body
}

async fn each_credential_problem_is_its_own_401(app: TestApp) {
    let (_, _, key) = app.key(Plan::Builder).await;
    expect_reason(app.get(DETAIL).await, 401, "AUTH_REQUIRED").await;
    expect_reason(app.get_with_key(DETAIL, "").await, 401, "KEY_MISSING").await;
    let basic =
        app.client.get(app.url(DETAIL)).header("authorization", "Basic dXNlcjpwdw==").send().await.unwrap();
    expect_reason(basic, 401, "KEY_MISSING").await;
    expect_reason(
        app.get_with_key(DETAIL, "ak_0000000000000000000000000000000000000000").await,
        401,
        "KEY_INVALID",
    )
    .await;

    let bearer = app
        .client
        .get(app.url(DETAIL))
        .header("authorization", format!("bEaReR {key}"))
        .send()
        .await
        .unwrap();
    assert_eq!(bearer.status(), 200, "the scheme is matched case-insensitively");
    let both = app
        .client
        .get(app.url(DETAIL))
        .header("x-api-key", "ak_wrong")
        .header("authorization", format!("Bearer {key}"));
    expect_reason(both.send().await.unwrap(), 401, "KEY_INVALID").await;
    let both =
        app.client.get(app.url(DETAIL)).header("x-api-key", &key).header("authorization", "Bearer ak_wrong");
    assert_eq!(both.send().await.unwrap().status(), 200, "X-API-Key wins");

    let (_, key_id, disabled) = app.key(Plan::Builder).await;
    accounts::set_key_status(&app.state.db, &key_id, KeyStatus::Disabled).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    expect_reason(app.get_with_key(DETAIL, &disabled).await, 401, "KEY_DISABLED").await;
    accounts::set_key_status(&app.state.db, &key_id, KeyStatus::Active).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    assert_eq!(app.get_with_key(DETAIL, &disabled).await.status(), 200, "re-enabled");

    let (account, _, _) = app.key(Plan::Builder).await;
    let yesterday = time::OffsetDateTime::now_utc().date().previous_day().unwrap();
    let (_, expired) =
        accounts::create_key(&app.state.db, Some(&account), None, Some(yesterday)).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    expect_reason(app.get_with_key(DETAIL, &expired).await, 401, "KEY_EXPIRED").await;
}

async fn account_and_key_states_are_enforced(app: TestApp) {
    let (account, _, key) = app.key(Plan::Studio).await;
    accounts::suspend(&app.state.db, &account).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    expect_reason(app.get_with_key(DETAIL, &key).await, 403, "ACCOUNT_SUSPENDED").await;
    accounts::unsuspend(&app.state.db, &account).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    assert_eq!(app.get_with_key(DETAIL, &key).await.status(), 200);

    let (_, ownerless) = accounts::create_key(&app.state.db, None, Some("ownerless"), None).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    assert_eq!(app.get_with_key(DETAIL, &ownerless).await.status(), 200, "catalog reads need no account");
    expect_reason(app.get_with_key("/v1/me/usage", &ownerless).await, 403, "KEY_NOT_LINKED_TO_ACCOUNT").await;

    // A paid subscription that has ended answers at Explorer: totals disappear.
    let (account, _, key) = app.key(Plan::Builder).await;
    let paged = "/v1/manufacturers?per_page=5";
    let body: serde_json::Value = app.get_with_key(paged, &key).await.json().await.unwrap();
    assert!(body["pagination"]["total"].is_u64());
    let yesterday = time::OffsetDateTime::now_utc().date().previous_day().unwrap();
    accounts::set_paid_until(&app.state.db, &account, Some(yesterday)).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    let body: serde_json::Value = app.get_with_key(paged, &key).await.json().await.unwrap();
    assert!(body["pagination"].get("total").is_none(), "{body}");
    let usage: serde_json::Value = app.get_with_key("/v1/me/usage", &key).await.json().await.unwrap();
    assert_eq!(usage["data"]["plan"], "explorer");
}

async fn explorer_pages_five_deep_without_totals_and_builder_sees_totals(app: TestApp) {
    let (_, _, explorer) = app.key(Plan::Explorer).await;
    let response = app.get_with_key("/v1/manufacturers?page=5&per_page=2", &explorer).await;
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    let pagination = &body["pagination"];
    assert_eq!(
        (pagination["page"].as_u64(), pagination["per_page"].as_u64(), pagination["limit"].as_u64()),
        (Some(5), Some(2), Some(2))
    );
    assert!(pagination.get("total").is_none() && pagination.get("totalPages").is_none());
    let data = body["data"].as_array().unwrap();
    assert_eq!(data.len(), 2);
    assert!(data[0].get("description").is_none(), "Explorer gets the summary field set");
    expect_reason(
        app.get_with_key("/v1/manufacturers?page=6", &explorer).await,
        403,
        "PAGINATION_DEPTH_EXCEEDED",
    )
    .await;

    let (_, _, builder) = app.key(Plan::Builder).await;
    let body: serde_json::Value =
        app.get_with_key("/v1/categories/pistols/firearms?per_page=10", &builder).await.json().await.unwrap();
    let total = body["pagination"]["total"].as_u64().expect("Builder sees total");
    assert_eq!(body["pagination"]["totalPages"].as_u64(), Some(total.div_ceil(10)));
    assert!(body["data"][0].get("manufacturerId").is_some());

    let bad = expect_reason(
        app.get_with_key("/v1/manufacturers?per_page=101", &builder).await,
        400,
        "INVALID_PARAMETER",
    )
    .await;
    assert!(bad["error"]["details"]["per_page"].is_string(), "{bad}");
    let bad = expect_reason(
        app.get_with_key("/v1/manufacturers?page=0&per_page=0", &builder).await,
        400,
        "INVALID_PARAMETER",
    )
    .await;
    assert!(bad["error"]["details"]["page"].is_string() && bad["error"]["details"]["per_page"].is_string());
}

async fn a_matching_if_none_match_is_304_after_authentication(app: TestApp) {
    let (_, _, key) = app.key(Plan::Builder).await;
    let first = app.get_with_key(DETAIL, &key).await;
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with('"'), "a strong ETag");
    let again = app
        .client
        .get(app.url(DETAIL))
        .header("x-api-key", &key)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    assert!(again.bytes().await.unwrap().is_empty());
    let weak = app
        .client
        .get(app.url(DETAIL))
        .header("x-api-key", &key)
        .header("if-none-match", format!("\"x\", W/{etag}"));
    assert_eq!(weak.send().await.unwrap().status(), 304);
    let keyless = app.client.get(app.url(DETAIL)).header("if-none-match", "*").send().await.unwrap();
    expect_reason(keyless, 401, "AUTH_REQUIRED").await;
    let unknown = app
        .client
        .get(app.url("/v1/manufacturers/nobody"))
        .header("x-api-key", &key)
        .header("if-none-match", "*");
    expect_reason(unknown.send().await.unwrap(), 404, "RESOURCE_NOT_FOUND").await;
}

async fn manufacturers_and_categories_answer_from_the_catalog(app: TestApp) {
    let (_, _, key) = app.key(Plan::Builder).await;
    let body: serde_json::Value = app.get_with_key(DETAIL, &key).await.json().await.unwrap();
    let glock = &body["data"];
    assert_eq!(glock["name"], "Glock Ges.m.b.H.");
    assert_eq!(glock["countryCode"], "AT");
    assert!(glock["createdAt"].as_str().unwrap().len() == 19, "YYYY-MM-DD HH:MM:SS");
    assert_eq!(glock["provenance"]["bestSourceKind"], "reference");

    let body: serde_json::Value =
        app.get_with_key("/v1/manufacturers/glock/firearms?per_page=100", &key).await.json().await.unwrap();
    let ids: Vec<&str> = body["data"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"glock-17") && ids.contains(&"glock-19"));
    assert_eq!(
        body["data"][0].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["id", "name", "categoryId", "yearIntroduced", "status", "actionType"]
    );

    let body: serde_json::Value =
        app.get_with_key("/v1/manufacturers?country=AT", &key).await.json().await.unwrap();
    assert!(body["data"].as_array().unwrap().iter().all(|m| m["countryCode"] == "AT"));

    let body: serde_json::Value = app.get_with_key("/v1/categories", &key).await.json().await.unwrap();
    let pistols = body["data"].as_array().unwrap().iter().find(|c| c["id"] == "pistols").unwrap().clone();
    assert!(pistols["firearmCount"].as_u64().unwrap() > 10);
    let body: serde_json::Value =
        app.get_with_key("/v1/categories/pistols", &key).await.json().await.unwrap();
    assert_eq!(body["data"], pistols);
    expect_reason(app.get_with_key("/v1/categories/lasers", &key).await, 404, "RESOURCE_NOT_FOUND").await;
    expect_reason(app.get_with_key("/v1/categories/lasers/firearms", &key).await, 404, "RESOURCE_NOT_FOUND")
        .await;
    expect_reason(
        app.get_with_key("/v1/manufacturers/nobody/firearms", &key).await,
        404,
        "RESOURCE_NOT_FOUND",
    )
    .await;

    let usage: serde_json::Value = app.get_with_key("/v1/me/usage", &key).await.json().await.unwrap();
    assert_eq!(usage["data"]["today"]["used"], 8, "the eight requests before this one: {usage}");
    assert_eq!(usage["data"]["month"]["allowance"], 25_000);
}

async fn the_limits_table_is_public(app: TestApp) {
    let body: serde_json::Value = app.get("/v1/docs/limits").await.json().await.unwrap();
    let rows = body["data"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1]["plan"], "builder");
    assert_eq!(rows[1]["perMinute"], 60);
    assert_eq!(rows[0]["pageDepth"], 5);
    assert!(rows[2]["pageDepth"].is_null());
}

/// Wait until at least `needed` seconds remain in this UTC minute, so a per-minute test does not
/// straddle two windows.
async fn room_in_this_minute(needed: i64) {
    let second = i64::from(time::OffsetDateTime::now_utc().second());
    if 60 - second < needed {
        tokio::time::sleep(Duration::from_secs((61 - second) as u64)).await;
    }
}

#[tokio::test]
async fn the_61st_request_in_a_minute_at_builder_is_rate_limited() {
    let app = catalog_app(Backend::Sqlite).await;
    let (_, _, key) = app.key(Plan::Builder).await;
    room_in_this_minute(20).await;
    for n in 1..=60 {
        assert_eq!(app.get_with_key(DETAIL, &key).await.status(), 200, "request {n}");
    }
    let limited = app.get_with_key(DETAIL, &key).await;
    assert_eq!(limited.headers()["retry-after"], "60");
    assert!(limited.headers().keys().all(|h| !h.as_str().starts_with("x-ratelimit")));
    expect_reason(limited, 429, "RATE_LIMITED").await;
}

#[tokio::test]
async fn the_daily_cap_is_429_and_a_304_does_not_count_against_it() {
    let plans = PlanTable::default().with_overrides("explorer.per_day=3").unwrap();
    let app = TestApp::with_catalog(Backend::Sqlite, |config| config.plans = plans).await;
    let (_, _, key) = app.key(Plan::Explorer).await;
    room_in_this_minute(15).await;
    let first = app.get_with_key(DETAIL, &key).await;
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    for _ in 0..5 {
        let not_modified =
            app.client.get(app.url(DETAIL)).header("x-api-key", &key).header("if-none-match", &etag);
        assert_eq!(not_modified.send().await.unwrap().status(), 304);
    }
    assert_eq!(app.get_with_key(DETAIL, &key).await.status(), 200);
    assert_eq!(app.get_with_key(DETAIL, &key).await.status(), 200, "the third counted request of the day");
    let capped = app.get_with_key(DETAIL, &key).await;
    assert_eq!(capped.headers()["retry-after"], "3600");
    expect_reason(capped, 429, "DAILY_CAP_EXCEEDED").await;
}

#[tokio::test]
async fn ten_consecutive_pages_in_a_burst_are_refused() {
    let app = catalog_app(Backend::Sqlite).await;
    let (_, _, key) = app.key(Plan::Studio).await;
    for page in 1..=9 {
        assert_eq!(
            app.get_with_key(&format!("/v1/manufacturers?per_page=2&page={page}"), &key).await.status(),
            200
        );
    }
    let burst = app.get_with_key("/v1/manufacturers?per_page=2&page=10", &key).await;
    expect_reason(burst, 429, "PAGINATION_BURST").await;
}

#[tokio::test]
async fn a_key_revoked_from_the_command_line_is_refused_within_a_second() {
    let app = catalog_app(Backend::Sqlite).await;
    let (_, key_id, key) = app.key(Plan::Builder).await;
    assert_eq!(app.get_with_key(DETAIL, &key).await.status(), 200);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_armory"))
        .args(["keys", "revoke", &key_id, "--database-url", &app.database.url])
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let revoked_at = Instant::now();
    loop {
        let response = app.get_with_key(DETAIL, &key).await;
        if response.status() == 401 {
            expect_reason(response, 401, "KEY_INVALID").await;
            break;
        }
        assert!(revoked_at.elapsed() < Duration::from_secs(1), "still accepted after a second");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn two_nodes_on_one_redis_share_one_minute_budget() {
    let Ok(redis_url) = std::env::var("ARMORY_TEST_REDIS_URL") else {
        eprintln!("skipped: ARMORY_TEST_REDIS_URL is not set");
        return;
    };
    let plans = PlanTable::default().with_overrides("builder.per_minute=4").unwrap();
    let configure = |config: &mut armory::config::Config| {
        config.redis_url = Some(redis_url.clone());
        config.plans = plans.clone();
    };
    let first = TestApp::with_catalog(Backend::Sqlite, configure).await;
    // The second node shares the first one's database and Redis.
    let db = armory::db::Db::connect(&first.database.url).await.unwrap();
    let mut config = armory::config::Config::for_database(first.database.url.clone());
    configure(&mut config);
    let second_app = armory::app::App::with_db(config, db, None).await.unwrap();
    let second_addr = second_app.local_addr();
    tokio::spawn(second_app.run());
    let (_, _, key) = first.key(Plan::Builder).await;
    tokio::time::sleep(Duration::from_millis(600)).await; // the second node's cache polls every 250 ms
    room_in_this_minute(10).await;

    let on_second = |key: String| {
        let client = first.client.clone();
        async move {
            client.get(format!("http://{second_addr}{DETAIL}")).header("x-api-key", key).send().await.unwrap()
        }
    };
    assert_eq!(first.get_with_key(DETAIL, &key).await.status(), 200);
    assert_eq!(on_second(key.clone()).await.status(), 200);
    assert_eq!(first.get_with_key(DETAIL, &key).await.status(), 200);
    assert_eq!(on_second(key.clone()).await.status(), 200);
    expect_reason(on_second(key.clone()).await, 429, "RATE_LIMITED").await;
    expect_reason(first.get_with_key(DETAIL, &key).await, 429, "RATE_LIMITED").await;
}

/// With Redis configured and then gone, a keyed request is refused, never let through unlimited.
#[tokio::test]
async fn a_request_is_503_when_redis_is_unreachable() {
    let Some(redis) = OwnRedis::start() else {
        eprintln!("skipped: no redis-server binary");
        return;
    };
    let url = format!("redis://127.0.0.1:{}/", redis.port);
    let app = TestApp::with_catalog(Backend::Sqlite, |config| config.redis_url = Some(url)).await;
    let (_, _, key) = app.key(Plan::Builder).await;
    assert_eq!(app.get_with_key(DETAIL, &key).await.status(), 200);
    drop(redis);
    tokio::time::sleep(Duration::from_millis(300)).await;
    expect_reason(app.get_with_key(DETAIL, &key).await, 503, "DEPENDENCY_UNAVAILABLE").await;
    assert_eq!(app.get("/health").await.status(), 200, "the node itself stays up");
}

/// A redis-server of the test's own on a free loopback port, stopped when dropped.
struct OwnRedis {
    child: std::process::Child,
    port: u16,
}

impl OwnRedis {
    fn start() -> Option<Self> {
        let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .ok()?;
        let deadline = Instant::now() + Duration::from_secs(5);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(Self { child, port })
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
