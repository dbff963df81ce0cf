//! Query parameters that parse and document themselves.
//!
//! Each parameter is a `QueryParam` constant: its name, its `Rule` (slug, country code, bounded
//! text, closed list, bounded integer, ...) and its description. The same constant parses the
//! request (`Params`, which collects every bad field and names them all in one 400
//! INVALID_PARAMETER, nothing clamped or guessed) and publishes the parameter with the pattern,
//! bounds or enum the server enforces (`QueryParam::parameter`). A handler's query is a struct
//! implementing `QueryParams` (its constants and how its fields are read), taken with the
//! `Valid<T>` extractor; `query_params_doc!` turns the same constants into the annotation's
//! `params(...)`, so what is enforced is what is published.

use std::collections::HashMap;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde_json::{Map, Value};
use utoipa::openapi::Required;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use crate::http::ApiError;

/// How a parameter's value is checked (and published).
#[derive(Debug, Clone, Copy)]
pub enum Rule {
    /// A record id: `^[a-z0-9-]+$`.
    Slug,
    /// ISO 3166-1 alpha-2, either case.
    Country,
    /// Free text of 1 to `max` characters, not only spaces.
    Text { max: usize },
    /// One of a closed list (matched in any case).
    OneOf(&'static [&'static str]),
    /// An integer within bounds.
    Int { min: i64, max: i64 },
    /// A finite number, not negative.
    Number,
    /// true or false (1 or 0).
    Bool,
    /// 1 to `max` comma-separated record ids.
    IdList { max: usize },
    /// A month, `YYYY-MM`.
    Month,
    /// A comma-separated list of names from a set.
    Names(fn() -> Vec<&'static str>),
    /// A decade, `1980s`.
    Decade,
    /// A dataset label (a game-stats version): 1 to 50 letters, digits, '.', '-' or '_'.
    Label,
    /// A decimal number within bounds (inclusive).
    Decimal { min: f64, max: f64 },
}

const SLUG_PATTERN: &str = "^[a-z0-9-]+$";
const COUNTRY_PATTERN: &str = "^[A-Za-z]{2}$";
const LABEL_PATTERN: &str = "^[A-Za-z0-9._-]{1,50}$";
const MONTH_PATTERN: &str = "^[0-9]{4}-(0[1-9]|1[0-2])$";
const DECADE_PATTERN: &str = "^[0-9]{3}0s$";
/// Any character that is not white space: trimmed text must keep at least one.
const NOT_BLANK_PATTERN: &str = "\\S";

/// One query parameter: parsed and published from this one definition.
#[derive(Debug, Clone, Copy)]
pub struct QueryParam {
    pub name: &'static str,
    pub rule: Rule,
    pub required: bool,
    pub description: &'static str,
}

impl QueryParam {
    pub const fn new(name: &'static str, rule: Rule, description: &'static str) -> Self {
        Self { name, rule, required: false, description }
    }

    pub const fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// The published parameter, with the pattern, bounds or enum the server enforces.
    pub fn parameter(&self) -> Parameter {
        ParameterBuilder::new()
            .name(self.name)
            .parameter_in(ParameterIn::Query)
            .required(if self.required { Required::True } else { Required::False })
            .description(Some(self.description))
            .schema(Some(self.rule.schema()))
            .build()
    }
}

impl Rule {
    pub fn schema(&self) -> Schema {
        let string = || ObjectBuilder::new().schema_type(Type::String);
        let built = match *self {
            Rule::Slug => string().pattern(Some(SLUG_PATTERN)),
            Rule::Country => string().pattern(Some(COUNTRY_PATTERN)),
            Rule::Month => string().pattern(Some(MONTH_PATTERN)),
            Rule::Decade => string().pattern(Some(DECADE_PATTERN)),
            Rule::Label => string().pattern(Some(LABEL_PATTERN)),
            Rule::Decimal { min, max } => {
                ObjectBuilder::new().schema_type(Type::Number).minimum(Some(min)).maximum(Some(max))
            }
            Rule::Text { max } => {
                string().min_length(Some(1)).max_length(Some(max)).pattern(Some(NOT_BLANK_PATTERN))
            }
            Rule::OneOf(values) => string().enum_values(Some(values.iter().copied())),
            Rule::Int { min, max } => {
                ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(min)).maximum(Some(max))
            }
            Rule::Number => ObjectBuilder::new().schema_type(Type::Number).minimum(Some(0)),
            Rule::Bool => ObjectBuilder::new().schema_type(Type::Boolean),
            Rule::Names(names) => {
                let one = format!("({})", names().join("|"));
                string().pattern(Some(format!("^{one}(,{one})*$")))
            }
            Rule::IdList { max } => {
                let pattern = format!("^[a-z0-9-]+(,[a-z0-9-]+){{0,{}}}$", max.saturating_sub(1));
                string().pattern(Some(pattern))
            }
        };
        Schema::Object(built.build())
    }
}

