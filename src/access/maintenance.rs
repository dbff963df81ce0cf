//! Maintenance mode: the operator pauses the keyed API (`armory maintenance on|off|status`).
//!
//! The state is one row of the `maintenance` table (migration 0014). A switch writes it and bumps
//! `access_revision` in one transaction, so every node's `KeyCache`, which polls that number every
//! 250 ms, reloads the row with the keys: each node sees the switch within a second, and no request
//! reads the database for it. While on, the gate answers every keyed operation 503 MAINTENANCE with
//! Retry-After and the message, before the transport and credential checks (no limit is spent and
//! no usage counted); keyless operations, the probes and the description still answer.

use serde::Serialize;

use super::cache::bump_access_revision;
use crate::db::Db;
use crate::error::{ApiError, Reason};

/// The longest Retry-After an operator may announce: a day.
pub const MAX_RETRY_AFTER_SECS: u64 = 86_400;
/// The longest message, in characters.
pub const MAX_MESSAGE_CHARS: usize = 500;
/// The message of a pause the operator gave none.
pub const DEFAULT_MESSAGE: &str =
    "The API is paused for maintenance; retry after the number of seconds in Retry-After.";

/// The maintenance state as every node holds it (`KeyCache::maintenance`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Maintenance {
    /// Whether keyed operations are paused.
    pub on: bool,
    /// While on: the seconds announced in Retry-After.
    #[schema(value_type = Option<i64>)]
    pub retry_after: Option<u64>,
    /// While on: the operator's message, or null for the default one (`Maintenance::message`).
    pub message: Option<String>,
    /// When the current state was set, 'YYYY-MM-DD HH:MM:SS' UTC; null before the first switch.
    pub since: Option<String>,
}

impl Maintenance {
    /// The message a paused request is answered with: the operator's, or `DEFAULT_MESSAGE`.
    pub fn message(&self) -> &str {
        self.message.as_deref().unwrap_or(DEFAULT_MESSAGE)
    }

    /// The 503 MAINTENANCE every keyed operation answers while on; None while off.
    pub fn refusal(&self) -> Option<ApiError> {
        self.on.then(|| {
            ApiError::new(Reason::Maintenance, self.message())
                .with_retry_after(self.retry_after.unwrap_or(MAX_RETRY_AFTER_SECS))
        })
    }
}

/// A pause the operator asked for, checked: Retry-After 1 to `MAX_RETRY_AFTER_SECS` seconds, and a
/// message of 1 to `MAX_MESSAGE_CHARS` characters, or none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pause {
    retry_after: u64,
    message: Option<String>,
}

impl Pause {
    pub fn new(retry_after: u64, message: Option<&str>) -> Result<Self, MaintenanceError> {
        if !(1..=MAX_RETRY_AFTER_SECS).contains(&retry_after) {
            return Err(MaintenanceError::RetryAfterOutOfRange(retry_after));
        }
        let message = match message.map(str::trim) {
            None => None,
            Some("") => return Err(MaintenanceError::EmptyMessage),
            Some(text) if text.chars().count() > MAX_MESSAGE_CHARS => {
                return Err(MaintenanceError::MessageTooLong(text.chars().count()));
            }
            Some(text) => Some(text.to_owned()),
        };
        Ok(Self { retry_after, message })
    }

    /// A pause from the command line's text for Retry-After.
    pub fn parse(retry_after: &str, message: Option<&str>) -> Result<Self, MaintenanceError> {
        let seconds = retry_after
            .trim()
            .parse()
            .map_err(|_| MaintenanceError::RetryAfterNotANumber(retry_after.to_owned()))?;
        Self::new(seconds, message)
    }
}

/// Why a switch was refused; each message is one line.
#[derive(Debug, thiserror::Error)]
pub enum MaintenanceError {
    #[error("--retry-after: '{0}' is not a whole number of seconds (1 to 86400)")]
    RetryAfterNotANumber(String),
    #[error("--retry-after: {0} is out of range; expected 1 to 86400 seconds")]
    RetryAfterOutOfRange(u64),
    #[error("--message: empty; leave it out for the default message")]
    EmptyMessage,
    #[error("--message: {0} characters; at most 500")]
    MessageTooLong(usize),
    #[error("the database refused the change: {0}")]
    Database(#[from] sqlx::Error),
}

impl MaintenanceError {
    /// Whether the database could not be reached or was busy: the same switch may succeed later.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, Self::Database(error) if crate::db::is_unavailable(error))
    }
}

