//! The test harness: one isolated app and database per test, on SQLite always and on PostgreSQL
//! when ARMORY_TEST_DATABASE_URL is set (a fresh database per test, dropped afterwards).

use std::net::SocketAddr;

use armory::app::App;
use armory::config::Config;
use armory::db::Db;
use armory::http::AppState;
use armory::shutdown::Shutdown;
use axum::Router;

/// Declares, for each named scenario, one test per database: `<name>::sqlite` always (rate-limit
/// counters in memory) and `<name>::postgres` when ARMORY_TEST_DATABASE_URL is set (required under
/// ARMORY_TEST_REQUIRE_POSTGRES; counters in Redis when ARMORY_TEST_REDIS_URL is set). `setup = f;` gives each scenario `f(backend).await` (an app on a
/// fresh database, say); without it a scenario takes the `Backend` and makes its own.
#[macro_export]
macro_rules! on_each_database {
    (setup = $setup:path; $($test:ident),* $(,)?) => {
        $(
            mod $test {
                #[allow(unused_imports)]
                use super::*;

                #[tokio::test]
                async fn sqlite() {
                    super::$test($setup($crate::support::Backend::Sqlite).await).await
                }

                #[tokio::test]
                async fn postgres() {
                    if !$crate::support::postgres_configured() {
                        eprintln!("skipped: ARMORY_TEST_DATABASE_URL is not set");
                        return;
                    }
                    super::$test($setup($crate::support::Backend::Postgres).await).await
                }
            }
        )*
    };
    ($($test:ident),* $(,)?) => {
        $crate::on_each_database!(setup = $crate::support::backend; $($test),*);
    };
}

/// The scenario makes its own database or app.
pub async fn backend(backend: Backend) -> Backend {
    backend
}

/// An app on a fresh, empty database.
pub async fn fresh_app(backend: Backend) -> TestApp {
    TestApp::spawn(backend).await
}

/// Generous limits, so a test that walks many operations never meets the per-minute budget.
pub fn roomy_plans() -> armory::access::plan::PlanTable {
    let mut spec = Vec::new();
    for plan in ["explorer", "builder", "studio", "enterprise"] {
        spec.push(format!("{plan}.per_minute=100000,{plan}.per_day=1000000"));
    }
    armory::access::plan::PlanTable::default().with_overrides(&spec.join(",")).unwrap()
}

/// An app over the bundled catalog with roomy limits and a frozen game-stats version 2026.1.
pub async fn read_catalog_app(backend: Backend) -> TestApp {
    let app = TestApp::with_catalog(backend, |config| config.plans = roomy_plans()).await;
    armory::catalog::stats_versions::freeze(&app.state.db, "2026.1", Some("launch balance")).await.unwrap();
    app
}

#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// ARMORY_TEST_REDIS_URL, when set: the Redis the PostgreSQL runs share their counters in.
pub fn shared_redis_url() -> Option<String> {
    std::env::var("ARMORY_TEST_REDIS_URL").ok().filter(|url| !url.is_empty())
}

pub fn postgres_configured() -> bool {
    let configured = std::env::var("ARMORY_TEST_DATABASE_URL").is_ok_and(|url| !url.is_empty());
    if !configured && std::env::var("ARMORY_TEST_REQUIRE_POSTGRES").is_ok() {
        panic!("ARMORY_TEST_REQUIRE_POSTGRES is set but ARMORY_TEST_DATABASE_URL is not");
    }
    configured
}

/// A database of its own for one test.
pub struct TestDatabase {
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    SqliteFile(std::path::PathBuf),
    PostgresDatabase { admin_url: String, name: String },
}

