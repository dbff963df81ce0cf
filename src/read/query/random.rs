//! One firearm drawn at random, optionally from a category or a country of origin.

use serde_json::Value;

use crate::read::facts::{Facts, country_bytes};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

/// A firearm drawn at random among those of `category` (an id) and `country` (ISO 3166-1
/// alpha-2, upper case) when given, as its list item in `view`; None when none matches (an
/// unknown category matches none).
pub fn firearm(
    snapshot: &Snapshot,
    category: Option<&str>,
    country: Option<&str>,
    view: View,
) -> Option<Value> {
    // Drawn over the packed facts, not the records: two passes over 40 bytes a firearm (count,
    // then find the drawn one) instead of a list of every match (p99 4.2 to 1.4 ms at 100,000
    // firearms with a category).
    let category = category.map(|id| snapshot.read.category_at.get(id).copied());
    let country = country.map(|code| country_bytes(Some(code)));
    let matches = |facts: &Facts| {
        category.is_none_or(|at| at.is_some() && facts.category_position() == at)
            && country.is_none_or(|code| facts.country == code)
    };
    let facts = &snapshot.read.facts;
    let count = facts.iter().filter(|f| matches(f)).count();
    if count == 0 {
        return None;
    }
    let drawn = rand::random_range(0..count);
    let at = facts.iter().enumerate().filter(|(_, f)| matches(f)).nth(drawn).map_or(0, |(at, _)| at);
    // A value, not a rendered answer: a draw is sent uncached and without an ETag, in an envelope
    // the caller writes.
    Some(serde_json::from_str(&snapshot.read.forms.listed(at, view)).unwrap_or(Value::Null))
}