type Row = (i64, Option<i64>, Option<String>, Option<String>);

/// The stored state (what `armory maintenance status` prints and each node's key cache loads).
pub async fn current(db: &Db) -> sqlx::Result<Maintenance> {
    let mut conn = db.pool().acquire().await?;
    read(&mut conn).await
}

/// Pause the keyed API on every node. Already on: the Retry-After and message are replaced and
/// `since` is kept.
pub async fn switch_on(db: &Db, pause: &Pause) -> Result<Maintenance, MaintenanceError> {
    let retry_after = i64::try_from(pause.retry_after).expect("at most a day");
    let statement = sqlx::query(
        "UPDATE maintenance SET active = 1, retry_after = $1, message = $2, \
         since = CASE WHEN active = 1 THEN since ELSE $3 END WHERE id = 1",
    )
    .bind(retry_after)
    .bind(pause.message.clone())
    .bind(crate::clock::sql_now());
    switch(db, statement).await
}

/// Resume the keyed API on every node. Already off: nothing changes.
pub async fn switch_off(db: &Db) -> Result<Maintenance, MaintenanceError> {
    let statement = sqlx::query(
        "UPDATE maintenance SET active = 0, retry_after = NULL, message = NULL, since = $1 \
         WHERE id = 1 AND active = 1",
    )
    .bind(crate::clock::sql_now());
    switch(db, statement).await
}

/// Run `statement` and bump the access revision in one transaction; the state after it.
async fn switch(
    db: &Db,
    statement: sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments>,
) -> Result<Maintenance, MaintenanceError> {
    let mut tx = db.pool().begin().await?;
    statement.execute(&mut *tx).await?;
    bump_access_revision(&mut tx).await?;
    let state = read(&mut tx).await?;
    tx.commit().await?;
    tracing::info!(on = state.on, retry_after = state.retry_after, "maintenance mode switched");
    Ok(state)
}

pub(super) async fn read(conn: &mut sqlx::AnyConnection) -> sqlx::Result<Maintenance> {
    let (active, retry_after, message, since): Row =
        sqlx::query_as("SELECT active, retry_after, message, since FROM maintenance WHERE id = 1")
            .fetch_one(&mut *conn)
            .await?;
    Ok(Maintenance {
        on: active != 0,
        retry_after: retry_after.and_then(|seconds| u64::try_from(seconds).ok()),
        message,
        since,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_one_second_to_a_day() {
        assert!(Pause::new(1, None).is_ok());
        assert!(Pause::new(86_400, None).is_ok());
        assert!(matches!(Pause::new(0, None), Err(MaintenanceError::RetryAfterOutOfRange(0))));
        assert!(matches!(Pause::new(86_401, None), Err(MaintenanceError::RetryAfterOutOfRange(86_401))));
        assert!(matches!(Pause::parse("soon", None), Err(MaintenanceError::RetryAfterNotANumber(_))));
        assert!(matches!(Pause::parse("-5", None), Err(MaintenanceError::RetryAfterNotANumber(_))));
        assert_eq!(Pause::parse(" 120 ", None).unwrap().retry_after, 120);
    }

    #[test]
    fn a_message_is_1_to_500_characters_counted_not_bytes() {
        assert!(Pause::new(60, Some(&"é".repeat(500))).is_ok(), "500 characters, 1000 bytes");
        assert!(matches!(Pause::new(60, Some(&"a".repeat(501))), Err(MaintenanceError::MessageTooLong(501))));
        assert!(matches!(Pause::new(60, Some("  ")), Err(MaintenanceError::EmptyMessage)));
        assert_eq!(
            Pause::new(60, Some(" Back at 14:00. ")).unwrap().message.as_deref(),
            Some("Back at 14:00.")
        );
    }

    #[test]
    fn only_a_pause_refuses_and_says_when_to_retry() {
        assert!(Maintenance::default().refusal().is_none());
        let paused = Maintenance { on: true, retry_after: Some(300), message: None, since: None };
        let refusal = paused.refusal().unwrap();
        assert_eq!((refusal.reason, refusal.retry_after), (Reason::Maintenance, Some(300)));
        assert_eq!(refusal.message, DEFAULT_MESSAGE);
        let told = Maintenance { message: Some("Moving data centres.".into()), ..paused };
        assert_eq!(told.refusal().unwrap().message, "Moving data centres.");
    }
}
