//! Frozen game-stats datasets: `armory game-stats freeze VERSION` copies the live stats into a
//! GameStatsVersion with one entry per firearm. Entries are copies (no reference to firearms), so
//! a later import, rebalance or deletion leaves a frozen version exactly as it was.

use serde::Serialize;
use sqlx::FromRow;

use crate::db::Db;

/// The longest version label.
pub const MAX_LABEL_CHARS: usize = 50;

#[derive(Debug, Serialize, FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameStatsVersion {
    pub id: i64,
    /// The dataset label, such as 2026.1.
    pub version: String,
    pub description: Option<String>,
    pub firearm_count: i64,
    /// YYYY-MM-DD HH:MM:SS (UTC).
    pub created_at: String,
}

/// One firearm's frozen stats (served in snake_case, as the spec says).
#[derive(Debug, Serialize, FromRow, utoipa::ToSchema)]
pub struct GameStatsSnapshotEntry {
    pub firearm_id: String,
    pub firearm_name: String,
    pub game_damage: Option<i64>,
    pub game_accuracy: Option<i64>,
    pub game_range: Option<i64>,
    pub game_fire_rate: Option<i64>,
    pub game_mobility: Option<i64>,
    pub game_recoil_control: Option<i64>,
    pub game_reload_speed: Option<i64>,
    pub game_concealment: Option<i64>,
}

fn entry_columns() -> String {
    format!("firearm_id, firearm_name, {}", super::game_stats::column_list(""))
}

/// A label is 1 to 50 letters, digits, dots, hyphens or underscores (it appears in URLs).
pub fn valid_label(label: &str) -> bool {
    (1..=MAX_LABEL_CHARS).contains(&label.len())
        && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_')
}

/// Why a version was not frozen.
#[derive(Debug, thiserror::Error)]
pub enum FreezeError {
    #[error("'{0}' is not a version label: use 1 to {MAX_LABEL_CHARS} letters, digits, '.', '-' or '_'")]
    InvalidLabel(String),
    #[error("game-stats version '{0}' already exists; frozen versions never change")]
    Taken(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// Frozen and committed, then not found: something deleted it in between.
    #[error("the frozen version vanished")]
    Vanished,
}

impl FreezeError {
    /// Whether the database could not be reached or was busy: freezing again later may succeed.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, Self::Database(error) if crate::db::is_unavailable(error))
    }
}

/// Freeze the live stats as `label`, in one transaction; refuses a label already used.
pub async fn freeze(
    db: &Db,
    label: &str,
    description: Option<&str>,
) -> Result<GameStatsVersion, FreezeError> {
    if !valid_label(label) {
        return Err(FreezeError::InvalidLabel(label.to_owned()));
    }
    let mut tx = db.begin_write().await?;
    let taken: Option<(i64,)> = sqlx::query_as("SELECT id FROM game_stats_versions WHERE version = $1")
        .bind(label)
        .fetch_optional(&mut *tx)
        .await?;
    if taken.is_some() {
        return Err(FreezeError::Taken(label.to_owned()));
    }
    let (count,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM firearm_game_stats").fetch_one(&mut *tx).await?;
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO game_stats_versions (version, description, firearm_count, created_at) \
         VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(label)
    .bind(description)
    .bind(count)
    .bind(crate::clock::sql_now())
    .fetch_one(&mut *tx)
    .await?;
    let copy = format!(
        "INSERT INTO game_stats_entries (version_id, {}) \
         SELECT $1, s.firearm_id, f.name, {} FROM firearm_game_stats s JOIN firearms f ON f.id = s.firearm_id",
        entry_columns(),
        super::game_stats::column_list("s."),
    );
    sqlx::query(sqlx::AssertSqlSafe(copy)).bind(id).execute(&mut *tx).await?;
    tx.commit().await?;
    version(db, label).await?.ok_or(FreezeError::Vanished)
}

/// Every version, newest first.
pub async fn versions(db: &Db) -> sqlx::Result<Vec<GameStatsVersion>> {
    sqlx::query_as(
        "SELECT id, version, description, firearm_count, created_at FROM game_stats_versions ORDER BY id DESC",
    )
    .fetch_all(db.pool())
    .await
}

pub async fn version(db: &Db, label: &str) -> sqlx::Result<Option<GameStatsVersion>> {
    sqlx::query_as(
        "SELECT id, version, description, firearm_count, created_at FROM game_stats_versions WHERE version = $1",
    )
    .bind(label)
    .fetch_optional(db.pool())
    .await
}

/// Entries `offset..offset + limit` of a version, by firearm id, and how many it has.
pub async fn entries(
    db: &Db,
    version_id: i64,
    offset: usize,
    limit: usize,
) -> sqlx::Result<(Vec<GameStatsSnapshotEntry>, i64)> {
    let sql = format!(
        "SELECT {} FROM game_stats_entries WHERE version_id = $1 ORDER BY firearm_id LIMIT $2 OFFSET $3",
        entry_columns()
    );
    let rows = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(version_id)
        .bind(limit as i64)
        .bind(offset as i64)
        .fetch_all(db.pool())
        .await?;
    let (total,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM game_stats_entries WHERE version_id = $1")
        .bind(version_id)
        .fetch_one(db.pool())
        .await?;
    Ok((rows, total))
}

/// Every entry of a version, by firearm id (the game analytics read a version whole, once).
pub async fn all_entries(db: &Db, version_id: i64) -> sqlx::Result<Vec<GameStatsSnapshotEntry>> {
    let sql = format!(
        "SELECT {} FROM game_stats_entries WHERE version_id = $1 ORDER BY firearm_id",
        entry_columns()
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(version_id).fetch_all(db.pool()).await
}

pub async fn entry(
    db: &Db,
    version_id: i64,
    firearm_id: &str,
) -> sqlx::Result<Option<GameStatsSnapshotEntry>> {
    let sql = format!(
        "SELECT {} FROM game_stats_entries WHERE version_id = $1 AND firearm_id = $2",
        entry_columns()
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(version_id).bind(firearm_id).fetch_optional(db.pool()).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_url_safe() {
        assert!(valid_label("2026.1"));
        assert!(valid_label("launch_balance-2"));
        assert!(!valid_label(""));
        assert!(!valid_label("2026 1"));
        assert!(!valid_label("a/b"));
        assert!(!valid_label(&"x".repeat(51)));
    }
}
