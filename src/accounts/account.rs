//! Accounts: create, change plan, suspend, paid period, staff flag, list.

use sqlx::AnyConnection;
use time::Date;

use super::{AccountError, Result, bump_access_revision, new_id, now, start_of_day};
use crate::access::plan::Plan;
use crate::db::Db;

pub const ACCOUNT_ACTIVE: &str = "active";
pub const ACCOUNT_SUSPENDED: &str = "suspended";

/// One account as `list_accounts` returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRow {
    pub id: String,
    pub email: String,
    pub plan: Plan,
    /// `active` or `suspended`.
    pub status: String,
    /// `YYYY-MM-DD 00:00:00`: the moment the paid period ends; None when not set.
    pub paid_until: Option<String>,
    pub staff: bool,
    pub created_at: String,
}

/// Create an active account; returns its id (`acct_` + 16 hex).
pub async fn create_account(db: &Db, email: &str, plan: Plan) -> Result<String> {
    let mut tx = db.begin_write().await?;
    let id = insert_account(&mut tx, email, plan).await?;
    bump_access_revision(&mut tx).await?;
    tx.commit().await?;
    Ok(id)
}

pub(super) async fn insert_account(conn: &mut AnyConnection, email: &str, plan: Plan) -> Result<String> {
    let email = email.trim();
    let valid = matches!(email.split_once('@'), Some((local, domain)) if !local.is_empty() && !domain.is_empty())
        && !email.chars().any(char::is_whitespace);
    if !valid {
        return Err(AccountError::InvalidEmail(email.to_owned()));
    }
    let taken: Option<(String,)> = sqlx::query_as("SELECT id FROM accounts WHERE lower(email) = lower($1)")
        .bind(email)
        .fetch_optional(&mut *conn)
        .await?;
    if taken.is_some() {
        return Err(AccountError::DuplicateEmail(email.to_owned()));
    }
    let id = new_id("acct_");
    let now = now();
    sqlx::query(
        "INSERT INTO accounts (id, email, plan, status, staff, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, 0, $5, $6)",
    )
    .bind(&id)
    .bind(email)
    .bind(plan.id())
    .bind(ACCOUNT_ACTIVE)
    .bind(&now)
    .bind(&now)
    .execute(&mut *conn)
    .await
    .map_err(|e| match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => AccountError::DuplicateEmail(email.to_owned()),
        _ => e.into(),
    })?;
    Ok(id)
}

pub async fn set_plan(db: &Db, id: &str, plan: Plan) -> Result<()> {
    update_account(db, id, "UPDATE accounts SET plan = $1, updated_at = $2 WHERE id = $3", plan.id()).await
}

/// Suspend an account: its keys answer 403 ACCOUNT_SUSPENDED until it is unsuspended.
pub async fn suspend(db: &Db, id: &str) -> Result<()> {
    set_status(db, id, ACCOUNT_SUSPENDED).await
}

pub async fn unsuspend(db: &Db, id: &str) -> Result<()> {
    set_status(db, id, ACCOUNT_ACTIVE).await
}

async fn set_status(db: &Db, id: &str, status: &'static str) -> Result<()> {
    update_account(db, id, "UPDATE accounts SET status = $1, updated_at = $2 WHERE id = $3", status).await
}

/// Set (or clear) the end of the account's paid period: stored as the start of that day, UTC.
pub async fn set_paid_until(db: &Db, id: &str, paid_until: Option<Date>) -> Result<()> {
    let sql = "UPDATE accounts SET paid_until = $1, updated_at = $2 WHERE id = $3";
    update_account(db, id, sql, paid_until.map(start_of_day)).await
}

/// Grant or withdraw staff rights.
pub async fn set_staff(db: &Db, id: &str, staff: bool) -> Result<()> {
    update_account(db, id, "UPDATE accounts SET staff = $1, updated_at = $2 WHERE id = $3", i64::from(staff))
        .await
}

/// Run `sql` (binding value, now, id) in a transaction that bumps the access revision.
async fn update_account<T>(db: &Db, id: &str, sql: &'static str, value: T) -> Result<()>
where
    T: sqlx::Encode<'static, sqlx::Any> + sqlx::Type<sqlx::Any> + Send,
{
    let mut tx = db.begin_write().await?;
    let changed = sqlx::query(sql).bind(value).bind(now()).bind(id).execute(&mut *tx).await?;
    if changed.rows_affected() == 0 {
        return Err(AccountError::UnknownAccount(id.to_owned()));
    }
    bump_access_revision(&mut tx).await?;
    tx.commit().await?;
    Ok(())
}

/// Every account, oldest first.
pub async fn list_accounts(db: &Db) -> Result<Vec<AccountRow>> {
    type Row = (String, String, String, String, Option<String>, i64, String);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, email, plan, status, paid_until, staff, created_at FROM accounts ORDER BY created_at, id",
    )
    .fetch_all(db.pool())
    .await?;
    rows.into_iter()
        .map(|(id, email, plan, status, paid_until, staff, created_at)| {
            let plan = Plan::parse(&plan)
                .ok_or_else(|| AccountError::UnknownStoredPlan { account: id.clone(), plan: plan.clone() })?;
            Ok(AccountRow { id, email, plan, status, paid_until, staff: staff != 0, created_at })
        })
        .collect()
}