/// A handler's query: its parameters and how they are read.
pub trait QueryParams: Sized {
    /// Every parameter the handler reads, in the order they are published.
    const PARAMS: &'static [QueryParam];

    /// Read the fields; problems are collected in `params` and answered together.
    fn read(params: &mut Params) -> Self;

    /// The published parameters.
    fn parameters() -> Vec<Parameter> {
        Self::PARAMS.iter().map(QueryParam::parameter).collect()
    }
}

/// The query of a request, parsed by `T` with every bad field named in one 400.
pub struct Valid<T>(pub T);

impl<T: QueryParams, S: Send + Sync> FromRequestParts<S> for Valid<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let query = super::query_string::of(parts);
        let mut params = Params::declared(&query, T::PARAMS);
        let value = T::read(&mut params);
        // A paged or ranked operation's `page`, `per_page` or `limit` is named in the same 400 as
        // its own parameters (handlers take `Valid` before `Paging` and `Limit`).
        let path = parts.extensions.get::<axum::extract::MatchedPath>().map(|m| m.as_str());
        if let Some(operation) =
            path.and_then(|path| crate::access::operations::for_request(parts.method.as_str(), path))
        {
            for (name, problem) in crate::access::paging::style_problems(&query, operation.style) {
                params.problems.entry(name).or_insert(problem);
            }
        }
        params.finish()?;
        Ok(Valid(value))
    }
}

/// `impl utoipa::IntoParams` for a `QueryParams` struct, so `params(TheQuery)` in an annotation
/// publishes exactly the parameters it parses.
#[macro_export]
macro_rules! query_params_doc {
    ($($query:ty),* $(,)?) => {
        $(
            impl utoipa::IntoParams for $query {
                fn into_params(
                    _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
                ) -> Vec<utoipa::openapi::path::Parameter> {
                    <$query as $crate::http::extract::query::QueryParams>::parameters()
                }
            }
        )*
    };
}

/// The parameters of one request, read one by one; every problem is kept for one 400.
///
/// Each reader answers `None` for a parameter that is absent or bad. A query struct holds a
/// required parameter as its type, read with `.unwrap_or_default()`: when it is missing or bad
/// its problem is recorded and `Valid` refuses the request, so no handler sees the placeholder.
pub struct Params<'a> {
    query: &'a HashMap<String, String>,
    /// The parameters the handler declared; reading another is a programming error.
    declared: &'static [QueryParam],
    problems: Map<String, Value>,
}

impl<'a> Params<'a> {
    pub fn declared(query: &'a HashMap<String, String>, declared: &'static [QueryParam]) -> Self {
        Self { query, declared, problems: Map::new() }
    }

