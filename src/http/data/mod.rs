//! /v1/data (operations 93 to 97): data quality in the open, read from the snapshot's
//! `read::quality` through `read::query::quality`. `gaps` answers 94 and 95, `confidence` 96,
//! `coverage` 97 and `tasks` 93.

pub mod confidence;
pub mod coverage;
pub mod gaps;
pub mod tasks;

use std::sync::{Arc, OnceLock};

use crate::error::ApiError;
use crate::http::extract::query::{QueryParam, kind};
use crate::read::quality::RESOURCES;
use crate::read::query::quality::all_fields;
use crate::read::snapshot::Snapshot;

/// The resource asked about.
pub const RESOURCE: QueryParam<kind::OneOf> =
    QueryParam::new("resource", kind::OneOf(RESOURCES), "a resource");

/// Every field name of some resource (`read::query::quality::all_fields`).
fn field_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(all_fields)
}

/// The field asked about: one of the resource's fields (a field of another resource is 400
/// naming the resource's own).
pub const FIELD: QueryParam<kind::OneOfListed> =
    QueryParam::new("field", kind::OneOfListed(field_names), "a field of the resource, by its served name");

/// `snapshot` with its data quality built: the first request after a snapshot builds it, off the
/// runtime's workers (it reads every record).
pub async fn with_quality(snapshot: Arc<Snapshot>) -> Result<Arc<Snapshot>, ApiError> {
    if snapshot.quality_built() {
        return Ok(snapshot);
    }
    tokio::task::spawn_blocking(move || {
        snapshot.quality();
        snapshot
    })
    .await
    .map_err(ApiError::internal)
}