impl TestDatabase {
    pub async fn create(backend: Backend) -> Self {
        let unique = uuid::Uuid::new_v4().simple().to_string();
        match backend {
            Backend::Sqlite => {
                let path = std::env::temp_dir().join(format!("armory-test-{unique}.db"));
                Self { url: format!("sqlite://{}", path.display()), cleanup: Cleanup::SqliteFile(path) }
            }
            Backend::Postgres => {
                let admin_url = std::env::var("ARMORY_TEST_DATABASE_URL").expect("checked by the caller");
                let name = format!("armory_test_{unique}");
                let admin = Db::connect(&admin_url).await.expect("ARMORY_TEST_DATABASE_URL answers");
                sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                    .execute(admin.pool())
                    .await
                    .expect("create a test database");
                admin.close().await;
                let url = replace_database_name(&admin_url, &name);
                Self { url, cleanup: Cleanup::PostgresDatabase { admin_url, name } }
            }
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        match &self.cleanup {
            Cleanup::SqliteFile(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                }
                // A server started from the command line persists its snapshot beside the file.
                let _ = std::fs::remove_dir_all(format!("{}.snapshots", path.display()));
            }
            Cleanup::PostgresDatabase { admin_url, name } => {
                let (admin_url, name) = (admin_url.clone(), name.clone());
                // Drop runs inside the test's runtime; the cleanup needs a runtime of its own.
                let _ = std::thread::spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
                    runtime.block_on(async {
                        if let Ok(admin) = Db::connect(&admin_url).await {
                            let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                            let _ = sqlx::query(sqlx::AssertSqlSafe(sql)).execute(admin.pool()).await;
                            admin.close().await;
                        }
                    });
                })
                .join();
            }
        }
    }
}

fn replace_database_name(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let host_part = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match query {
        Some(query) => format!("{host_part}/{name}?{query}"),
        None => format!("{host_part}/{name}"),
    }
}

/// A running app on an ephemeral loopback port, with its own database.
pub struct TestApp {
    pub addr: SocketAddr,
    pub state: AppState,
    pub client: reqwest::Client,
    pub shutdown: Shutdown,
    server: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    /// Dropped after the server: removes the test's database.
    pub database: TestDatabase,
}

impl TestApp {
    pub async fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, None, |_| {}).await
    }

    /// Spawn with extra routes mounted and a chance to adjust the configuration.
    pub async fn spawn_with(
        backend: Backend,
        extra: Option<Router<AppState>>,
        configure: impl FnOnce(&mut Config),
    ) -> Self {
        Self::spawn_full(backend, false, extra, configure).await
    }

    /// An app over the bundled catalog.
    pub async fn with_catalog(backend: Backend, configure: impl FnOnce(&mut Config)) -> Self {
        Self::spawn_full(backend, true, None, configure).await
    }

    async fn spawn_full(
        backend: Backend,
        with_catalog: bool,
        extra: Option<Router<AppState>>,
        configure: impl FnOnce(&mut Config),
    ) -> Self {
        let database = TestDatabase::create(backend).await;
        let mut config = Config::for_database(database.url.clone());
        if let Backend::Postgres = backend {
            // The PostgreSQL runs are the several-node deployment: shared counters in Redis too.
            config.redis_url = shared_redis_url();
        }
        configure(&mut config);
        let db = Db::connect(&config.database_url).await.expect("test database answers");
        db.migrate().await.expect("migrations apply");
        if with_catalog {
            let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
            armory::catalog::import::import_dir_if_empty(&db, &data)
                .await
                .expect("the bundled catalog imports");
        }
        let app = App::with_db(config, db, extra).await.expect("app builds");
        Self::start(app, database)
    }

    pub fn start(app: App, database: TestDatabase) -> Self {
        let addr = app.local_addr();
        let shutdown = app.shutdown();
        let state = app.state().clone();
        let server = Some(tokio::spawn(app.run()));
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Self { addr, state, client, shutdown, server, database }
    }

    /// A new account on `plan` and a key for it; the key cache is reloaded at once, as the node
    /// that made a change does.
    pub async fn key(&self, plan: armory::access::plan::Plan) -> (String, String, String) {
        let email = format!("{}@test.invalid", uuid::Uuid::new_v4().simple());
        let account = armory::accounts::create_account(&self.state.db, &email, plan).await.unwrap();
        let (key_id, secret) =
            armory::accounts::create_key(&self.state.db, Some(&account), None, None).await.unwrap();
        self.state.access.keys.reload().await.unwrap();
        (account, key_id, secret)
    }

    /// A new Enterprise account with a key linked to a new shop named `name` (approved, or under
    /// review); the shop's id and the key. The key cache is reloaded at once.
    pub async fn shop_key(&self, name: &str, approved: bool) -> (String, String) {
        let (account, key_id, secret) = self.key(armory::access::plan::Plan::Enterprise).await;
        (self.link_shop(&account, &key_id, name, approved).await, secret)
    }

    /// A new shop of `account` (approved, or under review), with `key_id` linked to it.
    pub async fn link_shop(&self, account: &str, key_id: &str, name: &str, approved: bool) -> String {
        let shop = armory::accounts::create_shop(&self.state.db, account, name, approved).await.unwrap();
        armory::accounts::add_shop_key(&self.state.db, &shop, key_id).await.unwrap();
        self.state.access.keys.reload().await.unwrap();
        shop
    }

    pub async fn get_with_key(&self, path: &str, key: &str) -> reqwest::Response {
        self.client.get(self.url(path)).header("x-api-key", key).send().await.expect("request is answered")
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("request is answered")
    }

    /// Stop the server and start a new node on the same database, configured like a fresh one by
    /// `configure` (a restart, or a second node).
    pub async fn restart(&mut self, backend: Backend, configure: impl FnOnce(&mut Config)) {
        self.shutdown.trigger();
        self.server
            .take()
            .expect("running")
            .await
            .expect("server task joins")
            .expect("the server stops cleanly");
        let mut config = Config::for_database(self.database.url.clone());
        if let Backend::Postgres = backend {
            config.redis_url = shared_redis_url();
        }
        configure(&mut config);
        let db = Db::connect(&config.database_url).await.expect("test database answers");
        let app = App::with_db(config, db, None).await.expect("app builds");
        self.addr = app.local_addr();
        self.shutdown = app.shutdown();
        self.state = app.state().clone();
        self.server = Some(tokio::spawn(app.run()));
    }

    /// Stop the server and wait for it to finish.
    pub async fn stop(mut self) -> std::io::Result<()> {
        self.shutdown.trigger();
        self.server.take().expect("running").await.expect("server task joins")
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.shutdown.trigger();
    }
}

