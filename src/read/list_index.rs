//! The firearm list's fast path: a filtered, sorted page costs the smallest candidate set and the
//! page, not a walk over the whole catalog.
//!
//! Built with the snapshot: for every closed filter (manufacturer, category, caliber, action,
//! status, country, has-3D-model) the positions holding each value, and for every range filter
//! (year, weight, barrel length) the positions ordered by that value, so a range is two binary
//! searches. A query takes the smallest of the sets its filters name, tests the rest of its
//! filters on the packed facts of those candidates only, and selects the page by each position's
//! rank in the sort order (a partial selection, then a sort of the page's prefix). With no filter
//! the page is read straight off the sort order.
//!
//! With exactly one closed filter the page is read off that set's own copy of the sort order
//! (`ranked`): matches cluster in a sort (the rifles come after every lighter firearm by weight),
//! so walking the whole order to find them cost the catalog, not the page.
//!
//! `select` answers exactly what the plain filter-sort-slice of every record answers (tests
//! compare the two on random combinations).

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::ops::Range;

mod ranked;
mod update;

use ranked::{RankedSets, SetKey};

use super::facts::{Facts, NONE};
use super::orders::{Order, Orders, Sort};
use crate::catalog::vocabulary::{ACTION_TYPES, FIREARM_STATUSES};

/// The list's filters, resolved to the read model's small indexes (see `read::facts`).
#[derive(Debug, Default, Clone)]
pub struct Filters {
    pub manufacturer: Option<u32>,
    pub caliber: Option<u32>,
    pub category: Option<u16>,
    pub action: Option<u16>,
    pub country: Option<[u8; 2]>,
    pub year_min: Option<i32>,
    pub year_max: Option<i32>,
    pub weight_min: Option<f32>,
    pub weight_max: Option<f32>,
    pub barrel_length_min: Option<f32>,
    pub status: Option<u16>,
    pub has_3d_model: Option<bool>,
}

impl Filters {
    /// Whether a firearm passes every filter; an unknown figure never passes a bound on it
    /// (NaN compares false).
    pub fn matches(&self, f: &Facts) -> bool {
        self.manufacturer.is_none_or(|m| f.manufacturer == m)
            && self.category.is_none_or(|c| f.category == c)
            && self.status.is_none_or(|s| f.status == s)
            && self.action.is_none_or(|a| f.action == a)
            && self.country.is_none_or(|c| f.country == c)
            && self.year_min.is_none_or(|y| f.year.is_some_and(|v| v >= y))
            && self.year_max.is_none_or(|y| f.year.is_some_and(|v| v <= y))
            && self.weight_min.is_none_or(|w| f.weight >= w)
            && self.weight_max.is_none_or(|w| f.weight <= w)
            && self.barrel_length_min.is_none_or(|b| f.barrel >= b)
            && self.has_3d_model.is_none_or(|wanted| f.has_3d_model == wanted)
            && self.caliber.is_none_or(|c| f.calibers.contains(&c))
    }
}

/// Per closed filter, each value some firearm holds (its index: a catalog position or a
/// vocabulary index; a country's code) and how many firearms hold it.
#[derive(Debug, PartialEq)]
pub struct ValueCounts {
    pub manufacturer: Vec<(usize, usize)>,
    pub category: Vec<(usize, usize)>,
    pub caliber: Vec<(usize, usize)>,
    pub action: Vec<(usize, usize)>,
    pub status: Vec<(usize, usize)>,
    pub country: Vec<([u8; 2], usize)>,
    /// Without, then with a 3D model.
    pub has_3d_model: [usize; 2],
}

impl Filters {
    /// The set of the one closed filter given, when exactly one is (any number of ranges aside).
    fn only_closed_set(&self) -> Option<SetKey> {
        let closed = [
            self.manufacturer.map(SetKey::Manufacturer),
            self.category.map(SetKey::Category),
            self.caliber.map(SetKey::Caliber),
            self.action.map(SetKey::Action),
            self.status.map(SetKey::Status),
            self.country.map(SetKey::Country),
            self.has_3d_model.map(SetKey::Has3dModel),
        ];
        let mut given = closed.into_iter().flatten();
        let only = given.next()?;
        given.next().is_none().then_some(only)
    }
}

