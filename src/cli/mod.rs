//! The `armory` command line: argument parsing and dispatch to the library.
//!
//! Every failure a user can cause is one line on stderr naming the setting, and exit code 1.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

mod accounts;
mod catalog;
mod game_stats;

use crate::access::plan::PlanTable;
use crate::app::App;
use crate::config::Config;
use crate::db::Db;
use crate::telemetry;

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
    /// Serve the API (the default when no command is given).
    Serve(ServeArgs),
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
    /// Freeze the live game stats as a versioned dataset.
    #[command(subcommand, name = "game-stats")]
    GameStats(game_stats::GameStatsCommand),
}

#[derive(clap::Args, Default)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ARMORY_BIND", default_value = "127.0.0.1:8080")]
    bind: Option<SocketAddr>,
    /// Environment name reported by /health.
    #[arg(long, env = "ARMORY_ENV", default_value = "development")]
    env: Option<String>,
    /// The bundled catalog, imported on start when the database holds none.
    #[arg(long, env = "ARMORY_CATALOG_DIR")]
    catalog_dir: Option<std::path::PathBuf>,
    /// Redis for rate-limit counters shared by several nodes (in memory when unset).
    #[arg(long, env = "ARMORY_REDIS_URL")]
    redis_url: Option<String>,
    /// Plan limit overrides, e.g. `builder.per_minute=120,explorer.per_day=100`.
    #[arg(long, env = "ARMORY_PLAN_LIMITS", default_value = "")]
    plan_limits: String,
    /// Seconds /ready answers 503 before the listener closes on shutdown.
    #[arg(long, env = "ARMORY_SHUTDOWN_DRAIN_SECS", default_value_t = 0)]
    shutdown_drain_secs: u64,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    telemetry::init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => return fail(format!("cannot start the async runtime: {error}")),
    };
    let result = runtime.block_on(run(cli));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(message),
    }
}

fn fail(message: String) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

async fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        None => serve(cli.database_url, cli.serve).await,
        Some(Command::Serve(args)) => serve(cli.database_url, args).await,
        Some(Command::Migrate) => {
            connect_and_migrate(&cli.database_url).await?;
            eprintln!("migrations applied");
            Ok(())
        }
        Some(Command::Catalog(command)) => catalog::run(command, &cli.database_url).await,
        Some(Command::Accounts(command)) => accounts::run_accounts(command, &cli.database_url).await,
        Some(Command::Keys(command)) => accounts::run_keys(command, &cli.database_url).await,
        Some(Command::Shops(command)) => accounts::run_shops(command, &cli.database_url).await,
        Some(Command::GameStats(command)) => game_stats::run(command, &cli.database_url).await,
    }
}

async fn connect_and_migrate(database_url: &str) -> Result<Db, String> {
    let db = Db::connect(database_url).await.map_err(|e| e.to_string())?;
    db.migrate().await.map_err(|e| e.to_string())?;
    Ok(db)
}

async fn serve(database_url: String, args: ServeArgs) -> Result<(), String> {
    let config = Config {
        bind: args.bind.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080))),
        database_url,
        environment: args.env.unwrap_or_else(|| "development".to_owned()),
        shutdown_drain: Duration::from_secs(args.shutdown_drain_secs),
        redis_url: args.redis_url.filter(|url| !url.is_empty()),
        plans: PlanTable::default()
            .with_overrides(&args.plan_limits)
            .map_err(|e| format!("ARMORY_PLAN_LIMITS: {e}"))?,
    };
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
    let app = App::with_db(config, db, None).await.map_err(|e| e.to_string())?;
    app.shutdown().listen_for_signals();
    tracing::info!(address = %app.local_addr(), "armory listening on http://{}", app.local_addr());
    app.run().await.map_err(|e| format!("server failed: {e}"))?;
    tracing::info!("stopped cleanly");
    Ok(())
}
