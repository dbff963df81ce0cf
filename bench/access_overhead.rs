//! What the access layer costs: `GET /v1/manufacturers/{id}` with a valid key through the whole
//! stack, against the same handler mounted without the access layer, in one run.
//!
//! Run: `cargo bench --bench access_overhead` (see bench/README.md). Prints requests per second
//! and p50/p99 latency for both, and their ratio.

use std::sync::Arc;
use std::time::{Duration, Instant};

use armory::access::caller::Caller;
use armory::access::plan::{Plan, PlanTable};
use armory::app::App;
use armory::config::Config;
use armory::db::Db;
use armory::http::manufacturers;
use axum::Extension;
use axum::routing::get;

const CONNECTIONS: usize = 16;
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

    let with_layer = load(&format!("http://{full_addr}{PATH}"), Some(&key)).await;
    let without = load(&format!("http://{bare_addr}{PATH}"), None).await;
    println!("GET {PATH}, {CONNECTIONS} connections, {} s each", DURATION.as_secs());
    with_layer.print("with the access layer (valid key)");
    without.print("handler alone");
    println!("ratio (with / without, requests per second): {:.2}", with_layer.rps / without.rps);
    let _ = std::fs::remove_file(&file);
}

struct Result {
    rps: f64,
    p50: Duration,
    p99: Duration,
}

impl Result {
    fn print(&self, label: &str) {
        println!(
            "{label:<36} {:>9.0} req/s   p50 {:>7.3} ms   p99 {:>7.3} ms",
            self.rps,
            ms(self.p50),
            ms(self.p99)
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

async fn load(url: &str, key: Option<&str>) -> Result {
    let client = reqwest::Client::new();
    // Warm up connections and caches.
    for _ in 0..200 {
        send(&client, url, key).await;
    }
    let started = Instant::now();
    let latencies = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut workers = Vec::new();
    for _ in 0..CONNECTIONS {
        let (client, url, key, latencies) =
            (client.clone(), url.to_owned(), key.map(str::to_owned), latencies.clone());
        workers.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            while started.elapsed() < DURATION {
                let t = Instant::now();
                send(&client, &url, key.as_deref()).await;
                mine.push(t.elapsed());
            }
            latencies.lock().unwrap().extend(mine);
        }));
    }
    for worker in workers {
        worker.await.unwrap();
    }
    let mut all = latencies.lock().unwrap().clone();
    all.sort();
    let at = |q: f64| all[((all.len() as f64 * q) as usize).min(all.len() - 1)];
    Result { rps: all.len() as f64 / started.elapsed().as_secs_f64(), p50: at(0.50), p99: at(0.99) }
}

async fn send(client: &reqwest::Client, url: &str, key: Option<&str>) {
    let mut request = client.get(url);
    if let Some(key) = key {
        request = request.header("x-api-key", key);
    }
    let response = request.send().await.expect("the server answers");
    assert_eq!(response.status(), 200, "the benchmark expects 200s");
    response.bytes().await.unwrap();
}
