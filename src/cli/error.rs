//! Why a command failed. Whatever the cause, `cli::main` prints it as one line on stderr,
//! `error: ` and the message, and exits 1; the cause stays attached for `is_unavailable`.

use crate::access::maintenance::MaintenanceError;
use crate::accounts::AccountError;
use crate::app::StartupError;
use crate::catalog::check::hosts::HostListError;
use crate::catalog::export::ExportError;
use crate::catalog::import_error::ImportError;
use crate::catalog::load::LoadErrors;
use crate::catalog::stats_versions::FreezeError;
use crate::catalog::store::StoredCatalogError;
use crate::db::DbError;
use crate::read::snapshot::SnapshotError;
use crate::webhooks::error::WebhookError;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A setting, argument or file the user gave is not usable; the message names it.
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Connect(#[from] DbError),
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
    #[error(transparent)]
    Account(#[from] AccountError),
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error(transparent)]
    Refused(#[from] LoadErrors),
    #[error(transparent)]
    HostList(#[from] HostListError),
    #[error(transparent)]
    Stored(#[from] StoredCatalogError),
    #[error(transparent)]
    Export(#[from] ExportError),
    #[error(transparent)]
    Freeze(#[from] FreezeError),
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    #[error(transparent)]
    Startup(#[from] StartupError),
    #[error(transparent)]
    Webhooks(#[from] WebhookError),
    #[error(transparent)]
    Maintenance(#[from] MaintenanceError),
    #[error("server failed: {0}")]
    Serve(#[source] std::io::Error),
}

impl CliError {
    /// A refusal the message says all of, such as a setting out of range.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::Invalid(message.into())
    }

    /// Whether the database could not be reached or was busy: the same command may succeed later.
    pub fn is_unavailable(&self) -> bool {
        match self {
            Self::Connect(error) => matches!(error, DbError::Unreachable { .. }),
            Self::Sql(error) => crate::db::is_unavailable(error),
            Self::Import(error) => error.is_unavailable(),
            Self::Stored(error) => error.is_unavailable(),
            Self::Freeze(error) => error.is_unavailable(),
            Self::Webhooks(error) => error.is_unavailable(),
            Self::Maintenance(error) => error.is_unavailable(),
            Self::Snapshot(SnapshotError::Database(error)) => crate::db::is_unavailable(error),
            Self::Snapshot(SnapshotError::Stored(error)) => error.is_unavailable(),
            Self::Invalid(_)
            | Self::Account(_)
            | Self::Refused(_)
            | Self::HostList(_)
            | Self::Export(_)
            | Self::Snapshot(_)
            | Self::Startup(_)
            | Self::Serve(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreachable_database_is_unavailable_and_a_refused_setting_is_not() {
        let unreachable = CliError::from(DbError::Unreachable { url: "x".into(), cause: "refused".into() });
        assert!(unreachable.is_unavailable());
        let import =
            CliError::from(ImportError::database("cannot connect for the import")(sqlx::Error::PoolTimedOut));
        assert!(import.is_unavailable());
        assert!(import.to_string().starts_with("cannot connect for the import: "), "{import}");
        let setting = CliError::invalid("ARMORY_WEBHOOK_TIMEOUT: must be at least 1 second");
        assert!(!setting.is_unavailable());
        assert_eq!(setting.to_string(), "ARMORY_WEBHOOK_TIMEOUT: must be at least 1 second");
    }
}
