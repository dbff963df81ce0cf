//! Turning records into table rows: typed columns, child rows and the content version.
//!
//! Columns come from the record's served JSON (camelCase keys become snake_case column names), so
//! a field added to the model and to the migration needs no code here. Lists and objects are
//! stored as JSON text, as the spec serves them; `sources` is split into the served `sources`
//! (URLs), `sourceKinds` ({url, kind}) and `bestSourceKind`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;

use serde::Serialize;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::game_stats::CartridgeEnergies;
use super::model::{Catalog, Firearm, Source};
use super::store::Stored;
pub use super::table::Table;
use super::vocabulary::best_source_kind;

/// One record ready to be written.
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    /// The record as the data files hold it; stored as `record` and exported back.
    pub record: Value,
    /// `record` as stored in the table's `record` column (serialised once).
    pub record_text: String,
    pub version: String,
    pub columns: Vec<(String, Value)>,
    pub children: Vec<ChildRow>,
}

#[derive(Debug, Clone)]
pub struct ChildRow {
    pub table: &'static str,
    pub columns: Vec<(String, Value)>,
}

/// A catalog table with its name as a field, as the read side iterates `TABLES`.
#[derive(Debug, Clone, Copy)]
pub struct Named {
    pub table: Table,
    pub name: &'static str,
}

/// `Table::ALL` with each table's name beside it.
pub const TABLES: [Named; 8] = named(Table::ALL);

const fn named(tables: [Table; 8]) -> [Named; 8] {
    let mut out = [Named { table: Table::Categories, name: "" }; 8];
    let mut at = 0;
    while at < tables.len() {
        out[at] = Named { table: tables[at], name: tables[at].name() };
        at += 1;
    }
    out
}

/// How many records of `table` `catalog` holds.
pub fn len(catalog: &Catalog, table: Table) -> usize {
    match table {
        Table::Categories => catalog.categories.len(),
        Table::Manufacturers => catalog.manufacturers.len(),
        Table::Calibers => catalog.calibers.len(),
        Table::Interfaces => catalog.interfaces.len(),
        Table::Platforms => catalog.platforms.len(),
        Table::Firearms => catalog.firearms.len(),
        Table::Ammunition => catalog.ammunition.len(),
        Table::Attachments => catalog.attachments.len(),
    }
}

/// The ids of `table`'s records in `catalog`.
pub fn ids(catalog: &Catalog, table: Table) -> Box<dyn Iterator<Item = &str> + '_> {
    match table {
        Table::Categories => Box::new(catalog.categories.iter().map(|r| r.id.as_str())),
        Table::Manufacturers => Box::new(catalog.manufacturers.iter().map(|r| r.id.as_str())),
        Table::Calibers => Box::new(catalog.calibers.iter().map(|r| r.id.as_str())),
        Table::Interfaces => Box::new(catalog.interfaces.iter().map(|r| r.id.as_str())),
        Table::Platforms => Box::new(catalog.platforms.iter().map(|r| r.id.as_str())),
        Table::Firearms => Box::new(catalog.firearms.as_typed().iter().map(|r| r.id.as_str())),
        Table::Ammunition => Box::new(catalog.ammunition.as_typed().iter().map(|r| r.id.as_str())),
        Table::Attachments => Box::new(catalog.attachments.iter().map(|r| r.id.as_str())),
    }
}

/// The rows of a catalog, table by table and a range of records at a time, so an import holds
/// one chunk of rows (JSON values, several times the records' size) rather than a whole table.
pub struct RowSource<'a> {
    catalog: &'a Catalog,
    /// The firearms' live game stats, derived once: they need every caliber.
    stats: HashMap<String, super::game_stats::GameStats>,
    /// What is stored, by table: a record whose version it holds gets an unchanged row.
    stored: &'a StoredTables,
}

/// Table → record id → what is stored of it.
pub type StoredTables = HashMap<Table, HashMap<String, Stored>>;

impl<'a> RowSource<'a> {
    pub fn new(catalog: &'a Catalog, stored: &'a StoredTables) -> Self {
        Self { catalog, stats: super::game_stats::derive(catalog), stored }
    }

    /// The rows of a part of the catalog: its firearms' cartridges looked up in `energies`, which
    /// holds every stored caliber, not only the part's.
    pub fn among(catalog: &'a Catalog, stored: &'a StoredTables, energies: &CartridgeEnergies) -> Self {
        Self { catalog, stats: super::game_stats::derive_with(catalog.firearms.as_typed(), energies), stored }
    }

