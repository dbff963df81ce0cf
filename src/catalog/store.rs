//! Reading and writing catalog tables, for both backends.
//!
//! Column types are read from the database itself (the migrations are the one definition of the
//! schema), so values are bound with the type PostgreSQL expects, nulls included.

use std::collections::HashMap;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;
use sqlx::{AnyConnection, AssertSqlSafe, Row as _};

use super::import_error::ImportError;
use super::insert;
use super::model::{Ammunition, Caliber, Catalog, Firearm};
use super::table::Table;
use crate::db::Backend;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColumnType {
    Integer,
    Real,
    Text,
}

/// Column name to type, for one table.
pub type Columns = HashMap<String, ColumnType>;

/// At most this many bound values in one statement (below SQLite's and PostgreSQL's limits).
const MAX_BOUND_VALUES: usize = 10_000;

pub async fn column_types(conn: &mut AnyConnection, backend: Backend, table: &str) -> sqlx::Result<Columns> {
    let sql = match backend {
        Backend::Sqlite => "SELECT name, type FROM pragma_table_info($1)",
        Backend::Postgres => {
            "SELECT CAST(column_name AS TEXT), CAST(data_type AS TEXT) FROM information_schema.columns \
             WHERE table_name = $1 AND table_schema = current_schema()"
        }
    };
    let rows: Vec<(String, String)> = sqlx::query_as(sql).bind(table).fetch_all(&mut *conn).await?;
    Ok(rows
        .into_iter()
        .map(|(name, declared)| {
            let declared = declared.to_ascii_uppercase();
            let kind = if declared.contains("INT") {
                ColumnType::Integer
            } else if declared.contains("REAL") || declared.contains("DOUBLE") || declared.contains("FLOAT") {
                ColumnType::Real
            } else {
                ColumnType::Text
            };
            (name, kind)
        })
        .collect())
}

/// Insert `rows` (all with the same columns, in the same order) into `table`, its column types
/// read first: `insert::prepare` and `insert::run` in one step, for the import's own tables.
pub async fn append_rows(
    conn: &mut AnyConnection,
    backend: Backend,
    table: &str,
    rows: &[Vec<(String, Value)>],
) -> Result<(), ImportError> {
    let types = column_types(conn, backend, table).await?;
    insert::run(conn, insert::prepare(backend, table, &types, rows, None, &[])?).await
}

/// `$1, $2, …, $count`: the placeholders of an `IN (…)` list.
pub fn placeholders(count: usize) -> String {
    (1..=count).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// `ids` in slices small enough to bind in one statement.
pub fn bindable<T>(ids: &[T]) -> std::slice::Chunks<'_, T> {
    ids.chunks(MAX_BOUND_VALUES)
}

pub async fn delete_where_in(
    conn: &mut AnyConnection,
    table: &str,
    column: &str,
    ids: &[String],
) -> sqlx::Result<()> {
    for chunk in bindable(ids) {
        let sql = format!("DELETE FROM {table} WHERE {column} IN ({})", placeholders(chunk.len()));
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for id in chunk {
            query = query.bind(id.clone());
        }
        query.execute(&mut *conn).await?;
    }
    Ok(())
}

/// What is stored of each record: its version and creation time.
pub struct Stored {
    pub version: String,
    pub created_at: String,
}

pub async fn stored_versions(
    conn: &mut AnyConnection,
    table: Table,
) -> sqlx::Result<HashMap<String, Stored>> {
    let sql = format!("SELECT id, version, created_at FROM {table}");
    let rows: Vec<(String, String, String)> =
        sqlx::query_as(AssertSqlSafe(sql)).fetch_all(&mut *conn).await?;
    Ok(rows.into_iter().map(|(id, version, created_at)| (id, Stored { version, created_at })).collect())
}

/// `stored_versions` of `ids` alone (an id not stored has none).
pub async fn stored_versions_of(
    conn: &mut AnyConnection,
    table: Table,
    ids: &[String],
) -> sqlx::Result<HashMap<String, Stored>> {
    let rows: Vec<(String, String, String)> =
        select_where_id_in(conn, "id, version, created_at", table.name(), ids).await?;
    Ok(rows.into_iter().map(|(id, version, created_at)| (id, Stored { version, created_at })).collect())
}

/// `columns` of the rows of `table` whose id is in `ids`, in id order within each bound slice.
async fn select_where_id_in<T>(
    conn: &mut AnyConnection,
    columns: &str,
    table: &str,
    ids: &[String],
) -> sqlx::Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    let mut out = Vec::with_capacity(ids.len());
    for chunk in bindable(ids) {
        let sql =
            format!("SELECT {columns} FROM {table} WHERE id IN ({}) ORDER BY id", placeholders(chunk.len()));
        let mut query = sqlx::query_as(AssertSqlSafe(sql));
        for id in chunk {
            query = query.bind(id.clone());
        }
        out.extend(query.fetch_all(&mut *conn).await?);
    }
    Ok(out)
}

