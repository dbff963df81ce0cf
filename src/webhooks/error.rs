//! Why a pass of the delivery worker, or the worker itself, could not go on. An unreachable
//! database, or a catalog snapshot not yet at the events' revision, passes: the next pass tries
//! again (`WebhookError::is_unavailable`); anything else is a fault to look into.

use crate::read::snapshot::SnapshotError;

#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// The catalog snapshot the payloads render from could not be brought up to date.
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    /// The snapshot is still behind the events' revision; the fan-out waits for it.
    #[error("the catalog snapshot is behind revision {0}; fan-out waits")]
    SnapshotBehind(i64),
    #[error("cannot build the webhook client: {0}")]
    Client(#[source] reqwest::Error),
}

impl WebhookError {
    /// Whether what failed is a dependency that is not there yet or not reachable (the database,
    /// a snapshot catching up): the same pass may succeed later.
    pub fn is_unavailable(&self) -> bool {
        match self {
            Self::Database(error) | Self::Snapshot(SnapshotError::Database(error)) => {
                crate::db::is_unavailable(error)
            }
            Self::Snapshot(SnapshotError::Stored(error)) => error.is_unavailable(),
            Self::SnapshotBehind(_) => true,
            Self::Snapshot(_) | Self::Client(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreachable_database_and_a_lagging_snapshot_pass_and_a_failed_statement_does_not() {
        assert!(WebhookError::Database(sqlx::Error::PoolTimedOut).is_unavailable());
        assert!(WebhookError::SnapshotBehind(7).is_unavailable());
        assert!(!WebhookError::Database(sqlx::Error::RowNotFound).is_unavailable());
        assert_eq!(
            WebhookError::SnapshotBehind(7).to_string(),
            "the catalog snapshot is behind revision 7; fan-out waits"
        );
    }
}
