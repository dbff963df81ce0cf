//! Data reports (operations 104 and 105): an account says that one section of a firearm's record is
//! incorrect, missing or outdated. One report per account, firearm and section per 24 hours. Staff
//! move reports with `armory reports`: pending → reviewed → resolved or dismissed, or pending →
//! dismissed; the staff note is shown to the reporter.

use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::schema::{report_issue_type, report_section, report_status};
use super::{AccountError, Result, new_id};
use crate::db::{Db, lock_account};

/// The field groups of the firearm detail a report is about.
pub const SECTIONS: &[&str] = &[
    "identity",
    "dimensions",
    "weights",
    "ballistics",
    "mechanism",
    "materials",
    "history",
    "adoption",
    "images",
    "game_stats",
    "sources",
];
pub const ISSUE_TYPES: &[&str] = &["incorrect", "missing", "outdated"];
pub const STATUSES: &[&str] = &["pending", "reviewed", "resolved", "dismissed"];

/// How long a filed report holds its section closed to another from the same account.
pub const REPORT_WINDOW_SECONDS: u64 = 24 * 60 * 60;

/// A data report as its author sees it, with the staff note once staff wrote one.
// The staff command shows it too, with `account_id`, which the API never serves.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DataReport)]
pub struct Report {
    pub id: String,
    #[serde(skip)]
    pub account_id: String,
    pub firearm_id: String,
    #[schema(schema_with = report_section)]
    pub section: String,
    #[schema(schema_with = report_issue_type)]
    pub issue_type: String,
    pub description: String,
    /// https links the reporter gave.
    pub references: Vec<String>,
    /// What the reporter believes is right, as text, or null.
    #[schema(value_type = Option<String>)]
    pub suggested_value: Option<Value>,
    /// pending → reviewed → resolved or dismissed, or pending → dismissed.
    #[schema(schema_with = report_status)]
    pub status: String,
    pub staff_note: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub reviewed_at: Option<String>,
}

/// A report as the caller sent it, already checked field by field.
#[derive(Debug, Clone)]
pub struct NewReport {
    pub firearm_id: String,
    pub section: String,
    pub issue_type: String,
    pub description: String,
    pub references: Vec<String>,
    pub suggested_value: Option<Value>,
}

/// What filing did.
#[derive(Debug)]
pub enum Filed {
    Filed(Box<Report>),
    /// The account reported this firearm's section less than 24 hours ago.
    TooSoon {
        retry_after_seconds: u64,
    },
}

/// File a report. The check of the 24-hour window and the insert are one transaction holding the
/// account's row, so two concurrent reports on one section cannot both pass.
pub async fn file(db: &Db, account_id: &str, new: NewReport) -> sqlx::Result<Filed> {
    let mut tx = db.begin_write().await?;
    lock_account(&mut tx, account_id).await?;
    let window_ms = (REPORT_WINDOW_SECONDS * 1000) as i64;
    let (latest, newest_of_account): (Option<i64>, Option<i64>) = sqlx::query_as(
        "SELECT MAX(CASE WHEN firearm_id = $2 AND section = $3 THEN created_ms END), MAX(created_ms) \
         FROM data_reports WHERE account_id = $1",
    )
    .bind(account_id)
    .bind(&new.firearm_id)
    .bind(&new.section)
    .fetch_one(&mut *tx)
    .await?;
    // An account's reports are filed one at a time (its row is held): each a millisecond after
    // the one before at least, so "newest first" is one order even for two filed in the same
    // millisecond.
    let now_ms = crate::clock::unix_millis_now().max(newest_of_account.map_or(i64::MIN, |newest| newest + 1));
    if let Some(latest) = latest.filter(|latest| now_ms - latest < window_ms) {
        let remaining_ms = latest + window_ms - now_ms;
        return Ok(Filed::TooSoon { retry_after_seconds: (remaining_ms as u64).div_ceil(1000).max(1) });
    }
    let id = new_id("rpt-");
    let now = crate::clock::sql_now();
    sqlx::query(
        "INSERT INTO data_reports (id, account_id, firearm_id, section, issue_type, description, \
         reference_urls, suggested_value, status, created_ms, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10, $10)",
    )
    .bind(&id)
    .bind(account_id)
    .bind(&new.firearm_id)
    .bind(&new.section)
    .bind(&new.issue_type)
    .bind(&new.description)
    .bind(json!(new.references).to_string())
    .bind(new.suggested_value.as_ref().map(Value::to_string))
    .bind(now_ms)
    .bind(&now)
    .execute(&mut *tx)
    .await?;
    let report = find_in(&mut tx, &id).await?.expect("the report was just written");
    tx.commit().await?;
    Ok(Filed::Filed(Box::new(report)))
}