    /// Whether `table` stores record `id` at `version` already.
    fn unchanged(&self, table: Table, id: &str, version: &str) -> bool {
        self.stored.get(&table).and_then(|records| records.get(id)).is_some_and(|s| s.version == version)
    }

    /// The rows of `table`'s records in `range` (of the catalog's order).
    pub fn rows(&self, table: Table, range: Range<usize>) -> Vec<Row> {
        let catalog = self.catalog;
        match table {
            Table::Categories => self.rows_of(table, &catalog.categories[range], |r| &r.id, |_| vec![]),
            Table::Manufacturers => self.rows_of(table, &catalog.manufacturers[range], |r| &r.id, |_| vec![]),
            Table::Calibers => self.rows_of(table, &catalog.calibers[range], |r| &r.id, |_| vec![]),
            Table::Interfaces => self.rows_of(table, &catalog.interfaces[range], |r| &r.id, |_| vec![]),
            Table::Platforms => self.rows_of(
                table,
                &catalog.platforms[range],
                |r| &r.id,
                |p| links("platform_interfaces", "platform_id", &p.id, &p.interfaces),
            ),
            Table::Firearms => {
                catalog.firearms.as_typed()[range].iter().map(|firearm| self.firearm_row(firearm)).collect()
            }
            Table::Ammunition => {
                self.rows_of(table, &catalog.ammunition.as_typed()[range], |r| &r.id, |_| vec![])
            }
            Table::Attachments => self.rows_of(
                table,
                &catalog.attachments[range],
                |r| &r.id,
                |a| links("attachment_interfaces", "attachment_id", &a.id, &a.interfaces),
            ),
        }
    }

    /// A firearm's row: its version covers the live game stats too (served fields computed at
    /// import), which the stored record leaves out.
    fn firearm_row(&self, firearm: &Firearm) -> Row {
        let record = serde_json::to_value(firearm).expect("records serialise");
        let record_text = record.to_string();
        let stats = self.stats.get(&firearm.id).copied().unwrap_or_default();
        let version = version_of_text(&with_stats(&record_text, &stats));
        if self.unchanged(Table::Firearms, &firearm.id, &version) {
            return Row::unchanged(firearm.id.clone(), version);
        }
        let mut columns = Map::new();
        columns.insert("firearm_id".into(), json!(firearm.id));
        for (name, value) in stats.named() {
            columns.insert(snake_case(name), json!(value));
        }
        let mut children = firearm_children(firearm);
        children.push(child("firearm_game_stats", Value::Object(columns)));
        Row {
            id: firearm.id.clone(),
            record_text,
            version,
            columns: self::columns(Table::Firearms, &record),
            children,
            record,
        }
    }

    fn rows_of<R: Serialize>(
        &self,
        table: Table,
        records: &[R],
        id: impl Fn(&R) -> &String,
        children: impl Fn(&R) -> Vec<ChildRow>,
    ) -> Vec<Row> {
        records
            .iter()
            .map(|record| {
                let value = serde_json::to_value(record).expect("records serialise");
                let record_text = value.to_string();
                let version = version_of_text(&record_text);
                if self.unchanged(table, id(record), &version) {
                    return Row::unchanged(id(record).clone(), version);
                }
                Row {
                    id: id(record).clone(),
                    version,
                    columns: columns(table, &value),
                    children: children(record),
                    record: value,
                    record_text,
                }
            })
            .collect()
    }
}

impl Row {
    /// The row of a record stored at `version` already: only its id and version, which is all
    /// the import looks at before it counts it unchanged. Building the columns and child rows of
    /// every record was most of re-importing 100,000 firearms with one changed.
    fn unchanged(id: String, version: String) -> Self {
        Self {
            id,
            record: Value::Null,
            record_text: String::new(),
            version,
            columns: vec![],
            children: vec![],
        }
    }
}

/// A firearm record's JSON text with its live game stats appended as further members: the text
/// `serde_json` gives the record's `Value` with the stats set on it (a `Firearm` has no member of
/// those names, so each is appended in order), made without copying and serialising that `Value`
/// again, which was a fifth of building a firearm's row.
fn with_stats(record_text: &str, stats: &super::game_stats::GameStats) -> String {
    let body = record_text.strip_suffix('}').expect("a record serialises to an object");
    let mut text = String::with_capacity(record_text.len() + 200);
    text.push_str(body);
    for (name, value) in stats.named() {
        if text.len() > 1 {
            text.push(',');
        }
        text.push('"');
        text.push_str(name);
        text.push_str("\":");
        match value {
            Some(value) => write!(text, "{value}").expect("writing to a String never fails"),
            None => text.push_str("null"),
        }
    }
    text.push('}');
    text
}

