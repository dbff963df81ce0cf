//! What a snapshot offers the readers that are not yet behind a query of `read::query`: the
//! read model's parts, read only. The read model's fields stay private to `read`; a reader takes
//! these, and a family moved behind a query needs fewer of them.

use std::sync::Arc;

use serde_json::value::RawValue;

use crate::read::aggregates::Aggregates;
use crate::read::orders::Orders;
use crate::read::search::SearchIndex;
use crate::read::snapshot::Snapshot;

impl Snapshot {
    /// Whether a firearm has `id`.
    pub fn has_firearm(&self, id: &str) -> bool {
        self.read.firearm_at.contains_key(id)
    }

    /// The positions of the firearms of `ids` the catalog has, in the order given.
    pub fn firearm_positions<'a>(&self, ids: impl IntoIterator<Item = &'a String>) -> Vec<usize> {
        ids.into_iter().filter_map(|id| self.read.firearm_at.get(id).copied()).collect()
    }

    /// The firearm at `at`'s list item (the summary view), as a raw JSON value.
    pub fn list_item(&self, at: usize) -> Box<RawValue> {
        self.read.forms.item(at)
    }

    pub fn aggregates(&self) -> &Aggregates {
        &self.read.aggregates
    }

    pub fn orders(&self) -> &Orders {
        &self.read.orders
    }

    /// The full-text index, shared with the next snapshot when a patch leaves it as it was.
    pub fn search_index(&self) -> &Arc<SearchIndex> {
        &self.read.search
    }
}
