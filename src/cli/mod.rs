//! The `armory` command line: argument parsing and dispatch to the library.
//!
//! Every failure a user can cause is one line on stderr naming the setting, and exit code 1.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

mod accounts;
mod catalog;
mod contract;
mod error;
mod game_stats;
mod maintenance;
mod staff;

pub use error::CliError;

use crate::access::plan::PlanTable;
use crate::app::App;
use crate::config::{Config, ConnectionSettings};
use crate::db::Db;
use crate::read::persisted::SnapshotFiles;
use crate::read::snapshot::CatalogHandle;
use crate::shutdown::Shutdown;
use crate::telemetry;
use crate::webhooks::allow::AllowList;
use crate::webhooks::retention::RetentionSettings;
use crate::webhooks::{WebhookSettings, Webhooks, parse_hosts, parse_schedule};

#[derive(Parser)]
#[command(name = "armory", version, about = "Armory: the firearms specification database API")]
// `armory [serve options]` is `armory serve [serve options]`.
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    /// Database URL: sqlite://PATH (created on first start) or postgres://USER@HOST/DB.
    #[arg(long, env = "ARMORY_DATABASE_URL", default_value = "sqlite://armory.db", global = true)]
    database_url: String,

    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API (the default when no command is given); also runs the webhook worker
    /// unless --no-worker.
    Serve(ServeArgs),
    /// Run only the webhook delivery worker (no HTTP listener); takes the serve settings.
    Worker(ServeArgs),
    /// Apply the database migrations and exit.
    Migrate,
    /// Import, check, export or synthesize catalog data.
    #[command(subcommand)]
    Catalog(catalog::CatalogCommand),
    /// Create, re-plan, suspend and list accounts.
    #[command(subcommand)]
    Accounts(accounts::AccountsCommand),
    /// Create, list, disable, enable and revoke API keys.
    #[command(subcommand)]
    Keys(accounts::KeysCommand),
    /// Create and approve shops and link their keys.
    #[command(subcommand)]
    Shops(accounts::ShopsCommand),
    /// Staff: list data reports and move them (review, resolve, dismiss).
    #[command(subcommand)]
    Reports(staff::ReportsCommand),
    /// Staff: list support tickets, reply, set a ticket's status.
    #[command(subcommand)]
    Support(staff::SupportCommand),
    /// Freeze the live game stats as a versioned dataset.
    #[command(subcommand, name = "game-stats")]
    GameStats(game_stats::GameStatsCommand),
    /// Pause the keyed API on every node (503 MAINTENANCE with Retry-After), resume it, or show it.
    #[command(subcommand)]
    Maintenance(maintenance::MaintenanceCommand),
    /// Call every documented operation in process and check each answer against the description
    /// (the served one, or --openapi FILE); exit 1 when one fails.
    Contract(contract::ContractArgs),
}

