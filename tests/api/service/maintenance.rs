//! Maintenance mode as a client and an operator see it: while on, every keyed operation is 503
//! MAINTENANCE with Retry-After and the operator's message, on every node within a second, while
//! the probes, the description and the keyless operations answer; `armory maintenance` switches it.

use std::process::Command;
use std::time::{Duration, Instant};

use armory::access::maintenance::{self, DEFAULT_MESSAGE, Pause};
use armory::access::plan::Plan;

use crate::support::{Backend, TestApp, error_reason};

/// Called with Enterprise keys (600 a minute), so polling a switch never meets the limit.
const KEYED: &str = "/v1/firearms";

crate::on_each_database!(
    setup = crate::support::fresh_app;
    maintenance_pauses_keyed_operations_and_leaves_the_probes_and_keyless_ones,
    maintenance_spends_no_limit_and_counts_no_usage
);
crate::on_each_database!(maintenance_reaches_every_node_within_a_second);

/// Poll `url` with `key` until it answers `status` (and, when given, that Retry-After); fail after
/// a second.
async fn within_a_second(app: &TestApp, url: &str, key: &str, status: u16) -> reqwest::Response {
    answered_within_a_second(app, url, key, status, None).await
}

async fn answered_within_a_second(
    app: &TestApp,
    url: &str,
    key: &str,
    status: u16,
    retry_after: Option<&str>,
) -> reqwest::Response {
    let switched = Instant::now();
    loop {
        let response = app.client.get(url).header("x-api-key", key).send().await.unwrap();
        let header = response.headers().get("retry-after").map(|value| value.to_str().unwrap());
        if response.status() == status && retry_after.is_none_or(|wanted| header == Some(wanted)) {
            return response;
        }
        assert!(
            switched.elapsed() < Duration::from_secs(1),
            "{url} still answers {} (Retry-After {header:?}) after a second",
            response.status()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn maintenance_pauses_keyed_operations_and_leaves_the_probes_and_keyless_ones(app: TestApp) {
    let (_, _, key) = app.key(Plan::Enterprise).await;
    assert_eq!(app.get_with_key(KEYED, &key).await.status(), 200);

    let pause = Pause::new(120, Some("Moving to a new database; back by 14:00 UTC.")).unwrap();
    maintenance::switch_on(&app.state.db, &pause).await.unwrap();
    let paused = within_a_second(&app, &app.url(KEYED), &key, 503).await;
    assert_eq!(paused.headers()["retry-after"], "120");
    assert_eq!(paused.headers()["cache-control"], "no-store");
    let (status, reason, body) = error_reason(paused).await;
    assert_eq!((status, reason.as_str()), (503, "MAINTENANCE"));
    assert_eq!(body["error"]["code"], "SERVICE_UNAVAILABLE");
    assert_eq!(body["error"]["message"], "Moving to a new database; back by 14:00 UTC.");

    // Paused before the credential: a request without a key or with a wrong one learns the same.
    let (status, reason, _) = error_reason(app.get(KEYED).await).await;
    assert_eq!((status, reason.as_str()), (503, "MAINTENANCE"));
    let (status, reason, _) = error_reason(app.get_with_key("/v1/me/usage", "ak_nonsense").await).await;
    assert_eq!((status, reason.as_str()), (503, "MAINTENANCE"));

    for path in [
        "/health",
        "/ready",
        "/openapi.json",
        "/v1/docs/limits",
        "/v1/docs/operations",
        "/v1/changelog",
        "/v1/changelog/feed",
        "/v1/blog",
    ] {
        assert_eq!(app.get(path).await.status(), 200, "{path} answers during maintenance");
    }
    // The notices say why.
    let notices: serde_json::Value = app.get("/v1/notices").await.json().await.unwrap();
    let shown = &notices["data"]["maintenance"];
    assert_eq!((shown["on"].as_bool(), shown["retryAfter"].as_u64()), (Some(true), Some(120)), "{notices}");
    assert_eq!(shown["message"], "Moving to a new database; back by 14:00 UTC.");
    assert_eq!(app.get("/docs/").await.status(), 200);
    assert_eq!(app.state.access.keys.maintenance().retry_after, Some(120), "the read side sees it");

    // Switched on again without a message: the default sentence, and `since` is kept.
    let since = app.state.access.keys.maintenance().since;
    let state = maintenance::switch_on(&app.state.db, &Pause::new(30, None).unwrap()).await.unwrap();
    assert_eq!(state.since, since);
    let paused = answered_within_a_second(&app, &app.url("/v1/me/usage"), &key, 503, Some("30")).await;
    let (_, _, body) = error_reason(paused).await;
    assert_eq!(body["error"]["message"], DEFAULT_MESSAGE);

    let state = maintenance::switch_off(&app.state.db).await.unwrap();
    assert!(!state.on && state.retry_after.is_none() && state.message.is_none());
    let back = within_a_second(&app, &app.url(KEYED), &key, 200).await;
    assert!(back.headers().get("retry-after").is_none());
    assert!(!app.state.access.keys.maintenance().on);
}

async fn maintenance_spends_no_limit_and_counts_no_usage(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    maintenance::switch_on(&app.state.db, &Pause::new(60, None).unwrap()).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    // Explorer allows 10 a minute; paused requests spend none of them.
    for _ in 0..12 {
        assert_eq!(app.get_with_key(KEYED, &key).await.status(), 503);
    }
    maintenance::switch_off(&app.state.db).await.unwrap();
    app.state.access.keys.reload().await.unwrap();
    let usage: serde_json::Value = app.get_with_key("/v1/me/usage", &key).await.json().await.unwrap();
    assert_eq!(usage["data"]["today"]["used"], 0, "{usage}");
    for n in 2..=10 {
        assert_eq!(app.get_with_key(KEYED, &key).await.status(), 200, "request {n} of the minute");
    }
}

/// A second node on the same database sees the switch through its key cache's poll, as the node
/// whose database was written does: neither is told.
async fn maintenance_reaches_every_node_within_a_second(backend: Backend) {
    let first = TestApp::spawn(backend).await;
    let db = armory::db::Db::connect(&first.database.url).await.unwrap();
    let mut config = armory::config::Config::for_database(first.database.url.clone());
    if let Backend::Postgres = backend {
        config.redis_url = crate::support::shared_redis_url();
    }
    let second = armory::app::App::with_db(config, db, None).await.unwrap();
    let second_url = format!("http://{}{KEYED}", second.local_addr());
    let stop_second = second.shutdown();
    tokio::spawn(second.run());
    let first_url = first.url(KEYED);
    let (_, _, key) = first.key(Plan::Enterprise).await;
    within_a_second(&first, &second_url, &key, 200).await;

    // The function `armory maintenance on` calls, on the database alone.
    maintenance::switch_on(&first.state.db, &Pause::new(600, None).unwrap()).await.unwrap();
    let (on_first, on_second) = tokio::join!(
        within_a_second(&first, &first_url, &key, 503),
        within_a_second(&first, &second_url, &key, 503)
    );
    for paused in [on_first, on_second] {
        assert_eq!(paused.headers()["retry-after"], "600");
    }
    maintenance::switch_off(&first.state.db).await.unwrap();
    tokio::join!(
        within_a_second(&first, &first_url, &key, 200),
        within_a_second(&first, &second_url, &key, 200)
    );
    stop_second.trigger();
}

/// Run `armory maintenance ARGS` on `app`'s database.
fn armory(app: &TestApp, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_armory"))
        .arg("maintenance")
        .args(args)
        .args(["--database-url", &app.database.url])
        .env_remove("ARMORY_DATABASE_URL")
        .env_remove("ARMORY_LOG_FORMAT")
        .output()
        .expect("the armory binary runs")
}

#[tokio::test]
async fn the_maintenance_commands_switch_a_running_node_and_refuse_bad_arguments() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (_, _, key) = app.key(Plan::Enterprise).await;
    for (args, named) in [
        (&["on", "--retry-after", "0"][..], "--retry-after"),
        (&["on", "--retry-after", "86401"][..], "--retry-after"),
        (&["on", "--retry-after", "soon"][..], "--retry-after"),
        (&["on", "--retry-after", "60", "--message", &"x".repeat(501)][..], "--message"),
    ] {
        let output = armory(&app, args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(named), "{args:?}: {stderr}");
    }
    let status = armory(&app, &["status"]);
    assert_eq!(String::from_utf8(status.stdout).unwrap(), "maintenance off\n", "never switched");

    let on = armory(&app, &["on", "--retry-after", "90", "--message", "Upgrading."]);
    assert!(on.status.success(), "{}", String::from_utf8_lossy(&on.stderr));
    let line = String::from_utf8(on.stdout).unwrap();
    assert!(
        line.starts_with("maintenance on since ") && line.ends_with("UTC, Retry-After 90s: Upgrading.\n"),
        "{line}"
    );
    let paused = within_a_second(&app, &app.url(KEYED), &key, 503).await;
    assert_eq!(paused.headers()["retry-after"], "90");
    let (_, _, body) = error_reason(paused).await;
    assert_eq!(body["error"]["message"], "Upgrading.");
    assert_eq!(String::from_utf8(armory(&app, &["status"]).stdout).unwrap(), line);

    let off = armory(&app, &["off"]);
    assert!(off.status.success());
    assert!(String::from_utf8(off.stdout).unwrap().starts_with("maintenance off since "));
    within_a_second(&app, &app.url(KEYED), &key, 200).await;
}