/// How many records `table` stores.
pub async fn count(conn: &mut AnyConnection, table: Table) -> sqlx::Result<usize> {
    let (count,): (i64,) =
        sqlx::query_as(AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}"))).fetch_one(&mut *conn).await?;
    Ok(count as usize)
}

/// The stored `record` of the given ids.
pub async fn stored_records(
    conn: &mut AnyConnection,
    table: Table,
    ids: &[String],
) -> sqlx::Result<HashMap<String, Value>> {
    let mut out = HashMap::with_capacity(ids.len());
    for chunk in bindable(ids) {
        let sql = format!("SELECT id, record FROM {table} WHERE id IN ({})", placeholders(chunk.len()));
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for id in chunk {
            query = query.bind(id.clone());
        }
        for row in query.fetch_all(&mut *conn).await? {
            let id: String = row.try_get(0)?;
            let record: String = row.try_get(1)?;
            out.insert(id, serde_json::from_str(&record).unwrap_or(Value::Null));
        }
    }
    Ok(out)
}

/// One stored record as the read side takes it: its JSON, content version and times.
pub struct StoredRow {
    pub id: String,
    pub record: String,
    pub version: String,
    pub created_at: String,
    pub updated_at: String,
}

/// The stored rows of `ids` in `table`; an id no longer stored has none.
pub async fn rows_of(conn: &mut AnyConnection, table: &str, ids: &[String]) -> sqlx::Result<Vec<StoredRow>> {
    let columns = "id, record, version, created_at, updated_at";
    let rows: Vec<(String, String, String, String, String)> =
        select_where_id_in(conn, columns, table, ids).await?;
    Ok(rows
        .into_iter()
        .map(|(id, record, version, created_at, updated_at)| StoredRow {
            id,
            record,
            version,
            created_at,
            updated_at,
        })
        .collect())
}

/// Why the stored catalog could not be read back; the source is kept.
#[derive(Debug, thiserror::Error)]
pub enum StoredCatalogError {
    #[error("reading {table}: {source}")]
    Database { table: String, source: sqlx::Error },
    #[error("a stored {table} record is unreadable: {source}")]
    Record { table: String, source: serde_json::Error },
    #[error("no catalog table is named {0}")]
    UnknownTable(String),
}

impl StoredCatalogError {
    /// Whether the database could not be reached or was busy: reading again later may succeed.
    pub fn is_unavailable(&self) -> bool {
        match self {
            Self::Database { source, .. } => crate::db::is_unavailable(source),
            Self::Record { .. } | Self::UnknownTable(_) => false,
        }
    }
}

/// The whole stored catalog, loaded back from each row's `record`.
pub async fn read_catalog(conn: &mut AnyConnection) -> Result<Catalog, StoredCatalogError> {
    let (chunks, parser) = tokio::sync::mpsc::channel(4);
    let parsing = tokio::task::spawn_blocking(move || parse_chunks(parser));
    send_records(conn, &chunks).await?;
    drop(chunks);
    parsing.await.unwrap_or_else(|failed| std::panic::resume_unwind(failed.into_panic()))
}

