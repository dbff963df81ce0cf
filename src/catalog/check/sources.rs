//! The source rules (errors): where a record's sources are, what they name, and what confidence
//! they allow (data/README.md, "Provenance").
//!
//! - a source URL is http or https, on a host of the published list (`hosts.rs`), not a listed mirror, and
//!   its `kind` is the kind its host is listed with;
//! - a source's `fields` are served field names of the record's kind that the record fills;
//! - every `verifiedFields` entry is named by some source's `fields`;
//! - `dataConfidence` above 0.6 needs a manufacturer, standards_body or government source, or two
//!   sources on different hosts that each name every key figure the record fills.

use std::collections::BTreeSet;

use serde_json::Value;

use super::Record;
use super::hosts::{HostList, Listed, host_of, normalise};
use crate::catalog::model::{Caliber, Firearm, Source};

/// The highest `dataConfidence` one reference work earns; above it the confidence rule applies.
pub const CONFIDENCE_WITHOUT_CORROBORATION: f64 = 0.6;

/// Source kinds strong enough on their own for a confidence above 0.6.
pub const STRONG_KINDS: &[&str] = &["manufacturer", "standards_body", "government"];

/// Served fields that are the record's identity or its provenance, never a figure a page states.
const NOT_STATED: &[&str] = &["id", "sources", "dataConfidence", "verifiedAt", "verifiedFields"];

/// What the source rules read of one record.
pub(super) struct Cited<'a> {
    pub sources: &'a [Source],
    pub confidence: Option<f64>,
    pub verified_fields: Option<&'a [String]>,
    /// The key figures the record fills, in their documented order (empty for kinds judged on
    /// their sources only).
    pub key_figures: Vec<&'static str>,
    /// The record as its data file holds it (served names, absent fields null); only built when a
    /// source names fields or the record lists verified fields.
    pub served: &'a dyn Fn() -> Value,
}

/// A firearm's key figures, those it fills: weightEmptyG, overallLengthMm, barrelLengthMm,
/// muzzleVelocityMps, rateOfFireRpm.
pub(super) fn firearm_key_figures(f: &Firearm) -> Vec<&'static str> {
    filled(&[
        ("weightEmptyG", f.weight_empty_g.is_some()),
        ("overallLengthMm", f.overall_length_mm.is_some()),
        ("barrelLengthMm", f.barrel_length_mm.is_some()),
        ("muzzleVelocityMps", f.muzzle_velocity_mps.is_some()),
        ("rateOfFireRpm", f.rate_of_fire_rpm.is_some()),
    ])
}

/// A cartridge's key figures, its dimensions it fills: bulletDiameterMm, caseLengthMm,
/// overallLengthMm, maxPressureMpa.
pub(super) fn caliber_key_figures(c: &Caliber) -> Vec<&'static str> {
    filled(&[
        ("bulletDiameterMm", c.bullet_diameter_mm.is_some()),
        ("caseLengthMm", c.case_length_mm.is_some()),
        ("overallLengthMm", c.overall_length_mm.is_some()),
        ("maxPressureMpa", c.max_pressure_mpa.is_some()),
    ])
}