    /// The raw value, trimmed; None when the parameter was not sent.
    fn raw(&mut self, param: &QueryParam) -> Option<&'a str> {
        debug_assert!(
            self.declared.iter().any(|d| d.name == param.name),
            "{} is read but not declared, so it would not be published",
            param.name
        );
        let raw = self.query.get(param.name).map(|v| v.trim());
        if raw.is_none() && param.required {
            self.problem(param.name, "is required");
        }
        raw
    }

    pub fn problem(&mut self, name: &str, problem: impl Into<String>) {
        self.problems.entry(name.to_owned()).or_insert_with(|| Value::String(problem.into()));
    }

    /// The value of a `Text` parameter.
    pub fn text(&mut self, param: &QueryParam) -> Option<String> {
        let Rule::Text { max } = param.rule else { unreachable!("{} is not text", param.name) };
        let raw = self.raw(param)?;
        if (1..=max).contains(&raw.chars().count()) {
            Some(raw.to_owned())
        } else {
            self.problem(param.name, format!("must be 1 to {max} characters"));
            None
        }
    }

    /// The value of a `Slug` parameter.
    pub fn slug(&mut self, param: &QueryParam) -> Option<String> {
        let raw = self.raw(param)?;
        if is_slug(raw) {
            Some(raw.to_owned())
        } else {
            self.problem(param.name, "must be an id of lower-case letters, digits and hyphens");
            None
        }
    }

    /// The value of a `Country` parameter, in upper case.
    pub fn country(&mut self, param: &QueryParam) -> Option<String> {
        let raw = self.raw(param)?;
        if is_country_code(raw) {
            Some(raw.to_ascii_uppercase())
        } else {
            self.problem(param.name, "must be a two-letter ISO 3166-1 country code");
            None
        }
    }

    /// The value of a `OneOf` parameter (matched in any case), spelled as the list spells it.
    pub fn one_of(&mut self, param: &QueryParam) -> Option<String> {
        let Rule::OneOf(allowed) = param.rule else { unreachable!("{} is not a closed list", param.name) };
        let raw = self.raw(param)?;
        if let Some(known) = allowed.iter().find(|known| known.eq_ignore_ascii_case(raw)) {
            Some((*known).to_owned())
        } else {
            self.problem(param.name, format!("must be one of: {}", allowed.join(", ")));
            None
        }
    }

    /// The value of an `Int` parameter.
    pub fn int(&mut self, param: &QueryParam) -> Option<i64> {
        let Rule::Int { min, max } = param.rule else { unreachable!("{} is not an integer", param.name) };
        let raw = self.raw(param)?;
        match raw.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Some(n),
            _ => {
                self.problem(param.name, format!("must be an integer from {min} to {max}"));
                None
            }
        }
    }

    /// The value of a `Number` parameter.
    pub fn number(&mut self, param: &QueryParam) -> Option<f64> {
        let raw = self.raw(param)?;
        match raw.parse::<f64>() {
            Ok(n) if n.is_finite() && n >= 0.0 => Some(n),
            _ => {
                self.problem(param.name, "must be a non-negative number");
                None
            }
        }
    }

    /// The value of a `Label` parameter.
    pub fn label(&mut self, param: &QueryParam) -> Option<String> {
        let raw = self.raw(param)?;
        let ok = (1..=50).contains(&raw.len())
            && raw.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
        if ok {
            Some(raw.to_owned())
        } else {
            self.problem(param.name, "must be 1 to 50 letters, digits, '.', '-' or '_'");
            None
        }
    }

    /// The value of a `Decimal` parameter.
    pub fn decimal(&mut self, param: &QueryParam) -> Option<f64> {
        let Rule::Decimal { min, max } = param.rule else { unreachable!("{} is not a decimal", param.name) };
        let raw = self.raw(param)?;
        match raw.parse::<f64>() {
            Ok(n) if n.is_finite() && (min..=max).contains(&n) => Some(n),
            _ => {
                self.problem(param.name, format!("must be a number from {min} to {max}"));
                None
            }
        }
    }

    /// The value of a `Bool` parameter.
    pub fn boolean(&mut self, param: &QueryParam) -> Option<bool> {
        match self.raw(param)?.to_ascii_lowercase().as_str() {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => {
                self.problem(param.name, "must be true or false");
                None
            }
        }
    }

    /// The value of a `Month` parameter.
    pub fn month(&mut self, param: &QueryParam) -> Option<String> {
        let raw = self.raw(param)?;
        if is_month(raw) {
            Some(raw.to_owned())
        } else {
            self.problem(param.name, "must be YYYY-MM");
            None
        }
    }

    /// The first year of a `Decade` parameter (`1980s` → 1980).
    pub fn decade(&mut self, param: &QueryParam) -> Option<i64> {
        let raw = self.raw(param)?;
        let decade = crate::read::statistics::parse_decade(raw);
        if decade.is_none() {
            self.problem(param.name, "must be a decade such as 1980s");
        }
        decade
    }

    /// The ids of an `IdList` parameter: at least one, at most `max`, duplicates dropped.
    pub fn id_list(&mut self, param: &QueryParam) -> Option<Vec<String>> {
        let Rule::IdList { max } = param.rule else { unreachable!("{} is not an id list", param.name) };
        let raw = self.raw(param)?;
        let mut ids: Vec<String> = Vec::new();
        for id in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if !is_slug(id) {
                self.problem(param.name, format!("'{id}' is not an id"));
                return None;
            }
            if !ids.iter().any(|known| known == id) {
                ids.push(id.to_owned());
            }
        }
        if ids.is_empty() || ids.len() > max {
            self.problem(param.name, format!("must name 1 to {max} ids"));
            return None;
        }
        Some(ids)
    }

    /// The names of a `Names` parameter, each from its set.
    pub fn names(&mut self, param: &QueryParam) -> Option<Vec<String>> {
        let Rule::Names(known) = param.rule else { unreachable!("{} is not a name list", param.name) };
        let raw = self.raw(param)?;
        let known = known();
        let names: Vec<String> =
            raw.split(',').map(|f| f.trim().to_owned()).filter(|f| !f.is_empty()).collect();
        let unknown: Vec<&str> = names.iter().map(String::as_str).filter(|n| !known.contains(n)).collect();
        if names.is_empty() || !unknown.is_empty() {
            self.problem(
                param.name,
                format!("unknown: {}; allowed: {}", unknown.join(", "), known.join(", ")),
            );
            return None;
        }
        Some(names)
    }

    /// Ok when every parameter parsed; otherwise the 400 naming each bad one.
    pub fn finish(self) -> Result<(), ApiError> {
        if self.problems.is_empty() { Ok(()) } else { Err(ApiError::invalid_parameters(self.problems)) }
    }
}

