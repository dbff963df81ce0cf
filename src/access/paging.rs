//! Paging, parsed once at the edge for every paged list.
//!
//! `page` (1..10000) and `per_page` (1..the operation's maximum) are validated, never clamped;
//! the plan's depth is enforced (403 PAGINATION_DEPTH_EXCEEDED); ten or more consecutive pages of
//! one list within 90 seconds, per key or address, is 429 PAGINATION_BURST. The answer's
//! pagination object carries total and totalPages only from Builder up.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::plan::PlanLimits;
use crate::error::{ApiError, Reason};

pub const MAX_PAGE: u64 = 10_000;
const BURST_PAGES: u32 = 10;
const BURST_WINDOW: Duration = Duration::from_secs(90);

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paging {
    pub page: u32,
    pub per_page: u32,
    /// Whether the caller's plan sees total and totalPages.
    pub totals: bool,
}

/// The paging object of paged lists.
#[derive(Debug, Serialize, PartialEq, ToSchema)]
pub struct Pagination {
    /// 1-based page of this response.
    pub page: u32,
    pub per_page: u32,
    /// Alias of per_page; always equal to it.
    pub limit: u32,
    /// Total matching records; omitted for Explorer callers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Pages at this per_page; omitted like total.
    #[serde(rename = "totalPages", skip_serializing_if = "Option::is_none")]
    #[schema(rename = "totalPages")]
    pub total_pages: Option<u64>,
}

impl Paging {
    /// Parse `page` and `per_page` from the query; every bad field is named in one 400.
    pub fn parse(
        query: &HashMap<String, String>,
        default: u32,
        max: u32,
        plan: &PlanLimits,
    ) -> Result<Self, ApiError> {
        let Self { page, per_page, .. } = Self::parse_public(query, default, max)?;
        if let Some(depth) = plan.page_depth
            && page > depth
        {
            return Err(ApiError::new(
                Reason::PaginationDepthExceeded,
                format!(
                    "The {} plan pages {depth} pages deep; page {page} needs a higher plan.",
                    plan.plan.name()
                ),
            )
            .with_detail("maxPage", depth)
            .with_detail("currentTier", plan.plan.id()));
        }
        Ok(Self { page, per_page, totals: plan.totals })
    }

    /// Paging of a keyless list (the changelog, the blog): the bounds of `page` and `per_page`,
    /// no plan's depth, and totals, since public content holds nothing back.
    pub fn parse_public(query: &HashMap<String, String>, default: u32, max: u32) -> Result<Self, ApiError> {
        let mut problems = Map::new();
        let page = bounded(query, "page", 1, MAX_PAGE, &mut problems);
        let per_page = bounded(query, "per_page", default, u64::from(max), &mut problems);
        if !problems.is_empty() {
            return Err(ApiError::invalid_parameters(problems));
        }
        Ok(Self { page, per_page, totals: true })
    }

    pub fn offset(&self) -> usize {
        (self.page as usize - 1) * self.per_page as usize
    }

    /// This page of `items`, and the pagination object for it.
    pub fn slice<'a, T>(&self, items: &'a [T]) -> (&'a [T], Pagination) {
        let start = self.offset().min(items.len());
        let end = (start + self.per_page as usize).min(items.len());
        (&items[start..end], self.pagination(items.len() as u64))
    }

    pub fn pagination(&self, total: u64) -> Pagination {
        let pages = total.div_ceil(u64::from(self.per_page));
        Pagination {
            page: self.page,
            per_page: self.per_page,
            limit: self.per_page,
            total: self.totals.then_some(total),
            total_pages: self.totals.then_some(pages),
        }
    }
}

/// `name` from the query, 1 to `ceiling`, `fallback` when absent; out of bounds is a problem named
/// in `problems` (and `fallback` returned so reading can go on).
fn bounded(
    query: &HashMap<String, String>,
    name: &str,
    fallback: u32,
    ceiling: u64,
    problems: &mut Map<String, Value>,
) -> u32 {
    let Some(raw) = query.get(name) else { return fallback };
    match raw.trim().parse::<u64>() {
        Ok(n) if (1..=ceiling).contains(&n) => n as u32,
        _ => {
            problems
                .insert(name.to_owned(), Value::String(format!("must be an integer from 1 to {ceiling}")));
            fallback
        }
    }
}

/// The paging or ranking parameters of an operation of `style` that are out of bounds, named as
/// the `Paging` and `Limit` extractors name them. The operation's own query (`Valid`) adds them
/// to its problems, so one 400 names every bad parameter whichever check runs first.
pub fn style_problems(
    query: &HashMap<String, String>,
    style: super::operations::Style,
) -> Map<String, Value> {
    let mut problems = Map::new();
    match style {
        super::operations::Style::Page { default, max } => {
            bounded(query, "page", 1, MAX_PAGE, &mut problems);
            bounded(query, "per_page", default, u64::from(max), &mut problems);
        }
        super::operations::Style::Limit { default, max } => {
            bounded(query, "limit", default, u64::from(max), &mut problems);
        }
        _ => {}
    }
    problems
}

