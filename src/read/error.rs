//! Why a read-side query found no answer. Plain Rust: the HTTP layer maps each kind to its
//! status and reason (`http::error`), another consumer (a tool, a page) to its own words.

/// A query's refusal.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// No record of `kind` has `id`; `parameter` names the query parameter that gave it, when the
    /// id came from a filter rather than the path.
    #[error("No {kind} has the id '{id}'.")]
    NotFound { kind: &'static str, id: String, parameter: Option<&'static str> },
    /// Ids of a list that no record of `kind` has, every one named.
    #[error("No {kind} has the id: {}.", ids.join(", "))]
    MissingIds { kind: &'static str, ids: Vec<String> },
    /// The record exists but lacks the figures an asset is drawn from, every one named.
    #[error("{}", not_drawable(kind, id, asset, missing))]
    NotDrawable { kind: &'static str, id: String, asset: &'static str, missing: Vec<&'static str> },
    /// An argument the query cannot answer (`field`: what is wrong with it).
    #[error("{field} {reason}")]
    Invalid { field: &'static str, reason: String },
    /// The store behind a query that reads it (a frozen game-stats version) failed.
    #[error("the store failed: {0}")]
    Store(#[from] sqlx::Error),
    /// The read side itself failed (a bug or a lost task): logged where it is turned into an
    /// answer, never shown.
    #[error("the read side failed: {0}")]
    Failed(String),
}

impl QueryError {
    pub fn not_found(kind: &'static str, id: &str) -> Self {
        Self::NotFound { kind, id: id.to_owned(), parameter: None }
    }

    /// An id given in the filter `parameter` that no record of `kind` has.
    pub fn not_found_in(kind: &'static str, id: &str, parameter: &'static str) -> Self {
        Self::NotFound { kind, id: id.to_owned(), parameter: Some(parameter) }
    }
}

/// The words of `QueryError::NotDrawable`.
pub fn not_drawable(kind: &str, id: &str, asset: &str, missing: &[&str]) -> String {
    format!(
        "The {kind} '{id}' has no {asset}: it is drawn from {}, which the catalog does not state.",
        missing.join(", ")
    )
}
