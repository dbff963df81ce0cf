//! Multi-row inserts of catalog rows, made in two steps: `prepare` turns rows into statements
//! (text and the values they bind, pure work on any thread) and `run` sends them on a connection.
//!
//! The import prepares a chunk's statements on its row-building thread while the connection runs
//! the previous chunk's (`import::RowFeed`): made on the thread that then waited for them, the
//! statements of 100,000 firearms were about a quarter of the time the database was left idle.

use serde_json::Value;
use sqlx::{AnyConnection, AssertSqlSafe};

use super::sqlite_literal;
use super::store::{ColumnType, Columns};
use crate::db::Backend;

/// At most this many literal values in one SQLite statement: a few MB of text at a firearm's
/// 60 columns.
const MAX_LITERAL_VALUES: usize = 50_000;

/// One statement ready to run.
#[derive(Debug)]
pub struct Statement {
    /// The table it writes, for an error.
    table: String,
    sql: String,
    binds: Binds,
}

/// What a statement binds, in order.
#[derive(Debug)]
enum Binds {
    /// The reals SQLite would not read back exactly as literals (`sqlite_literal`).
    Reals(Vec<f64>),
    /// Every row as one JSON array (PostgreSQL).
    Json(String),
}

/// The statements that insert `rows` (all with the same columns, in the same order); with
/// `upsert_key`, a row whose key exists replaces its columns except `keep` (such as created_at).
pub fn prepare(
    backend: Backend,
    table: &str,
    types: &Columns,
    rows: &[Vec<(String, Value)>],
    upsert_key: Option<&str>,
    keep: &[&str],
) -> Result<Vec<Statement>, String> {
    let Some(first) = rows.first() else { return Ok(vec![]) };
    let names: Vec<&str> = first.iter().map(|(name, _)| name.as_str()).collect();
    // Every row has the first one's columns in its order; each value is written by its
    // position's type, looked up once here rather than per value.
    let mut kinds = Vec::with_capacity(names.len());
    for name in &names {
        let Some(kind) = types.get(*name) else {
            return Err(format!("table {table} has no column {name}"));
        };
        kinds.push(*kind);
    }
    if let Some(odd) =
        rows.iter().find(|row| row.iter().map(|(name, _)| name.as_str()).ne(names.iter().copied()))
    {
        return Err(format!("table {table}: a row's columns differ from the first row's ({odd:?})"));
    }
    let conflict = upsert_key.map(|key| on_conflict(&names, key, keep)).unwrap_or_default();
    let insert = Insert { table, names: &names, kinds: &kinds, rows, conflict: &conflict };
    Ok(match backend {
        Backend::Sqlite => as_literals(&insert),
        Backend::Postgres => vec![as_json(&insert)],
    })
}

/// Run `statements` in order on `conn`.
pub async fn run(conn: &mut AnyConnection, statements: Vec<Statement>) -> Result<(), String> {
    for Statement { table, sql, binds } in statements {
        // Not kept in the connection's statement cache: each text is used once.
        let mut query = sqlx::query(AssertSqlSafe(sql)).persistent(false);
        match binds {
            Binds::Reals(reals) => {
                for x in reals {
                    query = query.bind(x);
                }
            }
            Binds::Json(rows) => query = query.bind(rows),
        }
        query.execute(&mut *conn).await.map_err(|e| format!("writing {table}: {e}"))?;
    }
    Ok(())
}

/// One table's rows to insert: every row has `names`' columns in that order, each written as
/// `kinds` says, and `conflict` ends the statement (empty, or an upsert's `ON CONFLICT`).
#[derive(Clone, Copy)]
struct Insert<'a> {
    table: &'a str,
    names: &'a [&'a str],
    kinds: &'a [ColumnType],
    rows: &'a [Vec<(String, Value)>],
    conflict: &'a str,
}

