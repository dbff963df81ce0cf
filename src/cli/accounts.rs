//! `armory accounts|keys|shops`: the operator side of accounts, API keys and shops, and the demo
//! accounts a development server announces on first start.
//!
//! Scriptable: a command that creates something prints only its id (or the key's secret) on
//! stdout; confirmations go to stderr.

use clap::Subcommand;

use super::{CliError, connect_and_migrate};
use crate::accounts::{self, KeyStatus, parse_date, parse_plan};
use crate::db::Db;

#[derive(Subcommand)]
pub enum AccountsCommand {
    /// Create an account; prints its id.
    Create {
        #[arg(long)]
        email: String,
        /// explorer, builder, studio or enterprise.
        #[arg(long)]
        plan: String,
    },
    /// Move an account to another plan.
    SetPlan { id: String, plan: String },
    /// Suspend an account: its keys are refused until it is unsuspended.
    Suspend { id: String },
    /// Lift a suspension.
    Unsuspend { id: String },
    /// Set the end of the paid period (YYYY-MM-DD, UTC); without a date, clear it.
    SetPaidUntil { id: String, date: Option<String> },
    /// Grant staff rights.
    GrantStaff { id: String },
    /// Withdraw staff rights.
    RevokeStaff { id: String },
    /// Set the name shown as the owner of the account's shared collections (never the e-mail).
    SetDisplayName { id: String, name: String },
    /// Delete a shared collection, by its share id (the owner asks the operator).
    DeleteCollection { share_id: String },
    /// List every account.
    List,
}

#[derive(Subcommand)]
pub enum KeysCommand {
    /// Create a key; prints its secret, which is shown this once.
    Create {
        /// The owning account; without it, a key no account owns.
        #[arg(long)]
        account: Option<String>,
        #[arg(long)]
        name: Option<String>,
        /// The key stops working at the start of this day, UTC (YYYY-MM-DD).
        #[arg(long)]
        expires_at: Option<String>,
    },
    /// List the keys of an account (without --account: the keys no account owns).
    List {
        #[arg(long)]
        account: Option<String>,
    },
    /// Disable a key until it is enabled again.
    Disable { key_id: String },
    /// Enable a disabled key.
    Enable { key_id: String },
    /// Revoke a key for good.
    Revoke { key_id: String },
}

#[derive(Subcommand)]
pub enum ShopsCommand {
    /// Create a shop; prints its id. Without --approved it is under review.
    Create {
        #[arg(long)]
        account: String,
        #[arg(long)]
        name: String,
        #[arg(long)]
        approved: bool,
    },
    /// Approve a shop under review.
    Approve { shop_id: String },
    /// Link a key of the shop's account to the shop.
    AddKey { shop_id: String, key_id: String },
}

pub async fn run_accounts(command: AccountsCommand, database_url: &str) -> Result<(), CliError> {
    match command {
        AccountsCommand::Create { email, plan } => {
            let plan = parse_plan(&plan)?;
            let db = connect_and_migrate(database_url).await?;
            let id = accounts::create_account(&db, &email, plan).await?;
            println!("{id}");
            eprintln!("created the {plan} account {id} for {}", email.trim());
        }
        AccountsCommand::SetPlan { id, plan } => {
            let plan = parse_plan(&plan)?;
            let db = connect_and_migrate(database_url).await?;
            accounts::set_plan(&db, &id, plan).await?;
            eprintln!("account {id} is now on {plan}");
        }
        AccountsCommand::Suspend { id } => {
            let db = connect_and_migrate(database_url).await?;
            accounts::suspend(&db, &id).await?;
            eprintln!("account {id} is suspended");
        }
        AccountsCommand::Unsuspend { id } => {
            let db = connect_and_migrate(database_url).await?;
            accounts::unsuspend(&db, &id).await?;
            eprintln!("account {id} is active");
        }
        AccountsCommand::SetPaidUntil { id, date } => {
            let date = date.as_deref().map(parse_date).transpose()?;
            let db = connect_and_migrate(database_url).await?;
            accounts::set_paid_until(&db, &id, date).await?;
            match date {
                Some(date) => eprintln!("account {id} is paid until {date} 00:00:00 UTC"),
                None => eprintln!("account {id} has no paid period"),
            }
        }
        AccountsCommand::GrantStaff { id } => {
            let db = connect_and_migrate(database_url).await?;
            accounts::set_staff(&db, &id, true).await?;
            eprintln!("account {id} has staff rights");
        }
        AccountsCommand::RevokeStaff { id } => {
            let db = connect_and_migrate(database_url).await?;
            accounts::set_staff(&db, &id, false).await?;
            eprintln!("account {id} no longer has staff rights");
        }
        AccountsCommand::SetDisplayName { id, name } => {
            let db = connect_and_migrate(database_url).await?;
            accounts::collections::set_display_name(&db, &id, &name).await?;
            eprintln!("account {id} is shown as '{}'", name.trim());
        }
        AccountsCommand::DeleteCollection { share_id } => {
            let db = connect_and_migrate(database_url).await?;
            accounts::collections::delete(&db, &share_id).await?;
            eprintln!("collection {share_id} is deleted");
        }
        AccountsCommand::List => {
            let db = connect_and_migrate(database_url).await?;
            let rows = accounts::list_accounts(&db).await?;
            let table = rows.iter().map(|row| {
                vec![
                    row.id.clone(),
                    row.email.clone(),
                    row.plan.id().to_owned(),
                    row.status.clone(),
                    row.paid_until.clone().unwrap_or_else(|| "-".to_owned()),
                    if row.staff { "yes" } else { "no" }.to_owned(),
                    row.created_at.clone(),
                ]
            });
            print!(
                "{}",
                render_table(&["ID", "EMAIL", "PLAN", "STATUS", "PAID_UNTIL", "STAFF", "CREATED_AT"], table)
            );
        }
    }
    Ok(())
}

