//! A patch the read model takes in place: when an import changed a few firearms (and any loads or
//! makers) but every firearm, maker, category and caliber kept its position and the calibers are
//! as they were, the new read model is the previous one with those firearms taken out and put
//! back, part by part (`Orders::updated`, `facts::updated`, `ListIndex::updated`,
//! `Aggregates::updated`), instead of a build over the typed catalog.
//!
//! A build reads every firearm several times over, so a patch that built its read model first
//! decoded the whole packed catalog (`catalog::held`: 150,000 records at 100,000 firearms, a
//! quarter of a second, and as much again clearing the pages the copy filled). In place, a patch
//! decodes the changed firearms and the few dozen others its binary searches compare them with.
//! The figures over the whole catalog (statistics, rankings, game analytics) are deferred as for
//! any patch (`deferred`). What it answers equals a build of the same catalog (tested here part
//! by part and in `tests/api/catalog/patched_snapshot.rs` end to end).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::{
    Context, Derived, PerRecord, Previous, ReadModel, References, Stored, Timings, deferred, facts, positions,
};
use crate::catalog::model::{Catalog, Firearm};

/// Most firearms a patch changes in place: each costs a few dozen decodes per sort order and a
/// shift of every set it is in, so a large change is cheaper built from the typed catalog.
const MOST_IN_PLACE: usize = 2_000;

/// A firearm a patch changed in place.
pub struct ChangedFirearm {
    /// Its position, the same before and after.
    pub at: usize,
    pub before: Arc<Firearm>,
    pub after: Arc<Firearm>,
}

/// What a patch the read model takes in place changed.
pub struct InPlace {
    /// By position.
    pub firearms: Vec<ChangedFirearm>,
    /// Whether a load was created, changed or deleted (the loads' figures are made again).
    pub loads_changed: bool,
}

impl InPlace {
    /// The change from `old` to `new` (`changed(table)`: the ids created, changed or deleted
    /// per table), when the read model can take it in place (the module's doc).
    pub fn of<'a>(
        old: &Catalog,
        new: &Catalog,
        changed: impl Fn(&str) -> &'a BTreeSet<String>,
    ) -> Option<Self> {
        let firearm_ids = changed("firearms");
        // Makers and categories in the same places: the facts point at them by position.
        let same_makers = old.manufacturers.iter().map(|m| &m.id).eq(new.manufacturers.iter().map(|m| &m.id));
        let same_categories = old.categories.iter().map(|c| &c.id).eq(new.categories.iter().map(|c| &c.id));
        if firearm_ids.len() > MOST_IN_PLACE
            || !changed("calibers").is_empty()
            || !same_makers
            || !same_categories
            || !old.same_firearm_positions(new, firearm_ids)
        {
            return None;
        }
        let mut firearms = Vec::with_capacity(firearm_ids.len());
        for id in firearm_ids {
            let at = new.firearms.position(id).ok()?;
            firearms.push(ChangedFirearm { at, before: old.firearms.get(at), after: new.firearms.get(at) });
        }
        firearms.sort_by_key(|firearm| firearm.at);
        Some(Self { firearms, loads_changed: !changed("ammunition").is_empty() })
    }

    fn positions(&self) -> Vec<usize> {
        self.firearms.iter().map(|firearm| firearm.at).collect()
    }

    /// The previous read model's per-record parts with the changed firearms rendered again.
    fn records(&self, read: &ReadModel, catalog: &Catalog, stored: &Stored) -> PerRecord {
        let dictionary = read.forms.dictionary_used().clone();
        let context = Context { stored, dictionary: &dictionary, previous: None };
        let mut rendered_forms = Vec::with_capacity(self.firearms.len());
        let (mut stats, mut user_ids, mut variants) =
            (read.stats.clone(), read.user_ids.clone(), read.variants.clone());
        for ChangedFirearm { at, before, after } in &self.firearms {
            let (forms, firearm_stats);
            (forms, firearm_stats, user_ids[*at]) = context.rendered(after);
            stats.set(*at, firearm_stats);
            rendered_forms.push((*at, forms));
            if let Some(parent) = &before.parent_firearm_id
                && let Some(siblings) = variants.get_mut(parent)
            {
                siblings.retain(|sibling| sibling != at);
                if siblings.is_empty() {
                    variants.remove(parent);
                }
            }
            if let Some(parent) = &after.parent_firearm_id {
                let siblings = variants.entry(parent.clone()).or_default();
                siblings.insert(siblings.partition_point(|sibling| sibling < at), *at);
            }
        }
        let ammunition_at = if self.loads_changed {
            positions(catalog.ammunition.typed().iter().map(|load| &load.id))
        } else {
            read.ammunition_at.clone()
        };
        let forms = read.forms.patched(rendered_forms);
        PerRecord { firearm_at: read.firearm_at.clone(), ammunition_at, forms, stats, user_ids, variants }
    }
}

