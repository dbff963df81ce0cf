//! Values written into an SQLite statement as SQL literals, for the catalog import's multi-row
//! inserts (`insert::prepare`).
//!
//! Bound one by one, each of a firearm's 60 values was cloned into sqlx's `Any` arguments,
//! converted again for SQLite on its worker thread and copied a third time by SQLite's bind: at
//! 100,000 firearms about a fifth of the import's time, on the thread every write waits for. As
//! literals, a chunk's rows are one text that SQLite's tokenizer reads in one pass.
//!
//! SQLite's literals are plain: a string is quoted with `'` doubled and no other escape; a NUL
//! (which would end the statement's text) is written as a hex blob cast to text. A real is written
//! as the shortest decimal that reads back as the same `f64` only where SQLite's text-to-real
//! conversion is exact: up to 15 significant digits times a power of ten up to 22 (every catalog
//! figure). SQLite rounds some other decimals to a neighbouring `f64` (3.587959730897931e-246 read
//! back one unit off), so those are left to a bound parameter (`?`).

use std::fmt::Write as _;

use serde_json::Value;

use super::store::ColumnType;

/// Append `value` as `kind`'s literal, as `store` would have bound it: a number that does not fit
/// the column's type, or a null, is NULL; a list or object in a text column is its JSON text. A
/// real SQLite would not read back exactly is written `?` and added to `bound`, to bind in order.
pub fn push(sql: &mut String, bound: &mut Vec<f64>, kind: ColumnType, value: &Value) {
    match (kind, value) {
        (_, Value::Null) => sql.push_str("NULL"),
        (ColumnType::Integer, Value::Bool(b)) => sql.push(if *b { '1' } else { '0' }),
        (ColumnType::Integer, other) => match other.as_i64() {
            Some(n) => write!(sql, "{n}").expect("writing to a String never fails"),
            None => sql.push_str("NULL"),
        },
        (ColumnType::Real, other) => match other.as_f64() {
            Some(x) => push_real(sql, bound, x),
            None => sql.push_str("NULL"),
        },
        (ColumnType::Text, Value::String(s)) => push_text(sql, s),
        (ColumnType::Text, other) => push_text(sql, &other.to_string()),
    }
}

/// `'text'`, each `'` doubled; with a NUL in it, `CAST(X'…' AS TEXT)`.
pub fn push_text(sql: &mut String, text: &str) {
    if text.contains('\0') {
        sql.push_str("CAST(X'");
        for byte in text.bytes() {
            write!(sql, "{byte:02X}").expect("writing to a String never fails");
        }
        sql.push_str("' AS TEXT)");
        return;
    }
    sql.reserve(text.len() + 2);
    sql.push('\'');
    let mut rest = text;
    while let Some(quote) = rest.find('\'') {
        sql.push_str(&rest[..=quote]);
        sql.push('\'');
        rest = &rest[quote + 1..];
    }
    sql.push_str(rest);
    sql.push('\'');
}

/// A finite `f64` (JSON has no other) as a real literal: Rust's `{:e}` is the shortest decimal
/// that reads back as the same value, with an exponent, so SQLite reads a real ("6.25e2").
fn push_real(sql: &mut String, bound: &mut Vec<f64>, x: f64) {
    let start = sql.len();
    write!(sql, "{x:e}").expect("writing to a String never fails");
    if !read_exactly_by_sqlite(&sql[start..]) {
        sql.truncate(start);
        sql.push('?');
        bound.push(x);
    }
}

