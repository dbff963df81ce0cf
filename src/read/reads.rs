//! What a snapshot offers beside the queries of `read::query`, read only: whether a firearm
//! exists (a write checks its target before storing it) and the search index (for tests that a
//! patch keeps or replaces it). Nothing here hands out a position of the read model.

use std::sync::Arc;

use crate::read::search::SearchIndex;
use crate::read::snapshot::Snapshot;

impl Snapshot {
    /// Whether a firearm has `id`.
    pub fn has_firearm(&self, id: &str) -> bool {
        self.read.firearm_at.contains_key(id)
    }

    /// The full-text index, shared with the next snapshot when a patch leaves it as it was.
    pub fn search_index(&self) -> &Arc<SearchIndex> {
        &self.read.search
    }
}
