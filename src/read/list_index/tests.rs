//! The fast path answers exactly what the plain filter-sort-slice of every record answers.

use std::collections::HashMap;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::*;
use crate::catalog::synth::synthesize;
use crate::read::facts;
use crate::read::orders::{Order, Sort};

fn positions<'a>(ids: impl Iterator<Item = &'a String>) -> HashMap<String, usize> {
    ids.enumerate().map(|(i, id)| (id.clone(), i)).collect()
}

/// The straightforward answer: walk the whole order, keep the matches, slice the page.
fn plain(
    order: &Order,
    facts: &[Facts],
    filters: &Filters,
    descending: bool,
    offset: usize,
    limit: usize,
) -> ListPage {
    let all: Vec<usize> = order.iter(descending).filter(|&at| filters.matches(&facts[at])).collect();
    let positions = all.iter().copied().skip(offset).take(limit).collect();
    ListPage { positions, total: all.len() }
}

/// A random filter combination drawn from values the catalog holds (and some it does not).
fn random_filters(rng: &mut StdRng, facts: &[Facts]) -> Filters {
    let sample = &facts[rng.random_range(0..facts.len())];
    let mut f = Filters::default();
    if rng.random_bool(0.3) {
        f.manufacturer = Some(sample.manufacturer);
    }
    if rng.random_bool(0.4) {
        f.category = Some(sample.category);
    }
    if rng.random_bool(0.2) {
        f.caliber = sample.calibers.first().copied();
    }
    if rng.random_bool(0.25) {
        f.action = Some(sample.action);
    }
    if rng.random_bool(0.2) {
        f.status = Some(sample.status);
    }
    if rng.random_bool(0.2) {
        f.country = Some(sample.country);
    }
    if rng.random_bool(0.15) {
        f.has_3d_model = Some(sample.has_3d_model);
    }
    if rng.random_bool(0.3) {
        let year = sample.year.unwrap_or(1950);
        f.year_min = Some(year - rng.random_range(0..40));
        if rng.random_bool(0.5) {
            f.year_max = Some(year + rng.random_range(-5..40));
        }
    } else if rng.random_bool(0.1) {
        f.year_max = Some(rng.random_range(1850..2020));
    }
    if rng.random_bool(0.25) {
        let w = if sample.weight.is_nan() { 3000.0 } else { sample.weight };
        f.weight_min = Some(w * rng.random_range(0.5..1.0));
        if rng.random_bool(0.5) {
            f.weight_max = Some(w * rng.random_range(0.9..2.0));
        }
    }
    if rng.random_bool(0.15) {
        f.barrel_length_min = Some(if sample.barrel.is_nan() { 300.0 } else { sample.barrel });
    }
    f
}

/// A synthetic catalog's facts, sort orders and list index.
fn synthetic(firearms: usize, seed: u64) -> (Vec<Facts>, Orders, ListIndex) {
    let catalog = synthesize(firearms, seed);
    let caliber_at = positions(catalog.calibers.iter().map(|c| &c.id));
    let (manufacturer_at, category_at) = (
        positions(catalog.manufacturers.iter().map(|m| &m.id)),
        positions(catalog.categories.iter().map(|c| &c.id)),
    );
    let at = facts::Positions {
        manufacturer_at: &manufacturer_at,
        category_at: &category_at,
        caliber_at: &caliber_at,
    };
    let facts = facts::build(&catalog, &at);
    let orders = Orders::build(&catalog, &caliber_at);
    let index = ListIndex::build(
        &facts,
        &orders,
        catalog.manufacturers.len(),
        catalog.categories.len(),
        catalog.calibers.len(),
    );
    (facts, orders, index)
}

#[test]
fn every_random_combination_equals_the_plain_filter_sort_slice() {
    let (facts, orders, index) = synthetic(3_000, 7);
    let mut rng = StdRng::seed_from_u64(11);
    let mut non_empty = 0;
    for case in 0..400 {
        let filters = if case % 20 == 0 { Filters::default() } else { random_filters(&mut rng, &facts) };
        let sort = [Sort::Name, Sort::Weight, Sort::Year, Sort::Caliber][rng.random_range(0..4)];
        let descending = rng.random_bool(0.5);
        let limit = rng.random_range(1..=100);
        let offset =
            if rng.random_bool(0.7) { rng.random_range(0..3) * limit } else { rng.random_range(0..3_200) };
        let order = orders.get(sort);
        let fast = index.select(&facts, &orders, &filters, (sort, descending), offset..offset + limit);
        let expected = plain(order, &facts, &filters, descending, offset, limit);
        assert_eq!(
            fast, expected,
            "case {case}: {filters:?} {sort:?} desc={descending} offset={offset} limit={limit}"
        );
        non_empty += usize::from(!expected.positions.is_empty());
    }
    // The comparison means something only if many cases return rows.
    assert!(non_empty > 150, "only {non_empty} cases returned rows");
}

/// Each kind of closed filter alone, with the value `sample` holds (without a 3D model for that one).
fn each_closed_filter_of(sample: &Facts) -> Vec<Filters> {
    vec![
        Filters { manufacturer: Some(sample.manufacturer), ..Filters::default() },
        Filters { category: Some(sample.category), ..Filters::default() },
        Filters { caliber: sample.calibers.first().copied(), ..Filters::default() },
        Filters { action: Some(sample.action), ..Filters::default() },
        Filters { status: Some(sample.status), ..Filters::default() },
        Filters { country: Some(sample.country), ..Filters::default() },
        Filters { has_3d_model: Some(false), ..Filters::default() },
    ]
}

