//! Data quality in the open (operations 93 to 97), read from the snapshot's `read::quality`: the
//! gaps per resource and field (94) and the records behind one (95), the records by
//! dataConfidence (96), the provenance coverage (97), and the data tasks (93), the records most
//! worth improving ranked by `task_score`.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::catalog::vocabulary::SOURCE_KINDS;
use crate::read::error::QueryError;
use crate::read::quality::{DataQuality, RESOURCES, RecordQuality, ResourceQuality, fields};
use crate::read::statistics::share;

/// Every field name some resource has, for the `field` parameter's published list.
pub fn all_fields() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = fields::firearm().iter().map(|f| f.name).collect();
    let others = [
        fields::MANUFACTURER.iter().map(|f| f.name).collect::<Vec<_>>(),
        fields::CALIBER.iter().map(|f| f.name).collect(),
        fields::AMMUNITION.iter().map(|f| f.name).collect(),
        fields::INTERFACE.iter().map(|f| f.name).collect(),
        fields::ATTACHMENT.iter().map(|f| f.name).collect(),
        fields::PLATFORM.iter().map(|f| f.name).collect(),
    ];
    names.extend(others.into_iter().flatten());
    names.sort_unstable();
    names.dedup();
    names
}

/// 94: per resource and field, how many records lack it.
#[derive(Debug, Serialize, ToSchema)]
pub struct DataGaps {
    pub resources: Vec<ResourceGaps>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ResourceGaps {
    /// firearms, manufacturers, calibers, ammunition, interfaces, attachments or platforms.
    pub resource: &'static str,
    #[schema(value_type = i64)]
    pub total: usize,
    /// Every optional field of the record, in the record's order.
    pub fields: Vec<FieldGap>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FieldGap {
    /// The field's served name.
    pub field: &'static str,
    /// Records without a value (a list: without an item).
    #[schema(value_type = i64)]
    pub missing: usize,
    /// Of the resource's records, 0 to 1 (four places).
    pub share: f64,
}

pub fn gaps(quality: &DataQuality) -> DataGaps {
    let resources = quality
        .resources
        .iter()
        .map(|resource| {
            let total = resource.records.len();
            let fields = resource
                .fields
                .iter()
                .enumerate()
                .map(|(i, field)| {
                    let missing = resource.records.iter().filter(|r| r.missing >> i & 1 == 1).count();
                    FieldGap { field, missing, share: share(missing, total) }
                })
                .collect();
            ResourceGaps { resource: resource.resource, total, fields }
        })
        .collect();
    DataGaps { resources }
}

/// 95: one record behind a gap.
#[derive(Debug, Serialize, ToSchema)]
pub struct GapRecord {
    pub id: String,
    pub name: String,
    /// Every field the record lacks, in the record's order.
    pub missing: Vec<&'static str>,
}

/// The records of `resource` lacking `field` (any field, when none is given), in id order: a page
/// from `offset`, and how many there are.
pub fn gap_records(
    quality: &DataQuality,
    resource: &str,
    field: Option<&str>,
    offset: usize,
    per_page: usize,
) -> Result<(Vec<GapRecord>, usize), QueryError> {
    let held = find(quality, resource)?;
    let wanted = match field {
        Some(field) => held.bit(field).ok_or_else(|| QueryError::Invalid {
            field: "field",
            reason: format!("is not a field of {resource}; its fields are: {}", held.fields.join(", ")),
        })?,
        None => u64::MAX,
    };
    let lacking: Vec<&RecordQuality> = held.records.iter().filter(|r| r.missing & wanted != 0).collect();
    let page = lacking
        .iter()
        .skip(offset)
        .take(per_page)
        .map(|r| GapRecord { id: r.id.clone(), name: r.name.clone(), missing: held.missing_fields(r) })
        .collect();
    Ok((page, lacking.len()))
}

fn find<'q>(quality: &'q DataQuality, resource: &str) -> Result<&'q ResourceQuality, QueryError> {
    quality.resource(resource).ok_or_else(|| QueryError::Invalid {
        field: "resource",
        reason: format!("must be one of: {}", RESOURCES.join(", ")),
    })
}

/// 96: one record and how confident the catalog is in it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfidenceRecord {
    pub resource: &'static str,
    pub id: String,
    pub name: String,
    /// 0 to 1; null when no confidence was recorded.
    pub data_confidence: Option<f64>,
    /// The strongest kind among the record's sources; null without sources.
    pub best_source_kind: Option<&'static str>,
    /// When a source was last checked against the record; null while unverified.
    pub verified_at: Option<String>,
}

