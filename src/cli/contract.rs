//! `armory contract [--openapi FILE]`: the contract run of operation 132 from the command line, on
//! the configured database, with no listener: the app state is built as `App` builds it and the
//! router is called in process (`http::self_check::contract`).

use std::path::PathBuf;

use serde_json::Value;

use super::CliError;
use crate::app::App;
use crate::config::Config;
use crate::http::self_check::contract::{self, SelfCheckRun};

#[derive(clap::Args)]
pub struct ContractArgs {
    /// Check the answers against this OpenAPI description (JSON) instead of the one the service
    /// serves.
    #[arg(long, value_name = "FILE")]
    openapi: Option<PathBuf>,
}

/// Runs the contract; prints each failing operation with its reason and a summary line; fails
/// (exit 1) when any operation failed.
pub async fn run(args: ContractArgs, database_url: &str) -> Result<(), CliError> {
    let description = match &args.openapi {
        Some(file) => Some(read_description(file)?),
        None => None,
    };
    let db = super::connect_and_migrate(database_url).await?;
    let mut config = Config::for_database(database_url);
    config.environment = "contract".to_owned();
    config.snapshot_dir = super::snapshot_dir(None, database_url);
    let (state, _) = App::build_state(config, db).await?;
    let description = description.unwrap_or_else(|| contract::served_description(&state));
    let outcome = contract::run(&state, &description).await;
    state.shutdown.trigger();
    let run =
        outcome.map_err(|e| CliError::invalid(format!("the contract run could not start: {}", e.message)))?;
    print!("{}", report(&run));
    state.db.close().await;
    if run.passed {
        Ok(())
    } else {
        Err(CliError::invalid(format!(
            "the contract failed: {} documented operation(s) failed",
            run.totals.failed
        )))
    }
}

fn read_description(file: &std::path::Path) -> Result<Value, CliError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError::invalid(format!("--openapi {}: {e}", file.display())))?;
    let description: Value = serde_json::from_str(&text)
        .map_err(|e| CliError::invalid(format!("--openapi {}: not JSON: {e}", file.display())))?;
    if !description["paths"].is_object() {
        return Err(CliError::invalid(format!(
            "--openapi {}: no paths: not an OpenAPI description",
            file.display()
        )));
    }
    Ok(description)
}

/// One line per failing operation, then the summary.
fn report(run: &SelfCheckRun) -> String {
    let mut out = String::new();
    for failure in &run.failures {
        let reason = failure.reason.as_deref().unwrap_or_default();
        out.push_str(&format!("FAILED {} {}: {reason}\n", failure.method, failure.path));
    }
    let totals = run.totals;
    out.push_str(&format!(
        "contract: {} passed, {} failed, {} skipped (catalog revision {}, {} ms)\n",
        totals.passed, totals.failed, totals.skipped, run.revision, run.duration_ms
    ));
    out
}
