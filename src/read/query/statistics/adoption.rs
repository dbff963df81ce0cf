//! Who adopted what: one country's adopters by user type (80), one user type's countries (81).
//! An adopter is one entry of a firearm's `users`; `firearmCount` counts distinct firearms.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::read::error::QueryError;
use crate::read::snapshot::Snapshot;
use crate::read::statistics::AdoptionCount;

/// At most this many firearms are named (by name); `firearmCount` counts all.
pub const ADOPTION_FIREARMS_SHOWN: usize = 100;

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = StatsAdoptionByCountry)]
pub struct AdoptionByCountry<'a> {
    pub country_code: &'a str,
    #[schema(value_type = i64)]
    pub adopters: usize,
    #[schema(value_type = i64)]
    pub firearm_count: usize,
    pub by_user_type: Vec<UserTypeCount<'a>>,
    /// At most 100, by name.
    #[schema(value_type = Vec<crate::read::rendered::shapes::NamedRef>)]
    pub firearms: Vec<NamedFirearm>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserTypeCount<'a> {
    pub user_type: &'a str,
    #[schema(value_type = i64)]
    pub adopters: usize,
    #[schema(value_type = i64)]
    pub firearm_count: usize,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = StatsAdoptionByType)]
pub struct AdoptionByType<'a> {
    #[serde(rename = "type")]
    pub kind: &'a str,
    #[schema(value_type = i64)]
    pub adopters: usize,
    #[schema(value_type = i64)]
    pub firearm_count: usize,
    pub countries: Vec<CountryAdoption<'a>>,
    /// At most 100, by name.
    #[schema(value_type = Vec<crate::read::rendered::shapes::NamedRef>)]
    pub firearms: Vec<NamedFirearm>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CountryAdoption<'a> {
    pub country_code: &'a str,
    #[schema(value_type = i64)]
    pub adopters: usize,
    #[schema(value_type = i64)]
    pub firearm_count: usize,
}

/// A firearm's id and name (described as `NamedRef`); owned, as a firearm's record is decoded
/// to be read (`catalog::held`).
#[derive(Serialize)]
pub struct NamedFirearm {
    pub id: String,
    pub name: String,
}

/// One country's adopters (armed forces, police, ...): counts per user type and the firearms
/// they adopted. A country the catalog knows with no adopters answers zeros; one it does not know
/// is `NotFound` naming the `code` parameter.
pub fn adoption_by_country<'a>(
    snapshot: &'a Snapshot,
    code: &'a str,
) -> Result<AdoptionByCountry<'a>, QueryError> {
    let adoption = &snapshot.statistics().adoption;
    let known =
        snapshot.read.aggregates.countries.contains_key(code) || adoption.by_country.contains_key(code);
    if !known {
        return Err(QueryError::not_found_in("country", code, "code"));
    }
    let found = adoption.by_country.get(code);
    let all = found.map_or(&NO_ADOPTERS, |(all, _)| all);
    Ok(AdoptionByCountry {
        country_code: code,
        adopters: all.adopters,
        firearm_count: all.firearms.len(),
        by_user_type: found
            .into_iter()
            .flat_map(|(_, types)| types)
            .map(|(kind, count)| UserTypeCount {
                user_type: kind,
                adopters: count.adopters,
                firearm_count: count.firearms.len(),
            })
            .collect(),
        firearms: named(snapshot, &all.firearms),
    })
}

/// One adopter type: the countries with such adopters (most firearms first, ties by code) and
/// the firearms they adopted.
pub fn adoption_by_type<'a>(snapshot: &'a Snapshot, kind: &'a str) -> AdoptionByType<'a> {
    let found = snapshot.statistics().adoption.by_type.get(kind);
    let all = found.map_or(&NO_ADOPTERS, |(all, _)| all);
    let mut countries: Vec<(&String, &AdoptionCount)> =
        found.into_iter().flat_map(|(_, countries)| countries).collect();
    countries.sort_by(|a, b| b.1.firearms.len().cmp(&a.1.firearms.len()).then_with(|| a.0.cmp(b.0)));
    AdoptionByType {
        kind,
        adopters: all.adopters,
        firearm_count: all.firearms.len(),
        countries: countries
            .into_iter()
            .map(|(code, count)| CountryAdoption {
                country_code: code,
                adopters: count.adopters,
                firearm_count: count.firearms.len(),
            })
            .collect(),
        firearms: named(snapshot, &all.firearms),
    }
}

/// The count of a country or type no adopter has.
static NO_ADOPTERS: AdoptionCount = AdoptionCount { adopters: 0, firearms: BTreeSet::new() };

/// The firearms of a count, by name (case aside, ties by id: the name order's rank), at most
/// `ADOPTION_FIREARMS_SHOWN`; only those shown are decoded.
fn named(snapshot: &Snapshot, firearms: &BTreeSet<usize>) -> Vec<NamedFirearm> {
    let names = &snapshot.read.orders.name;
    let mut named: Vec<usize> = firearms.iter().copied().collect();
    named.sort_unstable_by_key(|&at| names.key(at, false));
    named
        .into_iter()
        .take(ADOPTION_FIREARMS_SHOWN)
        .map(|at| {
            let firearm = snapshot.catalog.firearms.get(at);
            NamedFirearm { id: firearm.id.clone(), name: firearm.name.clone() }
        })
        .collect()
}
