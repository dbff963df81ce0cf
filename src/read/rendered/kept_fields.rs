//! Some fields of a pre-rendered record, copied out as written: a sub-list's items and the list's
//! `fields` parameter keep a few fields of each listed record.
//!
//! The record is read as borrowed entries (each value's raw text, never parsed into a value): a
//! full record is a few kilobytes, and parsing twenty of them into value trees to keep six
//! fields each was most of a sub-list page's time.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::PageBody;

/// The fields of the JSON object `record` that `keep` names, in the record's order, appended to
/// `out` as an object (`{}` for a record that is not an object).
pub fn append_kept(record: &str, keep: impl Fn(&str) -> bool, out: &mut PageBody) {
    out.push('{');
    if let Ok(Entries(entries)) = serde_json::from_str::<Entries>(record) {
        for (i, (key, value)) in entries.into_iter().filter(|(key, _)| keep(key)).enumerate() {
            if i > 0 {
                out.push(',');
            }
            // A key borrowed from the text has no escapes: its text is the key.
            out.push('"');
            out.push_str(key);
            out.push_str("\":");
            out.push_str(value.get());
        }
    }
    out.push('}');
}

/// A JSON object's entries borrowed from its text (keys without escapes, as the rendered forms
/// write them; one with an escape fails the read).
struct Entries<'a>(Vec<(&'a str, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<&'de str, &'de RawValue>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value, json};

    /// What the pages wrote before: the record parsed into a value, the kept fields written.
    fn through_values(record: &str, keep: &[&str]) -> String {
        let record: Map<String, Value> = serde_json::from_str(record).unwrap_or_default();
        Value::Object(record.into_iter().filter(|(k, _)| keep.contains(&k.as_str())).collect()).to_string()
    }

    #[test]
    fn kept_fields_are_written_as_parsing_and_writing_them_did() {
        let record = json!({
            "id": "ak-47", "name": "AK-47 \"Kalashnikov\" \\ é", "weightEmptyG": 3470.0, "yearIntroduced": 1949,
            "calibers": [{ "caliberId": "762x39mm", "isPrimary": 1 }], "status": null, "ratio": 1.5e-7,
            "nested": { "a": [1, 2, { "b": "c" }] }
        })
        .to_string();
        for keep in [
            &["id", "name"][..],
            &["calibers", "status", "ratio"],
            &["nested", "weightEmptyG"],
            &[],
            &["absent"],
        ] {
            let mut out = PageBody::with_capacity(0);
            append_kept(&record, |key| keep.contains(&key), &mut out);
            assert_eq!(out.as_str(), through_values(&record, keep), "{keep:?}");
        }
        for not_an_object in ["[1, 2]", "not json", "\"text\""] {
            let mut out = PageBody::with_capacity(0);
            append_kept(not_an_object, |_| true, &mut out);
            assert_eq!(out.as_str(), "{}");
        }
    }
}