impl Derived {
    /// `read`'s derived parts after `change`, the whole-catalog figures deferred.
    fn updated(read: &ReadModel, catalog: &Catalog, at: &facts::Positions, change: &InPlace) -> Self {
        let changed = change.positions();
        let mut timings = Timings::default();
        let orders = timings.time("orders", || read.orders.updated(catalog, at.caliber_at, &changed));
        let facts = timings.time("facts", || facts::updated(&read.facts, &change.firearms, at));
        let list = timings.time("list", || read.list.updated(&read.facts, &facts, &orders, &changed));
        let positions = (at.caliber_at, at.category_at);
        let aggregates = timings.time("aggregates", || {
            read.aggregates.updated(catalog, positions, &change.firearms, change.loads_changed)
        });
        tracing::debug!(parts = %timings, "derived figures updated in place");
        let (statistics, rankings) = (deferred::Deferred::pending(), deferred::Deferred::pending());
        Self { orders, facts, list, aggregates, statistics, rankings }
    }
}

impl ReadModel {
    /// The read model of `catalog` (packed or typed), `previous`'s taken in place (the module's
    /// doc); `stored` needs the stats and users of the changed firearms only.
    pub fn updated_in_place(
        previous: Previous,
        catalog: &Catalog,
        change: &InPlace,
        stored: Stored,
    ) -> tantivy::Result<Self> {
        let started = std::time::Instant::now();
        let read = previous.read;
        let references = References::build(catalog, &stored);
        let (search, derived) = std::thread::scope(|scope| {
            let search = scope.spawn(|| super::search_index(catalog, Some(previous)));
            let derived = Derived::updated(read, catalog, &references.positions(), change);
            (search.join().expect("indexing never panics"), derived)
        });
        let search = search?;
        let mut timings = Timings::default();
        let references = timings.time("references", || references);
        let records = timings.time("records", || change.records(read, catalog, &stored));
        tracing::debug!(parts = %timings, elapsed_ms = started.elapsed().as_millis() as u64, "read model updated in place");
        let game = deferred::Deferred::pending();
        Ok(Self::assembled(references, records, derived, (search, game), stored.last_change))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::catalog::synth::synthesize;
    use crate::read::aggregates::Aggregates;
    use crate::read::list_index::ListIndex;
    use crate::read::orders::Orders;

    /// The makers', categories' and calibers' positions by id, in that order.
    struct At([HashMap<String, usize>; 3]);

    impl At {
        fn of(catalog: &Catalog) -> Self {
            Self([
                positions(catalog.manufacturers.iter().map(|m| &m.id)),
                positions(catalog.categories.iter().map(|c| &c.id)),
                positions(catalog.calibers.iter().map(|c| &c.id)),
            ])
        }

        fn facts(&self) -> facts::Positions<'_> {
            facts::Positions { manufacturer_at: &self.0[0], category_at: &self.0[1], caliber_at: &self.0[2] }
        }
    }

    /// The parts of a read model `Derived::updated` makes, built from `catalog` as a build does.
    fn built(catalog: &Catalog) -> (Orders, Vec<facts::Facts>, ListIndex, Aggregates) {
        let references = At::of(catalog);
        let (at, caliber_at, category_at) = (references.facts(), &references.0[2], &references.0[1]);
        let orders = Orders::build(catalog, caliber_at);
        let facts = facts::build(catalog, &at);
        let (makers, categories, calibers) =
            (catalog.manufacturers.len(), catalog.categories.len(), catalog.calibers.len());
        let list = ListIndex::build(&facts, &orders, makers, categories, calibers);
        (orders, facts, list, Aggregates::build(catalog, caliber_at, category_at))
    }