/// Records (of `resource`, or every resource) with no recorded confidence or one below `below`,
/// least confident first (no confidence before any), then by resource and id: a page from
/// `offset`, and how many there are.
pub fn confidence(
    quality: &DataQuality,
    resource: Option<&str>,
    below: Option<f64>,
    offset: usize,
    per_page: usize,
) -> Result<(Vec<ConfidenceRecord>, usize), QueryError> {
    let resources: Vec<&ResourceQuality> = match resource {
        Some(name) => vec![find(quality, name)?],
        None => quality.resources.iter().collect(),
    };
    let mut held: Vec<(&'static str, &RecordQuality)> = resources
        .iter()
        .flat_map(|r| r.records.iter().map(move |record| (r.resource, record)))
        .filter(|(_, record)| match (below, record.data_confidence) {
            (Some(limit), Some(confidence)) => confidence < limit,
            _ => true,
        })
        .collect();
    let order = |resource: &str| RESOURCES.iter().position(|r| *r == resource);
    held.sort_by(|(ra, a), (rb, b)| {
        let rank = |r: &RecordQuality| r.data_confidence.unwrap_or(-1.0);
        rank(a).total_cmp(&rank(b)).then_with(|| order(ra).cmp(&order(rb))).then_with(|| a.id.cmp(&b.id))
    });
    let page = held
        .iter()
        .skip(offset)
        .take(per_page)
        .map(|(resource, r)| ConfidenceRecord {
            resource,
            id: r.id.clone(),
            name: r.name.clone(),
            data_confidence: r.data_confidence,
            best_source_kind: r.best_source_kind,
            verified_at: r.verified_at.clone(),
        })
        .collect();
    Ok((page, held.len()))
}

/// 97: per resource, records by their strongest source kind and the verified share.
#[derive(Debug, Serialize, ToSchema)]
pub struct DataCoverage {
    pub resources: Vec<ResourceCoverage>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourceCoverage {
    pub resource: &'static str,
    #[schema(value_type = i64)]
    pub total: usize,
    /// Records per strongest source kind, strongest first, every kind listed; `none` counts the
    /// records without a source.
    pub by_best_source_kind: Vec<KindCount>,
    /// Records a checked source states fields of (verifiedAt set).
    #[schema(value_type = i64)]
    pub verified: usize,
    /// Of the resource's records, 0 to 1 (four places).
    pub verified_share: f64,
    /// The mean dataConfidence of the records that have one; null when none has.
    pub mean_data_confidence: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct KindCount {
    /// A source kind (strongest first), or none.
    pub kind: &'static str,
    #[schema(value_type = i64)]
    pub records: usize,
}

pub fn coverage(quality: &DataQuality) -> DataCoverage {
    let resources = quality
        .resources
        .iter()
        .map(|resource| {
            let records = &resource.records;
            let total = records.len();
            let count = |kind: Option<&str>| records.iter().filter(|r| r.best_source_kind == kind).count();
            let mut by_best_source_kind: Vec<KindCount> =
                SOURCE_KINDS.iter().map(|kind| KindCount { kind, records: count(Some(kind)) }).collect();
            by_best_source_kind.push(KindCount { kind: "none", records: count(None) });
            let verified = records.iter().filter(|r| r.verified_at.is_some()).count();
            let rated: Vec<f64> = records.iter().filter_map(|r| r.data_confidence).collect();
            let mean_data_confidence = (!rated.is_empty())
                .then(|| (rated.iter().sum::<f64>() / rated.len() as f64 * 10_000.0).round() / 10_000.0);
            ResourceCoverage {
                resource: resource.resource,
                total,
                by_best_source_kind,
                verified,
                verified_share: share(verified, total),
                mean_data_confidence,
            }
        })
        .collect();
    DataCoverage { resources }
}

/// 93: a record worth improving, and why.
#[derive(Debug, Serialize, ToSchema)]
pub struct DataTask {
    pub resource: &'static str,
    pub id: String,
    pub name: String,
    /// `task_score`, two places: higher is more worth doing.
    pub score: f64,
    /// How often the record was requested in the window counted (firearm details; 0 otherwise).
    pub requests: i64,
    /// The fields to fill or to check, heaviest first.
    pub fields: Vec<TaskField>,
    /// The reason in one sentence.
    pub why: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TaskField {
    pub field: &'static str,
    /// missing (no value) or unverified (a value no checked source states).
    #[schema(value_type = String)]
    pub state: &'static str,
    /// The field's importance (`read::quality::fields::weight`): 1 to 3.
    pub weight: u32,
}

/// How much a missing value weighs against an unverified one: filling a gap is worth four checks.
const UNVERIFIED_SHARE: f64 = 0.25;

/// A record's task score: the weights of its missing fields, plus a quarter of the weights of its
/// filled but unverified fields, times `1 + ln(1 + requests)`, so a record people ask for ranks
/// above an equally thin one nobody reads.
pub fn task_score(missing_weight: u32, unverified_weight: u32, requests: i64) -> f64 {
    let work = f64::from(missing_weight) + UNVERIFIED_SHARE * f64::from(unverified_weight);
    let demand = 1.0 + (1.0 + requests.max(0) as f64).ln();
    (work * demand * 100.0).round() / 100.0
}

/// The `limit` records most worth improving, by `task_score` (ties by resource order, then id);
/// `requests` are firearm detail requests by firearm id.
pub fn tasks(quality: &DataQuality, requests: &HashMap<String, i64>, limit: usize) -> Vec<DataTask> {
    let mut tasks: Vec<DataTask> = Vec::new();
    for resource in &quality.resources {
        for record in &resource.records {
            let mut fields: Vec<TaskField> = resource
                .fields
                .iter()
                .enumerate()
                .filter_map(|(i, field)| {
                    let weight = fields::weight(resource.resource, field);
                    let state = match (
                        record.missing >> i & 1 == 1,
                        record.verified_fields.iter().any(|f| f == field),
                    ) {
                        _ if weight == 0 || *field == "dataConfidence" => return None,
                        (true, _) => "missing",
                        (false, false) if *field != "sources" => "unverified",
                        _ => return None,
                    };
                    Some(TaskField { field, state, weight })
                })
                .collect();
            if fields.is_empty() {
                continue;
            }
            fields.sort_by(|a, b| {
                b.weight.cmp(&a.weight).then_with(|| (a.state != "missing").cmp(&(b.state != "missing")))
            });
            let weight_of =
                |state: &str| fields.iter().filter(|f| f.state == state).map(|f| f.weight).sum::<u32>();
            let (missing, unverified) = (weight_of("missing"), weight_of("unverified"));
            let asked = if resource.resource == "firearms" {
                requests.get(&record.id).copied().unwrap_or(0)
            } else {
                0
            };
            let why = reason(&fields, asked);
            tasks.push(DataTask {
                resource: resource.resource,
                id: record.id.clone(),
                name: record.name.clone(),
                score: task_score(missing, unverified, asked),
                requests: asked,
                fields,
                why,
            });
        }
    }
    let order = |resource: &str| RESOURCES.iter().position(|r| *r == resource);
    tasks.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| order(a.resource).cmp(&order(b.resource)))
            .then_with(|| a.id.cmp(&b.id))
    });
    tasks.truncate(limit);
    tasks
}

fn reason(fields: &[TaskField], requests: i64) -> String {
    let named = |state: &str| fields.iter().filter(|f| f.state == state).map(|f| f.field).collect::<Vec<_>>();
    let (missing, unverified) = (named("missing"), named("unverified"));
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("{} missing ({})", plural(missing.len(), "figure"), missing.join(", ")));
    }
    if !unverified.is_empty() {
        parts.push(format!("{} no checked source states", plural(unverified.len(), "figure")));
    }
    let asked = match requests {
        0 => String::new(),
        n => format!("; requested {} in the last 30 days", plural(n as usize, "time")),
    };
    format!("{}{asked}.", capitalised(&parts.join(", and ")))
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_follows_its_formula() {
        // 3 + 0.25 * 4 = 4, times 1 + ln(1 + 0) = 1.
        assert_eq!(task_score(3, 4, 0), 4.0);
        // 2 * (1 + ln 11) = 2 * 3.3979 = 6.7958.
        assert_eq!(task_score(2, 0, 10), 6.8);
        assert!(task_score(2, 0, 10) > task_score(2, 0, 0));
    }

    #[test]
    fn the_reason_names_the_missing_fields_and_the_demand() {
        let fields = [
            TaskField { field: "weightEmptyG", state: "missing", weight: 3 },
            TaskField { field: "actionType", state: "unverified", weight: 2 },
        ];
        assert_eq!(
            reason(&fields, 12),
            "1 figure missing (weightEmptyG), and 1 figure no checked source states; requested 12 times in the \
             last 30 days."
        );
    }
}
