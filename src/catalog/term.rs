//! A vocabulary value (an action type, a status, a material, a country code) held once however
//! many records name it.
//!
//! A firearm names a dozen such values. As `String`s, each was a 24-byte field and a heap block
//! of its own: at 100,000 firearms about 50 MiB of the snapshot for a few hundred distinct words.
//! A `Term` is a shared pointer to the one copy, interned when a record is read; it reads as a
//! `str` (`Deref`), so `as_deref()`, comparisons and formatting work as they did.

use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{LazyLock, Mutex};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A pointer to the one copy of the text: eight bytes, and `Option<Term>` eight too (a record
/// holds a dozen), copied without touching a reference count when a catalog is cloned for a
/// patch. Compared, hashed and ordered by its text.
#[derive(Clone, Copy)]
pub struct Term(&'static &'static str);

/// Every distinct term read so far, kept for the process's life. Vocabulary is small and closed
/// (plus country codes and a few free-text materials), so the set stays a few hundred entries
/// whatever the catalog's size.
static TERMS: LazyLock<Mutex<HashMap<&'static str, Term>>> = LazyLock::new(Mutex::default);

impl Term {
    pub fn new(text: &str) -> Self {
        let mut terms = TERMS.lock().expect("never poisoned");
        if let Some(held) = terms.get(text) {
            return *held;
        }
        let held: &'static str = Box::leak(Box::from(text));
        let term = Term(Box::leak(Box::new(held)));
        terms.insert(held, term);
        term
    }

    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl PartialEq for Term {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Term {}

impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for Term {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Term {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Deref for Term {
    type Target = str;

    fn deref(&self) -> &str {
        self.0
    }
}

impl AsRef<str> for Term {
    fn as_ref(&self) -> &str {
        self.0
    }
}

impl std::borrow::Borrow<str> for Term {
    fn borrow(&self) -> &str {
        self.0
    }
}

impl From<&str> for Term {
    fn from(text: &str) -> Self {
        Self::new(text)
    }
}

impl From<String> for Term {
    fn from(text: String) -> Self {
        Self::new(&text)
    }
}

impl From<Term> for String {
    fn from(term: Term) -> Self {
        term.as_str().to_owned()
    }
}

impl PartialEq<str> for Term {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Term {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Term {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Term {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Term {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(TermVisitor)
    }
}

/// Interns the text as the format hands it over, borrowed or owned, without a copy of its own
/// (a persisted snapshot holds about a million terms at 100,000 firearms).
struct TermVisitor;

impl serde::de::Visitor<'_> for TermVisitor {
    type Value = Term;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Term, E> {
        Ok(Term::new(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_word_is_held_once_and_reads_as_written() {
        let a: Term = serde_json::from_str("\"gas_operated_rotating_bolt\"").unwrap();
        let b = Term::from("gas_operated_rotating_bolt".to_owned());
        assert!(std::ptr::eq(a.0, b.0), "the same word shares one copy");
        assert_eq!(std::mem::size_of::<Option<Term>>(), 8);
        assert_eq!(a, "gas_operated_rotating_bolt");
        assert_eq!(Some(&a).map(|t| &**t), Some("gas_operated_rotating_bolt"));
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"gas_operated_rotating_bolt\"");
        assert_eq!(format!("{a} {a:?}"), "gas_operated_rotating_bolt \"gas_operated_rotating_bolt\"");
    }
}
