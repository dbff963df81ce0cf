//! Query parameters, parsed at the edge: every bad field is collected and named in one 400
//! (INVALID_PARAMETER, `details: {field: problem}`), and nothing is clamped or guessed.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use serde_json::{Map, Value};

use super::ApiError;

pub struct Params<'a> {
    query: &'a HashMap<String, String>,
    problems: Map<String, Value>,
}

impl<'a> Params<'a> {
    pub fn new(query: &'a HashMap<String, String>) -> Self {
        Self { query, problems: Map::new() }
    }

    /// The raw value, trimmed; None when the parameter was not sent.
    pub fn raw(&self, name: &str) -> Option<&'a str> {
        self.query.get(name).map(|v| v.trim())
    }

    pub fn problem(&mut self, name: &str, problem: impl Into<String>) {
        self.problems.entry(name.to_owned()).or_insert_with(|| Value::String(problem.into()));
    }

    pub fn int(&mut self, name: &str, range: RangeInclusive<i64>) -> Option<i64> {
        let raw = self.raw(name)?;
        match raw.parse::<i64>() {
            Ok(n) if range.contains(&n) => Some(n),
            _ => {
                self.problem(name, format!("must be an integer from {} to {}", range.start(), range.end()));
                None
            }
        }
    }

    /// A finite, non-negative number.
    pub fn number(&mut self, name: &str) -> Option<f64> {
        let raw = self.raw(name)?;
        match raw.parse::<f64>() {
            Ok(n) if n.is_finite() && n >= 0.0 => Some(n),
            _ => {
                self.problem(name, "must be a non-negative number");
                None
            }
        }
    }

    pub fn boolean(&mut self, name: &str) -> Option<bool> {
        match self.raw(name)?.to_ascii_lowercase().as_str() {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => {
                self.problem(name, "must be true or false");
                None
            }
        }
    }

    /// A record id: `^[a-z0-9-]+$`.
    pub fn slug(&mut self, name: &str) -> Option<String> {
        let raw = self.raw(name)?;
        if is_slug(raw) {
            Some(raw.to_owned())
        } else {
            self.problem(name, "must be an id of lower-case letters, digits and hyphens");
            None
        }
    }

    /// One of `allowed` (compared in lower case).
    pub fn one_of(&mut self, name: &str, allowed: &[&str]) -> Option<String> {
        let raw = self.raw(name)?.to_ascii_lowercase();
        if allowed.contains(&raw.as_str()) {
            Some(raw)
        } else {
            self.problem(name, format!("must be one of: {}", allowed.join(", ")));
            None
        }
    }

    /// An ISO 3166-1 alpha-2 code, returned in upper case.
    pub fn country(&mut self, name: &str) -> Option<String> {
        let raw = self.raw(name)?;
        if is_country_code(raw) {
            Some(raw.to_ascii_uppercase())
        } else {
            self.problem(name, "must be a two-letter ISO 3166-1 country code");
            None
        }
    }

    /// Free text of 1 to `max` characters (after trimming).
    pub fn text(&mut self, name: &str, max: usize) -> Option<String> {
        let raw = self.raw(name)?;
        let length = raw.chars().count();
        if (1..=max).contains(&length) {
            Some(raw.to_owned())
        } else {
            self.problem(name, format!("must be 1 to {max} characters"));
            None
        }
    }

    pub fn required_text(&mut self, name: &str, max: usize) -> Option<String> {
        if self.raw(name).is_none() {
            self.problem(name, format!("is required (1 to {max} characters)"));
            return None;
        }
        self.text(name, max)
    }

    /// `order`: asc (default) or desc; true for descending.
    pub fn descending(&mut self) -> bool {
        self.one_of("order", &["asc", "desc"]).is_some_and(|o| o == "desc")
    }

    /// A comma-separated list of ids: at least one, at most `max`, each a slug, duplicates dropped.
    pub fn id_list(&mut self, name: &str, max: usize) -> Option<Vec<String>> {
        let Some(raw) = self.raw(name) else {
            self.problem(name, format!("is required: 1 to {max} comma-separated ids"));
            return None;
        };
        let mut ids: Vec<String> = Vec::new();
        for id in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if !is_slug(id) {
                self.problem(name, format!("'{id}' is not an id"));
                return None;
            }
            if !ids.iter().any(|known| known == id) {
                ids.push(id.to_owned());
            }
        }
        if ids.is_empty() || ids.len() > max {
            self.problem(name, format!("must name 1 to {max} ids"));
            return None;
        }
        Some(ids)
    }

    /// Ok when every parameter parsed; otherwise the 400 naming each bad one.
    pub fn finish(self) -> Result<(), ApiError> {
        if self.problems.is_empty() { Ok(()) } else { Err(ApiError::invalid_parameters(self.problems)) }
    }
}

pub fn is_slug(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

pub fn is_country_code(value: &str) -> bool {
    value.len() == 2 && value.bytes().all(|b| b.is_ascii_alphabetic())
}

/// A path id: 400 naming `name` unless it is a slug.
pub fn path_id(name: &str, value: &str) -> Result<(), ApiError> {
    if is_slug(value) {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(name, "must be an id of lower-case letters, digits and hyphens"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn every_bad_field_is_named_once() {
        let q = query(&[("year", "19x"), ("status", "retired"), ("country", "USA"), ("ok", "3")]);
        let mut params = Params::new(&q);
        assert_eq!(params.int("year", 1..=3000), None);
        assert_eq!(params.one_of("status", &["in_production"]), None);
        assert_eq!(params.country("country"), None);
        assert_eq!(params.int("ok", 1..=5), Some(3));
        let error = params.finish().unwrap_err();
        let details = error.body("r")["error"]["details"].clone();
        assert_eq!(details.as_object().unwrap().len(), 3);
    }

    #[test]
    fn id_lists_are_bounded_and_deduplicated() {
        let q = query(&[("ids", "a, b,a"), ("many", "a,b,c,d,e,f"), ("bad", "A")]);
        let mut params = Params::new(&q);
        assert_eq!(params.id_list("ids", 5), Some(vec!["a".to_owned(), "b".to_owned()]));
        assert_eq!(params.id_list("many", 5), None);
        assert_eq!(params.id_list("bad", 5), None);
        assert_eq!(params.id_list("missing", 5), None);
    }
}