fn filled(figures: &[(&'static str, bool)]) -> Vec<&'static str> {
    figures.iter().filter(|(_, known)| *known).map(|(name, _)| *name).collect()
}

/// Every source rule over one record.
pub(super) fn check(r: &mut Record<'_>, hosts: &HostList, cited: &Cited<'_>) {
    for (n, source) in cited.sources.iter().enumerate().map(|(i, s)| (i + 1, s)) {
        if !source.url.trim().is_empty() {
            host_rules(r, hosts, n, source);
        }
    }
    let names_fields = cited.sources.iter().any(|s| !s.fields.is_empty());
    if names_fields || cited.verified_fields.is_some() {
        field_rules(r, cited, &(cited.served)());
    }
    confidence_rule(r, cited);
}

fn host_rules(r: &mut Record<'_>, hosts: &HostList, n: usize, source: &Source) {
    let url = source.url.trim();
    let Some(host) = host_of(url) else {
        r.flag("sources", format!("source {n} ({url}) is not an absolute URL with a host"));
        return;
    };
    // A page is cited as it is served: older sites answer over plain http, and rewriting their
    // address to https would cite a URL nobody checked.
    let scheme = url.split_once("://").map(|(scheme, _)| scheme.to_ascii_lowercase());
    if !matches!(scheme.as_deref(), Some("https" | "http")) {
        r.flag("sources", format!("source {n} ({url}) is not an http(s) page"));
    }
    match hosts.get(&host) {
        None => r.flag("sources", format!("source {n} ({url}): host {host} is not on the host list")),
        Some(Listed::Mirror { of }) => r.flag(
            "sources",
            format!("source {n} ({url}): host {host} is a mirror of {of}; cite the original"),
        ),
        // An empty kind is flagged already.
        Some(Listed::Kind(kind)) if source.kind != **kind && !source.kind.trim().is_empty() => r.flag(
            "sources",
            format!("source {n} ({url}) has kind {} but its host {host} is listed as {kind}", source.kind),
        ),
        Some(Listed::Kind(_)) => {}
    }
}

fn field_rules(r: &mut Record<'_>, cited: &Cited<'_>, served: &Value) {
    let kind = r.kind;
    for (n, source) in cited.sources.iter().enumerate().map(|(i, s)| (i + 1, s)) {
        for field in &source.fields {
            let value = served.get(field.as_str()).filter(|_| !NOT_STATED.contains(&field.as_str()));
            let problem = match value.map(unstated) {
                None => format!("is not a served {kind} field"),
                Some(Some(left)) => format!("is a field this {kind} leaves {left}"),
                Some(None) => continue,
            };
            r.flag("sources.fields", format!("source {n} ({}) names {field}, which {problem}", source.url));
        }
    }
    let named: BTreeSet<&str> =
        cited.sources.iter().flat_map(|s| s.fields.iter().map(String::as_str)).collect();
    for field in cited.verified_fields.unwrap_or_default() {
        if !named.contains(field.as_str()) {
            r.flag("verifiedFields", format!("{field} is named by no source's fields"));
        }
    }
}

/// How a value says the record does not state it ("null", or "empty" for a list or text), or None.
fn unstated(value: &Value) -> Option<&'static str> {
    match value {
        Value::Null => Some("null"),
        Value::Array(items) if items.is_empty() => Some("empty"),
        Value::String(text) if text.trim().is_empty() => Some("empty"),
        _ => None,
    }
}

fn confidence_rule(r: &mut Record<'_>, cited: &Cited<'_>) {
    // No confidence, none above 0.6, one outside 0..1 or no source at all: nothing to corroborate
    // (the last two are flagged already).
    let Some(confidence) = cited.confidence else { return };
    if !(confidence > CONFIDENCE_WITHOUT_CORROBORATION && confidence <= 1.0) || cited.sources.is_empty() {
        return;
    }
    if cited.sources.iter().any(|s| STRONG_KINDS.contains(&s.kind.as_str())) {
        return;
    }
    let naming_every_key_figure: BTreeSet<String> = cited
        .sources
        .iter()
        .filter(|s| cited.key_figures.iter().all(|key| s.fields.iter().any(|f| f == key)))
        .filter_map(|s| host_of(&s.url).map(|h| normalise(&h)))
        .collect();
    if naming_every_key_figure.len() >= 2 {
        return;
    }
    let second = if cited.key_figures.is_empty() {
        "two sources on different hosts".to_owned()
    } else {
        format!(
            "two sources on different hosts each naming every key figure it fills ({})",
            cited.key_figures.join(", ")
        )
    };
    r.flag(
        "dataConfidence",
        format!(
            "{confidence} is above {CONFIDENCE_WITHOUT_CORROBORATION} without a manufacturer, \
             standards_body or government source or {second}"
        ),
    );
}
