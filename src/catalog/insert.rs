//! Multi-row inserts of catalog rows, made in two steps: `prepare` turns rows into statements
//! (text and the values they bind, pure work on any thread) and `run` sends them on a connection.
//!
//! On PostgreSQL each column travels as one text value, split by the server (`as_arrays`); the
//! import prepares a chunk's statements on its row-building thread while the connection runs
//! the previous chunk's (`import::RowFeed`): made on the thread that then waited for them, the
//! statements of 100,000 firearms were about a quarter of the time the database was left idle.

use super::import_error::ImportError;
use std::borrow::Cow;

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
    /// Each column's values as one text, in the columns' order (PostgreSQL, `as_arrays`).
    Columns(Vec<String>),
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
) -> Result<Vec<Statement>, ImportError> {
    let Some(first) = rows.first() else { return Ok(vec![]) };
    let names: Vec<&str> = first.iter().map(|(name, _)| name.as_str()).collect();
    // Every row has the first one's columns in its order; each value is written by its
    // position's type, looked up once here rather than per value.
    let mut kinds = Vec::with_capacity(names.len());
    for name in &names {
        let Some(kind) = types.get(*name) else {
            return Err(ImportError::Rows(format!("table {table} has no column {name}")));
        };
        kinds.push(*kind);
    }
    if let Some(odd) =
        rows.iter().find(|row| row.iter().map(|(name, _)| name.as_str()).ne(names.iter().copied()))
    {
        return Err(ImportError::Rows(format!(
            "table {table}: a row's columns differ from the first row's ({odd:?})"
        )));
    }
    let conflict = upsert_key.map(|key| on_conflict(&names, key, keep)).unwrap_or_default();
    let insert = Insert { table, names: &names, kinds: &kinds, rows, conflict: &conflict };
    Ok(match backend {
        Backend::Sqlite => as_literals(&insert),
        Backend::Postgres => vec![as_arrays(&insert).unwrap_or_else(|| as_json(&insert))],
    })
}

/// Run `statements` in order on `conn`.
pub async fn run(conn: &mut AnyConnection, statements: Vec<Statement>) -> Result<(), ImportError> {
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
            Binds::Columns(columns) => {
                for column in columns {
                    query = query.bind(column);
                }
            }
        }
        query.execute(&mut *conn).await.map_err(ImportError::database(format!("writing {table}")))?;
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

/// Between two values of a column's text (`as_arrays`): the ASCII record separator.
const VALUE_SEPARATOR: char = '\u{1e}';
/// A null value in a column's text: the ASCII unit separator alone.
const NULL_VALUE: char = '\u{1f}';

/// All rows in one statement that binds each column as one text, its values parted by
/// `VALUE_SEPARATOR`, split into arrays and zipped into rows by the server (PostgreSQL). Text
/// values go through untouched, numbers as the server reads them: per firearm this was about half
/// the server's time of `as_json`, whose parse of every row's object (keys, escapes, the whole
/// record) was most of the import. None when a text value holds either separator (serde_json's
/// text never does; free text might), for `as_json` to carry.
fn as_arrays(insert: &Insert<'_>) -> Option<Statement> {
    let Insert { table, names, kinds, rows, conflict } = *insert;
    // Each column's text starts with a null that the statement skips, and every value follows a
    // separator: one row whose value is the empty text still makes two elements, where
    // `string_to_array('')` would make none.
    let mut column = String::with_capacity(rows.len() * 8);
    column.push(NULL_VALUE);
    let mut columns = vec![column; names.len()];
    for row in rows {
        for (((_, value), kind), column) in row.iter().zip(kinds).zip(&mut columns) {
            column.push(VALUE_SEPARATOR);
            match scalar_text(*kind, value) {
                None => column.push(NULL_VALUE),
                Some(text) if text.contains([VALUE_SEPARATOR, NULL_VALUE]) => return None,
                Some(text) => column.push_str(&text),
            }
        }
    }
    let arrays: Vec<String> = kinds
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let split = format!(
                "string_to_array(CAST(${} AS TEXT), chr({}), chr({}))",
                i + 1,
                VALUE_SEPARATOR as u32,
                NULL_VALUE as u32
            );
            match kind {
                ColumnType::Integer => format!("CAST({split} AS BIGINT[])"),
                ColumnType::Real => format!("CAST({split} AS DOUBLE PRECISION[])"),
                ColumnType::Text => split,
            }
        })
        .collect();
    let columns_sql = names.join(", ");
    let sql = format!(
        "INSERT INTO {table} ({columns_sql}) SELECT {columns_sql} \
         FROM unnest({}) WITH ORDINALITY AS split_rows ({columns_sql}, split_position) \
         WHERE split_position > 1{conflict}",
        arrays.join(", ")
    );
    Some(Statement { table: table.to_owned(), sql, binds: Binds::Columns(columns) })
}

