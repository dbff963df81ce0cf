//! Every operation's request and response example, written into the description. The examples
//! are real exchanges with a node over the bundled catalog (taken by the test suite, which also
//! fails when they no longer match: `tests/api/contract/examples.rs`), kept in examples.json by
//! operationId. Operation 133 runs them again against the live node.
//!
//! In the description an example is where OpenAPI puts one: each path and query parameter of the
//! request carries its `example`, the request body's media type its `example`, and the response
//! of the example's status its `example` under the media type it answered.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::{OpenApi, RefOr};

/// The bundled examples, as the test suite writes them.
const BUNDLED: &str = include_str!("examples.json");

/// One operation's exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Example {
    pub request: ExampleRequest,
    pub response: ExampleResponse,
}

/// The request, relative to the base URL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExampleRequest {
    pub method: String,
    /// Path and query, percent-encoded as sent.
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

/// The answer: its status, media type and body (JSON, or the text of another media type), with
/// long lists and texts cut as the samples cut them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExampleResponse {
    pub status: u16,
    pub content_type: String,
    pub body: Value,
}

/// Examples by operationId.
pub type Examples = BTreeMap<String, Example>;

/// The bundled examples.
pub fn bundled() -> &'static Examples {
    static EXAMPLES: OnceLock<Examples> = OnceLock::new();
    EXAMPLES.get_or_init(|| serde_json::from_str(BUNDLED).expect("examples.json holds examples"))
}

/// Writes each operation's bundled example into `document`.
pub fn attach(document: &mut OpenApi) {
    let examples = bundled();
    for (template, item) in document.paths.paths.iter_mut() {
        let operations = [&mut item.get, &mut item.post, &mut item.put, &mut item.patch, &mut item.delete];
        for operation in operations.into_iter().flatten() {
            let Some(example) = operation.operation_id.as_ref().and_then(|id| examples.get(id)) else {
                continue;
            };
            attach_one(operation, template, example);
        }
    }
}

fn attach_one(operation: &mut Operation, template: &str, example: &Example) {
    let (path, query) = example.request.url.split_once('?').unwrap_or((&example.request.url, ""));
    let path_values = path_values(template, path);
    let query_values: BTreeMap<String, String> =
        form_urlencoded::parse(query.as_bytes()).into_owned().collect();
    for parameter in operation.parameters.iter_mut().flatten() {
        let RefOr::T(parameter) = parameter else { continue };
        let value = match parameter.parameter_in {
            ParameterIn::Path => path_values.get(parameter.name.as_str()),
            ParameterIn::Query => query_values.get(&parameter.name),
            _ => None,
        };
        if let Some(value) = value {
            let typed = typed(value, parameter.schema.as_ref());
            *parameter = ParameterBuilder::from(parameter.clone()).example(Some(typed)).build();
        }
    }
    if let (Some(body), Some(RefOr::T(request_body))) =
        (&example.request.body, operation.request_body.as_mut())
    {
        for content in request_body.content.values_mut() {
            if let RefOr::T(content) = content {
                content.example = Some(body.clone());
            }
        }
    }
    let response = &example.response;
    if let Some(RefOr::T(documented)) = operation.responses.responses.get_mut(&response.status.to_string()) {
        let media = response.content_type.split(';').next().unwrap_or_default().trim();
        if let Some(RefOr::T(content)) = documented.content.get_mut(media) {
            content.example = Some(response.body.clone());
        } else if let Some(RefOr::T(location)) = documented.headers.get_mut("Location") {
            // A redirect has no body: its example is where it sends the caller.
            location.example = Some(response.body.clone());
        }
    }
}

/// The values `path` gives the parameters of `template`, decoded.
pub fn path_values<'t>(template: &'t str, path: &str) -> BTreeMap<&'t str, String> {
    template
        .split('/')
        .zip(path.split('/'))
        .filter_map(|(name, value)| {
            let name = name.strip_prefix('{')?.strip_suffix('}')?;
            Some((name, percent_decoded(value)))
        })
        .collect()
}

fn percent_decoded(segment: &str) -> String {
    form_urlencoded::parse(format!("v={}", segment.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default()
}

/// `value` as its parameter's schema types it: a number for an integer or number parameter, a
/// boolean for a boolean one, else the text.
fn typed(value: &str, schema: Option<&RefOr<utoipa::openapi::Schema>>) -> Value {
    let kind =
        schema.and_then(|s| serde_json::to_value(s).ok()).map(|s| s["type"].clone()).unwrap_or_default();
    let is =
        |name: &str| kind == name || kind.as_array().is_some_and(|kinds| kinds.iter().any(|k| k == name));
    if (is("integer") || is("number"))
        && let Ok(number) = value.parse::<serde_json::Number>()
    {
        return Value::Number(number);
    }
    if is("boolean")
        && let Ok(flag) = value.parse::<bool>()
    {
        return Value::Bool(flag);
    }
    Value::String(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_values_are_read_by_the_templates_names_and_decoded() {
        let values = path_values("/v1/firearms/{id}/users", "/v1/firearms/colt-m1911%20a1/users");
        assert_eq!(values.get("id").map(String::as_str), Some("colt-m1911 a1"));
        assert!(path_values("/health", "/health").is_empty());
    }

    #[test]
    fn a_numeric_parameter_gets_a_number() {
        let integer = RefOr::T(utoipa::openapi::Schema::Object(
            utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::Integer).build(),
        ));
        assert_eq!(typed("2", Some(&integer)), Value::from(2));
        assert_eq!(typed("2", None), Value::from("2"));
    }
}
