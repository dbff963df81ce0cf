//! Accounts, API keys and shops: the operator side (`armory accounts|keys|shops`) and the demo
//! accounts a development server creates on first start; and what accounts write through the API
//! (favorites, collections, data reports, support tickets) with the idempotency keys of those writes.
//!
//! Every change is one transaction that also bumps `service_state.access_revision`, which each
//! node polls to reload its key cache. A key's secret is returned once, at creation; only its
//! SHA-256 and a short display prefix are stored. Timestamps are `YYYY-MM-DD HH:MM:SS` UTC; a date
//! given for an expiry or a paid period is stored as the start of that day, the moment it ends.

mod account;
pub mod collections;
mod demo;
pub mod favorites;
pub mod idempotency;
mod key;
pub mod reports;
pub mod schema;
mod shop;
pub mod support;

pub use account::{
    ACCOUNT_ACTIVE, ACCOUNT_SUSPENDED, AccountRow, create_account, list_accounts, set_paid_until, set_plan,
    set_staff, suspend, unsuspend,
};
pub use demo::{DemoAccount, seed_demo_accounts};
pub use key::{KeyRow, KeyStatus, create_key, list_keys, set_key_status};
pub use shop::{add_shop_key, approve_shop, create_shop};

use rand::RngExt;
use sqlx::AnyConnection;
use time::Date;

pub type Result<T, E = AccountError> = std::result::Result<T, E>;

/// What can go wrong changing accounts, keys and shops; each message is one line.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("'{0}' is not an email address (it needs an '@' and no spaces)")]
    InvalidEmail(String),
    #[error("an account with the email '{0}' already exists")]
    DuplicateEmail(String),
    #[error("'{0}' is not a plan; expected explorer, builder, studio or enterprise")]
    UnknownPlan(String),
    #[error("'{0}' is not a date; expected YYYY-MM-DD")]
    InvalidDate(String),
    #[error("no account has the id '{0}'")]
    UnknownAccount(String),
    #[error("no API key has the id '{0}'")]
    UnknownKey(String),
    #[error("no shop has the id '{0}'")]
    UnknownShop(String),
    #[error("the API key '{0}' is revoked; a revoked key cannot be enabled or disabled again")]
    KeyRevoked(String),
    #[error("the API key '{key}' does not belong to the account that owns the shop '{shop}'")]
    KeyNotOfShopAccount { key: String, shop: String },
    #[error("a shop needs a name")]
    EmptyShopName,
    #[error("no collection has the share id '{0}'")]
    UnknownCollection(String),
    #[error("a display name is 1 to 60 characters")]
    InvalidDisplayName,
    #[error("no data report has the id '{0}'")]
    UnknownReport(String),
    #[error(
        "the report '{id}' is {from}; it cannot become {to} (pending -> reviewed -> resolved or dismissed, or pending -> dismissed)"
    )]
    ReportTransition { id: String, from: String, to: &'static str },
    #[error("no support ticket has the id '{0}'")]
    UnknownTicket(String),
    #[error("the ticket '{0}' is closed; it takes no more replies")]
    TicketClosed(String),
    #[error("a ticket holds at most {limit} attachments; it holds {held}")]
    TooManyAttachments { held: usize, limit: usize },
    #[error("'{0}' is not a ticket status; expected open, in_progress, waiting, resolved or closed")]
    UnknownTicketStatus(String),
    #[error("the database refused the change: {0}")]
    Database(#[from] sqlx::Error),
    #[error("account '{account}' has the unknown plan '{plan}'")]
    UnknownStoredPlan { account: String, plan: String },
}

/// Parse a plan id (`explorer`, `builder`, `studio`, `enterprise`; any case).
pub fn parse_plan(text: &str) -> Result<crate::access::plan::Plan> {
    crate::access::plan::Plan::parse(text).ok_or_else(|| AccountError::UnknownPlan(text.to_owned()))
}

/// Parse a `YYYY-MM-DD` date.
pub fn parse_date(text: &str) -> Result<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(text.trim(), &format).map_err(|_| AccountError::InvalidDate(text.to_owned()))
}

/// The stored form of a date: the start of that day, UTC.
fn start_of_day(date: Date) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] 00:00:00");
    date.format(&format).expect("a date formats")
}

/// `prefix` followed by 16 random lower-case hex characters.
fn new_id(prefix: &str) -> String {
    let bytes: [u8; 8] = rand::rng().random();
    format!("{prefix}{}", hex::encode(bytes))
}

fn now() -> String {
    crate::clock::sql_now()
}

/// Tell every node that accounts, keys or shops changed.
async fn bump_access_revision(conn: &mut AnyConnection) -> Result<()> {
    Ok(crate::access::cache::bump_access_revision(conn).await?)
}

async fn account_exists(conn: &mut AnyConnection, id: &str) -> Result<()> {
    let found: Option<(String,)> =
        sqlx::query_as("SELECT id FROM accounts WHERE id = $1").bind(id).fetch_optional(&mut *conn).await?;
    match found {
        Some(_) => Ok(()),
        None => Err(AccountError::UnknownAccount(id.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_prefixed_hex() {
        let id = new_id("acct_");
        assert_eq!(id.len(), 21);
        assert!(id[5..].chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(new_id("key_"), new_id("key_"));
    }

    #[test]
    fn dates_are_stored_as_the_start_of_the_day() {
        assert_eq!(start_of_day(parse_date("2031-02-03").unwrap()), "2031-02-03 00:00:00");
        assert!(matches!(parse_date("2031-02-30"), Err(AccountError::InvalidDate(_))));
        assert!(matches!(parse_date("tomorrow"), Err(AccountError::InvalidDate(_))));
    }
}
