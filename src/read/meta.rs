//! What the database adds to each catalog record (its content version, when it was created and
//! last changed), held compactly for the snapshot's life.
//!
//! As three strings per record in a map of maps, 154,000 records (100,000 synthetic firearms and
//! their makers and loads) took about 37 MiB. A version is 16 hex digits (`catalog::rows`), held
//! as the number they spell; the times are few distinct strings (an import stamps every record it
//! writes with one), held once each and named by index.

use std::collections::HashMap;

/// When a stored record was created and last changed, and its content version.
#[derive(Debug, Clone, Default)]
pub struct RecordMeta {
    pub version: String,
    pub created_at: String,
    pub updated_at: String,
}

/// A version as stored: 16 lower-case hex digits as their number, anything else kept as written.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
enum Version {
    Hex(u64),
    Written(u32),
}

#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
struct Packed {
    version: Version,
    created_at: u32,
    updated_at: u32,
}

/// Table name → record id → its meta.
#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct MetaTable {
    tables: HashMap<Box<str>, HashMap<Box<str>, Packed>>,
    /// The distinct times, each once.
    times: Vec<String>,
    time_at: HashMap<String, u32>,
    /// Versions that are not 16 hex digits.
    written: Vec<String>,
}

impl MetaTable {
    pub fn insert(&mut self, table: &'static str, id: String, meta: RecordMeta) {
        let version = match parse_hex(&meta.version) {
            Some(number) => Version::Hex(number),
            None => {
                self.written.push(meta.version);
                Version::Written((self.written.len() - 1) as u32)
            }
        };
        let packed = Packed {
            version,
            created_at: self.time(meta.created_at),
            updated_at: self.time(meta.updated_at),
        };
        self.tables.entry(table.into()).or_default().insert(id.into_boxed_str(), packed);
    }

    /// Forget the record `id` of `table` (its times stay held: an import stamps few).
    pub fn remove(&mut self, table: &str, id: &str) {
        if let Some(records) = self.tables.get_mut(table) {
            records.remove(id);
        }
    }

    /// The meta of the record `id` of `table`; empty strings when it is not stored.
    pub fn get(&self, table: &str, id: &str) -> RecordMeta {
        let Some(packed) = self.tables.get(table).and_then(|records| records.get(id)) else {
            return RecordMeta::default();
        };
        RecordMeta {
            version: match packed.version {
                Version::Hex(number) => format!("{number:016x}"),
                Version::Written(at) => self.written[at as usize].clone(),
            },
            created_at: self.times[packed.created_at as usize].clone(),
            updated_at: self.times[packed.updated_at as usize].clone(),
        }
    }

    /// The latest time a record of `tables` was changed, if any was.
    pub fn last_change(&self, tables: &[&str]) -> Option<String> {
        let used =
            tables.iter().filter_map(|table| self.tables.get(*table)).flat_map(|records| records.values());
        let latest = used
            .map(|packed| self.times[packed.updated_at as usize].as_str())
            .filter(|at| !at.is_empty())
            .max();
        latest.map(str::to_owned)
    }

    fn time(&mut self, time: String) -> u32 {
        if let Some(&at) = self.time_at.get(&time) {
            return at;
        }
        let at = self.times.len() as u32;
        self.times.push(time.clone());
        self.time_at.insert(time, at);
        at
    }
}

/// The number 16 lower-case hex digits spell, so that writing it back gives the same text.
fn parse_hex(text: &str) -> Option<u64> {
    let canonical =
        text.len() == 16 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    canonical.then(|| u64::from_str_radix(text, 16).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(version: &str, created_at: &str, updated_at: &str) -> RecordMeta {
        RecordMeta { version: version.into(), created_at: created_at.into(), updated_at: updated_at.into() }
    }

    #[test]
    fn every_meta_reads_back_as_stored() {
        let mut table = MetaTable::default();
        let stored = [
            ("firearms", "a", meta("00ff10aa0b0c0d0e", "2026-11-01 10:00:00", "2026-11-02 10:00:00")),
            ("firearms", "b", meta("fd80bfecac4320b1", "2026-11-01 10:00:00", "2026-11-01 10:00:00")),
            // Not 16 lower-case hex digits: kept as written.
            ("calibers", "a", meta("FD80BFECAC4320B1", "2026-11-03 10:00:00", "2026-11-03 10:00:00")),
            ("calibers", "b", meta("", "", "")),
        ];
        for (name, id, record) in &stored {
            table.insert(name, (*id).to_owned(), record.clone());
        }
        for (name, id, record) in &stored {
            let got = table.get(name, id);
            assert_eq!(
                (got.version, got.created_at, got.updated_at),
                (record.version.clone(), record.created_at.clone(), record.updated_at.clone())
            );
        }
        assert_eq!(table.times.len(), 4, "each distinct time is held once");
        assert_eq!(table.get("firearms", "missing").version, "");
        assert_eq!(table.get("ammunition", "a").created_at, "");
    }
}
