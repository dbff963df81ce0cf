//! The client run (operation 134): every request the published GunSpec Python client sends
//! (recorded from the package itself by tools/gunspec_calls.py into gunspec_calls.json), called in
//! process the way that client sends it and checked like the contract run: a call that reaches a
//! documented operation must answer 2xx holding to that operation's schema; a call to a route this
//! service does not serve fails, naming the answer it got.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::arguments::Arguments;
use super::contract::{Started, Totals};
use super::json_schema::Checker;
use super::run::{self, Outcome};
use crate::error::ApiError;
use crate::http::AppState;

/// The recording, as tools/gunspec_calls.py writes it.
const RECORDED: &str = include_str!("gunspec_calls.json");

#[derive(Debug, Deserialize)]
struct Recording {
    client: String,
    version: String,
    calls: Vec<ClientCall>,
}

/// One request the client sends: its path and query as templates, `{name}` standing where the
/// caller's argument goes.
#[derive(Debug, Deserialize)]
pub struct ClientCall {
    /// The client's method, resource.method (e.g. firearms.get).
    pub call: String,
    pub method: String,
    pub path: String,
    /// The query keys the client always sends: a literal value, or `{name}` for an argument.
    pub query: BTreeMap<String, String>,
}

fn recording() -> &'static Recording {
    static RECORDING: OnceLock<Recording> = OnceLock::new();
    RECORDING.get_or_init(|| serde_json::from_str(RECORDED).expect("gunspec_calls.json is a recording"))
}

/// A whole client run.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SdkRun {
    /// The client checked (gunspec, on PyPI).
    pub client: String,
    /// The client's version whose calls were recorded.
    pub version: String,
    /// True only when no call failed (skipped calls are not passes, and do not fail it).
    pub passed: bool,
    /// The catalog revision the run read.
    pub revision: i64,
    /// When the run started (RFC 3339, UTC).
    pub started_at: String,
    /// How long it took, in milliseconds.
    pub duration_ms: u64,
    pub totals: Totals,
    /// The failing calls, also listed among `calls`.
    pub failures: Vec<CallCheck>,
    /// Every call the client makes, by its method name.
    pub calls: Vec<CallCheck>,
}

/// What became of one of the client's calls.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallCheck {
    /// The client's method (resource.method), e.g. firearms.get.
    pub call: String,
    pub method: String,
    /// The path the client sends, `{name}` where its argument goes.
    pub path: String,
    /// The documented operation the call reaches; null when it reaches none.
    pub operation_id: Option<String>,
    /// The request made, relative to the base URL; null when it was not made.
    pub url: Option<String>,
    pub status: Outcome,
    /// The answer's HTTP status; null when the call was not made.
    pub http_status: Option<u16>,
    /// Why it failed or was skipped; null when it passed.
    pub reason: Option<String>,
}

/// Calls each of the client's requests through the service's own router and checks each answer
/// against `description`.
pub async fn run(state: &AppState, description: &Value) -> Result<SdkRun, ApiError> {
    let started = Started::now(state);
    let edge = run::router(state)?;
    let arguments = Arguments::find(state).await;
    let checker = Checker::new(description);
    let recording = recording();
    let mut calls = Vec::with_capacity(recording.calls.len());
    for call in &recording.calls {
        let documented = documented_for(description, call);
        let mut check = CallCheck {
            call: call.call.clone(),
            method: call.method.clone(),
            path: call.path.clone(),
            operation_id: documented.and_then(|(_, op)| op["operationId"].as_str()).map(str::to_owned),
            url: None,
            status: Outcome::Skipped,
            http_status: None,
            reason: None,
        };
        let method = call.method.to_lowercase();
        if let Some(reason) = run::not_run_live(&method, &call.path) {
            check.reason = Some(reason);
            calls.push(check);
            continue;
        }
        let url = match request_url(call, documented, &arguments) {
            Ok(url) => url,
            Err(reason) => {
                check.reason = Some(reason);
                calls.push(check);
                continue;
            }
        };
        let verdict = match run::call(&edge, &method, &url).await {
            Ok(answer) => {
                check.http_status = Some(answer.status);
                match documented {
                    Some((_, operation)) => run::check(operation, &checker, &answer),
                    None => Err(format!(
                        "reaches no documented operation: {}",
                        run::check(&Value::Null, &checker, &answer).err().unwrap_or_default()
                    )),
                }
            }
            Err(reason) => Err(reason),
        };
        match verdict {
            Ok(()) => check.status = Outcome::Passed,
            Err(reason) => {
                check.status = Outcome::Failed;
                check.reason = Some(format!("{url}: {reason}"));
            }
        }
        check.url = Some(url);
        calls.push(check);
    }
    let totals = Totals::of(calls.iter().map(|check| check.status));
    let failures = calls.iter().filter(|c| c.status == Outcome::Failed).cloned().collect();
    Ok(SdkRun {
        client: recording.client.clone(),
        version: recording.version.clone(),
        passed: totals.failed == 0,
        revision: started.revision,
        duration_ms: started.duration_ms(),
        started_at: started.at,
        totals,
        failures,
        calls,
    })
}