const COLUMNS: &str = "id, account_id, firearm_id, section, issue_type, description, reference_urls, \
                       suggested_value, status, staff_note, created_at, updated_at, reviewed_at";

type Row = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    Option<String>,
    String,
    Option<String>,
    String,
    String,
    Option<String>,
);

fn from_row(row: Row) -> Report {
    let (
        id,
        account_id,
        firearm_id,
        section,
        issue_type,
        description,
        refs,
        suggested,
        status,
        note,
        c,
        u,
        r,
    ) = row;
    Report {
        id,
        account_id,
        firearm_id,
        section,
        issue_type,
        description,
        references: serde_json::from_str(&refs).unwrap_or_default(),
        suggested_value: suggested.and_then(|text| serde_json::from_str(&text).ok()),
        status,
        staff_note: note,
        created_at: c,
        updated_at: u,
        reviewed_at: r,
    }
}

async fn find_in(conn: &mut sqlx::AnyConnection, id: &str) -> sqlx::Result<Option<Report>> {
    let row: Option<Row> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM data_reports WHERE id = $1")))
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.map(from_row))
}

/// Reports, newest first: the account's own (`Some(account)`) or everyone's (staff), optionally
/// only those with `status`.
pub async fn list(db: &Db, account_id: Option<&str>, status: Option<&str>) -> sqlx::Result<Vec<Report>> {
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM data_reports WHERE ($1 IS NULL OR account_id = $1) \
         AND ($2 IS NULL OR status = $2) ORDER BY created_ms DESC, id"
    )))
    .bind(account_id)
    .bind(status)
    .fetch_all(db.pool())
    .await?;
    Ok(rows.into_iter().map(from_row).collect())
}

/// What staff do to a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaffAction {
    Review,
    Resolve,
    Dismiss,
}

impl StaffAction {
    /// The status the action moves to, and the statuses it may move from.
    fn moves(self) -> (&'static str, &'static [&'static str]) {
        match self {
            StaffAction::Review => ("reviewed", &["pending"]),
            StaffAction::Resolve => ("resolved", &["reviewed"]),
            StaffAction::Dismiss => ("dismissed", &["pending", "reviewed"]),
        }
    }
}

/// Move a report, with an optional note shown to the reporter (a note replaces the earlier one).
pub async fn act(db: &Db, id: &str, action: StaffAction, note: Option<&str>) -> Result<Report> {
    let (to, from) = action.moves();
    let mut tx = db.begin_write().await?;
    let report = find_in(&mut tx, id).await?.ok_or_else(|| AccountError::UnknownReport(id.to_owned()))?;
    if !from.contains(&report.status.as_str()) {
        return Err(AccountError::ReportTransition { id: id.to_owned(), from: report.status, to });
    }
    let now = crate::clock::sql_now();
    sqlx::query(
        "UPDATE data_reports SET status = $1, staff_note = COALESCE($2, staff_note), updated_at = $3, \
         reviewed_at = COALESCE(reviewed_at, $3) WHERE id = $4",
    )
    .bind(to)
    .bind(note)
    .bind(&now)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    let report = find_in(&mut tx, id).await?.expect("the report exists");
    tx.commit().await?;
    Ok(report)
}
