//! Query parameters that parse and document themselves.
//!
//! Each parameter is a `QueryParam<K>` constant: its name, its kind `K` (slug, country code,
//! bounded text, closed list, bounded integer, ...; `kind`) and its description. The same constant parses the
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

const SLUG_PATTERN: &str = "^[a-z0-9-]+$";
const COLOUR_PATTERN: &str = "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$";
const COUNTRY_PATTERN: &str = "^[A-Za-z]{2}$";
const LABEL_PATTERN: &str = "^[A-Za-z0-9._-]{1,50}$";
const MONTH_PATTERN: &str = "^[0-9]{4}-(0[1-9]|1[0-2])$";
const DECADE_PATTERN: &str = "^[0-9]{3}0s$";
/// Any character that is not white space: trimmed text must keep at least one.
const NOT_BLANK_PATTERN: &str = "\\S";

/// Whether `c` is trimmed from a query value: a space under every reading of the published `\S`,
/// JavaScript's (ECMA-262 `\s`) and Python's (`str.isspace`). A character only one of them calls
/// a space (U+0085, U+001C to U+001F, U+FEFF) is kept, so a value a client's validator may
/// accept as not blank is never refused as blank.
pub fn is_blank(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// What a parameter's value may be: one type per kind, so a parameter can only be read as what
/// it is published as, and its schema and its check come from the same figures.
pub trait Kind: Sync + 'static {
    type Value;
    /// The published schema: the pattern, bounds or enum the server enforces.
    fn schema(&self) -> Schema;
    /// The value, or the problem the 400 names.
    fn parse(&self, raw: &str) -> Result<Self::Value, String>;
}

/// The kinds of query parameter.
pub mod kind {
    /// A record id: `^[a-z0-9-]+$`.
    pub struct Slug;
    /// A colour as `#rgb` or `#rrggbb` (`assets::svg::Colour`).
    pub struct Colour;
    /// ISO 3166-1 alpha-2, either case; read in upper case.
    pub struct Country;
    /// Free text of 1 to `max` characters, not only spaces.
    pub struct Text {
        pub max: usize,
    }
    /// One of a closed list (matched in any case), read as the list spells it.
    pub struct OneOf(pub &'static [&'static str]);
    /// `OneOf` a list made once at run time (from the code's own tables).
    pub struct OneOfListed(pub fn() -> &'static [&'static str]);
    /// An integer within bounds (inclusive).
    pub struct Int {
        pub min: i64,
        pub max: i64,
    }
    /// A finite number, not negative.
    pub struct Number;
    /// true or false (1 or 0).
    pub struct Bool;
    /// 1 to `max` comma-separated record ids, duplicates dropped.
    pub struct IdList {
        pub max: usize,
    }
    /// A month, `YYYY-MM`.
    pub struct Month;
    /// A comma-separated list of names from a set.
    pub struct Names(pub fn() -> Vec<&'static str>);
    /// A decade, `1980s`, read as its first year.
    pub struct Decade;
    /// A dataset label (a game-stats version): 1 to 50 letters, digits, '.', '-' or '_'.
    pub struct Label;
    /// A decimal number within bounds (inclusive).
    pub struct Decimal {
        pub min: f64,
        pub max: f64,
    }
}

fn string() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

fn patterned(pattern: &str) -> Schema {
    Schema::Object(string().pattern(Some(pattern)).build())
}

impl Kind for kind::Slug {
    type Value = String;
    fn schema(&self) -> Schema {
        patterned(SLUG_PATTERN)
    }
    fn parse(&self, raw: &str) -> Result<String, String> {
        if is_slug(raw) {
            Ok(raw.to_owned())
        } else {
            Err("must be an id of lower-case letters, digits and hyphens".into())
        }
    }
}