/// One closed filter alone is read off that set's own copy of the sort order (`ranked`): every
/// kind of closed filter, every sort, both directions, pages at the start, the middle and past the
/// end equal the plain answer, and so does a value no firearm holds.
#[test]
fn one_closed_filter_pages_its_own_order() {
    let (facts, orders, index) = synthetic(2_000, 3);
    let sample = &facts[17];
    let mut alone = each_closed_filter_of(sample);
    alone.push(Filters { manufacturer: Some(u32::MAX - 1), ..Filters::default() });
    let mut rows = 0;
    for filters in &alone {
        for sort in [Sort::Name, Sort::Weight, Sort::Year, Sort::Caliber] {
            for descending in [false, true] {
                for (offset, limit) in [(0, 20), (37, 50), (400, 100), (5_000, 10)] {
                    let fast =
                        index.select(&facts, &orders, filters, (sort, descending), offset..offset + limit);
                    let expected = plain(orders.get(sort), &facts, filters, descending, offset, limit);
                    assert_eq!(fast, expected, "{filters:?} {sort:?} desc={descending} offset={offset}");
                    rows += expected.positions.len();
                }
            }
        }
    }
    assert!(rows > 3_000, "the pages compared hold rows ({rows})");
}

#[test]
fn a_bound_that_is_not_a_number_matches_nothing() {
    let ascending = [0u32, 1, 2];
    let values = [1.0f32, 2.0, 3.0];
    assert_eq!(range(&ascending, |at| values[at as usize], Some(f32::NAN), None), Some(&[][..]));
    assert_eq!(range(&ascending, |at| values[at as usize], Some(2.0), Some(2.5)), Some(&[1u32][..]));
    assert_eq!(range(&ascending, |at| values[at as usize], Some(3.0), Some(1.0)), Some(&[][..]));
}

#[test]
fn value_counts_are_what_filtering_by_each_value_totals() {
    let (facts, orders, index) = synthetic(2_000, 17);
    let total = |filters: Filters| plain(&orders.name, &facts, &filters, false, 0, 0).total;
    let counts = index.value_counts();
    let manufacturers = facts.iter().map(|f| f.manufacturer).max().unwrap() as usize + 1;
    let expected: Vec<(usize, usize)> = (0..manufacturers)
        .map(|m| (m, total(Filters { manufacturer: Some(m as u32), ..Filters::default() })))
        .filter(|&(_, n)| n > 0)
        .collect();
    assert_eq!(counts.manufacturer, expected);
    for &(c, n) in &counts.caliber {
        assert_eq!(n, total(Filters { caliber: Some(c as u32), ..Filters::default() }), "caliber {c}");
    }
    let known_calibers: usize = counts.caliber.len();
    let linked: std::collections::BTreeSet<u32> =
        facts.iter().flat_map(|f| f.calibers.iter().copied()).collect();
    assert_eq!(known_calibers, linked.len(), "every linked caliber is counted once");
    for &(c, n) in &counts.category {
        assert_eq!(n, total(Filters { category: Some(c as u16), ..Filters::default() }));
    }
    for &(a, n) in &counts.action {
        assert_eq!(n, total(Filters { action: Some(a as u16), ..Filters::default() }));
    }
    for &(s, n) in &counts.status {
        assert_eq!(n, total(Filters { status: Some(s as u16), ..Filters::default() }));
    }
    for &(code, n) in &counts.country {
        assert_eq!(n, total(Filters { country: Some(code), ..Filters::default() }));
    }
    let by_country: usize = counts.country.iter().map(|(_, n)| n).sum();
    assert_eq!(by_country, facts.iter().filter(|f| f.country != [0, 0]).count());
    for wanted in [false, true] {
        let n = total(Filters { has_3d_model: Some(wanted), ..Filters::default() });
        assert_eq!(counts.has_3d_model[usize::from(wanted)], n);
    }
    assert!(counts.action.len() > 1 && counts.country.len() > 1, "the synthetic catalog varies");
}

/// One closed filter with a range on the sort's own value (a category from 1950, by year) is one
/// run of the set's copy in that order: every kind of closed filter, year and weight ranges open
/// at either end or empty, both directions, equal the plain answer.
#[test]
fn one_closed_filter_with_a_range_on_the_sort_value_is_one_run() {
    let (facts, orders, index) = synthetic(2_000, 9);
    let sample = &facts[23];
    let closed = each_closed_filter_of(sample);
    let years = [(Some(1950), None), (None, Some(1980)), (Some(1940), Some(1990)), (Some(1990), Some(1940))];
    let weights =
        [(Some(3000.0), None), (None, Some(4000.0)), (Some(2500.0), Some(9000.0)), (Some(f32::NAN), None)];
    let mut non_empty = 0;
    for base in &closed {
        for descending in [false, true] {
            for (i, window) in [0..20, 40..90, 5_000..5_020].into_iter().enumerate() {
                let (year_min, year_max) = years[i % years.len()];
                let by_year = Filters { year_min, year_max, ..base.clone() };
                let (weight_min, weight_max) = weights[(i + usize::from(descending)) % weights.len()];
                let by_weight = Filters { weight_min, weight_max, ..base.clone() };
                for (filters, sort) in [(by_year, Sort::Year), (by_weight, Sort::Weight)] {
                    let fast = index.select(&facts, &orders, &filters, (sort, descending), window.clone());
                    let (offset, limit) = (window.start, window.len());
                    let expected = plain(orders.get(sort), &facts, &filters, descending, offset, limit);
                    assert_eq!(fast, expected, "{filters:?} {sort:?} desc={descending} {window:?}");
                    non_empty += usize::from(!expected.positions.is_empty());
                }
            }
        }
    }
    assert!(non_empty > 20, "only {non_empty} cases returned rows");
}
