//! A bulk import into PostgreSQL checks the catalog's references once, after the writes, instead of
//! once per written row.
//!
//! The catalog's foreign keys are `DEFERRABLE INITIALLY DEFERRED` so that one transaction can write
//! a whole catalog in any order. PostgreSQL then queues one check per written row and runs them one
//! by one at commit: 100,000 firearms queued about 400,000 (maker, category, parent, calibers, game
//! stats), 4.6 s of a 22 s import. Dropping those constraints inside the import's transaction and
//! adding them back before it commits checks each reference table in one join instead, and the
//! transaction still commits all or nothing: a broken reference fails the `ADD CONSTRAINT`, and the
//! import rolls back with the constraints it dropped.
//!
//! Only for a bulk import (most of the catalog new to the database): dropping a constraint locks its
//! tables against readers until the commit, which a few changed records are not worth.

use sqlx::{AnyConnection, AssertSqlSafe};

use super::import_error::ImportError;
use super::model::Catalog;
use crate::db::Backend;

/// Below this many records an import keeps the row-by-row checks (they cost little there).
const BULK_RECORDS: usize = 10_000;

/// The deferred references dropped for a bulk import: (table, constraint name, definition).
pub struct Suspended(Vec<(String, String, String)>);

/// Drop the deferred references when this import is a bulk one on PostgreSQL: the catalog is large
/// and the database holds fewer than half of its firearms.
pub async fn suspend_for_bulk(
    conn: &mut AnyConnection,
    backend: Backend,
    catalog: &Catalog,
) -> Result<Option<Suspended>, ImportError> {
    if backend != Backend::Postgres || catalog.record_count() < BULK_RECORDS {
        return Ok(None);
    }
    let (stored,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM firearms")
        .fetch_one(&mut *conn)
        .await
        .map_err(ImportError::database("counting the stored firearms"))?;
    if stored as usize * 2 >= catalog.firearms.len() {
        return Ok(None);
    }
    let constraints: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT CAST(CAST(conrelid AS regclass) AS TEXT), CAST(conname AS TEXT), pg_get_constraintdef(oid) \
         FROM pg_constraint WHERE contype = 'f' AND condeferred \
         AND connamespace = CAST(current_schema() AS regnamespace) ORDER BY 1, 2",
    )
    .fetch_all(&mut *conn)
    .await
    .map_err(ImportError::database("listing the catalog's references"))?;
    for (table, name, _) in &constraints {
        sqlx::query(AssertSqlSafe(format!("ALTER TABLE {table} DROP CONSTRAINT \"{name}\"")))
            .execute(&mut *conn)
            .await
            .map_err(ImportError::database(format!("suspending {name} on {table}")))?;
    }
    tracing::debug!(constraints = constraints.len(), "references suspended for a bulk import");
    Ok(Some(Suspended(constraints)))
}

/// Add the suspended references back, each checked over its whole table.
pub async fn restore(conn: &mut AnyConnection, suspended: Suspended) -> Result<(), ImportError> {
    for (table, name, definition) in suspended.0 {
        sqlx::query(AssertSqlSafe(format!("ALTER TABLE {table} ADD CONSTRAINT \"{name}\" {definition}")))
            .execute(&mut *conn)
            .await
            .map_err(ImportError::database(format!("checking the references of {table} ({name})")))?;
    }
    Ok(())
}