impl Kind for kind::Country {
    type Value = String;
    fn schema(&self) -> Schema {
        patterned(COUNTRY_PATTERN)
    }
    fn parse(&self, raw: &str) -> Result<String, String> {
        if is_country_code(raw) {
            Ok(raw.to_ascii_uppercase())
        } else {
            Err("must be a two-letter ISO 3166-1 country code".into())
        }
    }
}

impl Kind for kind::Text {
    type Value = String;
    fn schema(&self) -> Schema {
        let built = string().min_length(Some(1)).max_length(Some(self.max)).pattern(Some(NOT_BLANK_PATTERN));
        Schema::Object(built.build())
    }
    fn parse(&self, raw: &str) -> Result<String, String> {
        if (1..=self.max).contains(&raw.chars().count()) {
            Ok(raw.to_owned())
        } else {
            Err(format!("must be 1 to {} characters", self.max))
        }
    }
}

impl Kind for kind::OneOf {
    type Value = String;
    fn schema(&self) -> Schema {
        Schema::Object(string().enum_values(Some(self.0.iter().copied())).build())
    }
    fn parse(&self, raw: &str) -> Result<String, String> {
        one_of(self.0, raw)
    }
}

impl Kind for kind::OneOfListed {
    type Value = String;
    fn schema(&self) -> Schema {
        kind::OneOf((self.0)()).schema()
    }
    fn parse(&self, raw: &str) -> Result<String, String> {
        one_of((self.0)(), raw)
    }
}

fn one_of(known: &[&str], raw: &str) -> Result<String, String> {
    match known.iter().find(|known| known.eq_ignore_ascii_case(raw)) {
        Some(known) => Ok((*known).to_owned()),
        None => Err(format!("must be one of: {}", known.join(", "))),
    }
}

impl Kind for kind::Colour {
    type Value = crate::assets::svg::Colour;
    fn schema(&self) -> Schema {
        patterned(COLOUR_PATTERN)
    }
    fn parse(&self, raw: &str) -> Result<Self::Value, String> {
        crate::assets::svg::Colour::parse(raw).ok_or_else(|| "must be a colour as #rgb or #rrggbb".into())
    }
}

impl Kind for kind::Int {
    type Value = i64;
    fn schema(&self) -> Schema {
        let built =
            ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(self.min)).maximum(Some(self.max));
        Schema::Object(built.build())
    }
    fn parse(&self, raw: &str) -> Result<i64, String> {
        match raw.parse::<i64>() {
            Ok(n) if (self.min..=self.max).contains(&n) => Ok(n),
            _ => Err(format!("must be an integer from {} to {}", self.min, self.max)),
        }
    }
}

impl Kind for kind::Number {
    type Value = f64;
    fn schema(&self) -> Schema {
        Schema::Object(ObjectBuilder::new().schema_type(Type::Number).minimum(Some(0)).build())
    }
    fn parse(&self, raw: &str) -> Result<f64, String> {
        match raw.parse::<f64>() {
            Ok(n) if n.is_finite() && n >= 0.0 => Ok(n),
            _ => Err("must be a non-negative number".into()),
        }
    }
}

impl Kind for kind::Bool {
    type Value = bool;
    fn schema(&self) -> Schema {
        Schema::Object(ObjectBuilder::new().schema_type(Type::Boolean).build())
    }
    fn parse(&self, raw: &str) -> Result<bool, String> {
        match raw.to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err("must be true or false".into()),
        }
    }
}

impl Kind for kind::IdList {
    type Value = Vec<String>;
    fn schema(&self) -> Schema {
        patterned(&format!("^[a-z0-9-]+(,[a-z0-9-]+){{0,{}}}$", self.max.saturating_sub(1)))
    }
    fn parse(&self, raw: &str) -> Result<Vec<String>, String> {
        let mut ids: Vec<String> = Vec::new();
        for id in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if !is_slug(id) {
                return Err(format!("'{id}' is not an id"));
            }
            if !ids.iter().any(|known| known == id) {
                ids.push(id.to_owned());
            }
        }
        if ids.is_empty() || ids.len() > self.max {
            return Err(format!("must name 1 to {} ids", self.max));
        }
        Ok(ids)
    }
}

