//! A part of the read model that a patched snapshot builds after it is served.
//!
//! The statistics, the rankings and the game analytics are figures over the whole catalog: a
//! change to one firearm can move any of them, and building them again was most of a patch's time
//! on a one-core node (about 0.5 of 1 s at 100,000 firearms). The firearm's own detail, the lists
//! and the search do not need them, so a patched snapshot is served without them and a task builds
//! them at once (`Snapshot::build_deferred`); a request that needs one before that task is done
//! builds it or waits for it, so every answer still comes from the snapshot it was read from.
//! A full build makes them before it serves, and a persisted snapshot holds them.
//! The similar firearms' packing (`read::similarity`), the free-text traits' values
//! (`read::text_index`) and each country's adopters (`read::arsenals`) are held the same way but made only on their operations' first request,
//! never persisted.

use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub struct Deferred<T>(OnceLock<T>);

impl<T> Deferred<T> {
    pub fn ready(value: T) -> Self {
        Self(OnceLock::from(value))
    }

    pub fn pending() -> Self {
        Self(OnceLock::new())
    }

    /// The part, built by `build` the first time it is asked for (callers meanwhile wait).
    pub fn get_or_build(&self, build: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(build)
    }

    pub fn is_ready(&self) -> bool {
        self.0.get().is_some()
    }

    /// The part, if it is built.
    pub fn get(&self) -> Option<&T> {
        self.0.get()
    }
}

/// As an optional value: a snapshot is persisted after its deferred parts are built, so a
/// reused snapshot has them, and one that has not is still read back whole.
impl<T: Serialize> Serialize for Deferred<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.get().serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Deferred<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Option::<T>::deserialize(deserializer)?.map_or_else(Self::pending, Self::ready))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pending_part_is_built_once_and_round_trips() {
        let part = Deferred::pending();
        assert!(!part.is_ready());
        assert_eq!(*part.get_or_build(|| 7), 7);
        assert_eq!(*part.get_or_build(|| unreachable!("built already")), 7);
        let bytes = rmp_serde::to_vec(&part).unwrap();
        let back: Deferred<i32> = rmp_serde::from_slice(&bytes).unwrap();
        assert!(back.is_ready());
        let pending: Deferred<i32> =
            rmp_serde::from_slice(&rmp_serde::to_vec(&Deferred::<i32>::pending()).unwrap()).unwrap();
        assert!(!pending.is_ready());
    }
}
