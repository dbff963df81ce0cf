//! Why an import (`import`) failed: the data was refused, the database could not be reached, a
//! statement failed, or the import's own rows did not fit the tables. Only the unreachable
//! database is worth trying again as it is (`ImportError::is_unavailable`).

use std::path::PathBuf;

use super::load::LoadErrors;
use super::store::StoredCatalogError;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The data files are not a valid catalog; nothing was written.
    #[error(transparent)]
    Refused(#[from] LoadErrors),
    /// A statement of the import failed, `doing` what the import was doing.
    #[error("{doing}: {source}")]
    Database { doing: String, source: sqlx::Error },
    /// A statement failed where the statement says enough.
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
    /// The stored catalog could not be read back.
    #[error(transparent)]
    Stored(#[from] StoredCatalogError),
    /// The import's rows do not fit the tables: a column the migrations lack, rows of one
    /// table with different columns, a table whose column types were not read.
    #[error("{0}")]
    Rows(String),
    /// A verification the import had to clear could not be written to its data file.
    #[error("{0}")]
    Verification(String),
    /// An image file the catalog names cannot be taken (`catalog::image_files`).
    #[error("{0}")]
    ImageFile(String),
    /// The thread building the rows stopped before the last of them.
    #[error("building the catalog's rows failed")]
    RowsStopped,
    /// The first-start import of the catalog in `dir`.
    #[error("the catalog in {}: {source}", dir.display())]
    InFolder { dir: PathBuf, source: Box<ImportError> },
}

impl ImportError {
    /// `source`, with what the import was doing when it failed.
    pub fn database(doing: impl Into<String>) -> impl FnOnce(sqlx::Error) -> Self {
        let doing = doing.into();
        move |source| Self::Database { doing, source }
    }

    /// Whether the database could not be reached or was busy: the same import may succeed later.
    /// Anything else is refused data or a fault of ours, and fails again as it is.
    pub fn is_unavailable(&self) -> bool {
        match self {
            Self::Database { source, .. } | Self::Sql(source) => crate::db::is_unavailable(source),
            Self::Stored(error) => error.is_unavailable(),
            Self::InFolder { source, .. } => source.is_unavailable(),
            Self::Refused(_)
            | Self::Rows(_)
            | Self::RowsStopped
            | Self::Verification(_)
            | Self::ImageFile(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_that_cannot_be_reached_is_unavailable_and_refused_data_is_not() {
        let down = ImportError::database("cannot connect for the import")(sqlx::Error::PoolTimedOut);
        assert!(down.is_unavailable());
        assert!(down.to_string().starts_with("cannot connect for the import: "), "{down}");
        let in_folder = ImportError::InFolder { dir: "data".into(), source: Box::new(down) };
        assert!(in_folder.is_unavailable());
        assert!(in_folder.to_string().starts_with("the catalog in data: cannot connect"), "{in_folder}");
        assert!(!ImportError::Refused(LoadErrors(vec![])).is_unavailable());
        assert!(!ImportError::Sql(sqlx::Error::RowNotFound).is_unavailable());
    }
}