pub async fn run_keys(command: KeysCommand, database_url: &str) -> Result<(), CliError> {
    match command {
        KeysCommand::Create { account, name, expires_at } => {
            let expires_at = expires_at.as_deref().map(parse_date).transpose()?;
            let db = connect_and_migrate(database_url).await?;
            let (id, secret) =
                accounts::create_key(&db, account.as_deref(), name.as_deref(), expires_at).await?;
            println!("{secret}");
            match account {
                Some(account) => {
                    eprintln!("created the key {id} for account {account}; its secret is shown once")
                }
                None => eprintln!("created the key {id}, owned by no account; its secret is shown once"),
            }
        }
        KeysCommand::List { account } => {
            let db = connect_and_migrate(database_url).await?;
            let rows = accounts::list_keys(&db, account.as_deref()).await?;
            let dash = |value: &Option<String>| value.clone().unwrap_or_else(|| "-".to_owned());
            let table = rows.iter().map(|row| {
                vec![
                    row.id.clone(),
                    row.prefix.clone(),
                    dash(&row.name),
                    row.status.clone(),
                    dash(&row.expires_at),
                    row.created_at.clone(),
                ]
            });
            print!(
                "{}",
                render_table(&["ID", "PREFIX", "NAME", "STATUS", "EXPIRES_AT", "CREATED_AT"], table)
            );
        }
        KeysCommand::Disable { key_id } => set_key_status(database_url, &key_id, KeyStatus::Disabled).await?,
        KeysCommand::Enable { key_id } => set_key_status(database_url, &key_id, KeyStatus::Active).await?,
        KeysCommand::Revoke { key_id } => set_key_status(database_url, &key_id, KeyStatus::Revoked).await?,
    }
    Ok(())
}

async fn set_key_status(database_url: &str, key_id: &str, status: KeyStatus) -> Result<(), CliError> {
    let db = connect_and_migrate(database_url).await?;
    accounts::set_key_status(&db, key_id, status).await?;
    eprintln!("key {key_id} is {}", status.id());
    Ok(())
}

pub async fn run_shops(command: ShopsCommand, database_url: &str) -> Result<(), CliError> {
    let db = connect_and_migrate(database_url).await?;
    match command {
        ShopsCommand::Create { account, name, approved } => {
            let id = accounts::create_shop(&db, &account, &name, approved).await?;
            println!("{id}");
            let state = if approved { "approved" } else { "under review" };
            eprintln!("created the shop {id} for account {account} ({state})");
        }
        ShopsCommand::Approve { shop_id } => {
            accounts::approve_shop(&db, &shop_id).await?;
            eprintln!("shop {shop_id} is approved");
        }
        ShopsCommand::AddKey { shop_id, key_id } => {
            accounts::add_shop_key(&db, &shop_id, &key_id).await?;
            eprintln!("key {key_id} is linked to shop {shop_id}");
        }
    }
    Ok(())
}

/// In development, create the demo accounts when there are none and print their keys once.
pub async fn seed_demo_accounts(db: &Db) -> Result<(), CliError> {
    let Some(created) = accounts::seed_demo_accounts(db).await? else {
        return Ok(());
    };
    let table =
        created.iter().map(|(plan, email, secret)| vec![plan.id().to_owned(), email.clone(), secret.clone()]);
    println!("Demo accounts (development only). Their keys are shown this once:");
    print!("{}", render_table(&["PLAN", "EMAIL", "KEY"], table));
    Ok(())
}

/// Left-aligned columns separated by two spaces, a header line first.
pub(super) fn render_table(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    let rows: Vec<Vec<String>> =
        std::iter::once(header.iter().map(|h| (*h).to_owned()).collect()).chain(rows).collect();
    let mut widths = vec![0; header.len()];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> =
            row.iter().zip(&widths).map(|(cell, width)| format!("{cell:<width$}")).collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_their_columns() {
        let rows =
            vec![vec!["a".to_owned(), "long value".to_owned()], vec!["bbb".to_owned(), "x".to_owned()]];
        assert_eq!(render_table(&["K", "V"], rows.into_iter()), "K    V\na    long value\nbbb  x\n");
    }
}
