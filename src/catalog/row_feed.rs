//! The import's rows and statements, built on threads of their own ahead of the writes.
//!
//! Chunk by chunk in the order of `Table::ALL`, the feed turns records into rows (serialising
//! and hashing them), sorts them into created, changed and unchanged against what is stored, and
//! prepares the statements that write the created and changed ones (`insert::prepare`). The
//! import's connection only runs them (`import::sync_table`): while it runs one chunk's, the
//! next is being built, so the database never waits for rows to be built (on the writing thread
//! it would sit idle about a quarter of a large import).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::{Value, json};

use super::game_stats::CartridgeEnergies;
use super::import_error::ImportError;
use super::insert::{self, Statement};
use super::model::Catalog;
use super::rows::{self, Row, RowSource, StoredTables, Table};
use super::store::{Columns, Stored};
use crate::db::Backend;

/// Records turned into rows and written at a time: an import holds a few chunks of rows, whatever
/// the catalog's size.
pub const CHUNK: usize = 2_000;

/// Chunks built and waiting while one is written.
const CHUNKS_AHEAD: usize = 1;

/// How the feed writes: the backend's statements, each table's column types (child tables
/// included) and the import's time for `created_at` and `updated_at`.
pub struct Writing {
    pub backend: Backend,
    pub types: HashMap<&'static str, Columns>,
    pub now: String,
}

/// A record the chunk creates or changes, with what its events need.
pub struct Written {
    pub id: String,
    /// The record as the data files hold it.
    pub record: Value,
}

/// One chunk of a table's records, ready to write.
#[derive(Default)]
pub struct PreparedChunk {
    pub created: Vec<Written>,
    pub updated: Vec<Written>,
    pub unchanged: usize,
    /// The created and changed records' rows, then their child rows, table by table.
    pub statements: Vec<Statement>,
}

pub struct RowFeed {
    chunks: tokio::sync::mpsc::Receiver<Result<PreparedChunk, ImportError>>,
    /// Written records on their way back to the feed's thread, to be freed there (`dispose`).
    spent: std::sync::mpsc::Sender<Vec<Written>>,
}

impl RowFeed {
    /// `energies`: those of every stored caliber when `catalog` is a part (`RowSource::among`).
    pub fn start(
        catalog: Arc<Catalog>,
        stored: Arc<StoredTables>,
        energies: Option<CartridgeEnergies>,
        writing: Writing,
    ) -> Self {
        let (sender, chunks) = tokio::sync::mpsc::channel(CHUNKS_AHEAD);
        let (spent, to_free) = std::sync::mpsc::channel::<Vec<Written>>();
        // Detached: it ends after the last chunk, or at the next one when the import has stopped
        // (dropped the receiver) part-way.
        std::thread::Builder::new()
            .name("import-rows".into())
            .spawn(move || {
                let source = match &energies {
                    Some(energies) => RowSource::among(&catalog, &stored, energies),
                    None => RowSource::new(&catalog, &stored),
                };
                for table in Table::ALL {
                    let total = rows::len(&catalog, table);
                    for start in (0..total).step_by(CHUNK) {
                        to_free.try_iter().for_each(drop);
                        let rows = rows_side_by_side(&source, table, start..(start + CHUNK).min(total));
                        let chunk = prepare(rows, table, &stored[&table], &writing);
                        if sender.blocking_send(chunk).is_err() {
                            return;
                        }
                    }
                }
            })
            .expect("a thread starts");
        Self { chunks, spent }
    }

    /// The next chunk of the table being written, records `CHUNK` at a time.
    pub async fn next(&mut self) -> Result<PreparedChunk, ImportError> {
        self.chunks.recv().await.unwrap_or(Err(ImportError::RowsStopped))
    }

    /// Hand records the import is done with back to the feed, which frees them between chunks:
    /// freed by the writer, 100,000 firearms' records held the database idle for about 0.8 s.
    /// Once the feed has ended they are freed here.
    pub fn dispose(&self, records: Vec<Written>) {
        if let Err(std::sync::mpsc::SendError(records)) = self.spent.send(records) {
            drop(records);
        }
    }
}

/// A chunk's rows, built in two halves on two threads. When the import writes little (a catalog
/// imported again with one record changed) building rows is all there is to wait for: on one
/// thread it took the unchanged 100,000 firearms about a second longer. Small chunks stay on one.
fn rows_side_by_side(source: &RowSource<'_>, table: Table, range: Range<usize>) -> Vec<Row> {
    if range.len() < 64 {
        return source.rows(table, range);
    }
    let middle = range.start + range.len() / 2;
    std::thread::scope(|scope| {
        let second = scope.spawn(|| source.rows(table, middle..range.end));
        let mut rows = source.rows(table, range.start..middle);
        rows.extend(second.join().expect("building rows never panics"));
        rows
    })
}

/// Sort `rows` into created, changed and unchanged against `stored`, and prepare the statements
/// that write the created and changed ones with their child rows.
fn prepare(
    rows: Vec<Row>,
    table: Table,
    stored: &HashMap<String, Stored>,
    writing: &Writing,
) -> Result<PreparedChunk, ImportError> {
    let mut chunk = PreparedChunk::default();
    let mut parent_rows = Vec::new();
    let mut child_rows: HashMap<&str, Vec<Vec<(String, Value)>>> = HashMap::new();
    for row in rows {
        let earlier = stored.get(&row.id);
        if earlier.is_some_and(|s| s.version == row.version) {
            chunk.unchanged += 1;
            continue;
        }
        for child in row.children {
            child_rows.entry(child.table).or_default().push(child.columns);
        }
        let created_at = earlier.map_or(writing.now.as_str(), |s| s.created_at.as_str());
        let mut columns = row.columns;
        columns.push(("record".into(), Value::String(row.record_text)));
        columns.push(("version".into(), json!(row.version)));
        columns.push(("created_at".into(), json!(created_at)));
        columns.push(("updated_at".into(), json!(writing.now)));
        parent_rows.push(columns);
        let written = Written { id: row.id, record: row.record };
        match earlier {
            None => chunk.created.push(written),
            Some(_) => chunk.updated.push(written),
        }
    }
    let types = |table: &str| {
        writing.types.get(table).ok_or_else(|| ImportError::Rows(format!("no column types for {table}")))
    };
    chunk.statements = insert::prepare(
        writing.backend,
        table.name(),
        types(table.name())?,
        &parent_rows,
        Some("id"),
        &["created_at"],
    )?;
    drop(parent_rows);
    for (child_table, _) in table.children() {
        let Some(rows) = child_rows.remove(child_table) else { continue };
        // An image id is unique across firearms, and a record written in an earlier chunk may take
        // over one that a changed record of a later chunk still holds: it moves, it does not clash.
        let key = (*child_table == "images").then_some("id");
        chunk.statements.extend(insert::prepare(
            writing.backend,
            child_table,
            types(child_table)?,
            &rows,
            key,
            &[],
        )?);
    }
    Ok(chunk)
}
