//! Field-level verification, kept in the data files (`armory catalog verify`): a person checked a
//! source page and it states some of a firearm's figures. The source is added to the firearm's
//! `sources` (or its `fields` widened), the fields join `verifiedFields`, `verifiedAt` is the day,
//! and `dataConfidence` rises by `confidence_after`. `clear_changed` is the other half: an import
//! that changes a verified field's value drops that field's verification, in the file too.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::check::hosts::{HostList, Listed, host_of};
use super::load::{self, FileRecords};
use super::model::{Catalog, Firearm, Source, Term};
use super::record_text::{self, KeyEdit, toml_string, toml_strings};

/// A firearm's key figures (data/README.md, "the confidence rule").
const KEY_FIGURES: &[&str] =
    &["weightEmptyG", "overallLengthMm", "barrelLengthMm", "muzzleVelocityMps", "rateOfFireRpm"];
/// Keys that are provenance, not figures a source can state.
const PROVENANCE: &[&str] = &["id", "dataConfidence", "sources", "verifiedAt", "verifiedFields"];

/// What a person checked.
#[derive(Debug, Clone)]
pub struct Verification {
    pub firearm_id: String,
    /// Served field names the source states.
    pub fields: Vec<String>,
    pub source: String,
    /// The source's kind; by default the kind hosts.toml lists its host with.
    pub kind: Option<String>,
    /// The day of the check, YYYY-MM-DD.
    pub date: String,
}

/// What was written.
#[derive(Debug)]
pub struct Verified {
    /// The data file edited, relative to the folder.
    pub file: PathBuf,
    pub verified_fields: Vec<String>,
    pub data_confidence: Option<f64>,
}

/// The confidence a firearm has once `verified` fields are checked against a source of `kind`:
/// when every key figure it fills is verified, at least 0.9 for a manufacturer or standards body
/// page, 0.75 for a government page, 0.6 for any other (the data guide's values, which the
/// checker's confidence rule allows for one source of that kind); otherwise unchanged.
pub fn confidence_after(
    current: Option<f64>,
    firearm: &Value,
    verified: &[String],
    kind: &str,
) -> Option<f64> {
    let filled_keys = KEY_FIGURES.iter().filter(|key| filled(firearm, key));
    let all_verified = filled_keys.clone().all(|key| verified.iter().any(|v| v == key));
    if !all_verified || filled_keys.count() == 0 {
        return current;
    }
    let floor = match kind {
        "manufacturer" | "standards_body" => 0.9,
        "government" => 0.75,
        _ => 0.6,
    };
    Some(current.map_or(floor, |c: f64| c.max(floor)))
}

fn filled(record: &Value, field: &str) -> bool {
    match &record[field] {
        Value::Null => false,
        Value::Array(items) => !items.is_empty(),
        Value::String(text) => !text.is_empty(),
        _ => true,
    }
}

/// Records `verification` in the data file under `dir` that holds the firearm; the folder must
/// load before and after (the file is put back when it would not).
pub fn verify(dir: &Path, verification: &Verification) -> Result<Verified, String> {
    let (catalog, files) = load::load_dir_with_files(dir).map_err(|e| e.to_string())?;
    let id = &verification.firearm_id;
    let firearm = catalog
        .firearms
        .iter()
        .find(|f| f.id == *id)
        .ok_or_else(|| format!("no firearm has the id '{id}'"))?;
    let record = serde_json::to_value(&*firearm).expect("a record serialises");
    if verification.fields.is_empty() {
        return Err("--fields: name at least one field".to_owned());
    }
    for field in &verification.fields {
        if PROVENANCE.contains(&field.as_str()) || record.get(field).is_none() {
            return Err(format!("--fields: {field} is not a figure of a firearm"));
        }
        if !filled(&record, field) {
            return Err(format!(
                "--fields: {id} has no {field}; a source cannot be checked for a figure the record lacks"
            ));
        }
    }
    let kind = source_kind(dir, &verification.source, verification.kind.as_deref())?;
    let file = holding_file(&files, id)?;

    let mut sources = firearm.sources.clone();
    match sources.iter_mut().find(|s| s.url == verification.source) {
        Some(source) => union(&mut source.fields, &verification.fields),
        None => sources.push(Source {
            url: verification.source.clone(),
            kind: Term::new(&kind),
            fields: verification.fields.clone(),
        }),
    }
    let mut verified_fields = firearm.verified_fields.clone().unwrap_or_default();
    union(&mut verified_fields, &verification.fields);
    let data_confidence = confidence_after(firearm.data_confidence, &record, &verified_fields, &kind);
    let edits: Vec<KeyEdit<'_>> = vec![
        ("dataConfidence", data_confidence.map(|c| c.to_string())),
        ("sources", Some(render_sources(&sources))),
        ("verifiedAt", Some(toml_string(&verification.date))),
        ("verifiedFields", Some(toml_strings(&verified_fields))),
    ];
    rewrite(dir, &file, id, &edits)?;
    Ok(Verified { file, verified_fields, data_confidence })
}

