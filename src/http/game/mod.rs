//! /v1/game: the game-balance analytics (operations 85 to 89; 21 and 27 live beside the other
//! firearm reads in `catalog::firearms`). Every handler asks `CatalogHandle::game` for the
//! analytics of the live stats or of a frozen `version`, computed once and kept
//! (`read::game`), and asks `read::query::game` for the answer. Shared here: the parameters every
//! operation publishes, the rules' text for the descriptions, and what a 404 calls a firearm.

pub mod balance_report;
pub mod matchups;
pub mod role_roster;
pub mod stat_distribution;
pub mod tier_list;

use crate::http::extract::query::{Params, QueryParam, kind};
use crate::read::game::archetype::ARCHETYPE_NAMES;
use crate::read::game::stat::STAT_NAMES;
use crate::read::game::{archetype, balance, matchup, tiers};

/// `version`: every game operation answers over the live stats or a frozen version.
pub const VERSION: QueryParam<kind::Label> = QueryParam::new(
    "version",
    kind::Label,
    "a frozen game-stats version (GET /v1/game-stats/versions): the same answer computed over its \
     stats instead of the live ones; absent: the live stats. An unknown version is 404.",
);

/// `category`: a category id (GET /v1/categories); an unknown one is 404.
pub const CATEGORY: QueryParam<kind::Slug> =
    QueryParam::new("category", kind::Slug, "only this category's firearms (a category id; unknown is 404)");

/// The closed list of stats.
pub const STAT_RULE: kind::OneOf = kind::OneOf(&STAT_NAMES);

/// The closed list of archetypes (vocabularies.md).
pub const ARCHETYPE_RULE: kind::OneOf = kind::OneOf(&ARCHETYPE_NAMES);

/// Reads `version`.
pub fn version(params: &mut Params) -> Option<String> {
    params.get(&VERSION)
}

/// What a 404 calls a firearm the stats source does not hold: a frozen version is named, as the
/// catalog may hold the firearm while the version does not.
pub fn firearm_in(version: Option<&str>) -> String {
    match version {
        Some(label) => format!("firearm in game-stats version {label}"),
        None => "firearm".to_owned(),
    }
}

/// What every game operation's description says about `version` and the stats.
fn common() -> String {
    "Computed once per catalog revision and stats source (the live stats, or a frozen `version`), never per \
     request. Stats are the eight 0–100 game stats of GET /v1/firearms/{id}/game-stats; every stat is better \
     higher. Overall score: the mean of a firearm's known stats when at least four of the eight are known, \
     else null (the firearm is then not ranked overall and has no archetype). Firearm rows carry `firearm`, \
     the firearm as lists show it to the caller's plan, or null when a frozen version's firearm is no longer \
     in the catalog; a frozen firearm missing from the catalog has no category and counts only in \
     catalog-wide figures."
        .to_owned()
}

pub fn describe_meta() -> String {
    format!(
        "Per category and catalog-wide: how many firearms, each stat's count, mean, population standard \
         deviation (divided by n), min and max, and the archetype counts; `archetype` narrows every figure to \
         that archetype's firearms. {} {}",
        archetype::RULE,
        common()
    )
}

pub fn describe_profile() -> String {
    format!(
        "A firearm's stats, overall score, archetype with its fitness for each archetype, and its standing: per \
         stat the mid-rank percentile (100 · (below + ½ · equal) / n) within the catalog and within its \
         category. Strengths are the stats at category percentile ≥ 75, weaknesses ≤ 25, in stat order. {} {}",
        archetype::RULE,
        common()
    )
}

pub fn describe_balance() -> String {
    format!("Per category (catalog order), the stat outliers. {} {}", balance::RULE, common())
}

pub fn describe_tiers() -> String {
    format!(
        "Tiers S to D of the firearms (optionally one category's), ranked by the overall score or one `stat`; \
         each tier lists its best `per_tier` firearms with rank (1-based competition rank), score and \
         archetype. {} {} {}",
        tiers::RULE,
        archetype::RULE,
        common()
    )
}

pub fn describe_matchups() -> String {
    format!("Firearm `a` against firearm `b`, stat by stat, with a verdict. {} {}", matchup::RULE, common())
}

pub fn describe_roster() -> String {
    format!(
        "The firearms whose archetype is `role`, fittest first (fitness for that role, ties by name), at most \
         `count`. {} {}",
        archetype::RULE,
        common()
    )
}

pub fn describe_distribution() -> String {
    format!(
        "One stat over the firearms (optionally one category's) whose stat is known: count, mean, population \
         standard deviation (divided by n), min, max, percentiles p10/p25/p50/p75/p90 by nearest rank (the \
         smallest value v with at least p% of the values ≤ v, i.e. the value at ascending rank ⌈p/100 · n⌉) and \
         a histogram of `bins` equal bins over 0–100 (bin i holds the values v with ⌊v · bins / 100⌋ = i, 100 \
         in the last bin; bounds rounded to two decimals). {}",
        common()
    )
}
