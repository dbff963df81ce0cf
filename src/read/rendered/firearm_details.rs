//! Firearm details, rendered when asked and kept in a bounded cache.
//!
//! Holding both rendered details of every firearm cost about 320 MiB at 100,000 firearms (the
//! full one nests the manufacturer, category and calibers, so it is the largest form). A detail is
//! instead assembled from the parts the snapshot keeps anyway (the flat full record or the list
//! item, the provenance, the nested records' JSON) on first request and kept in a direct-mapped
//! cache of `SLOTS` entries: a hot detail stays a lookup and a copy of bytes, memory stays bounded
//! whatever the catalog's size, and a snapshot swap drops the cache with the snapshot.

use std::sync::Mutex;

use super::Rendered;
use super::firearm_json::{self, Nested};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

/// Cached details; a power of two (the slot is the position's low bits and the view).
const SLOTS: usize = 8192;

/// One slot: the firearm position and view it holds, and the body.
type Slot = Option<(u32, View, Rendered)>;

pub struct DetailCache {
    slots: Box<[Mutex<Slot>]>,
}

impl Default for DetailCache {
    fn default() -> Self {
        Self { slots: (0..SLOTS).map(|_| Mutex::new(None)).collect() }
    }
}

impl DetailCache {
    fn slot(&self, at: usize, view: View) -> &Mutex<Slot> {
        let index = (at * 2 + usize::from(view == View::Full)) % SLOTS;
        &self.slots[index]
    }
}

impl Snapshot {
    /// The detail of the ammunition load at `at`, rendered on every request: 50,000 loads held
    /// rendered took 62 MiB, and one load renders in microseconds (its cartridge and maker are
    /// looked up by id, not searched for).
    pub fn ammunition_detail(&self, at: usize) -> Rendered {
        let load = &self.catalog.ammunition.get(at);
        let caliber = self.read.caliber_at.get(&load.caliber_id).map(|&c| &self.catalog.calibers[c]);
        let maker = load
            .manufacturer_id
            .as_ref()
            .and_then(|id| self.read.manufacturer_at.get(id))
            .map(|&m| &self.catalog.manufacturers[m]);
        let detail =
            super::record_json::ammunition_detail(load, &self.meta("ammunition", &load.id), caliber, maker);
        Rendered::envelope(&detail.to_string())
    }

    /// The detail body (`{success, data}`) of the firearm at `at` in `view`, with its ETag.
    pub fn firearm_detail(&self, at: usize, view: View) -> Rendered {
        let slot = self.read.details.slot(at, view);
        if let Some((held, held_view, body)) = &*slot.lock().expect("never poisoned")
            && *held as usize == at
            && *held_view == view
        {
            return body.clone();
        }
        let body = self.render_detail(at, view);
        *slot.lock().expect("never poisoned") = Some((at as u32, view, body.clone()));
        body
    }

    fn render_detail(&self, at: usize, view: View) -> Rendered {
        let read = &self.read;
        let forms = &read.forms;
        let detail = match view {
            View::Summary => firearm_json::summary_detail(forms.item(at).get(), &forms.provenance(at)),
            View::Full => {
                let firearm = &self.catalog.firearms.get(at);
                let nested = Nested {
                    manufacturer: read
                        .manufacturer_at
                        .get(&firearm.manufacturer_id)
                        .map_or("null", |&i| &read.nested_manufacturers[i]),
                    category: read
                        .category_at
                        .get(&firearm.category_id)
                        .map_or("null", |&i| &read.nested_categories[i]),
                    calibers: firearm
                        .calibers
                        .iter()
                        .filter_map(|link| {
                            let &i = read.caliber_at.get(&link.caliber_id)?;
                            Some((&self.catalog.calibers[i], link.is_primary))
                        })
                        .collect(),
                    user_ids: &read.user_ids[at],
                };
                // Decompressed before the full record's slot is locked, not under its lock.
                let provenance = forms.provenance(at);
                forms.with_full(at, |full| firearm_json::detail(firearm, full, &nested, &provenance))
            }
        };
        Rendered::envelope(&detail)
    }
}
