//! What the access layer costs: `GET /v1/manufacturers/{id}` with a valid key through the whole
//! stack, against the same handler mounted without the access layer, in one run; and the firearm
//! detail through the whole stack against a fixed-JSON axum server (the framework's ceiling on
//! this machine), with the target ratio of 0.6.
//!
//! Run: `cargo bench --bench access_overhead` (see bench/README.md). Prints requests per second
//! and p50/p99 latency for each, and the ratios.

use std::time::Duration;

use armory::access::caller::Caller;
use armory::access::plan::{Plan, PlanTable};
use armory::app::App;
use armory::config::Config;
use armory::db::Db;
use armory::http::catalog::manufacturers;
use axum::Extension;
use axum::routing::get;

#[path = "common/load.rs"]
mod load;

use load::{CONNECTIONS, load};

const DURATION: Duration = Duration::from_secs(8);
const PATH: &str = "/v1/manufacturers/glock";

#[tokio::main]
async fn main() {
    let file = std::env::temp_dir().join(format!("armory-bench-{}.db", std::process::id()));
    let url = format!("sqlite://{}", file.display());
    let db = Db::connect(&url).await.expect("the bench database opens");
    db.migrate().await.expect("migrations apply");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    armory::catalog::import::import_dir_if_empty(&db, &data).await.expect("the catalog imports");
    let account =
        armory::accounts::create_account(&db, "bench@armory.local", Plan::Enterprise).await.unwrap();
    let (_, key) = armory::accounts::create_key(&db, Some(&account), None, None).await.unwrap();

    // Limits high enough that the benchmark measures the checks, not refusals.
    let mut config = Config::for_database(url.clone());
    config.plans = PlanTable::default()
        .with_overrides("enterprise.per_minute=1000000000,enterprise.per_day=1000000000")
        .unwrap();
    let full = App::with_db(config.clone(), db.clone(), None).await.unwrap();
    let state = full.state().clone();
    let full_addr = full.local_addr();
    tokio::spawn(full.run());

    // The same handler with the caller the access layer would have attached, and nothing else.
    let caller = Caller {
        key_id: "bench".into(),
        account_id: Some(account),
        plan: Plan::Enterprise,
        suspended: false,
        staff: false,
        shops: vec![],
    };
    let bare = axum::Router::new()
        .route("/v1/manufacturers/{id}", get(manufacturers::detail))
        .layer(Extension(caller))
        .with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let bare_addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, bare).await });

    // The ceiling: axum answering a fixed JSON body of about a detail's size, nothing else.
    let fixed: &'static str =
        Box::leak(format!("{{\"success\":true,\"data\":\"{}\"}}", "x".repeat(2_000)).into_boxed_str());
    let ceiling = axum::Router::new().route(
        "/fixed",
        get(move || async move { ([(axum::http::header::CONTENT_TYPE, "application/json")], fixed) }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let ceiling_addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, ceiling).await });

    let with_layer = load(&format!("http://{full_addr}{PATH}"), Some(&key), DURATION).await;
    let without = load(&format!("http://{bare_addr}{PATH}"), None, DURATION).await;
    let detail = load(&format!("http://{full_addr}/v1/firearms/glock-17"), Some(&key), DURATION).await;
    let fixed = load(&format!("http://{ceiling_addr}/fixed"), None, DURATION).await;
    println!("{CONNECTIONS} connections, {} s each", DURATION.as_secs());
    with_layer.print(&format!("{PATH}, whole stack"));
    without.print(&format!("{PATH}, handler alone"));
    println!("ratio (whole stack / handler alone, requests per second): {:.2}", with_layer.rps / without.rps);
    detail.print("/v1/firearms/glock-17, whole stack");
    fixed.print("fixed JSON, axum alone (ceiling)");
    let ratio = detail.rps / fixed.rps;
    let verdict = if ratio >= 0.6 { "pass" } else { "fail" };
    println!("detail / ceiling: {ratio:.2} (target at least 0.60: {verdict})");
    let _ = std::fs::remove_file(&file);
}