#[derive(clap::Args, Default)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ARMORY_BIND", default_value = "127.0.0.1:8080")]
    bind: Option<SocketAddr>,
    /// Environment name reported by /health.
    #[arg(long, env = "ARMORY_ENV", default_value = "development")]
    env: Option<String>,
    /// Where catalog snapshots are persisted and reused from on start: by default
    /// `<database file>.snapshots` beside a SQLite database file, none for PostgreSQL; `off` for none.
    #[arg(long, env = "ARMORY_SNAPSHOT_DIR")]
    snapshot_dir: Option<String>,
    /// The bundled catalog, imported on start when the database holds none.
    #[arg(long, env = "ARMORY_CATALOG_DIR")]
    catalog_dir: Option<std::path::PathBuf>,
    /// Redis for rate-limit counters shared by several nodes (in memory when unset).
    #[arg(long, env = "ARMORY_REDIS_URL")]
    redis_url: Option<String>,
    /// The service's public base URL, e.g. https://api.example.com (the OpenAPI server and the
    /// base of absolute links; relative links when unset).
    #[arg(long, env = "ARMORY_PUBLIC_URL")]
    public_url: Option<String>,
    /// Plan limit overrides, e.g. `builder.per_minute=120,explorer.per_day=100`.
    #[arg(long, env = "ARMORY_PLAN_LIMITS", default_value = "")]
    plan_limits: String,
    /// Seconds /ready answers 503 before the listener closes on shutdown.
    #[arg(long, env = "ARMORY_SHUTDOWN_DRAIN_SECS", default_value_t = 0)]
    shutdown_drain_secs: u64,
    /// PEM certificate chain to serve HTTPS with (with --tls-key); re-read when it changes.
    #[arg(long, env = "ARMORY_TLS_CERT", requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, env = "ARMORY_TLS_KEY", requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
    /// Reverse proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-Proto is believed.
    #[arg(long, env = "ARMORY_TRUSTED_PROXIES", default_value = "")]
    trusted_proxies: String,
    /// A separate address serving only /metrics, e.g. 127.0.0.1:9090 (not public by default).
    #[arg(long, env = "ARMORY_METRICS_BIND")]
    metrics_bind: Option<SocketAddr>,
    /// A token that opens /metrics on the main listener (`Authorization: Bearer <token>`).
    #[arg(long, env = "ARMORY_METRICS_TOKEN")]
    metrics_token: Option<String>,
    /// Origins browsers may call keyed operations from, comma-separated (`*` or unset: any).
    #[arg(long, env = "ARMORY_CORS_ORIGINS")]
    cors_origins: Option<String>,
    /// Days delivered and abandoned webhook deliveries are kept before the worker prunes them.
    #[arg(long, env = "ARMORY_RETAIN_DELIVERIES_DAYS", default_value_t = 30)]
    retain_deliveries_days: u64,
    /// Days fanned-out catalog events (the outbox) are kept.
    #[arg(long, env = "ARMORY_RETAIN_EVENTS_DAYS", default_value_t = 30)]
    retain_events_days: u64,
    /// Days per-day usage counts are kept.
    #[arg(long, env = "ARMORY_RETAIN_USAGE_DAYS", default_value_t = 400)]
    retain_usage_days: u64,
    /// The most connections held open at once; past it, new ones wait in the backlog.
    #[arg(long, env = "ARMORY_MAX_CONNECTIONS", default_value_t = 4096)]
    max_connections: usize,
    /// Seconds a client has to send a request's head (HTTP/1: also the wait for the next request
    /// on a kept-alive connection).
    #[arg(long, env = "ARMORY_HEADER_READ_TIMEOUT_SECS", default_value_t = 10)]
    header_read_timeout_secs: u64,
    /// Seconds a connection may move no byte either way before it is closed.
    #[arg(long, env = "ARMORY_IDLE_TIMEOUT_SECS", default_value_t = 60)]
    idle_timeout_secs: u64,
    /// Seconds a request may take before it is answered 503 DEPENDENCY_UNAVAILABLE.
    #[arg(long, env = "ARMORY_REQUEST_TIMEOUT_SECS", default_value_t = 30)]
    request_timeout_secs: u64,
    /// Seconds open connections get to finish after shutdown begins; then they are dropped.
    #[arg(long, env = "ARMORY_SHUTDOWN_GRACE_SECS", default_value_t = 10)]
    shutdown_grace_secs: u64,
    /// Do not run the webhook delivery worker in this process (run `armory worker` elsewhere).
    #[arg(long)]
    no_worker: bool,
    /// Webhook targets exempt from the URL rules and the address guard: hosts or CIDRs, comma-separated.
    #[arg(long, env = "ARMORY_WEBHOOK_ALLOW_TARGETS", default_value = "")]
    webhook_allow_targets: String,
    /// Seconds before each webhook retry, comma-separated; its length is the number of retries.
    #[arg(long, env = "ARMORY_WEBHOOK_RETRY_SCHEDULE", default_value = "60,300,900")]
    webhook_retry_schedule: String,
    /// Seconds one webhook attempt may take.
    #[arg(long, env = "ARMORY_WEBHOOK_TIMEOUT", default_value_t = 10)]
    webhook_timeout: u64,
    /// The service's own public host names, comma-separated; no webhook may target them.
    #[arg(long, env = "ARMORY_PUBLIC_HOSTS", default_value = "")]
    public_hosts: String,
    /// The hosting platform's worker domain; no webhook may target a host under it.
    #[arg(long, env = "ARMORY_WEBHOOK_WORKER_DOMAIN")]
    webhook_worker_domain: Option<String>,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    telemetry::init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => return fail(format!("cannot start the async runtime: {error}")),
    };
    let result = runtime.block_on(run(cli));
    // Log lines still queued are written before the process ends (and before its last error line).
    telemetry::flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(error.to_string()),
    }
}

fn fail(message: String) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

async fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        None => serve(cli.database_url, cli.serve).await,
        Some(Command::Serve(args)) => serve(cli.database_url, args).await,
        Some(Command::Worker(args)) => worker(cli.database_url, args).await,
        Some(Command::Migrate) => {
            connect_and_migrate(&cli.database_url).await?;
            eprintln!("migrations applied");
            Ok(())
        }
        Some(Command::Catalog(command)) => catalog::run(command, &cli.database_url).await,
        Some(Command::Accounts(command)) => accounts::run_accounts(command, &cli.database_url).await,
        Some(Command::Keys(command)) => accounts::run_keys(command, &cli.database_url).await,
        Some(Command::Shops(command)) => accounts::run_shops(command, &cli.database_url).await,
        Some(Command::Reports(command)) => staff::run_reports(command, &cli.database_url).await,
        Some(Command::Support(command)) => staff::run_support(command, &cli.database_url).await,
        Some(Command::GameStats(command)) => game_stats::run(command, &cli.database_url).await,
        Some(Command::Maintenance(command)) => maintenance::run(command, &cli.database_url).await,
        Some(Command::Contract(args)) => contract::run(args, &cli.database_url).await,
    }
}

async fn connect_and_migrate(database_url: &str) -> Result<Db, CliError> {
    let db = Db::connect(database_url).await?;
    db.migrate().await?;
    Ok(db)
}

fn config(database_url: String, args: &ServeArgs) -> Result<Config, CliError> {
    let timeout = args.webhook_timeout;
    if timeout == 0 {
        return Err(CliError::invalid("ARMORY_WEBHOOK_TIMEOUT: must be at least 1 second"));
    }
    let webhooks = WebhookSettings {
        allow_targets: AllowList::parse(&args.webhook_allow_targets)
            .map_err(|e| CliError::invalid(format!("ARMORY_WEBHOOK_ALLOW_TARGETS: {e}")))?,
        retry_schedule: parse_schedule(&args.webhook_retry_schedule)
            .map_err(|e| CliError::invalid(format!("ARMORY_WEBHOOK_RETRY_SCHEDULE: {e}")))?,
        timeout: Duration::from_secs(timeout),
        public_hosts: parse_hosts(&args.public_hosts),
        worker_domain: args.webhook_worker_domain.clone().filter(|d| !d.trim().is_empty()),
        run_worker: !args.no_worker,
        retention: RetentionSettings {
            deliveries: days(args.retain_deliveries_days),
            events: days(args.retain_events_days),
            usage: days(args.retain_usage_days),
            ..RetentionSettings::default()
        },
        ..WebhookSettings::default()
    };
    let snapshot_dir = snapshot_dir(args.snapshot_dir.as_deref(), &database_url);
    Ok(Config {
        snapshot_dir,
        bind: args.bind.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080))),
        database_url,
        environment: args.env.clone().unwrap_or_else(|| "development".to_owned()),
        shutdown_drain: Duration::from_secs(args.shutdown_drain_secs),
        redis_url: args.redis_url.clone().filter(|url| !url.is_empty()),
        public_url: parse_public_url(args.public_url.as_deref())?,
        tls: match (&args.tls_cert, &args.tls_key) {
            (Some(cert), Some(key)) => Some(crate::config::TlsFiles { cert: cert.clone(), key: key.clone() }),
            _ => None,
        },
        trusted_proxies: args
            .trusted_proxies
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect(),
        metrics_bind: args.metrics_bind,
        metrics_token: args.metrics_token.clone().filter(|t| !t.trim().is_empty()),
        cors_origins: args
            .cors_origins
            .as_deref()
            .map(|list| {
                list.split(',')
                    .map(|o| o.trim().trim_end_matches('/').to_owned())
                    .filter(|o| !o.is_empty())
                    .collect::<Vec<_>>()
            })
            .filter(|list| !list.is_empty() && !list.iter().any(|o| o == "*")),
        connections: ConnectionSettings {
            max_connections: args.max_connections.max(1),
            header_read_timeout: Duration::from_secs(args.header_read_timeout_secs.max(1)),
            idle_timeout: Duration::from_secs(args.idle_timeout_secs.max(1)),
            request_timeout: Duration::from_secs(args.request_timeout_secs.max(1)),
            shutdown_grace: Duration::from_secs(args.shutdown_grace_secs),
        },
        plans: PlanTable::default()
            .with_overrides(&args.plan_limits)
            .map_err(|e| CliError::invalid(format!("ARMORY_PLAN_LIMITS: {e}")))?,
        webhooks,
    })
}

