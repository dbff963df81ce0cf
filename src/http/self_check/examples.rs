//! The examples run (operation 133): every example in the description, read back from the
//! description itself (each parameter's `example`, the request body's, the response's), run in
//! process against the live node and its answer compared with the example (`agreement`). An
//! operation without an example fails; an example that does not hold to its own response schema
//! fails; one that is not run against the live service (a write, an account's or a shop's read, a
//! self-check) is skipped, saying why, once its example has been held to its schema.

use serde_json::Value;

use super::agreement::{self, Compare};
use super::arguments::encode;
use super::contract::{SelfCheckRun, Started};
use super::json_schema::Checker;
use super::run::{self, Answer, OperationCheck, Outcome};
use crate::error::ApiError;
use crate::http::AppState;

/// Operations whose example is not run against the live node, because their arguments are records
/// the example's own account made.
const ACCOUNT_MADE: &[(&str, &str)] =
    &[("/v1/collections/{shareId}", "its example reads a collection the example's own account shared")];

/// Operations whose body is held to the status and the schema only, never to the example's values:
/// a random draw, the readiness probe (it lists the stores this deployment uses), and the answers
/// counted from live requests over a window ending today (popular firearms, data tasks).
pub const BODY_NOT_COMPARED: &[&str] =
    &["/v1/firearms/random", "/ready", "/v1/popular/firearms", "/v1/data/tasks"];

/// The example one operation's description carries.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedExample {
    /// Path and query, from the parameters' examples.
    pub url: String,
    pub status: u16,
    /// The response's media type.
    pub media: String,
    pub body: Value,
}