/// Consecutive-page streaks per caller and operation, in bounded memory.
///
/// Keyed by the caller and the operation, never by the query string: any parameter a client adds
/// or varies (`&_=1`, another `per_page`) leaves the walk one walk, and the table holds at most one
/// entry per caller and paged operation. Entries older than the window are swept, and the table is
/// capped outright.
#[derive(Default)]
pub struct BurstGuard {
    streaks: Mutex<HashMap<(String, u16), Streak>>,
}

struct Streak {
    last_page: u32,
    pages: u32,
    started: Instant,
}

/// The most streaks held; past it, expired ones are swept and then the oldest dropped.
const MAX_STREAKS: usize = 100_000;

impl BurstGuard {
    /// Record that `who` asked for `page` of `operation`; refuse the tenth consecutive page in 90 s.
    pub fn check(&self, who: &str, operation: u16, page: u32) -> Result<(), ApiError> {
        let now = Instant::now();
        let mut streaks = self.streaks.lock().expect("never poisoned");
        if streaks.len() >= MAX_STREAKS {
            streaks.retain(|_, s| now.duration_since(s.started) < BURST_WINDOW);
            if streaks.len() >= MAX_STREAKS {
                let mut ages: Vec<Instant> = streaks.values().map(|s| s.started).collect();
                ages.sort_unstable();
                let cutoff = ages[ages.len() / 2];
                streaks.retain(|_, s| s.started > cutoff);
            }
        }
        let streak = streaks.entry((who.to_owned(), operation)).or_insert(Streak {
            last_page: 0,
            pages: 0,
            started: now,
        });
        let continues = page == streak.last_page + 1 && now.duration_since(streak.started) < BURST_WINDOW;
        if continues {
            streak.pages += 1;
        } else {
            *streak = Streak { last_page: page, pages: 1, started: now };
        }
        streak.last_page = page;
        if streak.pages >= BURST_PAGES {
            return Err(ApiError::new(
                Reason::PaginationBurst,
                "Too many consecutive pages of one list; slow down.",
            )
            .with_retry_after(BURST_WINDOW.as_secs()));
        }
        Ok(())
    }

    /// How many streaks are held (bounded by `MAX_STREAKS`).
    pub fn len(&self) -> usize {
        self.streaks.lock().expect("never poisoned").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `limit` of a ranking (an operation the table gives `Style::Limit`): 1 to its maximum, its
/// default when absent; anything else is 400 naming `limit`, never clamped. Rankings carry no
/// pagination object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit(pub usize);

impl Limit {
    pub fn parse(query: &HashMap<String, String>, default: u32, max: u32) -> Result<Self, ApiError> {
        let mut problems = Map::new();
        let limit = bounded(query, "limit", default, u64::from(max), &mut problems);
        if !problems.is_empty() {
            return Err(ApiError::invalid_parameters(problems));
        }
        Ok(Self(limit as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::super::plan::{Plan, PlanTable};
    use super::*;

    #[test]
    fn a_limit_is_within_its_bounds_or_refused() {
        assert_eq!(Limit::parse(&query(&[]), 10, 25).unwrap(), Limit(10));
        assert_eq!(Limit::parse(&query(&[("limit", "25")]), 10, 25).unwrap(), Limit(25));
        for bad in ["0", "26", "-1", "ten", ""] {
            assert!(Limit::parse(&query(&[("limit", bad)]), 10, 25).is_err(), "{bad}");
        }
    }

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn bad_values_are_named_never_clamped() {
        let table = PlanTable::default();
        let error =
            Paging::parse(&query(&[("page", "0"), ("per_page", "101")]), 20, 100, table.get(Plan::Studio))
                .unwrap_err();
        let details = error.details.unwrap();
        assert!(details.get("page").is_some() && details.get("per_page").is_some());
    }

    #[test]
    fn explorer_pages_five_deep_without_totals() {
        let table = PlanTable::default();
        let explorer = table.get(Plan::Explorer);
        let paging = Paging::parse(&query(&[("page", "5")]), 20, 100, explorer).unwrap();
        assert_eq!(
            paging.pagination(200),
            Pagination { page: 5, per_page: 20, limit: 20, total: None, total_pages: None }
        );
        let error = Paging::parse(&query(&[("page", "6")]), 20, 100, explorer).unwrap_err();
        assert_eq!(error.reason, Reason::PaginationDepthExceeded);
        let builder = Paging::parse(&query(&[]), 20, 100, table.get(Plan::Builder)).unwrap();
        assert_eq!(builder.pagination(41).total_pages, Some(3));
    }

    #[test]
    fn the_tenth_consecutive_page_is_a_burst() {
        let guard = BurstGuard::default();
        for page in 1..=9 {
            guard.check("k", 41, page).unwrap();
        }
        assert_eq!(guard.check("k", 41, 10).unwrap_err().reason, Reason::PaginationBurst);
        guard.check("k", 55, 1).unwrap();
        guard.check("other", 41, 1).unwrap();
        assert_eq!(guard.len(), 3, "one streak per caller and operation");
    }
}
