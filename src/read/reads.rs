//! What a snapshot offers the readers that are not yet behind a query of `read::query`: the
//! read model's parts, read only. The read model's fields stay private to `read`; a reader takes
//! these, and a family moved behind a query needs fewer of them.

use std::sync::Arc;

use serde_json::value::RawValue;

use crate::catalog::game_stats::GameStats;
use crate::read::TierListAsked;
use crate::read::aggregates::Aggregates;
use crate::read::orders::Orders;
use crate::read::rendered::Rendered;
use crate::read::search::SearchIndex;
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

impl Snapshot {
    /// Whether a firearm has `id`.
    pub fn has_firearm(&self, id: &str) -> bool {
        self.read.firearm_at.contains_key(id)
    }

    /// The positions of the firearms of `ids` the catalog has, in the order given.
    pub fn firearm_positions<'a>(&self, ids: impl IntoIterator<Item = &'a String>) -> Vec<usize> {
        ids.into_iter().filter_map(|id| self.read.firearm_at.get(id).copied()).collect()
    }

    /// The firearm at `at`'s list item in `view`, as a raw JSON value.
    pub fn listed_raw(&self, at: usize, view: View) -> Box<RawValue> {
        self.read.forms.listed_raw(at, view)
    }

    /// The firearm at `at`'s list item (the summary view), as a raw JSON value.
    pub fn list_item(&self, at: usize) -> Box<RawValue> {
        self.read.forms.item(at)
    }

    /// The firearm at `at`'s live game stats.
    pub fn live_stats(&self, at: usize) -> GameStats {
        self.read.stats.get(at)
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

    /// A tier list's answer, rendered by `render` on first need and kept (a bounded few).
    pub fn tier_list_answer<E>(
        &self,
        asked: TierListAsked,
        render: impl FnOnce() -> Result<Rendered, E>,
    ) -> Result<Rendered, E> {
        self.read.tier_list_answers.get_or_render(asked, render)
    }
}
