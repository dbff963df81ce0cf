//! A dependency outage as a client sees it: PostgreSQL and Redis are reached through loopback
//! proxies the test cuts mid-load (the shared servers themselves keep running for the other
//! tests). While they are cut, keyed requests and writes answer 503 DEPENDENCY_UNAVAILABLE with
//! Retry-After, never 500, and `/ready` is 503; once they are back the node recovers without a
//! restart, no write is half-done and no usage count is lost.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use armory::access::plan::Plan;
use armory::app::App;
use armory::config::Config;
use armory::db::Db;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

use crate::support::{Backend, TestApp, TestDatabase, error_reason, postgres_configured, shared_redis_url};

/// A TCP proxy on loopback that can be cut (every open connection dropped, new ones refused) and
/// restored.
struct Proxy {
    addr: SocketAddr,
    up: Arc<AtomicBool>,
    connections: Arc<std::sync::Mutex<Vec<AbortHandle>>>,
    accept: AbortHandle,
}

impl Proxy {
    async fn to(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let up = Arc::new(AtomicBool::new(true));
        let connections: Arc<std::sync::Mutex<Vec<AbortHandle>>> = Arc::default();
        let accept = tokio::spawn({
            let (up, connections) = (up.clone(), connections.clone());
            async move {
                while let Ok((mut client, _)) = listener.accept().await {
                    if !up.load(Ordering::SeqCst) {
                        continue; // dropped: refused while cut
                    }
                    let task = tokio::spawn(async move {
                        if let Ok(mut server) = TcpStream::connect(target).await {
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                        }
                    });
                    connections.lock().unwrap().push(task.abort_handle());
                }
            }
        })
        .abort_handle();
        Self { addr, up, connections, accept }
    }

    fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        for connection in self.connections.lock().unwrap().drain(..) {
            connection.abort();
        }
    }

    fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.cut();
        self.accept.abort();
    }
}

/// `scheme://user@host[:port]/rest` with host and port replaced by `addr`, and the original
/// address (a URL without a port names its scheme's default one).
fn through(url: &str, addr: SocketAddr) -> (String, SocketAddr) {
    let start = url.find("://").unwrap() + 3;
    let authority_start = url[start..].find('@').map_or(start, |at| start + at + 1);
    let authority_end = url[authority_start..].find('/').map_or(url.len(), |at| authority_start + at);
    let mut original = url[authority_start..authority_end].replace("localhost", "127.0.0.1");
    if !original.contains(':') {
        let default_port = if url.starts_with("redis") { 6379 } else { 5432 };
        original = format!("{original}:{default_port}");
    }
    let target: SocketAddr = original.parse().expect("host:port of a loopback service");
    (format!("{}{}{}", &url[..authority_start], addr, &url[authority_end..]), target)
}

async fn proxied(url: &str) -> (Proxy, String) {
    let (_, target) = through(url, "127.0.0.1:1".parse().unwrap());
    let proxy = Proxy::to(target).await;
    let (url, _) = through(url, proxy.addr);
    (proxy, url)
}

#[tokio::test]
async fn a_database_and_redis_outage_is_503_then_recovers_with_nothing_lost() {
    if !postgres_configured() {
        eprintln!("skipped: ARMORY_TEST_DATABASE_URL is not set");
        return;
    }
    let database = TestDatabase::create(Backend::Postgres).await;
    let (database_proxy, database_url) = proxied(&database.url).await;
    let redis = match shared_redis_url() {
        Some(url) => Some(proxied(&url).await),
        None => None,
    };
    let mut config = Config::for_database(database_url.clone());
    config.redis_url = redis.as_ref().map(|(_, url)| url.clone());
    let db = Db::connect(&database_url).await.unwrap();
    db.migrate().await.unwrap();
    let app = TestApp::start(App::with_db(config, db, None).await.unwrap(), database);
    let (account, _, key) = app.key(Plan::Studio).await;
    let register = |url: &'static str| {
        app.client
            .post(app.url("/v1/me/webhooks"))
            .header("x-api-key", &key)
            .json(&serde_json::json!({ "url": url, "events": ["firearm.updated"] }))
            .send()
    };
    assert_eq!(app.get("/ready").await.status(), 200);
    assert_eq!(register("https://hooks.example.com/before").await.unwrap().status(), 201);
    for _ in 0..3 {
        assert_eq!(app.get_with_key("/v1/me/usage", &key).await.status(), 200);
    }

    // The database goes first: writes and database reads are 503, nothing half-written.
    database_proxy.cut();
    let during = register("https://hooks.example.com/during").await.unwrap();
    assert_eq!(during.headers()["retry-after"], "5");
    let (status, reason, _) = error_reason(during).await;
    assert_eq!((status, reason.as_str()), (503, "DEPENDENCY_UNAVAILABLE"));
    let usage = app.get_with_key("/v1/me/usage", &key).await;
    let (status, reason, _) = error_reason(usage).await;
    assert_eq!((status, reason.as_str()), (503, "DEPENDENCY_UNAVAILABLE"));
    let ready = app.get("/ready").await;
    assert_eq!(ready.status(), 503);
    let ready: serde_json::Value = ready.json().await.unwrap();
    assert_eq!(ready["database"], "disconnected");

    // Then Redis: a keyed request is refused rather than let through uncounted.
    if let Some((proxy, _)) = &redis {
        proxy.cut();
        let refused = app.get_with_key("/v1/manufacturers", &key).await;
        assert_eq!(refused.headers()["retry-after"], "5");
        let (status, reason, _) = error_reason(refused).await;
        assert_eq!((status, reason.as_str()), (503, "DEPENDENCY_UNAVAILABLE"));
        let ready: serde_json::Value = app.get("/ready").await.json().await.unwrap();
        assert_eq!(ready["redis"], "disconnected");
    }

    database_proxy.restore();
    if let Some((proxy, _)) = &redis {
        proxy.restore();
    }
    let back = Instant::now();
    while app.get("/ready").await.status() != 200 {
        assert!(back.elapsed() < Duration::from_secs(30), "ready again without a restart");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(register("https://hooks.example.com/after").await.unwrap().status(), 201);
    let listed: serde_json::Value = app.get_with_key("/v1/me/webhooks", &key).await.json().await.unwrap();
    let urls: Vec<&str> =
        listed["data"].as_array().unwrap().iter().map(|e| e["url"].as_str().unwrap()).collect();
    assert_eq!(urls.len(), 2, "the refused registration left nothing behind: {urls:?}");
    assert!(!urls.iter().any(|u| u.contains("during")));

    // Every counted request of the day reaches the database once it is back (flushed every 2 s).
    app.state.access.usage.flush().await.unwrap();
    let (stored,): (i64,) = sqlx::query_as("SELECT count FROM usage_daily WHERE subject = $1")
        .bind(&account)
        .fetch_one(app.state.db.pool())
        .await
        .unwrap();
    assert!(stored >= 5, "the usage counted before and after the outage is stored ({stored})");
}