/// One page of a filtered, sorted list and how many firearms matched in all.
#[derive(Debug, PartialEq)]
pub struct ListPage {
    pub positions: Vec<usize>,
    pub total: usize,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ListIndex {
    len: usize,
    manufacturer: Vec<Vec<u32>>,
    category: Vec<Vec<u32>>,
    caliber: Vec<Vec<u32>>,
    action: Vec<Vec<u32>>,
    status: Vec<Vec<u32>>,
    country: HashMap<[u8; 2], Vec<u32>>,
    /// Without, then with a 3D model.
    has_3d_model: [Vec<u32>; 2],
    /// Positions with a known barrel length, shortest first (year and weight use the sort orders).
    barrel: Vec<u32>,
    /// The closed sets again, each in every sort's order.
    ranked: RankedSets,
}

impl ListIndex {
    pub fn build(
        facts: &[Facts],
        orders: &Orders,
        manufacturers: usize,
        categories: usize,
        calibers: usize,
    ) -> Self {
        let mut index = Self {
            len: facts.len(),
            manufacturer: vec![Vec::new(); manufacturers],
            category: vec![Vec::new(); categories],
            caliber: vec![Vec::new(); calibers],
            action: vec![Vec::new(); ACTION_TYPES.len()],
            status: vec![Vec::new(); FIREARM_STATUSES.len()],
            country: HashMap::new(),
            has_3d_model: [Vec::new(), Vec::new()],
            barrel: Vec::new(),
            ranked: RankedSets::build(facts, orders),
        };
        fn push(lists: &mut [Vec<u32>], value: usize, at: u32) {
            if let Some(list) = lists.get_mut(value) {
                list.push(at);
            }
        }
        for (at, f) in facts.iter().enumerate() {
            let at = at as u32;
            push(&mut index.manufacturer, f.manufacturer as usize, at);
            push(&mut index.category, usize::from(f.category), at);
            for &c in f.calibers.iter() {
                // A caliber linked twice is one membership.
                if index.caliber.get(c as usize).and_then(|l| l.last()) != Some(&at) {
                    push(&mut index.caliber, c as usize, at);
                }
            }
            if f.action != NONE {
                push(&mut index.action, usize::from(f.action), at);
            }
            if f.status != NONE {
                push(&mut index.status, usize::from(f.status), at);
            }
            index.country.entry(f.country).or_default().push(at);
            index.has_3d_model[usize::from(f.has_3d_model)].push(at);
            if !f.barrel.is_nan() {
                index.barrel.push(at);
            }
        }
        index.barrel.sort_by(|&a, &b| facts[a as usize].barrel.total_cmp(&facts[b as usize].barrel));
        index
    }

