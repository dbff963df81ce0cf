//! Countries and conflicts named in the catalog: the countries with their counts, a country's
//! arsenal, and the conflicts with the firearms used in each.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::read::error::QueryError;
use crate::read::rendered::{Rendered, one};
use crate::read::snapshot::Snapshot;

// A country the catalog names, with its counts.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Country<'a> {
    code: &'a str,
    firearms_of_origin: i64,
    manufacturers: i64,
    adopted_firearms: i64,
    adopters: i64,
}

/// Every country the catalog names (as a firearm's origin, a manufacturer's seat or an adopter's
/// country), by code, with how many firearms come from it, how many manufacturers are based
/// there, how many firearms its users adopted, and how many adopter entries it has.
pub fn list(snapshot: &Snapshot) -> Vec<Country<'_>> {
    let counted = snapshot.read.aggregates.countries.iter();
    counted
        .map(|(code, counts)| Country {
            code,
            firearms_of_origin: counts.firearms_of_origin as i64,
            manufacturers: counts.manufacturers as i64,
            adopted_firearms: counts.adopted_firearms as i64,
            adopters: counts.adopters as i64,
        })
        .collect()
}

// A country's arsenal, written straight from borrowed records (a large country's answer is some
// 300 KB at 100,000 firearms: no tree of values built first).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Arsenal<'a> {
    code: &'a str,
    user_types: Vec<ArsenalGroup<'a>>,
}

// The firearms adopted by one type of user (military, law_enforcement...).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ArsenalGroup<'a> {
    user_type: &'a str,
    count: i64,
    firearms: Vec<ArsenalFirearm<'a>>,
}

// One adopter entry of an arsenal.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ArsenalFirearm<'a> {
    id: &'a str,
    name: &'a str,
    user_name: &'a str,
    designation: Option<&'a str>,
    adopted_year: Option<i64>,
}

/// The firearms adopted by the users of country `code` (ISO 3166-1 alpha-2, upper case), grouped
/// by user type, each with the adopting user, its designation and year; 404 when none of its
/// users adopted a firearm. Kept once answered (a bounded few): each adopter's firearm is decoded
/// from the packed table, a few milliseconds for a large country at 100,000 firearms.
pub fn arsenal(snapshot: &Snapshot, code: &str) -> Result<Rendered, QueryError> {
    let Ok(key) = <[u8; 2]>::try_from(code.as_bytes()) else {
        return Err(QueryError::Invalid {
            field: "code",
            reason: "must be a two-letter ISO 3166-1 country code".into(),
        });
    };
    snapshot.read.arsenal_answers.get_or_render(key, || render_arsenal(snapshot, code))
}

fn render_arsenal(snapshot: &Snapshot, code: &str) -> Result<Rendered, QueryError> {
    let adopted = snapshot.arsenals().of(&snapshot.catalog, code);
    let mut groups: BTreeMap<&str, Vec<ArsenalFirearm>> = BTreeMap::new();
    for (firearm, user) in &adopted {
        let user = &firearm.users[*user];
        groups.entry(user.user_type.as_deref().unwrap_or("unknown")).or_default().push(ArsenalFirearm {
            id: &firearm.id,
            name: &firearm.name,
            user_name: &user.user_name,
            designation: user.designation.as_deref(),
            adopted_year: user.adopted_year,
        });
    }
    if groups.is_empty() {
        return Err(QueryError::not_found("country with adopters", code));
    }
    let user_types = groups
        .into_iter()
        .map(|(user_type, firearms)| ArsenalGroup { user_type, count: firearms.len() as i64, firearms })
        .collect();
    one(Arsenal { code, user_types }).map_err(|e| QueryError::Failed(e.to_string()))
}

// A conflict named in the firearms' records, with the firearms used in it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conflict<'a> {
    name: &'a str,
    years: Option<&'a str>,
    firearm_count: i64,
    firearm_ids: Vec<String>,
}

/// The conflicts named in the firearms' records, most firearms first, each with the ids of the
/// firearms used in it; `name` (lower case) keeps those whose name contains it.
pub fn conflicts<'a>(snapshot: &'a Snapshot, name: Option<&str>) -> Vec<Conflict<'a>> {
    let firearms = &snapshot.catalog.firearms;
    snapshot
        .text_index()
        .conflicts
        .iter()
        .filter(|conflict| name.is_none_or(|name| conflict.lower.contains(name)))
        .map(|conflict| Conflict {
            name: &conflict.name,
            years: conflict.years.as_deref(),
            firearm_count: conflict.firearms.len() as i64,
            firearm_ids: conflict.firearms.iter().map(|&at| firearms.get(at as usize).id.clone()).collect(),
        })
        .collect()
}