/// The example `operation` (under `template`) carries, or why it has none.
pub fn described(template: &str, operation: &Value) -> Result<DescribedExample, String> {
    let responses = operation["responses"].as_object().into_iter().flatten();
    let (status, media, body) = responses
        .flat_map(|(status, response)| {
            let contents = response["content"].as_object().into_iter().flatten();
            contents.filter_map(move |(media, content)| Some((status, media, content.get("example")?)))
        })
        .next()
        .or_else(|| redirect_example(operation))
        .ok_or("the description carries no response example")?;
    let status = status.parse().map_err(|_| format!("the example's status {status} is not a number"))?;
    let parameters = operation["parameters"].as_array().map(Vec::as_slice).unwrap_or_default();
    let value_of = |parameter: &Value| match &parameter["example"] {
        Value::String(text) => Some(text.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    };
    let mut url = template.to_owned();
    let mut query = form_urlencoded::Serializer::new(String::new());
    for parameter in parameters {
        let (Some(name), Some(value)) = (parameter["name"].as_str(), value_of(parameter)) else { continue };
        match parameter["in"].as_str() {
            Some("path") => url = url.replace(&format!("{{{name}}}"), &encode(&value)),
            Some("query") => {
                query.append_pair(name, &value);
            }
            _ => {}
        }
    }
    if url.contains('{') {
        return Err(format!("a path parameter of {template} carries no example"));
    }
    let query = query.finish();
    if !query.is_empty() {
        url = format!("{url}?{}", query.replace('+', "%20"));
    }
    Ok(DescribedExample { url, status, media: media.clone(), body: body.clone() })
}

/// A redirect's example: the Location it answers (a redirect has no body).
fn redirect_example(operation: &Value) -> Option<(&String, &String, &Value)> {
    static NO_MEDIA: String = String::new();
    let responses = operation["responses"].as_object()?;
    responses.iter().find_map(|(status, response)| {
        let location = response["headers"]["Location"].get("example")?;
        Some((status, &NO_MEDIA, location))
    })
}

/// Runs every example `description` carries against the live node.
pub async fn run(state: &AppState, description: &Value) -> Result<SelfCheckRun, ApiError> {
    let started = Started::now(state);
    let edge = run::router(state)?;
    let checker = Checker::new(description);
    let mut operations = Vec::new();
    for (method, template, operation) in run::documented(description) {
        let mut check = OperationCheck::not_yet_run(method, template, operation);
        let verdict = match described(template, operation) {
            Err(reason) => Err(reason),
            Ok(example) => match holds_to_schema(operation, &checker, &example) {
                Err(reason) => Err(reason),
                Ok(()) => match not_rerun(method, template) {
                    Some(reason) => {
                        check.reason = Some(reason);
                        operations.push(check);
                        continue;
                    }
                    None => match run::call(&edge, method, &example.url).await {
                        Ok(answer) => {
                            check.http_status = Some(answer.status);
                            agrees(
                                operation,
                                &checker,
                                &example,
                                &answer,
                                !BODY_NOT_COMPARED.contains(&template),
                            )
                        }
                        Err(reason) => Err(format!("{}: {reason}", example.url)),
                    },
                },
            },
        };
        match verdict {
            Ok(()) => check.status = Outcome::Passed,
            Err(reason) => {
                check.status = Outcome::Failed;
                check.reason = Some(reason);
            }
        }
        operations.push(check);
    }
    Ok(SelfCheckRun::finish(started, operations))
}

fn not_rerun(method: &str, template: &str) -> Option<String> {
    if run::SELF_CHECKS.contains(&template) {
        return Some(run::SELF_CHECK_SKIPPED.to_owned());
    }
    run::not_run_live(method, template).or_else(|| {
        ACCOUNT_MADE
            .iter()
            .find(|(path, _)| *path == template)
            .map(|(_, why)| format!("not run again: {why}"))
    })
}

/// Whether a JSON example holds to the schema of the response it illustrates.
fn holds_to_schema(
    operation: &Value,
    checker: &Checker<'_>,
    example: &DescribedExample,
) -> Result<(), String> {
    if example.media != "application/json" {
        return Ok(());
    }
    let schema = &operation["responses"][example.status.to_string()]["content"]["application/json"]["schema"];
    match checker.problems(schema, &example.body).first() {
        None => Ok(()),
        Some(problem) => Err(format!("the example does not hold to its own schema: {problem}")),
    }
}

/// Whether the live `answer` is the example's: the same status, an answer holding to its schema,
/// and (unless `compare_body` is false: `BODY_NOT_COMPARED`) a body agreeing with the example's.
fn agrees(
    operation: &Value,
    checker: &Checker<'_>,
    example: &DescribedExample,
    answer: &Answer,
    compare_body: bool,
) -> Result<(), String> {
    let url = &example.url;
    if answer.status != example.status {
        let schema_verdict = run::check(operation, checker, answer).err().unwrap_or_default();
        return Err(format!(
            "{url}: the example answered {}, the node {} {schema_verdict}",
            example.status, answer.status
        ));
    }
    run::check(operation, checker, answer).map_err(|reason| format!("{url}: {reason}"))?;
    if !compare_body {
        return Ok(());
    }
    let mut cut = super::samples::body_value(&answer.body);
    super::samples::cut(&mut cut);
    let found = agreement::differences(&example.body, &cut, Compare::Values);
    match found.as_slice() {
        [] => Ok(()),
        [only] => Err(format!("{url}: the answer differs from the example at {only}")),
        [first, rest @ ..] => {
            Err(format!("{url}: the answer differs from the example at {first} (and {} more)", rest.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_request_is_rebuilt_from_the_parameters_examples() {
        let operation = json!({
            "parameters": [
                { "name": "id", "in": "path", "example": "colt m1911" },
                { "name": "per_page", "in": "query", "example": 2 },
                { "name": "q", "in": "query", "example": "a b" },
                { "name": "page", "in": "query" }
            ],
            "responses": { "200": { "content": { "application/json": { "example": { "data": 1 } } } } }
        });
        let example = described("/v1/firearms/{id}/users", &operation).unwrap();
        assert_eq!(example.url, "/v1/firearms/colt%20m1911/users?per_page=2&q=a%20b");
        assert_eq!((example.status, example.body), (200, json!({ "data": 1 })));
        let bare = json!({ "responses": { "200": { "description": "ok" } } });
        assert_eq!(described("/health", &bare).unwrap_err(), "the description carries no response example");
    }
}
