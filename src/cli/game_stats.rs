//! `armory game-stats freeze VERSION [--description D]`: freeze the live stats as a dataset.

use clap::Subcommand;

use super::{CliError, connect_and_migrate};
use crate::catalog::stats_versions;

#[derive(Subcommand)]
pub enum GameStatsCommand {
    /// Copy every firearm's live game stats into a new frozen version (the label must be new).
    Freeze {
        /// Dataset label, e.g. 2026.1 (letters, digits, '.', '-', '_').
        version: String,
        #[arg(long)]
        description: Option<String>,
    },
}

pub async fn run(command: GameStatsCommand, database_url: &str) -> Result<(), CliError> {
    match command {
        GameStatsCommand::Freeze { version, description } => {
            let db = connect_and_migrate(database_url).await?;
            let frozen = stats_versions::freeze(&db, &version, description.as_deref()).await?;
            eprintln!("froze {} firearms as game-stats version {}", frozen.firearm_count, frozen.version);
            println!("{}", frozen.version);
            Ok(())
        }
    }
}
