//! `armory maintenance on|off|status`: pause the keyed API on every node and resume it
//! (`access::maintenance`). Each switch prints the state after it on stdout.

use clap::Subcommand;

use super::{CliError, connect_and_migrate};
use crate::access::maintenance::{self, Maintenance, Pause};

#[derive(Subcommand)]
pub enum MaintenanceCommand {
    /// Pause every keyed operation (503 MAINTENANCE with Retry-After) on every node within a
    /// second; keyless operations, the probes and the description still answer.
    On {
        /// Seconds sent as Retry-After, 1 to 86400.
        #[arg(long)]
        retry_after: String,
        /// The message paused requests are answered with, at most 500 characters (default: a
        /// sentence saying the API is paused for maintenance).
        #[arg(long)]
        message: Option<String>,
    },
    /// Resume the keyed API.
    Off,
    /// Print whether maintenance mode is on.
    Status,
}

pub async fn run(command: MaintenanceCommand, database_url: &str) -> Result<(), CliError> {
    let state = match command {
        MaintenanceCommand::On { retry_after, message } => {
            // Checked before connecting, so a bad argument is named even without a database.
            let pause = Pause::parse(&retry_after, message.as_deref())?;
            maintenance::switch_on(&connect_and_migrate(database_url).await?, &pause).await?
        }
        MaintenanceCommand::Off => maintenance::switch_off(&connect_and_migrate(database_url).await?).await?,
        MaintenanceCommand::Status => maintenance::current(&connect_and_migrate(database_url).await?).await?,
    };
    println!("{}", described(&state));
    Ok(())
}

/// One line: `on since …, Retry-After …s: message`, or `off` (with since when it was switched).
fn described(state: &Maintenance) -> String {
    let since = state.since.as_deref().map(|since| format!(" since {since} UTC")).unwrap_or_default();
    if state.on {
        let retry_after = state.retry_after.unwrap_or_default();
        format!("maintenance on{since}, Retry-After {retry_after}s: {}", state.message())
    } else {
        format!("maintenance off{since}")
    }
}