    /// `catalog` with `count` firearms changed in what the derived parts read (each field taken
    /// from another firearm, or cleared) and, with `loads`, a few loads changed too; and the ids
    /// changed per table.
    fn changed(
        catalog: &Catalog,
        count: usize,
        loads: bool,
        seed: u64,
    ) -> (Catalog, HashMap<String, BTreeSet<String>>) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut after = catalog.clone();
        let mut ids: HashMap<String, BTreeSet<String>> = HashMap::new();
        let firearms = catalog.firearms.as_typed();
        let n = firearms.len();
        let records = after.firearms.typed_mut();
        for _ in 0..count {
            let at = rng.random_range(0..n);
            let other = |rng: &mut StdRng| &firearms[rng.random_range(0..n)];
            let firearm = Arc::make_mut(&mut records[at]);
            firearm.name =
                if rng.random_bool(0.3) { other(&mut rng).name.clone() } else { format!("Changed {at}") };
            firearm.weight_empty_g = other(&mut rng).weight_empty_g;
            firearm.year_introduced = other(&mut rng).year_introduced;
            firearm.barrel_length_mm = other(&mut rng).barrel_length_mm;
            firearm.calibers = other(&mut rng).calibers.clone();
            firearm.category_id = other(&mut rng).category_id.clone();
            firearm.manufacturer_id = other(&mut rng).manufacturer_id.clone();
            firearm.status = other(&mut rng).status;
            firearm.action_type = other(&mut rng).action_type;
            firearm.country_of_origin = other(&mut rng).country_of_origin;
            firearm.users = other(&mut rng).users.clone();
            firearm.images = other(&mut rng).images.clone();
            firearm.parent_firearm_id = other(&mut rng).parent_firearm_id.clone();
            ids.entry("firearms".into()).or_default().insert(firearm.id.clone());
        }
        if loads {
            let loads = after.ammunition.typed_mut();
            for at in [0, loads.len() / 2, loads.len() - 1] {
                let load = Arc::make_mut(&mut loads[at]);
                load.name = format!("Changed load {at}");
                load.is_common = Some(!load.is_common.unwrap_or(false));
                ids.entry("ammunition".into()).or_default().insert(load.id.clone());
            }
        }
        (after, ids)
    }

    #[test]
    fn a_change_taken_in_place_equals_a_build_of_the_changed_catalog() {
        let before = synthesize(2_000, 7);
        let (orders, facts, list, aggregates) = built(&before);
        let read_parts = |catalog: &Catalog, change: &InPlace| {
            let references = At::of(catalog);
            let (at, caliber_at, category_at) = (references.facts(), &references.0[2], &references.0[1]);
            let changed = change.positions();
            let new_orders = orders.updated(catalog, caliber_at, &changed);
            let new_facts = facts::updated(&facts, &change.firearms, &at);
            let new_list = list.updated(&facts, &new_facts, &new_orders, &changed);
            let new_aggregates = aggregates.updated(
                catalog,
                (caliber_at, category_at),
                &change.firearms,
                change.loads_changed,
            );
            (new_orders, new_facts, new_list, new_aggregates)
        };
        for (round, (count, loads)) in
            [(1, false), (5, true), (40, false), (300, true)].into_iter().enumerate()
        {
            let (mut after, ids) = changed(&before, count, loads, round as u64);
            let empty = BTreeSet::new();
            let change_of = |old: &Catalog, new: &Catalog| {
                InPlace::of(old, new, |table| ids.get(table).unwrap_or(&empty)).expect("taken in place")
            };
            let expected = built(&after);
            // The patch's catalog is packed, as a served snapshot's is.
            let mut packed_before = before.clone();
            packed_before.pack();
            after.pack();
            let change = change_of(&packed_before, &after);
            assert_eq!(change.loads_changed, loads);
            let (new_orders, new_facts, new_list, new_aggregates) = read_parts(&after, &change);
            assert_eq!(new_orders, expected.0, "orders, round {round}");
            assert_eq!(format!("{new_facts:?}"), format!("{:?}", expected.1), "facts, round {round}");
            assert_eq!(new_list, expected.2, "list index, round {round}");
            assert_eq!(new_aggregates, expected.3, "aggregates, round {round}");
            // Not an unchanged catalog compared with itself.
            assert_ne!(new_orders, orders, "round {round}");
            if count >= 40 {
                assert_ne!(new_list, list, "round {round}");
                assert_ne!(new_aggregates.countries, aggregates.countries, "round {round}");
                assert_ne!(new_aggregates.firearms_per_category, aggregates.firearms_per_category);
            }
        }
    }

    #[test]
    fn a_change_that_moves_firearms_or_changes_a_caliber_is_built() {
        let before = synthesize(300, 3);
        let ids = |pairs: &[(&str, &str)]| -> BTreeMap<String, BTreeSet<String>> {
            let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for (table, id) in pairs {
                ids.entry((*table).into()).or_default().insert((*id).into());
            }
            ids
        };
        let empty = BTreeSet::new();
        let mut added = before.clone();
        let mut fresh = (*before.firearms.as_typed()[0]).clone();
        fresh.id = "zzz-new".into();
        added.firearms.typed_mut().push(Arc::new(fresh));
        let added_ids = ids(&[("firearms", "zzz-new")]);
        assert!(InPlace::of(&before, &added, |t| added_ids.get(t).unwrap_or(&empty)).is_none());

        let caliber = before.calibers[0].id.clone();
        let caliber_ids = ids(&[("calibers", &caliber)]);
        assert!(InPlace::of(&before, &before, |t| caliber_ids.get(t).unwrap_or(&empty)).is_none());

        let firearm = before.firearms.as_typed()[10].id.clone();
        let firearm_ids = ids(&[("firearms", &firearm)]);
        let change =
            InPlace::of(&before, &before, |t| firearm_ids.get(t).unwrap_or(&empty)).expect("in place");
        assert_eq!(change.positions(), vec![10]);
        assert!(!change.loads_changed);
    }
}