/// Whether a `{:e}` decimal is at most 15 significant digits times 10^p with |p| <= 22: both
/// exact as `f64`, so one correctly rounded multiplication or division gives the value back.
fn read_exactly_by_sqlite(shortest: &str) -> bool {
    let (mantissa, exponent) = shortest.split_once('e').expect("`{:e}` writes an exponent");
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).count() as i64;
    let exponent: i64 = exponent.parse().expect("`{:e}` writes an integer exponent");
    digits <= 15 && (exponent - (digits - 1)).abs() <= 22
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn literal(kind: ColumnType, value: Value) -> String {
        let mut sql = String::new();
        push(&mut sql, &mut vec![], kind, &value);
        sql
    }

    #[test]
    fn values_become_the_literals_their_column_takes() {
        assert_eq!(literal(ColumnType::Text, json!("O'Brien's")), "'O''Brien''s'");
        assert_eq!(literal(ColumnType::Text, json!("a\0b")), "CAST(X'610062' AS TEXT)");
        assert_eq!(literal(ColumnType::Text, json!(["a", "b"])), r#"'["a","b"]'"#);
        assert_eq!(literal(ColumnType::Text, Value::Null), "NULL");
        assert_eq!(literal(ColumnType::Integer, json!(true)), "1");
        assert_eq!(literal(ColumnType::Integer, json!(-42)), "-42");
        assert_eq!(literal(ColumnType::Integer, json!(2.5)), "NULL");
        assert_eq!(literal(ColumnType::Real, json!(625)), "6.25e2");
        assert_eq!(literal(ColumnType::Real, json!(1e300)), "?");
        assert_eq!(literal(ColumnType::Real, json!(1e22)), "1e22");
        assert_eq!(literal(ColumnType::Real, json!(-0.1)), "-1e-1");
    }

    /// Every finite `f64` reads back from SQLite as the same bits, written or bound: the
    /// catalog's kind of decimals and a sample of them up to the limits of `read_exactly_by_sqlite`
    /// (all written as literals), random bit patterns and the extremes (mostly bound). Not -0.0,
    /// which SQLite stores as the integer 0 however it arrives.
    #[tokio::test]
    async fn reals_read_back_from_sqlite_as_the_same_f64() {
        use sqlx::Connection as _;
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect("sqlite::memory:").await.expect("an in-memory database");
        sqlx::raw_sql("CREATE TABLE t (n INTEGER PRIMARY KEY, x REAL)").execute(&mut conn).await.unwrap();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let decimals = [0.1, 625.0, 3.2, -7.62, 1e22, 0.0, 123_456_789_012_345.0, 1.0e-7];
        let mut literal = decimals.to_vec();
        while literal.len() < 20_000 {
            let significand = (random() % 1_000_000_000_000_000) as f64;
            let power = (random() % 45) as i32 - 22;
            let x: f64 = format!("{significand}e{power}").parse().unwrap();
            if read_exactly_by_sqlite(&format!("{x:e}")) {
                literal.push(x);
            }
        }
        let mut any = vec![1e300, f64::MAX, f64::MIN_POSITIVE, 5e-324, 1.0 / 3.0, 3.587959730897931e-246];
        while any.len() < 5_000 {
            let x = f64::from_bits(random());
            if x.is_finite() && x.to_bits() != (-0.0_f64).to_bits() {
                any.push(x);
            }
        }
        for (values, all_written) in [(&literal, true), (&any, false)] {
            sqlx::raw_sql("DELETE FROM t").execute(&mut conn).await.unwrap();
            let (mut sql, mut bound) = (String::from("INSERT INTO t (n, x) VALUES "), vec![]);
            for (n, x) in values.iter().enumerate() {
                sql.push_str(if n == 0 { "(" } else { ", (" });
                write!(sql, "{n}, ").unwrap();
                push(&mut sql, &mut bound, ColumnType::Real, &json!(x));
                sql.push(')');
            }
            assert!(!all_written || bound.is_empty(), "{} bound", bound.len());
            let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
            for x in bound {
                insert = insert.bind(x);
            }
            insert.execute(&mut conn).await.unwrap();
            let read: Vec<(f64,)> =
                sqlx::query_as("SELECT x FROM t ORDER BY n").fetch_all(&mut conn).await.unwrap();
            assert_eq!(read.len(), values.len());
            for (written, (read,)) in values.iter().zip(&read) {
                assert_eq!(written.to_bits(), read.to_bits(), "{written:?} read back as {read:?}");
            }
        }
    }
}
