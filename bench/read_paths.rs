//! The read model's list and search paths in process, without HTTP: what one call costs at a
//! synthetic catalog of 100,000 firearms (`ARMORY_BENCH_FIREARMS` changes the size), each fast
//! path beside the plain way it replaced, measured in the same run.
//!
//! Run: `cargo bench --bench read_paths` (see bench/README.md). Prints, per path, the median and
//! p99 of single calls (after a warm-up), and for the list the fast path's speed-up over a walk of
//! the whole sort order.

use std::collections::HashMap;
use std::time::Instant;

use armory::catalog::synth::synthesize;
use armory::read::facts::{self, Facts};
use armory::read::list_index::{Filters, ListIndex};
use armory::read::orders::{Orders, Sort};
use armory::read::search::SearchIndex;

const CALLS: usize = 2_000;

fn main() {
    let firearms: usize =
        std::env::var("ARMORY_BENCH_FIREARMS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let catalog = synthesize(firearms, 1);
    let at = |ids: Vec<&String>| -> HashMap<String, usize> {
        ids.into_iter().enumerate().map(|(i, id)| (id.clone(), i)).collect()
    };
    let caliber_at = at(catalog.calibers.iter().map(|c| &c.id).collect());
    let category_at = at(catalog.categories.iter().map(|c| &c.id).collect());
    let manufacturer_at = at(catalog.manufacturers.iter().map(|m| &m.id).collect());
    let positions = facts::Positions {
        manufacturer_at: &manufacturer_at,
        category_at: &category_at,
        caliber_at: &caliber_at,
    };
    let facts = facts::build(&catalog, &positions);
    let orders = Orders::build(&catalog, &caliber_at);
    let list = ListIndex::build(
        &facts,
        &orders,
        catalog.manufacturers.len(),
        catalog.categories.len(),
        catalog.calibers.len(),
    );
    let started = Instant::now();
    let search = SearchIndex::build(&catalog).expect("index builds");
    println!("{firearms} synthetic firearms; search index built in {:.1} s", started.elapsed().as_secs_f64());

    let rifles = Filters { category: category_at.get("rifles").map(|&i| i as u16), ..Filters::default() };
    let plain_list = |filters: &Filters, facts: &[Facts]| {
        let all: Vec<usize> =
            orders.get(Sort::Weight).iter(false).filter(|&p| filters.matches(&facts[p])).collect();
        (all.iter().take(20).copied().collect::<Vec<_>>(), all.len())
    };
    let fast = time(|| list.select(&facts, &orders, &rifles, (Sort::Weight, false), 0..20).total);
    let plain = time(|| plain_list(&rifles, &facts).1);
    report("list: rifles by weight, page 1 (fast)", fast);
    report("list: rifles by weight, page 1 (plain walk)", plain);
    println!("  list speed-up (plain median / fast median): {:.0}x", plain.0 / fast.0);
    let deep = time(|| list.select(&facts, &orders, &rifles, (Sort::Weight, true), 2_000..2_020).total);
    report("list: rifles by weight desc, offset 2,000", deep);
    let none = time(|| list.select(&facts, &orders, &Filters::default(), (Sort::Year, false), 0..20).total);
    report("list: no filter, by year", none);

    let name = catalog.firearms.get(0).name.clone();
    let word = name.split(' ').next_back().unwrap_or_default().to_owned();
    report(&format!("search: full name ({name})"), time(|| search.search(&name, 0, 20).unwrap().total));
    report(&format!("search: one word ({word})"), time(|| search.search(&word, 0, 20).unwrap().total));
    // What catalog_reads searches: the first rifle by name.
    let rifle = catalog
        .firearms
        .iter()
        .filter(|f| f.category_id == "rifles")
        .min_by(|a, b| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
        .map(|f| f.name.clone())
        .unwrap_or_default();
    report(&format!("search: full name ({rifle})"), time(|| search.search(&rifle, 0, 20).unwrap().total));
    // And what it searches since the ninth session: the first 100 rifles' full names in turn.
    let rifles: Vec<String> = catalog
        .firearms
        .iter()
        .filter(|f| f.category_id == "rifles")
        .take(100)
        .map(|f| f.name.clone())
        .collect();
    let mut turn = 0;
    let in_turn = time(|| {
        turn = (turn + 1) % rifles.len();
        search.search(&rifles[turn], 0, 20).unwrap().total
    });
    report("search: the first 100 rifles' full names in turn", in_turn);
    report("search: typo (synthetik)", time(|| search.search("synthetik", 0, 20).unwrap().total));
}

/// Median and p99 of single calls, in microseconds.
fn time(mut call: impl FnMut() -> usize) -> (f64, f64) {
    for _ in 0..CALLS / 10 {
        std::hint::black_box(call());
    }
    let mut micros: Vec<f64> = (0..CALLS)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(call());
            started.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    micros.sort_by(f64::total_cmp);
    (micros[CALLS / 2], micros[CALLS * 99 / 100])
}

fn report(what: &str, (median, p99): (f64, f64)) {
    println!("{what:<58} median {median:>9.1} µs   p99 {p99:>9.1} µs");
}
