//! Free text resolved to firearm ids (`read::resolve`): one query, or a batch.

use crate::read::error::QueryError;
use crate::read::resolve::{Resolution, resolve};
use crate::read::snapshot::Snapshot;

/// The firearm `q` most likely names, with its confidence and alternatives.
pub fn one(snapshot: &Snapshot, q: &str) -> Result<Resolution, QueryError> {
    resolve(&snapshot.read.search, &snapshot.catalog.firearms, q)
        .map_err(|e| QueryError::Failed(e.to_string()))
}

/// One resolution per query of `queries` (each trimmed), in the order given.
pub fn batch(snapshot: &Snapshot, queries: &[String]) -> Result<Vec<Resolution>, QueryError> {
    queries.iter().map(|q| one(snapshot, q.trim())).collect()
}