/// The kind of `url`'s host in dir/hosts.toml, checked against `given`.
fn source_kind(dir: &Path, url: &str, given: Option<&str>) -> Result<String, String> {
    if !url.starts_with("https://") {
        return Err(format!("--source: {url} is not an https page"));
    }
    let host = host_of(url).ok_or_else(|| format!("--source: {url} names no host"))?;
    let hosts = HostList::load(&dir.join("hosts.toml")).map_err(|e| e.to_string())?;
    let listed = match hosts.get(&host) {
        Some(Listed::Kind(kind)) => kind.clone(),
        Some(Listed::Mirror { of }) => {
            return Err(format!("--source: {host} is a mirror of {of}; cite the original"));
        }
        None => return Err(format!("--source: {host} is not in hosts.toml; list it with its kind first")),
    };
    match given {
        Some(kind) if kind != listed => {
            Err(format!("--kind: hosts.toml lists {host} as {listed}, not {kind}"))
        }
        _ => Ok(listed),
    }
}

fn holding_file(files: &[FileRecords], id: &str) -> Result<PathBuf, String> {
    files
        .iter()
        .find(|f| f.records.iter().any(|(kind, record)| *kind == "firearm" && record == id))
        .map(|f| PathBuf::from(&f.path))
        .ok_or_else(|| format!("no data file holds firearm {id}"))
}

/// Makes `edits` in record `id` of `file` (relative to `dir`); puts the file back when the
/// folder no longer loads.
fn rewrite(dir: &Path, file: &Path, id: &str, edits: &[KeyEdit<'_>]) -> Result<(), String> {
    let path = dir.join(file);
    let before = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let after = record_text::edit_record(&before, "firearms", id, edits)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(&path, &after).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Err(errors) = load::load_dir(dir) {
        std::fs::write(&path, &before).map_err(|e| format!("{}: {e}", path.display()))?;
        return Err(format!("the edit would not load, so {} is left as it was: {errors}", file.display()));
    }
    Ok(())
}

fn union(into: &mut Vec<String>, more: &[String]) {
    for item in more {
        if !into.contains(item) {
            into.push(item.clone());
        }
    }
}

fn render_sources(sources: &[Source]) -> String {
    let one = |s: &Source| {
        let fields = if s.fields.is_empty() {
            String::new()
        } else {
            format!(", fields = {}", toml_strings(&s.fields))
        };
        format!("{{ url = {}, kind = {}{fields} }}", toml_string(&s.url), toml_string(s.kind.as_str()))
    };
    match sources {
        [only] => format!("[{}]", one(only)),
        many => format!("[\n{}]", many.iter().map(|s| format!("  {},\n", one(s))).collect::<String>()),
    }
}

/// Drops the verification of every firearm field whose value `incoming` changes from `stored`
/// while both list it as verified: in `incoming` (the import then stores it without) and in its
/// data file under `dir` (so the files stay the truth). Says what it cleared, one line each.
pub fn clear_changed(
    stored: &Catalog,
    incoming: &mut Catalog,
    files: &[FileRecords],
    dir: &Path,
) -> Result<Vec<String>, String> {
    let stored_firearms = stored.firearms.typed();
    let before: HashMap<&str, &Firearm> =
        stored_firearms.iter().map(|f| (f.id.as_str(), f.as_ref())).collect();
    let mut cleared = Vec::new();
    for firearm in incoming.firearms.typed_mut().iter_mut() {
        let Some(verified) = firearm.verified_fields.as_ref().filter(|v| !v.is_empty()) else { continue };
        let Some(old) = before.get(firearm.id.as_str()) else { continue };
        let old_verified = old.verified_fields.clone().unwrap_or_default();
        let (new_value, old_value) = (
            serde_json::to_value(&**firearm).expect("serialises"),
            serde_json::to_value(*old).expect("serialises"),
        );
        let changed: Vec<String> = verified
            .iter()
            .filter(|field| {
                old_verified.contains(field) && new_value[field.as_str()] != old_value[field.as_str()]
            })
            .cloned()
            .collect();
        if changed.is_empty() {
            continue;
        }
        let keep: Vec<String> = verified.iter().filter(|f| !changed.contains(f)).cloned().collect();
        let id = firearm.id.clone();
        let file = holding_file(files, &id)?;
        let edits: Vec<KeyEdit<'_>> = if keep.is_empty() {
            vec![("verifiedFields", None), ("verifiedAt", None)]
        } else {
            vec![("verifiedFields", Some(toml_strings(&keep)))]
        };
        rewrite(dir, &file, &id, &edits)?;
        let firearm = std::sync::Arc::make_mut(firearm);
        if keep.is_empty() {
            firearm.verified_at = None;
        }
        firearm.verified_fields = (!keep.is_empty()).then_some(keep);
        cleared.push(format!(
            "{id}: {} changed, so its verification is cleared ({})",
            changed.join(", "),
            file.display()
        ));
    }
    Ok(cleared)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn confidence_rises_only_when_every_filled_key_figure_is_verified() {
        let firearm = json!({ "weightEmptyG": 4190.0, "barrelLengthMm": 200.0, "overallLengthMm": null });
        let both = ["weightEmptyG".to_owned(), "barrelLengthMm".to_owned()];
        assert_eq!(confidence_after(Some(0.6), &firearm, &both, "manufacturer"), Some(0.9));
        assert_eq!(confidence_after(Some(0.6), &firearm, &both, "government"), Some(0.75));
        assert_eq!(confidence_after(Some(0.6), &firearm, &both, "reference"), Some(0.6));
        assert_eq!(confidence_after(Some(0.95), &firearm, &both, "government"), Some(0.95), "never lowered");
        assert_eq!(
            confidence_after(Some(0.6), &firearm, &both[..1], "manufacturer"),
            Some(0.6),
            "one of two"
        );
        assert_eq!(confidence_after(None, &json!({}), &both, "manufacturer"), None, "no key figure filled");
    }
}
