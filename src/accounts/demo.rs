//! The demo accounts a development server creates when it starts with no accounts.

use super::account::insert_account;
use super::key::insert_key;
use super::{AccountError, Result, bump_access_revision};
use crate::access::plan::Plan;
use crate::db::Db;

/// One demo account: its plan, email and the secret of its one key.
pub type DemoAccount = (Plan, String, String);

/// When no account exists, create one per plan (`demo-<plan>@armory.local`), each with one key,
/// and return them (the only time their secrets are known). None when accounts already exist.
pub async fn seed_demo_accounts(db: &Db) -> Result<Option<Vec<DemoAccount>>> {
    match seed(db).await {
        // Another node seeded at the same moment: its accounts stand.
        Err(AccountError::DuplicateEmail(_)) => Ok(None),
        other => other,
    }
}

async fn seed(db: &Db) -> Result<Option<Vec<DemoAccount>>> {
    let mut tx = db.begin_write().await?;
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM accounts").fetch_one(&mut *tx).await?;
    if count > 0 {
        return Ok(None);
    }
    let mut created = Vec::with_capacity(Plan::ALL.len());
    for plan in Plan::ALL {
        let email = format!("demo-{}@armory.local", plan.id());
        let account = insert_account(&mut tx, &email, plan).await?;
        let (_, secret) = insert_key(&mut tx, Some(&account), Some("demo"), None).await?;
        created.push((plan, email, secret));
    }
    bump_access_revision(&mut tx).await?;
    tx.commit().await?;
    Ok(Some(created))
}
