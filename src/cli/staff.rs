//! The staff side of the account area: `armory reports list|review|resolve|dismiss` moves data
//! reports, `armory support list|reply|set-status` answers tickets. A command that changes a record
//! prints the record's new status on stdout; a refused move is one line on stderr and exit code 1.

use clap::Subcommand;

use super::accounts::render_table;
use super::{CliError, connect_and_migrate};
use crate::accounts::reports::{self, StaffAction};
use crate::accounts::support::{self, Author, Order};

#[derive(Subcommand)]
pub enum ReportsCommand {
    /// List data reports, newest first.
    List {
        /// Only reports in this status (pending, reviewed, resolved, dismissed).
        #[arg(long)]
        status: Option<String>,
    },
    /// pending → reviewed.
    Review {
        id: String,
        /// A note the reporter sees.
        #[arg(long)]
        note: Option<String>,
    },
    /// reviewed → resolved.
    Resolve {
        id: String,
        #[arg(long)]
        note: Option<String>,
    },
    /// pending or reviewed → dismissed.
    Dismiss {
        id: String,
        #[arg(long)]
        note: Option<String>,
    },
}

#[derive(Subcommand)]
pub enum SupportCommand {
    /// List tickets, the most recently updated first.
    List {
        /// Only tickets in this status (open, in_progress, waiting, resolved, closed).
        #[arg(long)]
        status: Option<String>,
    },
    /// Answer a ticket as staff; the ticket waits for the customer.
    Reply {
        id: String,
        #[arg(long)]
        message: String,
    },
    /// Set a ticket's status.
    SetStatus { id: String, status: String },
}

pub async fn run_reports(command: ReportsCommand, database_url: &str) -> Result<(), CliError> {
    let db = connect_and_migrate(database_url).await?;
    let (id, action, note) = match command {
        ReportsCommand::List { status } => {
            if let Some(status) = status.as_deref().filter(|s| !reports::STATUSES.contains(s)) {
                return Err(CliError::invalid(format!(
                    "'{status}' is not a report status; expected {}",
                    reports::STATUSES.join(", ")
                )));
            }
            let rows = reports::list(&db, None, status.as_deref()).await?;
            let table = rows.into_iter().map(|r| {
                vec![r.id, r.status, r.firearm_id, r.section, r.issue_type, r.account_id, r.created_at]
            });
            let header = ["ID", "STATUS", "FIREARM", "SECTION", "ISSUE", "ACCOUNT", "CREATED_AT"];
            print!("{}", render_table(&header, table));
            return Ok(());
        }
        ReportsCommand::Review { id, note } => (id, StaffAction::Review, note),
        ReportsCommand::Resolve { id, note } => (id, StaffAction::Resolve, note),
        ReportsCommand::Dismiss { id, note } => (id, StaffAction::Dismiss, note),
    };
    let report = reports::act(&db, &id, action, note.as_deref()).await?;
    eprintln!("report {} is {}", report.id, report.status);
    println!("{}", report.status);
    Ok(())
}

pub async fn run_support(command: SupportCommand, database_url: &str) -> Result<(), CliError> {
    let db = connect_and_migrate(database_url).await?;
    let ticket = match command {
        SupportCommand::List { status } => {
            if let Some(status) = status.as_deref().filter(|s| !support::STATUSES.contains(s)) {
                return Err(CliError::invalid(format!(
                    "'{status}' is not a ticket status; expected {}",
                    support::STATUSES.join(", ")
                )));
            }
            let order = Order { sort: "updated_at", descending: true };
            let rows = support::list(&db, None, status.as_deref(), order).await?;
            let table = rows
                .into_iter()
                .map(|t| vec![t.id, t.status, t.priority, t.category, t.subject, t.account_id, t.updated_at]);
            let header = ["ID", "STATUS", "PRIORITY", "CATEGORY", "SUBJECT", "ACCOUNT", "UPDATED_AT"];
            print!("{}", render_table(&header, table));
            return Ok(());
        }
        SupportCommand::Reply { id, message } => {
            if message.trim().is_empty() {
                return Err(CliError::invalid("a reply needs a message"));
            }
            support::reply(&db, None, &id, Author::Staff, message.trim(), &[]).await
        }
        SupportCommand::SetStatus { id, status } => support::set_status(&db, &id, &status).await,
    }?;
    eprintln!("ticket {} is {}", ticket.id, ticket.status);
    println!("{}", ticket.status);
    Ok(())
}