impl Kind for kind::Month {
    type Value = String;
    fn schema(&self) -> Schema {
        patterned(MONTH_PATTERN)
    }
    fn parse(&self, raw: &str) -> Result<String, String> {
        if is_month(raw) { Ok(raw.to_owned()) } else { Err("must be YYYY-MM".into()) }
    }
}

impl Kind for kind::Names {
    type Value = Vec<String>;
    fn schema(&self) -> Schema {
        let one = format!("({})", (self.0)().join("|"));
        patterned(&format!("^{one}(,{one})*$"))
    }
    fn parse(&self, raw: &str) -> Result<Vec<String>, String> {
        let known = (self.0)();
        let names: Vec<String> =
            raw.split(',').map(|f| f.trim().to_owned()).filter(|f| !f.is_empty()).collect();
        let unknown: Vec<&str> = names.iter().map(String::as_str).filter(|n| !known.contains(n)).collect();
        if names.is_empty() || !unknown.is_empty() {
            return Err(format!("unknown: {}; allowed: {}", unknown.join(", "), known.join(", ")));
        }
        Ok(names)
    }
}

impl Kind for kind::Decade {
    type Value = i64;
    fn schema(&self) -> Schema {
        patterned(DECADE_PATTERN)
    }
    fn parse(&self, raw: &str) -> Result<i64, String> {
        crate::read::statistics::parse_decade(raw).ok_or_else(|| "must be a decade such as 1980s".into())
    }
}

impl Kind for kind::Label {
    type Value = String;
    fn schema(&self) -> Schema {
        patterned(LABEL_PATTERN)
    }
    fn parse(&self, raw: &str) -> Result<String, String> {
        let ok = (1..=50).contains(&raw.len())
            && raw.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
        if ok { Ok(raw.to_owned()) } else { Err("must be 1 to 50 letters, digits, '.', '-' or '_'".into()) }
    }
}

impl Kind for kind::Decimal {
    type Value = f64;
    fn schema(&self) -> Schema {
        let built =
            ObjectBuilder::new().schema_type(Type::Number).minimum(Some(self.min)).maximum(Some(self.max));
        Schema::Object(built.build())
    }
    fn parse(&self, raw: &str) -> Result<f64, String> {
        match raw.parse::<f64>() {
            Ok(n) if n.is_finite() && (self.min..=self.max).contains(&n) => Ok(n),
            _ => Err(format!("must be a number from {} to {}", self.min, self.max)),
        }
    }
}

/// One query parameter of kind `K`: parsed and published from this one definition.
pub struct QueryParam<K> {
    pub name: &'static str,
    pub kind: K,
    pub required: bool,
    pub description: &'static str,
}

impl<K: Kind> QueryParam<K> {
    pub const fn new(name: &'static str, kind: K, description: &'static str) -> Self {
        Self { name, kind, required: false, description }
    }

    pub const fn required(mut self) -> Self {
        self.required = true;
        self
    }
}

/// A parameter as the description and `Params` see it, whatever its kind.
pub trait Declared: Sync {
    fn name(&self) -> &'static str;
    /// The published parameter, with the pattern, bounds or enum the server enforces.
    fn parameter(&self) -> Parameter;
}

impl<K: Kind> Declared for QueryParam<K> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn parameter(&self) -> Parameter {
        ParameterBuilder::new()
            .name(self.name)
            .parameter_in(ParameterIn::Query)
            .required(if self.required { Required::True } else { Required::False })
            .description(Some(self.description))
            .schema(Some(self.kind.schema()))
            .build()
    }
}

