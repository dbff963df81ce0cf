//! The catalog's change log (migration 0012): for each revision an import moved, the catalog
//! epoch it left and the one it drew, and which records it created, changed or deleted, so that a
//! running node can patch the snapshot it serves instead of building a new one (`read::update`).
//!
//! The log is trusted only as a whole: the revisions from the node's to the stored one must all be
//! there, each naming its records, and their epochs must chain from the node's snapshot's epoch to
//! the stored one. A database restored from a backup, a revision pruned from the log or an import
//! too large to name its records breaks the chain, and the node builds from scratch.

use std::collections::{BTreeSet, HashMap};

use serde_json::{Value, json};
use sqlx::AnyConnection;

use super::import_error::ImportError;
use super::store;
use crate::db::Db;

/// Revisions the log keeps: a node further behind than this builds its snapshot from scratch.
const LOGGED_REVISIONS: i64 = 100;

/// Log the revision an import moved to: the catalog epoch it leaves and a new one it draws (see
/// `read::persisted`), and, unless it changed more than `most_named` records (a node builds then),
/// each record it created, changed or deleted, as (table, id).
pub async fn record(
    conn: &mut AnyConnection,
    db: &Db,
    revision: i64,
    records: &[(&'static str, String)],
    most_named: usize,
) -> Result<(), ImportError> {
    let (previous_epoch,): (i64,) =
        sqlx::query_as("SELECT value FROM service_state WHERE name = 'catalog_epoch'")
            .fetch_one(&mut *conn)
            .await
            .map_err(ImportError::database("reading the catalog epoch"))?;
    let epoch = rand::random::<i64>();
    sqlx::query("UPDATE service_state SET value = $1 WHERE name = 'catalog_epoch'")
        .bind(epoch)
        .execute(&mut *conn)
        .await
        .map_err(ImportError::database("drawing the catalog epoch"))?;
    for table in ["catalog_changes", "catalog_revisions"] {
        sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table} WHERE revision <= $1")))
            .bind(revision - LOGGED_REVISIONS)
            .execute(&mut *conn)
            .await
            .map_err(ImportError::database("pruning the change log"))?;
    }
    let named = records.len() <= most_named;
    sqlx::query(
        "INSERT INTO catalog_revisions (revision, previous_epoch, epoch, records_logged) VALUES ($1, $2, $3, $4)",
    )
    .bind(revision)
    .bind(previous_epoch)
    .bind(epoch)
    .bind(i64::from(named))
    .execute(&mut *conn)
    .await
    .map_err(ImportError::database("logging the revision"))?;
    if !named {
        return Ok(());
    }
    let rows: Vec<Vec<(String, Value)>> = records
        .iter()
        .map(|(table, id)| {
            vec![
                ("revision".to_owned(), json!(revision)),
                ("table_name".to_owned(), json!(table)),
                ("record_id".to_owned(), json!(id)),
            ]
        })
        .collect();
    store::append_rows(conn, db.backend(), "catalog_changes", &rows).await
}

/// The records changed between two states of the catalog, by table.
#[derive(Debug, Default)]
pub struct Changes {
    tables: HashMap<String, BTreeSet<String>>,
}

impl Changes {
    /// Ids of `table`'s records created, changed or deleted.
    pub fn ids(&self, table: &str) -> &BTreeSet<String> {
        static NONE: BTreeSet<String> = BTreeSet::new();
        self.tables.get(table).unwrap_or(&NONE)
    }

    /// How many records changed, all tables together.
    pub fn len(&self) -> usize {
        self.tables.values().map(BTreeSet::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A catalog state: its revision and epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    pub revision: i64,
    pub epoch: i64,
}

/// The records changed from `from` to `to`, or None when the log cannot tell (see the module).
pub async fn between(conn: &mut AnyConnection, from: State, to: State) -> sqlx::Result<Option<Changes>> {
    if to.revision <= from.revision {
        return Ok(None);
    }
    let revisions: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT revision, previous_epoch, epoch, records_logged FROM catalog_revisions \
         WHERE revision > $1 AND revision <= $2 ORDER BY revision",
    )
    .bind(from.revision)
    .bind(to.revision)
    .fetch_all(&mut *conn)
    .await?;
    let mut reached = from;
    for (revision, previous_epoch, epoch, records_logged) in revisions {
        let chained = revision == reached.revision + 1 && previous_epoch == reached.epoch;
        if !chained || records_logged == 0 {
            return Ok(None);
        }
        reached = State { revision, epoch };
    }
    if reached != to {
        return Ok(None);
    }
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT table_name, record_id FROM catalog_changes WHERE revision > $1 AND revision <= $2",
    )
    .bind(from.revision)
    .bind(to.revision)
    .fetch_all(&mut *conn)
    .await?;
    let mut changes = Changes::default();
    for (table, id) in rows {
        changes.tables.entry(table).or_default().insert(id);
    }
    Ok(Some(changes))
}