    /// Positions `window` (indexes into the matches, e.g. `offset..offset + limit`) of the
    /// firearms passing `filters`, in `sort` order (unknown sort values last either way), and the
    /// total that passed.
    pub fn select(
        &self,
        facts: &[Facts],
        orders: &Orders,
        filters: &Filters,
        (sort, descending): (Sort, bool),
        window: Range<usize>,
    ) -> ListPage {
        let order = orders.get(sort);
        let (offset, limit) = (window.start, window.len());
        let Some((candidates, sets, key)) = self.smallest_candidates(facts, orders, filters) else {
            let end = offset.saturating_add(limit).min(self.len);
            let positions = (offset.min(end)..end).map(|i| order.at(i, descending)).collect();
            return ListPage { positions, total: self.len };
        };
        if let Some(page) = self.closed_set_in_range(facts, filters, (sort, descending), &window) {
            return page;
        }
        if let (1, Some(key)) = (sets, key) {
            let (positions, total) = self.ranked.page(key, (sort, descending), window);
            return ListPage { positions, total };
        }
        // With one filter its set is exactly the matches; with more, test the others' facts.
        let matched: Cow<[u32]> = if sets == 1 {
            Cow::Borrowed(candidates)
        } else {
            candidates.iter().copied().filter(|&at| filters.matches(&facts[at as usize])).collect()
        };
        let total = matched.len();
        let end = offset.saturating_add(limit).min(total);
        if offset >= end {
            return ListPage { positions: Vec::new(), total };
        }
        // Walking the sort order meets a match every len/total positions, so it reaches the
        // page's end after about end·len/total steps; selecting by rank costs every match. Take
        // the cheaper.
        let positions = if end.saturating_mul(self.len) / total < total {
            self.walk(order, descending, &matched, offset..end)
        } else {
            select_by_rank(order, descending, matched.into_owned(), offset..end)
        };
        ListPage { positions, total }
    }

    /// With one closed filter and a range on the sort's own value (a category's firearms from
    /// 1950, by year), the matches are one run of that set's copy in the sort's order, found by
    /// two binary searches: the page and the total without testing the set's members.
    fn closed_set_in_range(
        &self,
        facts: &[Facts],
        filters: &Filters,
        (sort, descending): (Sort, bool),
        window: &Range<usize>,
    ) -> Option<ListPage> {
        let key = filters.only_closed_set()?;
        let on_year = filters.year_min.is_some() || filters.year_max.is_some();
        let on_weight = filters.weight_min.is_some() || filters.weight_max.is_some();
        let known = self.ranked.known(key, sort);
        let run = match sort {
            Sort::Year if !on_weight && filters.barrel_length_min.is_none() => range(
                known,
                |at| facts[at as usize].year.unwrap_or_default(),
                filters.year_min,
                filters.year_max,
            )?,
            Sort::Weight if !on_year && filters.barrel_length_min.is_none() => {
                range(known, |at| facts[at as usize].weight, filters.weight_min, filters.weight_max)?
            }
            _ => return None,
        };
        let end = window.end.min(run.len());
        let positions = (window.start.min(end)..end)
            .map(|i| run[if descending { run.len() - 1 - i } else { i }] as usize)
            .collect();
        Some(ListPage { positions, total: run.len() })
    }

    /// Matches `window` in sort order, found by walking the order and testing membership.
    fn walk(&self, order: &Order, descending: bool, matched: &[u32], window: Range<usize>) -> Vec<usize> {
        let mut member = vec![0u64; self.len.div_ceil(64)];
        for &at in matched {
            member[at as usize / 64] |= 1 << (at % 64);
        }
        (0..self.len)
            .map(|i| order.at(i, descending))
            .filter(|&at| member[at / 64] >> (at % 64) & 1 == 1)
            .skip(window.start)
            .take(window.len())
            .collect()
    }

    /// How many firearms hold each value of each closed filter (the filter options' counts),
    /// read off the sets' sizes: what filtering by the value would total.
    pub fn value_counts(&self) -> ValueCounts {
        let sizes = |lists: &[Vec<u32>]| -> Vec<(usize, usize)> {
            lists
                .iter()
                .enumerate()
                .filter(|(_, set)| !set.is_empty())
                .map(|(v, set)| (v, set.len()))
                .collect()
        };
        ValueCounts {
            manufacturer: sizes(&self.manufacturer),
            category: sizes(&self.category),
            caliber: sizes(&self.caliber),
            action: sizes(&self.action),
            status: sizes(&self.status),
            country: self
                .country
                .iter()
                .filter(|(code, _)| **code != [0, 0])
                .map(|(code, set)| (*code, set.len()))
                .collect(),
            has_3d_model: [self.has_3d_model[0].len(), self.has_3d_model[1].len()],
        }
    }

    /// The positions with a known barrel length, shortest first (by the packed length).
    pub fn by_barrel_length(&self) -> &[u32] {
        &self.barrel
    }

