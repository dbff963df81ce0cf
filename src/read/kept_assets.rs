//! Generated assets kept once drawn, for the snapshot's life: an asset is drawn on its first
//! request and every later one is a lookup. Bounded by bytes (`BUDGET`), the oldest dropped
//! first, so a crawl of every firearm's every view cannot grow a node past its memory target;
//! an asset dropped is drawn again when asked for (tens of microseconds for an SVG or a model,
//! a few milliseconds for a raster). Neither persisted nor patched: a new snapshot starts empty.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::Mutex;

use bytes::Bytes;

/// Bytes of assets a snapshot keeps: about 2,000 models or 10,000 SVG drawings.
pub const BUDGET: usize = 24 << 20;

pub struct KeptAssets<K> {
    kept: Mutex<Kept<K>>,
    budget: usize,
}

struct Kept<K> {
    assets: HashMap<K, Bytes>,
    /// Keys in the order they were kept: the front is dropped first.
    order: VecDeque<K>,
    bytes: usize,
}

impl<K> Default for KeptAssets<K> {
    fn default() -> Self {
        Self::with_budget(BUDGET)
    }
}

impl<K> KeptAssets<K> {
    pub fn with_budget(budget: usize) -> Self {
        Self { kept: Mutex::new(Kept { assets: HashMap::new(), order: VecDeque::new(), bytes: 0 }), budget }
    }
}

impl<K: Hash + Eq + Clone> KeptAssets<K> {
    /// The asset kept under `key`, or the one `draw` makes, then kept. Drawn outside the lock.
    pub fn get_or_draw<E>(&self, key: K, draw: impl FnOnce() -> Result<Bytes, E>) -> Result<Bytes, E> {
        if let Some(kept) = self.lock().assets.get(&key) {
            return Ok(kept.clone());
        }
        let drawn = draw()?;
        if drawn.len() <= self.budget / 8 {
            self.keep(key, drawn.clone());
        }
        Ok(drawn)
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    fn keep(&self, key: K, asset: Bytes) {
        let mut kept = self.lock();
        if kept.assets.contains_key(&key) {
            return;
        }
        while kept.bytes + asset.len() > self.budget {
            let Some(oldest) = kept.order.pop_front() else { break };
            if let Some(dropped) = kept.assets.remove(&oldest) {
                kept.bytes -= dropped.len();
            }
        }
        kept.bytes += asset.len();
        kept.order.push_back(key.clone());
        kept.assets.insert(key, asset);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept<K>> {
        // A panic while holding it cannot leave the map half changed: each step is one insert or
        // one removal with its byte count.
        self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_go_first_and_the_bytes_stay_within_the_budget() {
        let kept = KeptAssets::with_budget(100);
        let drawn = |n: usize| move || Ok::<_, ()>(Bytes::from(vec![0u8; n]));
        for key in 0..10 {
            kept.get_or_draw(key, drawn(12)).unwrap();
        }
        assert!(kept.bytes() <= 100, "{}", kept.bytes());
        // The newest is kept: asking again does not draw.
        kept.get_or_draw(9, || Err("drawn again")).unwrap();
        // The oldest was dropped: it is drawn again.
        assert_eq!(kept.get_or_draw(0, || Err("drawn again")), Err("drawn again"));
        // An asset larger than an eighth of the budget is served and not kept.
        kept.get_or_draw(99, drawn(50)).unwrap();
        assert_eq!(kept.get_or_draw(99, || Err("drawn again")), Err("drawn again"));
    }
}