pub fn version_of(record: &Value) -> String {
    version_of_text(&record.to_string())
}

/// `version_of` a record already serialised.
fn version_of_text(text: &str) -> String {
    hex::encode(&Sha256::digest(text.as_bytes())[..8])
}

fn columns(table: Table, record: &Value) -> Vec<(String, Value)> {
    let Value::Object(fields) = record else { return vec![] };
    let mut columns = Vec::with_capacity(fields.len() + 3);
    for (key, value) in fields {
        if table.child_keys().contains(&key.as_str()) {
            continue;
        }
        if key == "sources" {
            columns.extend(source_columns(value));
            continue;
        }
        columns.push((snake_case(key), value.clone()));
    }
    columns
}

fn source_columns(sources: &Value) -> [(String, Value); 3] {
    let sources: Vec<Source> = serde_json::from_value(sources.clone()).unwrap_or_default();
    let urls: Vec<&str> = sources.iter().map(|s| s.url.as_str()).collect();
    let best = best_source_kind(sources.iter().map(|s| s.kind.as_str()));
    [
        ("sources".to_owned(), json!(urls)),
        ("source_kinds".to_owned(), serde_json::to_value(&sources).unwrap_or(Value::Null)),
        ("best_source_kind".to_owned(), json!(best)),
    ]
}

pub fn snake_case(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for ch in camel.chars() {
        if ch.is_ascii_uppercase() {
            out.push('_');
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

fn firearm_children(firearm: &Firearm) -> Vec<ChildRow> {
    let id = json!(firearm.id);
    let mut children = Vec::new();
    for (position, link) in firearm.calibers.iter().enumerate() {
        children.push(child(
            "firearm_calibers",
            json!({"firearm_id": id, "caliber_id": link.caliber_id, "is_primary": i64::from(link.is_primary), "position": position}),
        ));
    }
    for (position, user) in firearm.users.iter().enumerate() {
        children.push(child(
            "firearm_users",
            json!({"firearm_id": id, "position": position, "user_name": user.user_name, "user_type": user.user_type,
                   "country_code": user.country_code, "designation": user.designation, "adopted_year": user.adopted_year}),
        ));
    }
    for image in &firearm.images {
        children.push(child(
            "images",
            json!({"id": image.id, "firearm_id": id, "url": image.url, "type": image.image_type, "source": image.source,
                   "license": image.license, "alt_text": image.alt_text, "width_px": image.width_px, "height_px": image.height_px,
                   "file": image.file, "file_digest": image.file_digest}),
        ));
    }
    children.extend(links("firearm_interfaces", "firearm_id", &firearm.id, &firearm.interfaces));
    children
}

fn links(table: &'static str, parent_column: &str, parent: &str, interfaces: &[String]) -> Vec<ChildRow> {
    interfaces
        .iter()
        .map(|interface| child(table, json!({ parent_column: parent, "interface_id": interface })))
        .collect()
}

fn child(table: &'static str, columns: Value) -> ChildRow {
    let Value::Object(map) = columns else { unreachable!("built from an object literal") };
    ChildRow { table, columns: Map::into_iter(map).collect() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_fields_become_snake_case_columns() {
        assert_eq!(snake_case("weightEmptyG"), "weight_empty_g");
        assert_eq!(snake_case("triggerPullN"), "trigger_pull_n");
        assert_eq!(snake_case("ballisticCoefficientG1"), "ballistic_coefficient_g1");
    }

    #[test]
    fn stats_appended_to_the_text_serialise_as_the_value_with_them_set() {
        let record = json!({"id": "x", "name": "Ä \"quoted\"", "weightEmptyG": 625.5, "images": []});
        let stats = crate::catalog::game_stats::GameStats {
            game_damage: Some(71),
            game_range: Some(-3),
            ..Default::default()
        };
        let mut versioned = record.clone();
        for (name, value) in stats.named() {
            versioned[name] = json!(value);
        }
        assert_eq!(with_stats(&record.to_string(), &stats), versioned.to_string());
    }

    #[test]
    fn the_version_follows_the_content() {
        let a = json!({"id": "x", "weightEmptyG": 625.0});
        let b = json!({"id": "x", "weightEmptyG": 630.0});
        assert_eq!(version_of(&a), version_of(&a.clone()));
        assert_ne!(version_of(&a), version_of(&b));
    }
}
