//! Path parameters: one rule per parameter name, checked by one extractor, so every operation
//! answers a malformed id with the same 400 (naming the parameter) before it looks anything up,
//! and the description publishes the same rule (`openapi::binding`).

use axum::extract::{FromRequestParts, Path, RawPathParams};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use crate::catalog::stats_versions::valid_label;
use crate::error::ApiError;
use crate::http::extract::query::{is_country_code, is_slug};

/// How a path parameter is checked and published.
#[derive(Debug, Clone, Copy)]
pub enum PathRule {
    /// A record id: `^[a-z0-9-]+$`.
    Slug,
    /// ISO 3166-1 alpha-2, either case.
    Country,
    /// A game-stats dataset label: 1 to 50 letters, digits, '.', '-' or '_'.
    DatasetLabel,
    /// An opaque id the service issued; an unknown one is 404.
    Opaque,
}

/// Every path parameter name of the operations, and its rule.
pub const PATH_PARAMS: &[(&str, PathRule)] = &[
    ("id", PathRule::Slug),
    ("slug", PathRule::Slug),
    ("firearmId", PathRule::Slug),
    ("code", PathRule::Country),
    ("version", PathRule::DatasetLabel),
    ("endpointId", PathRule::Opaque),
    ("imageId", PathRule::Opaque),
    ("selector", PathRule::Opaque),
    ("shareId", PathRule::Opaque),
    ("offerId", PathRule::Opaque),
];

/// The rule of the path parameter `name`. The list is exhaustive: the description binds every
/// route's parameters when the service starts (`openapi::binding`), so a route whose parameter
/// has no rule fails there, before any request.
pub fn rule_of(name: &str) -> PathRule {
    match PATH_PARAMS.iter().find(|(known, _)| *known == name) {
        Some((_, rule)) => *rule,
        None => panic!("the path parameter {{{name}}} has no rule: add it to PATH_PARAMS"),
    }
}

impl PathRule {
    fn check(self, value: &str) -> Result<(), &'static str> {
        let ok = match self {
            PathRule::Slug => is_slug(value),
            PathRule::Country => is_country_code(value),
            PathRule::DatasetLabel => valid_label(value),
            PathRule::Opaque => !value.is_empty(),
        };
        if ok { Ok(()) } else { Err(self.problem()) }
    }

    fn problem(self) -> &'static str {
        match self {
            PathRule::Slug => "must be an id of lower-case letters, digits and hyphens",
            PathRule::Country => "must be a two-letter ISO 3166-1 country code",
            PathRule::DatasetLabel => "must be 1 to 50 letters, digits, '.', '-' or '_'",
            PathRule::Opaque => "must not be empty",
        }
    }

    /// The published schema of a parameter with this rule.
    pub fn schema(self) -> Schema {
        let string = ObjectBuilder::new().schema_type(Type::String);
        let string = match self {
            PathRule::Slug => string.pattern(Some("^[a-z0-9-]+$")),
            PathRule::Country => string.pattern(Some("^[A-Za-z]{2}$")),
            PathRule::DatasetLabel => string.pattern(Some("^[A-Za-z0-9._-]{1,50}$")),
            PathRule::Opaque => string.min_length(Some(1)),
        };
        Schema::Object(string.build())
    }
}

/// `Path<T>` whose every parameter passed its rule: a 400 INVALID_PARAMETER naming it otherwise
/// (and for a path that is not valid UTF-8 once decoded).
pub struct ValidPath<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for ValidPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let raw = match RawPathParams::from_request_parts(parts, state).await {
            Ok(raw) => raw,
            Err(_) => return Err(undecodable(parts)),
        };
        let mut problems = serde_json::Map::new();
        for (name, value) in &raw {
            if let Err(problem) = rule_of(name).check(value) {
                problems.insert(name.to_owned(), problem.into());
            }
        }
        if !problems.is_empty() {
            return Err(ApiError::invalid_parameters(problems));
        }
        let Path(value) = Path::<T>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::invalid_parameter("path", e.body_text()))?;
        Ok(ValidPath(value))
    }
}

/// The 400 for a path whose parameter is not UTF-8 once percent-decoded (`/v1/firearms/%FF`),
/// naming each such parameter as a rule's refusal would: the matched route's `{name}` segments
/// are lined up with the request's own segments.
fn undecodable(parts: &Parts) -> ApiError {
    let route = parts.extensions.get::<axum::extract::MatchedPath>().map_or("", |m| m.as_str());
    let mut problems = serde_json::Map::new();
    for (pattern, segment) in route.split('/').zip(parts.uri.path().split('/')) {
        let Some(name) = pattern.strip_prefix('{').and_then(|p| p.strip_suffix('}')) else { continue };
        if percent_decoded(segment).is_none() {
            problems.insert(
                name.trim_start_matches('*').to_owned(),
                "must be valid UTF-8 once percent-decoded".into(),
            );
        }
    }
    if problems.is_empty() {
        problems.insert("path".to_owned(), "must be valid UTF-8 once percent-decoded".into());
    }
    ApiError::invalid_parameters(problems)
}

/// `segment` with its `%XX` escapes decoded, if that is UTF-8.
fn percent_decoded(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "has no rule")]
    fn a_path_parameter_without_a_rule_fails() {
        rule_of("unlisted");
    }

    #[test]
    fn segments_are_percent_decoded_to_utf8_or_refused() {
        assert_eq!(percent_decoded("glock-17").as_deref(), Some("glock-17"));
        assert_eq!(percent_decoded("caf%C3%A9").as_deref(), Some("café"));
        assert_eq!(percent_decoded("100%").as_deref(), Some("100%"));
        assert_eq!(percent_decoded("%FF"), None);
        assert_eq!(percent_decoded("a%C3"), None);
    }
}