/// The snapshot folder: as configured (`off` for none), else beside a SQLite database file.
fn snapshot_dir(configured: Option<&str>, database_url: &str) -> Option<std::path::PathBuf> {
    match configured.map(str::trim) {
        Some("off") => None,
        Some(dir) if !dir.is_empty() => Some(dir.into()),
        _ => {
            let file =
                database_url.strip_prefix("sqlite://").or_else(|| database_url.strip_prefix("sqlite:"))?;
            let file = file.split('?').next().unwrap_or_default();
            (!file.is_empty() && !file.contains(":memory:") && !file.starts_with("file:"))
                .then(|| format!("{file}.snapshots").into())
        }
    }
}

fn days(n: u64) -> Duration {
    Duration::from_secs(n.max(1) * 86_400)
}

/// `ARMORY_PUBLIC_URL`: an absolute http(s) URL with a host and nothing after the path, kept
/// without a trailing slash.
fn parse_public_url(raw: Option<&str>) -> Result<Option<String>, CliError> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else { return Ok(None) };
    let rest = raw.strip_prefix("https://").or_else(|| raw.strip_prefix("http://")).ok_or_else(|| {
        CliError::invalid(format!("ARMORY_PUBLIC_URL: '{raw}' must start with https:// or http://"))
    })?;
    let host = rest.split('/').next().unwrap_or_default();
    if host.is_empty() || rest.contains(['?', '#', ' ', '@']) {
        return Err(CliError::invalid(format!(
            "ARMORY_PUBLIC_URL: '{raw}' must be scheme://host[:port][/path], without credentials, query or fragment"
        )));
    }
    Ok(Some(raw.trim_end_matches('/').to_owned()))
}

/// The webhook worker alone: a catalog snapshot kept fresh (payloads render from it) and the
/// delivery loop, until SIGINT/SIGTERM; an attempt in flight finishes first.
async fn worker(database_url: String, args: ServeArgs) -> Result<(), CliError> {
    // A long-lived process: what it keeps resident counts (`allocator::without_huge_pages`).
    crate::allocator::without_huge_pages();
    let config = config(database_url, &args)?;
    let db = connect_and_migrate(&config.database_url).await?;
    let shutdown = Shutdown::default();
    shutdown.listen_for_signals();
    let files = config.snapshot_dir.clone().map(SnapshotFiles::new);
    let catalog = CatalogHandle::load(db.clone(), files).await?;
    tokio::spawn(catalog.clone().keep_fresh(shutdown.clone()));
    let webhooks = Webhooks::try_new(db.clone(), catalog, config.webhooks)?;
    tracing::info!("armory webhook worker running");
    webhooks.run(shutdown).await;
    db.close().await;
    tracing::info!("stopped cleanly");
    Ok(())
}

async fn serve(database_url: String, args: ServeArgs) -> Result<(), CliError> {
    // A long-lived process: what it keeps resident counts (`allocator::without_huge_pages`).
    crate::allocator::without_huge_pages();
    let config = config(database_url, &args)?;
    let db = connect_and_migrate(&config.database_url).await?;
    let data = args.catalog_dir.unwrap_or_else(catalog::bundled_data_dir);
    if let Some(summary) = crate::catalog::import::import_dir_if_empty(&db, &data).await? {
        tracing::info!(
            revision = summary.revision,
            changed = summary.changed(),
            "imported the bundled catalog"
        );
    }
    if config.environment == "development" {
        accounts::seed_demo_accounts(&db).await?;
    }
    let app = App::with_db(config, db, None).await?;
    app.shutdown().listen_for_signals();
    tracing::info!(address = %app.local_addr(), "armory listening on http://{}", app.local_addr());
    app.run().await.map_err(CliError::Serve)?;
    tracing::info!("stopped cleanly");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_url_is_absolute_without_credentials_query_or_trailing_slash() {
        assert_eq!(parse_public_url(None).unwrap(), None);
        assert_eq!(
            parse_public_url(Some("https://api.example.com/")).unwrap(),
            Some("https://api.example.com".into())
        );
        assert_eq!(
            parse_public_url(Some("http://10.0.0.1:8080/armory")).unwrap(),
            Some("http://10.0.0.1:8080/armory".into())
        );
        for bad in
            ["api.example.com", "ftp://x", "https://", "https://u:p@x.example", "https://x.example/?a=1"]
        {
            assert!(parse_public_url(Some(bad)).is_err(), "{bad}");
        }
    }
}