/// `order`: asc (default) or desc.
pub const ORDER: QueryParam =
    QueryParam::new("order", Rule::OneOf(&["asc", "desc"]), "asc (default) or desc");

impl Params<'_> {
    /// `order`: true for descending.
    pub fn descending(&mut self) -> bool {
        self.one_of(&ORDER).is_some_and(|o| o == "desc")
    }
}

pub fn is_slug(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

pub fn is_country_code(value: &str) -> bool {
    value.len() == 2 && value.bytes().all(|b| b.is_ascii_alphabetic())
}

fn is_month(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 7
        && bytes[4] == b'-'
        && bytes.iter().enumerate().all(|(i, b)| i == 4 || b.is_ascii_digit())
        && matches!(text[5..].parse::<u8>(), Ok(1..=12))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    const YEAR: QueryParam = QueryParam::new("year", Rule::Int { min: 1, max: 3000 }, "");
    const STATUS: QueryParam = QueryParam::new("status", Rule::OneOf(&["in_production"]), "");
    const COUNTRY: QueryParam = QueryParam::new("country", Rule::Country, "");
    const OK: QueryParam = QueryParam::new("ok", Rule::Int { min: 1, max: 5 }, "");
    const IDS: QueryParam = QueryParam::new("ids", Rule::IdList { max: 5 }, "").required();
    const DECLARED: &[QueryParam] = &[YEAR, STATUS, COUNTRY, OK, IDS];

    #[test]
    fn every_bad_field_is_named_once() {
        let q = query(&[("year", "19x"), ("status", "retired"), ("country", "USA"), ("ok", "3")]);
        let mut params = Params::declared(&q, DECLARED);
        assert_eq!(params.int(&YEAR), None);
        assert_eq!(params.one_of(&STATUS), None);
        assert_eq!(params.country(&COUNTRY), None);
        assert_eq!(params.int(&OK), Some(3));
        assert_eq!(params.id_list(&IDS), None, "required and missing");
        let error = params.finish().unwrap_err();
        let details = error.body("r")["error"]["details"].clone();
        assert_eq!(details.as_object().unwrap().len(), 4);
    }

    #[test]
    fn id_lists_are_bounded_and_deduplicated() {
        for (raw, expected) in [("a, b,a", Some(vec!["a", "b"])), ("a,b,c,d,e,f", None), ("A", None)] {
            let q = query(&[("ids", raw)]);
            let mut params = Params::declared(&q, DECLARED);
            let ids = params.id_list(&IDS);
            assert_eq!(ids, expected.map(|v| v.into_iter().map(str::to_owned).collect()), "{raw}");
        }
    }

    #[test]
    fn the_published_schema_is_the_enforced_rule() {
        let schema = serde_json::to_value(IDS.parameter()).unwrap();
        assert_eq!(schema["required"], true);
        assert_eq!(schema["schema"]["pattern"], "^[a-z0-9-]+(,[a-z0-9-]+){0,4}$");
        let year = serde_json::to_value(YEAR.parameter()).unwrap();
        assert_eq!(
            (year["schema"]["minimum"].as_i64(), year["schema"]["maximum"].as_i64()),
            (Some(1), Some(3000))
        );
    }
}