/// The documented operation (its template and description) `call` reaches: same method, and the
/// same segments, a literal matching the same literal and an argument a parameter.
fn documented_for<'a>(description: &'a Value, call: &ClientCall) -> Option<(&'a str, &'a Value)> {
    let method = call.method.to_lowercase();
    run::documented(description)
        .find(|(m, template, _)| *m == method && same_shape(template, &call.path))
        .map(|(_, template, operation)| (template, operation))
}

fn same_shape(template: &str, path: &str) -> bool {
    let is_parameter = |segment: &str| segment.starts_with('{') && segment.ends_with('}');
    let (documented, sent): (Vec<&str>, Vec<&str>) =
        (template.split('/').collect(), path.split('/').collect());
    documented.len() == sent.len()
        && documented.iter().zip(&sent).all(|(d, s)| {
            if is_parameter(d) || is_parameter(s) { is_parameter(d) && is_parameter(s) } else { d == s }
        })
}

/// The request the client would make, its arguments filled from the live catalog: the documented
/// template's values where the call reaches one (or why the catalog has none), else the same
/// records by the argument's name.
fn request_url(
    call: &ClientCall,
    documented: Option<(&str, &Value)>,
    arguments: &Arguments,
) -> Result<String, String> {
    let template = documented.map(|(template, _)| template);
    let path = match template {
        Some(template) => arguments.path(template)?,
        None => arguments.path(&call.path).unwrap_or_else(|_| call.path.replace(['{', '}'], "")),
    };
    let documented_query = template.and_then(|t| arguments.required_query("get", t).ok()).unwrap_or_default();
    let known: BTreeMap<&str, &str> =
        documented_query.trim_start_matches('?').split('&').filter_map(|pair| pair.split_once('=')).collect();
    let pairs: Vec<String> = call
        .query
        .iter()
        .map(|(key, value)| {
            let argument = value.strip_prefix('{').and_then(|v| v.strip_suffix('}'));
            let filled = match argument {
                None => value.clone(),
                Some(_) => match known.get(key.as_str()) {
                    Some(value) => (*value).to_owned(),
                    None => by_name(key, documented.map(|(_, operation)| operation), arguments),
                },
            };
            format!("{key}={filled}")
        })
        .collect();
    Ok(if pairs.is_empty() { path } else { format!("{path}?{}", pairs.join("&")) })
}

/// A query argument the documented operation does not require (or of a call reaching none): the
/// first value of the parameter's documented enum, else the record its name asks for.
fn by_name(key: &str, operation: Option<&Value>, arguments: &Arguments) -> String {
    let parameters =
        operation.and_then(|op| op["parameters"].as_array()).map(Vec::as_slice).unwrap_or_default();
    let listed = parameters.iter().find(|p| p["name"] == key).and_then(|p| p["schema"]["enum"][0].as_str());
    if let Some(value) = listed {
        return value.to_owned();
    }
    let firearm = arguments.firearm.as_ref().map(|f| f.id.clone());
    match key {
        "ids" => {
            [firearm, arguments.other_firearm.clone()].into_iter().flatten().collect::<Vec<_>>().join(",")
        }
        "ammo_id" => arguments.ammunition.clone().unwrap_or_default(),
        _ => firearm.unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recording_holds_the_clients_calls() {
        let recording = recording();
        assert_eq!((recording.client.as_str(), recording.version.as_str()), ("gunspec", "0.9.0"));
        assert!(recording.calls.len() >= 130, "{}", recording.calls.len());
        let get = recording.calls.iter().find(|c| c.call == "firearms.get").unwrap();
        assert_eq!((get.method.as_str(), get.path.as_str()), ("GET", "/v1/firearms/{id}"));
    }

    #[test]
    fn shapes_match_a_parameter_to_a_parameter_and_a_literal_to_itself() {
        assert!(same_shape("/v1/collections/{shareId}", "/v1/collections/{share_id}"));
        assert!(same_shape("/v1/firearms/compare", "/v1/firearms/compare"));
        assert!(!same_shape("/v1/firearms/{id}", "/v1/firearms/media"));
        assert!(!same_shape("/v1/firearms/{id}", "/v1/firearms/{id}/model"));
    }
}
