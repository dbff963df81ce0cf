//! What the access layer costs: `GET /v1/manufacturers/{id}` with a valid key through the whole
//! stack, against the same handler mounted without the access layer; and the firearm detail
//! through the whole stack against a fixed-JSON axum server (the framework's ceiling on this
//! machine), with the target ratio of 0.6.
//!
//! The way the issue measured it: the server on one core, the load client on the other. Where
//! `wrk` is installed the bench runs itself again under `taskset -c 0` and loads from core 1 (`common/wrk.rs`),
//! else from an in-process client whose own cost caps the ceiling. The servers run on a runtime
//! with one worker thread, the in-process client on another. The pairs are loaded in alternating
//! rounds, and each ratio is the median of the rounds' ratios, so a burst of noise on this shared
//! box moves one round, not the verdict.
//!
//! Run: `cargo bench --bench access_overhead` (see bench/README.md). Prints requests per second
//! and p50/p99 latency per round, and the ratios.

use std::net::SocketAddr;
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
#[path = "common/wrk.rs"]
mod wrk;

use load::{CONNECTIONS, Result, load};

/// Each load of a round; the rounds alternate the measured stack and its baseline.
const DURATION: Duration = Duration::from_secs(3);
const ROUNDS: usize = 5;
const PATH: &str = "/v1/manufacturers/glock";

/// The load client: one worker thread (the servers have their own, see `serve`).
#[tokio::main(flavor = "multi_thread", worker_threads = 1)]
async fn main() {
    if let Some(code) = wrk::rerun_pinned() {
        std::process::exit(code);
    }
    if wrk::is_pinned_run() {
        // The request log stays on, as on a node (default level info: a line per request); the
        // pinned run's standard error is a file. The in-process client's run keeps its terminal.
        armory::telemetry::init();
    }
    let file = std::env::temp_dir().join(format!("armory-bench-{}.db", std::process::id()));
    let url = format!("sqlite://{}", file.display());
    let servers = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("bench-server")
        .enable_all()
        .build()
        .expect("the server runtime starts");
    // Everything served is built and spawned on the servers' runtime, whose worker keeps running
    // it after `block_on` returns.
    let (key, full_addr, bare_addr, ceiling_addr) = std::thread::scope(|scope| {
        scope.spawn(|| servers.block_on(serve(url.clone()))).join().expect("the servers start")
    });

    if std::env::var_os("ARMORY_BENCH_SERVE_ONLY").is_some() {
        // For a load tool outside the process (bench/README.md: wrk on the other core).
        println!(
            "key {key}\nservice http://{full_addr}\nhandler alone http://{bare_addr}\nceiling http://{ceiling_addr}/fixed"
        );
        std::future::pending::<()>().await;
    }
    let full_detail = format!("http://{full_addr}/v1/firearms/glock-17");
    let ceiling = format!("http://{ceiling_addr}/fixed");
    let full_maker = format!("http://{full_addr}{PATH}");
    let bare_maker = format!("http://{bare_addr}{PATH}");
    let client = if wrk::available() {
        "wrk pinned to core 1"
    } else {
        "the in-process client (no wrk: the ceiling is the client's, see bench/README.md)"
    };
    println!(
        "{CONNECTIONS} connections, {ROUNDS} alternating rounds of {} s per load, {client}",
        DURATION.as_secs()
    );
    let maker = rounds(("whole stack", &full_maker, Some(&key)), ("handler alone", &bare_maker, None)).await;
    println!("{PATH}: whole stack / handler alone, median of rounds: {maker:.2}");
    let detail =
        rounds(("detail, whole stack", &full_detail, Some(&key)), ("fixed JSON ceiling", &ceiling, None))
            .await;
    let verdict = if detail >= 0.6 { "pass" } else { "fail" };
    println!(
        "firearm detail / fixed-JSON ceiling, median of rounds: {detail:.2} (target at least 0.60: {verdict})"
    );
    servers.shutdown_background();
    // The database and the write-ahead log and shared-memory files SQLite keeps beside it.
    for suffix in ["", "-wal", "-shm"] {
        let mut path = file.clone().into_os_string();
        path.push(suffix);
        let _ = std::fs::remove_file(path);
    }
}

/// Load `measured` and `baseline` alternately, `ROUNDS` times; the median of the rounds' ratios.
async fn rounds(measured: (&str, &str, Option<&str>), baseline: (&str, &str, Option<&str>)) -> f64 {
    let external = wrk::available();
    let run = async |url: &str, key: Option<&str>| -> Result {
        let headers: Vec<(&str, &str)> = key.map(|key| ("x-api-key", key)).into_iter().collect();
        if external { wrk::load(url, &headers, DURATION) } else { load(url, &headers, DURATION).await }
    };
    let mut ratios = Vec::new();
    for round in 1..=ROUNDS {
        let a = run(measured.1, measured.2).await;
        let b = run(baseline.1, baseline.2).await;
        a.print(&format!("round {round}: {}", measured.0));
        b.print(&format!("round {round}: {}", baseline.0));
        ratios.push(a.rps / b.rps);
    }
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

/// The three servers: the service itself, the manufacturer handler alone with the caller already
/// attached, and the firearm detail's own JSON as a fixed body from a bare axum router (the
/// framework's ceiling). Returns an Enterprise key and their addresses.
async fn serve(url: String) -> (String, SocketAddr, SocketAddr, SocketAddr) {
    let db = Db::connect(&url).await.expect("the bench database opens");
    db.migrate().await.expect("migrations apply");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    armory::catalog::import::import_dir_if_empty(&db, &data).await.expect("the catalog imports");
    let account =
        armory::accounts::create_account(&db, "bench@armory.local", Plan::Enterprise).await.unwrap();
    let (_, key) = armory::accounts::create_key(&db, Some(&account), None, None).await.unwrap();

    let mut config = Config::for_database(url.clone());
    config.plans = PlanTable::default()
        .with_overrides("enterprise.per_minute=1000000000,enterprise.per_day=1000000000")
        .unwrap();
    let full = App::with_db(config.clone(), db.clone(), None).await.unwrap();
    let state = full.state().clone();
    let full_addr = full.local_addr();
    tokio::spawn(full.run());

    let caller = Caller {
        key_id: "bench".into(),
        account_id: Some(account.into()),
        plan: Plan::Enterprise,
        suspended: false,
        staff: false,
        shops: [].into(),
    };
    let bare = axum::Router::new()
        .route("/v1/manufacturers/{id}", get(manufacturers::detail))
        .layer(Extension(caller))
        .with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let bare_addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, bare).await });

    // The ceiling answers the detail's own bytes, so the ratio compares the work around the same
    // body on the wire rather than bodies of different sizes.
    let detail = reqwest::Client::new()
        .get(format!("http://{full_addr}/v1/firearms/glock-17"))
        .header("x-api-key", &key)
        .send()
        .await
        .and_then(|response| response.error_for_status())
        .expect("the detail answers");
    let fixed: &'static str = Box::leak(detail.text().await.expect("the detail reads").into_boxed_str());
    let ceiling = axum::Router::new().route(
        "/fixed",
        get(move || async move { ([(axum::http::header::CONTENT_TYPE, "application/json")], fixed) }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let ceiling_addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, ceiling).await });
    (key, full_addr, bare_addr, ceiling_addr)
}