    /// The smallest set of positions that holds every match (a superset, tested afterwards), how
    /// many filter sets there were and, for a closed filter's set, which; None when no filter
    /// narrows the catalog.
    fn smallest_candidates<'a>(
        &'a self,
        facts: &[Facts],
        orders: &'a Orders,
        filters: &Filters,
    ) -> Option<(&'a [u32], usize, Option<SetKey>)> {
        const EMPTY: &[u32] = &[];
        let list = |lists: &'a [Vec<u32>], value: Option<usize>| {
            value.map(|v| lists.get(v).map_or(EMPTY, Vec::as_slice))
        };
        let year = |at: u32| facts[at as usize].year.unwrap_or_default();
        let weight = |at: u32| facts[at as usize].weight;
        let barrel = |at: u32| facts[at as usize].barrel;
        let closed = |set: Option<&'a [u32]>, key: Option<SetKey>| set.map(|set| (set, key));
        let sets = [
            closed(
                list(&self.manufacturer, filters.manufacturer.map(|m| m as usize)),
                filters.manufacturer.map(SetKey::Manufacturer),
            ),
            closed(
                list(&self.category, filters.category.map(usize::from)),
                filters.category.map(SetKey::Category),
            ),
            closed(
                list(&self.caliber, filters.caliber.map(|c| c as usize)),
                filters.caliber.map(SetKey::Caliber),
            ),
            closed(list(&self.action, filters.action.map(usize::from)), filters.action.map(SetKey::Action)),
            closed(list(&self.status, filters.status.map(usize::from)), filters.status.map(SetKey::Status)),
            closed(
                filters.country.map(|c| self.country.get(&c).map_or(EMPTY, Vec::as_slice)),
                filters.country.map(SetKey::Country),
            ),
            closed(
                filters.has_3d_model.map(|wanted| self.has_3d_model[usize::from(wanted)].as_slice()),
                filters.has_3d_model.map(SetKey::Has3dModel),
            ),
            closed(range(orders.year.known(), year, filters.year_min, filters.year_max), None),
            closed(range(orders.weight.known(), weight, filters.weight_min, filters.weight_max), None),
            closed(range(&self.barrel, barrel, filters.barrel_length_min, None), None),
        ];
        let count = sets.iter().flatten().count();
        sets.into_iter().flatten().min_by_key(|(set, _)| set.len()).map(|(set, key)| (set, count, key))
    }
}

/// Matches `window` in sort order: a partial selection by rank, then a sort of the page's prefix.
fn select_by_rank(
    order: &Order,
    descending: bool,
    mut matched: Vec<u32>,
    window: Range<usize>,
) -> Vec<usize> {
    let key = |at: &u32| order.key(*at as usize, descending);
    if window.end < matched.len() {
        matched.select_nth_unstable_by_key(window.end - 1, key);
        matched.truncate(window.end);
    }
    matched.sort_unstable_by_key(key);
    matched[window].iter().map(|&at| at as usize).collect()
}

/// The slice of `ascending` (positions ordered by `value`) whose value lies within the bounds,
/// None without bounds. Bounds are inclusive; a NaN bound matches nothing.
fn range<T: PartialOrd + Copy>(
    ascending: &[u32],
    value: impl Fn(u32) -> T,
    min: Option<T>,
    max: Option<T>,
) -> Option<&[u32]> {
    if min.is_none() && max.is_none() {
        return None;
    }
    let start = min.map_or(0, |m| {
        ascending.partition_point(|&at| {
            // Below the bound, or not comparable with it (a NaN bound): before the slice.
            matches!(value(at).partial_cmp(&m), Some(Ordering::Less) | None)
        })
    });
    let end = max.map_or(ascending.len(), |m| ascending.partition_point(|&at| value(at) <= m));
    Some(ascending.get(start..end.max(start)).unwrap_or_default())
}

#[cfg(test)]
mod tests;