/// Stored records' JSON, table by table, not yet parsed (a patch reads the changed ones:
/// `read::update`).
pub struct StoredRecords {
    /// Per table, each record's JSON, by id; by table name, which `parse` checks.
    tables: Vec<(&'static str, Vec<String>)>,
}

/// Every stored caliber (a partial import derives game stats from them: `import::import_dir`).
pub async fn read_calibers(conn: &mut AnyConnection) -> Result<Vec<Caliber>, StoredCatalogError> {
    parse(Table::Calibers, table_records(conn, Table::Calibers).await?)
}

/// Each stored record's JSON of `table`, in id order.
async fn table_records(conn: &mut AnyConnection, table: Table) -> Result<Vec<String>, StoredCatalogError> {
    let sql = format!("SELECT record FROM {table} ORDER BY id");
    let rows: Vec<(String,)> = sqlx::query_as(AssertSqlSafe(sql))
        .fetch_all(&mut *conn)
        .await
        .map_err(|source| StoredCatalogError::Database { table: table.name().to_owned(), source })?;
    Ok(rows.into_iter().map(|(record,)| record).collect())
}

impl StoredRecords {
    /// Records of some tables (a table left out has none), each as its stored JSON.
    pub fn of(tables: Vec<(&'static str, Vec<String>)>) -> Self {
        Self { tables }
    }

    pub fn parse(self) -> Result<Catalog, StoredCatalogError> {
        let mut catalog = Catalog::default();
        for (name, records) in self.tables {
            let table =
                Table::from_name(name).ok_or_else(|| StoredCatalogError::UnknownTable(name.to_owned()))?;
            add_parsed(&mut catalog, table, records)?;
        }
        catalog.sort();
        Ok(catalog)
    }
}

/// Parse `records` of `table` and add them to `catalog`.
fn add_parsed(catalog: &mut Catalog, table: Table, records: Vec<String>) -> Result<(), StoredCatalogError> {
    match table {
        Table::Categories => catalog.categories.extend(parse(table, records)?),
        Table::Manufacturers => catalog.manufacturers.extend(parse(table, records)?),
        Table::Calibers => catalog.calibers.extend(parse(table, records)?),
        Table::Interfaces => catalog.interfaces.extend(parse(table, records)?),
        Table::Platforms => catalog.platforms.extend(parse(table, records)?),
        Table::Firearms => catalog.firearms.typed_mut().extend(parse(table, records)?.into_iter().map(
            |mut firearm: Firearm| {
                firearm.shrink_to_fit();
                Arc::new(firearm)
            },
        )),
        Table::Ammunition => catalog.ammunition.typed_mut().extend(parse(table, records)?.into_iter().map(
            |mut load: Ammunition| {
                load.sources.shrink_to_fit();
                Arc::new(load)
            },
        )),
        Table::Attachments => catalog.attachments.extend(parse(table, records)?),
    }
    Ok(())
}

/// Records handed from the reader to the parser: a table and some of its records' JSON.
pub type RecordChunk = (Table, Vec<String>);

/// Records per chunk: the reader holds at most a few chunks' JSON ahead of the parser.
const CHUNK_RECORDS: usize = 1_000;

/// Read every stored record's JSON, table by table, and hand it to a parser (`parse_chunks`) a
/// chunk at a time. Read whole first, the JSON of 100,000 firearms (150 MB) sat beside the
/// records parsed from it. Stops early, without error, when the parser has stopped (it failed:
/// its error is the one to report).
pub async fn send_records(
    conn: &mut AnyConnection,
    parser: &tokio::sync::mpsc::Sender<RecordChunk>,
) -> Result<(), StoredCatalogError> {
    use futures_util::TryStreamExt;
    for table in Table::ALL {
        let failed = |source| StoredCatalogError::Database { table: table.name().to_owned(), source };
        let sql = format!("SELECT record FROM {} ORDER BY id", table.name());
        let mut rows = sqlx::query_as::<_, (String,)>(AssertSqlSafe(sql)).fetch(&mut *conn);
        let mut chunk = Vec::with_capacity(CHUNK_RECORDS);
        while let Some((record,)) = rows.try_next().await.map_err(failed)? {
            chunk.push(record);
            if chunk.len() == CHUNK_RECORDS {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK_RECORDS));
                if parser.send((table, full)).await.is_err() {
                    return Ok(());
                }
            }
        }
        if !chunk.is_empty() && parser.send((table, chunk)).await.is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// The catalog of the chunks `send_records` sends, parsed on this (blocking) thread as they come.
pub fn parse_chunks(
    mut chunks: tokio::sync::mpsc::Receiver<RecordChunk>,
) -> Result<Catalog, StoredCatalogError> {
    let mut catalog = Catalog::default();
    while let Some((table, records)) = chunks.blocking_recv() {
        add_parsed(&mut catalog, table, records)?;
    }
    catalog.sort();
    Ok(catalog)
}

fn parse<T: DeserializeOwned>(table: Table, records: Vec<String>) -> Result<Vec<T>, StoredCatalogError> {
    records
        .into_iter()
        .map(|record| {
            serde_json::from_str(&record)
                .map_err(|source| StoredCatalogError::Record { table: table.name().to_owned(), source })
        })
        .collect()
}

/// The catalog revision and its epoch: a random number drawn with every new revision, so two
/// catalogs at one revision number (a restored database, another database) are told apart.
pub async fn catalog_revision_and_epoch(conn: &mut AnyConnection) -> sqlx::Result<(i64, i64)> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT name, value FROM service_state WHERE name IN ('catalog_revision', 'catalog_epoch')",
    )
    .fetch_all(&mut *conn)
    .await?;
    let value = |name: &str| rows.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    let revision = value("catalog_revision").ok_or(sqlx::Error::RowNotFound)?;
    Ok((revision, value("catalog_epoch").unwrap_or_default()))
}

/// The catalog revision: moves with every import that changed something.
pub async fn catalog_revision(conn: &mut AnyConnection) -> sqlx::Result<i64> {
    let (revision,): (i64,) =
        sqlx::query_as("SELECT value FROM service_state WHERE name = 'catalog_revision'")
            .fetch_one(&mut *conn)
            .await?;
    Ok(revision)
}