/// ` ON CONFLICT (key) DO UPDATE SET ...` over every column but the key and `keep`.
fn on_conflict(names: &[&str], key: &str, keep: &[&str]) -> String {
    let updates: Vec<String> = names
        .iter()
        .filter(|name| **name != key && !keep.contains(name))
        .map(|name| format!("{name} = excluded.{name}"))
        .collect();
    format!(" ON CONFLICT ({key}) DO UPDATE SET {}", updates.join(", "))
}

/// Multi-row inserts with every value written into the statement (SQLite; `sqlite_literal` says
/// why), a few hundred rows to a statement.
fn as_literals(insert: &Insert<'_>) -> Vec<Statement> {
    let Insert { table, names, kinds, rows, conflict } = *insert;
    let per_statement = (MAX_LITERAL_VALUES / names.len()).max(1);
    let head = format!("INSERT INTO {table} ({}) VALUES ", names.join(", "));
    rows.chunks(per_statement)
        .map(|chunk| {
            let mut sql = String::with_capacity(head.len() + chunk.len() * names.len() * 16);
            let mut reals = Vec::new();
            sql.push_str(&head);
            for (i, row) in chunk.iter().enumerate() {
                sql.push_str(if i == 0 { "(" } else { ", (" });
                for (j, ((_, value), kind)) in row.iter().zip(kinds).enumerate() {
                    if j > 0 {
                        sql.push_str(", ");
                    }
                    sqlite_literal::push(&mut sql, &mut reals, *kind, value);
                }
                sql.push(')');
            }
            sql.push_str(conflict);
            Statement { table: table.to_owned(), sql, binds: Binds::Reals(reals) }
        })
        .collect()
}

/// All rows in one statement that binds them as a single JSON array, expanded by the server
/// (PostgreSQL). Bound one value at a time, the driver encoded and the server bound 60 values
/// per firearm, which was most of a 100,000-firearm import; one text value per chunk is parsed
/// by the server in one pass.
fn as_json(insert: &Insert<'_>) -> Statement {
    let Insert { table, names, kinds, rows, conflict } = *insert;
    let columns = names.join(", ");
    let sql = format!(
        "INSERT INTO {table} ({columns}) SELECT {columns} \
         FROM json_populate_recordset(NULL::{table}, CAST($1 AS JSON)){conflict}"
    );
    Statement { table: table.to_owned(), sql, binds: Binds::Json(rows_as_json(rows, kinds)) }
}

/// `[{"column": value, ...}, ...]`, each value as its column's type takes it (as
/// `sqlite_literal::push` writes it).
fn rows_as_json(rows: &[Vec<(String, Value)>], kinds: &[ColumnType]) -> String {
    let mut out = Vec::with_capacity(rows.len() * 512);
    out.push(b'[');
    for (i, row) in rows.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"{" } else { b",{" });
        for (j, ((name, value), kind)) in row.iter().zip(kinds).enumerate() {
            if j > 0 {
                out.push(b',');
            }
            write_json_str(&mut out, name);
            out.push(b':');
            match (kind, value) {
                (_, Value::Null) => out.extend_from_slice(b"null"),
                (ColumnType::Integer, Value::Bool(b)) => out.push(if *b { b'1' } else { b'0' }),
                (ColumnType::Integer, other) => match other.as_i64() {
                    Some(n) => out.extend_from_slice(n.to_string().as_bytes()),
                    None => out.extend_from_slice(b"null"),
                },
                (ColumnType::Real, other) => match other.as_f64() {
                    Some(_) => out.extend_from_slice(other.to_string().as_bytes()),
                    None => out.extend_from_slice(b"null"),
                },
                (ColumnType::Text, Value::String(s)) => write_json_str(&mut out, s),
                (ColumnType::Text, other) => write_json_str(&mut out, &other.to_string()),
            }
        }
        out.push(b'}');
    }
    out.push(b']');
    String::from_utf8(out).expect("JSON text is UTF-8")
}

fn write_json_str(out: &mut Vec<u8>, text: &str) {
    serde_json::to_writer(&mut *out, text).expect("writing to a Vec never fails");
}
