//! A read model built from a packed catalog, as `snapshot::build` builds one (the records
//! decoded as each phase reaches them), equals one built from the same catalog typed.

use super::*;
use crate::catalog::game_stats;
use crate::catalog::synth::synthesize;

/// `value` as JSON with every object's keys in order: the read model holds hash maps, whose
/// order differs from one build to the next.
fn canonical<T: serde::Serialize>(value: &T) -> serde_json::Value {
    fn sorted(value: serde_json::Value) -> serde_json::Value {
        match value {
            serde_json::Value::Object(map) => {
                let mut entries: Vec<_> = map.into_iter().map(|(k, v)| (k, sorted(v))).collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                serde_json::Value::Object(entries.into_iter().collect())
            }
            serde_json::Value::Array(items) => {
                serde_json::Value::Array(items.into_iter().map(sorted).collect())
            }
            other => other,
        }
    }
    match serde_json::to_value(value) {
        Ok(json) => sorted(json),
        // A map keyed by numbers (JSON has none): its MessagePack, which keeps the map's own order
        // (such maps here are ordered ones).
        Err(_) => serde_json::json!(rmp_serde::to_vec(value).expect("a read model's part serialises")),
    }
}

fn meta(_table: &str, id: &str) -> RecordMeta {
    RecordMeta {
        version: format!("{:016x}", id.len() * 7919),
        created_at: "2026-01-02T03:04:05Z".into(),
        updated_at: format!("2026-02-{:02}T00:00:00Z", 1 + id.len() % 28),
    }
}

fn stored(catalog: &Catalog) -> Stored<'static> {
    let user_ids = catalog
        .firearms
        .iter()
        .enumerate()
        .filter(|(at, _)| at % 3 == 0)
        .map(|(at, firearm)| (firearm.id.clone(), vec![at as i64, at as i64 + 1]))
        .collect();
    Stored {
        meta: &meta,
        stats: game_stats::derive(catalog),
        user_ids,
        last_change: Some("2026-02-03T00:00:00Z".into()),
    }
}

#[test]
fn a_read_model_built_from_packed_records_equals_one_built_from_typed_records() {
    let typed = synthesize(1_500, 11);
    let mut packed = typed.clone();
    packed.pack();
    assert!(packed.firearms.is_packed() && !typed.firearms.is_packed());
    let from_typed = ReadModel::build(&typed, stored(&typed)).expect("built");
    let from_packed = ReadModel::build(&packed, stored(&typed)).expect("built");

    let parts = |read: &ReadModel| {
        vec![
            ("firearm_at", canonical(&*read.firearm_at)),
            ("ammunition_at", canonical(&read.ammunition_at)),
            ("forms", canonical(&read.forms)),
            ("stats", canonical(&read.stats)),
            ("user_ids", canonical(&read.user_ids)),
            ("facts", canonical(&read.facts)),
            ("variants", canonical(&read.variants)),
            ("aggregates", canonical(&read.aggregates)),
            ("orders", canonical(&read.orders)),
            ("statistics", canonical(read.statistics.get().expect("a build makes its statistics"))),
            ("rankings", canonical(read.rankings.get().expect("a build makes its rankings"))),
            ("game", canonical(&**read.game.get().expect("a build makes its game analytics"))),
        ]
    };
    for ((part, expected), (_, actual)) in parts(&from_typed).into_iter().zip(parts(&from_packed)) {
        assert!(expected == actual, "{part} differs between a typed and a packed build");
    }
    assert!(from_typed.list == from_packed.list, "list index differs between a typed and a packed build");
    // Not two empty models: the synthetic catalog's variants, users and stats are there.
    assert!(!from_packed.variants.is_empty() && from_packed.user_ids.iter().any(|ids| !ids.is_empty()));

    let first = typed.firearms.get(0);
    for query in [first.name.as_str(), "synthetic", "rifle"] {
        let (expected, actual) =
            (from_typed.search.search(query, 0, 50), from_packed.search.search(query, 0, 50));
        let (expected, actual) = (expected.expect("searched"), actual.expect("searched"));
        assert!(expected.total > 0, "{query} finds firearms");
        assert_eq!(
            (expected.positions, expected.scores, expected.total),
            (actual.positions, actual.scores, actual.total),
            "search for {query}"
        );
    }
}