/// The error envelope's reason, after checking the envelope's shape and its request id.
pub async fn error_reason(response: reqwest::Response) -> (u16, String, serde_json::Value) {
    let status = response.status().as_u16();
    let header_id = response
        .headers()
        .get("x-request-id")
        .expect("every response has X-Request-Id")
        .to_str()
        .unwrap()
        .to_owned();
    let body: serde_json::Value = response.json().await.expect("error bodies are JSON");
    assert_eq!(body["success"], false, "{body}");
    assert_eq!(body["request_id"], header_id.as_str(), "request_id echoes the header");
    assert!(body["error"]["code"].is_string() && body["error"]["message"].is_string(), "{body}");
    (status, body["error"]["reason"].as_str().unwrap_or_default().to_owned(), body)
}

/// A concrete path for an operation's template: ids the bundled catalog has.
pub fn sample_path(template: &str) -> String {
    let id = match template {
        t if t.starts_with("/v1/firearms/") || t.starts_with("/v1/game-stats/") => "glock-17",
        t if t.starts_with("/v1/manufacturers/") => "glock",
        t if t.starts_with("/v1/calibers/") => "9x19mm-parabellum",
        t if t.starts_with("/v1/ammunition/") => "9x19mm-parabellum-115gr-fmj",
        t if t.starts_with("/v1/changelog/") => "2026-11-22-webhooks",
        _ => "sample",
    };
    let slug = if template.starts_with("/v1/blog/") { "keeping-a-local-copy-fresh" } else { "pistols" };
    template
        .replace("{id}", id)
        .replace("{slug}", slug)
        .replace("{code}", "AT")
        .replace("{version}", "2026.1")
        .replace("{imageId}", "1")
        .replace("{selector}", "primary")
        .replace("{shareId}", "sample")
        .replace("{firearmId}", "glock-17")
        .replace("{endpointId}", "sample")
        .replace("{offerId}", "sample")
}
