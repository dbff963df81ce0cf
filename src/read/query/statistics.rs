//! Statistics of the whole catalog, figured once per snapshot (`read::statistics`).

use serde_json::Value;

use crate::read::error::QueryError;
use crate::read::rendered::{Rendered, one};
use crate::read::snapshot::Snapshot;

/// Record counts per resource, the catalog revision and the last change to a record.
pub fn summary(snapshot: &Snapshot) -> Result<Rendered, QueryError> {
    let mut data = snapshot.statistics().summary.clone();
    data["catalogRevision"] = Value::from(snapshot.revision);
    one(data).map_err(|e| QueryError::Failed(e.to_string()))
}