/// All rows in one statement that binds them as a single JSON array, expanded by the server
/// (PostgreSQL), for rows `as_arrays` cannot carry. Bound one value at a time, the driver encoded
/// and the server bound 60 values per firearm, which was most of a 100,000-firearm import.
fn as_json(insert: &Insert<'_>) -> Statement {
    let Insert { table, names, kinds, rows, conflict } = *insert;
    let columns = names.join(", ");
    let sql = format!(
        "INSERT INTO {table} ({columns}) SELECT {columns} \
         FROM json_populate_recordset(NULL::{table}, CAST($1 AS JSON)){conflict}"
    );
    Statement { table: table.to_owned(), sql, binds: Binds::Json(rows_as_json(rows, kinds)) }
}

/// A value as its column's type takes it, in text (as `sqlite_literal::push` writes it): None for
/// null, and for a number a column of numbers cannot hold.
fn scalar_text(kind: ColumnType, value: &Value) -> Option<Cow<'_, str>> {
    match (kind, value) {
        (_, Value::Null) => None,
        (ColumnType::Integer, Value::Bool(b)) => Some(Cow::Borrowed(if *b { "1" } else { "0" })),
        (ColumnType::Integer, other) => other.as_i64().map(|n| Cow::Owned(n.to_string())),
        (ColumnType::Real, other) => other.as_f64().map(|_| Cow::Owned(other.to_string())),
        (ColumnType::Text, Value::String(s)) => Some(Cow::Borrowed(s)),
        (ColumnType::Text, other) => Some(Cow::Owned(other.to_string())),
    }
}

/// `[{"column": value, ...}, ...]`, each value as `scalar_text` has it.
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
            match scalar_text(*kind, value) {
                None => out.extend_from_slice(b"null"),
                Some(text) if *kind == ColumnType::Text => write_json_str(&mut out, &text),
                Some(number) => out.extend_from_slice(number.as_bytes()),
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn types() -> Columns {
        [("id", ColumnType::Text), ("rounds", ColumnType::Integer), ("weight", ColumnType::Real)]
            .into_iter()
            .map(|(name, kind)| (name.to_owned(), kind))
            .collect()
    }

    fn row(id: Value, rounds: Value, weight: Value) -> Vec<(String, Value)> {
        vec![("id".into(), id), ("rounds".into(), rounds), ("weight".into(), weight)]
    }

    #[test]
    fn postgres_rows_travel_as_one_text_per_column_with_a_leading_null() {
        let rows = [row(json!("a"), json!(true), json!(1.5)), row(json!(""), Value::Null, json!(2))];
        let statements = prepare(Backend::Postgres, "t", &types(), &rows, None, &[]).unwrap();
        let [Statement { binds: Binds::Columns(columns), sql, .. }] = &statements[..] else {
            panic!("one statement binding columns: {statements:?}");
        };
        assert_eq!(columns, &["\u{1f}\u{1e}a\u{1e}", "\u{1f}\u{1e}1\u{1e}\u{1f}", "\u{1f}\u{1e}1.5\u{1e}2"]);
        assert!(
            sql.contains("CAST(string_to_array(CAST($2 AS TEXT), chr(30), chr(31)) AS BIGINT[])"),
            "{sql}"
        );
        assert!(sql.contains("WHERE split_position > 1"), "{sql}");
    }

    #[test]
    fn text_holding_a_separator_travels_as_json() {
        for text in ["a\u{1e}b", "a\u{1f}"] {
            let rows = [row(json!(text), json!(1), Value::Null)];
            let statements = prepare(Backend::Postgres, "t", &types(), &rows, Some("id"), &[]).unwrap();
            let [Statement { binds: Binds::Json(json), sql, .. }] = &statements[..] else {
                panic!("one statement binding JSON: {statements:?}");
            };
            let parsed: Value = serde_json::from_str(json).unwrap();
            assert_eq!(parsed, json!([{"id": text, "rounds": 1, "weight": null}]));
            assert!(sql.ends_with(
                " ON CONFLICT (id) DO UPDATE SET rounds = excluded.rounds, weight = excluded.weight"
            ));
        }
    }
}
