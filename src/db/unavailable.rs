//! Whether a database error means the database could not be reached or was busy (a client may
//! retry: 503, a job tries again) rather than that the statement itself failed (a bug or bad data).

/// True when the database could not be reached, was busy, or is shutting down.
pub fn is_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        // SQLite busy or locked; PostgreSQL shutting down, too many connections, or unreachable.
        sqlx::Error::Database(db) => {
            let code = db.code().unwrap_or_default();
            matches!(
                code.as_ref(),
                "5" | "6"
                    | "517"
                    | "57P01"
                    | "57P02"
                    | "57P03"
                    | "53300"
                    | "08000"
                    | "08001"
                    | "08003"
                    | "08006"
            ) || db.message().contains("database is locked")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_that_cannot_give_a_connection_is_unavailable() {
        assert!(is_unavailable(&sqlx::Error::PoolTimedOut));
        assert!(is_unavailable(&sqlx::Error::PoolClosed));
        assert!(is_unavailable(&sqlx::Error::Io(std::io::Error::from(
            std::io::ErrorKind::ConnectionRefused
        ))));
    }

    #[test]
    fn a_statement_that_failed_is_not() {
        assert!(!is_unavailable(&sqlx::Error::RowNotFound));
        assert!(!is_unavailable(&sqlx::Error::ColumnNotFound("x".into())));
    }
}