/// A handler's query: its parameters and how they are read.
pub trait QueryParams: Sized {
    /// Every parameter the handler reads, in the order they are published.
    const PARAMS: &'static [&'static dyn Declared];

    /// Read the fields; problems are collected in `params` and answered together.
    fn read(params: &mut Params) -> Self;

    /// The published parameters.
    fn parameters() -> Vec<Parameter> {
        Self::PARAMS.iter().map(|param| param.parameter()).collect()
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
    declared: &'static [&'static dyn Declared],
    problems: Map<String, Value>,
}

impl<'a> Params<'a> {
    pub fn declared(query: &'a HashMap<String, String>, declared: &'static [&'static dyn Declared]) -> Self {
        Self { query, declared, problems: Map::new() }
    }

    /// The value of `param`; None when it was not sent or is bad (its problem is kept).
    pub fn get<K: Kind>(&mut self, param: &QueryParam<K>) -> Option<K::Value> {
        debug_assert!(
            self.declared.iter().any(|d| d.name() == param.name),
            "{} is read but not declared, so it would not be published",
            param.name
        );
        let Some(raw) = self.query.get(param.name).map(|v| v.trim_matches(is_blank)) else {
            if param.required {
                self.problem(param.name, "is required");
            }
            return None;
        };
        match param.kind.parse(raw) {
            Ok(value) => Some(value),
            Err(problem) => {
                self.problem(param.name, problem);
                None
            }
        }
    }

    pub fn problem(&mut self, name: &str, problem: impl Into<String>) {
        self.problems.entry(name.to_owned()).or_insert_with(|| Value::String(problem.into()));
    }

    /// Ok when every parameter parsed; otherwise the 400 naming each bad one.
    pub fn finish(self) -> Result<(), ApiError> {
        if self.problems.is_empty() { Ok(()) } else { Err(ApiError::invalid_parameters(self.problems)) }
    }
}

/// `order`: asc (default) or desc.
pub const ORDER: QueryParam<kind::OneOf> =
    QueryParam::new("order", kind::OneOf(&["asc", "desc"]), "asc (default) or desc");

impl Params<'_> {
    /// `order`: true for descending.
    pub fn descending(&mut self) -> bool {
        self.get(&ORDER).is_some_and(|o| o == "desc")
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

    const YEAR: QueryParam<kind::Int> = QueryParam::new("year", kind::Int { min: 1, max: 3000 }, "");
    const STATUS: QueryParam<kind::OneOf> = QueryParam::new("status", kind::OneOf(&["in_production"]), "");
    const COUNTRY: QueryParam<kind::Country> = QueryParam::new("country", kind::Country, "");
    const OK: QueryParam<kind::Int> = QueryParam::new("ok", kind::Int { min: 1, max: 5 }, "");
    const IDS: QueryParam<kind::IdList> = QueryParam::new("ids", kind::IdList { max: 5 }, "").required();
    const DECLARED: &[&dyn Declared] = &[&YEAR, &STATUS, &COUNTRY, &OK, &IDS];

    #[test]
    fn every_bad_field_is_named_once() {
        let q = query(&[("year", "19x"), ("status", "retired"), ("country", "USA"), ("ok", "3")]);
        let mut params = Params::declared(&q, DECLARED);
        assert_eq!(params.get(&YEAR), None);
        assert_eq!(params.get(&STATUS), None);
        assert_eq!(params.get(&COUNTRY), None);
        assert_eq!(params.get(&OK), Some(3));
        assert_eq!(params.get(&IDS), None, "required and missing");
        let error = params.finish().unwrap_err();
        let details = error.body("r")["error"]["details"].clone();
        assert_eq!(details.as_object().unwrap().len(), 4);
    }

    #[test]
    fn id_lists_are_bounded_and_deduplicated() {
        for (raw, expected) in [("a, b,a", Some(vec!["a", "b"])), ("a,b,c,d,e,f", None), ("A", None)] {
            let q = query(&[("ids", raw)]);
            let mut params = Params::declared(&q, DECLARED);
            let ids = params.get(&IDS);
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
