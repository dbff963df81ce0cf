//! The MCP tools: each is one catalog read, answered by the same typed query (`read::query`) as
//! its REST operation, for the caller's plan, and gated by that operation's minimum plan. A tool's
//! structured output is the REST body without `success`: `data`, and `pagination` for a page.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::access::operations;
use crate::access::paging::Paging;
use crate::access::plan::{Plan, PlanLimits};
use crate::read::error::QueryError;
use crate::read::query::calibers::CaliberFilter;
use crate::read::query::{calibers, firearms, game, rankings, records, resolve, search};
use crate::read::rankings::RANKED_STAT_NAMES;
use crate::read::rendered::{self, Rendered};
use crate::read::snapshot::Snapshot;
use crate::read::views::View;

/// One tool: its name, what it does, its input's JSON Schema, and the REST operation it answers
/// as (its minimum plan gates the tool).
pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub operation: (&'static str, &'static str),
    input: fn() -> Value,
}

impl Tool {
    pub fn input_schema(&self) -> Value {
        (self.input)()
    }

    /// The plan the tool's REST operation needs.
    pub fn min_plan(&self) -> Plan {
        let (method, path) = self.operation;
        operations::find(method, path).and_then(|op| op.min_plan).unwrap_or(Plan::Explorer)
    }

    /// The JSON Schema of every tool's structured output: the REST body's `data` (an object, a
    /// list or a scalar, as the operation answers) and, for a page, its `pagination`.
    pub fn output_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "data": { "description": "What the REST operation answers in `data`, for the caller's plan." },
                "pagination": { "type": "object", "description": "The REST operation's pagination, for a page." }
            },
            "required": ["data"]
        })
    }
}

const ID: &str = "^[a-z0-9-]+$";

fn object(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

fn paging_properties() -> Value {
    json!({
        "page": { "type": "integer", "minimum": 1, "default": 1 },
        "per_page": { "type": "integer", "minimum": 1, "maximum": 100, "default": 20 }
    })
}

fn with_paging(mut properties: Value) -> Value {
    if let (Some(into), Value::Object(paging)) = (properties.as_object_mut(), paging_properties()) {
        into.extend(paging);
    }
    properties
}

pub const TOOLS: &[Tool] = &[
    Tool {
        name: "search_firearms",
        title: "Search firearms",
        description: "Firearms matching free text (names, makers, calibers, typos tolerated), best first, a page at a time.",
        operation: ("GET", "/v1/firearms/search"),
        input: || {
            let q = json!({ "q": { "type": "string", "minLength": 1, "maxLength": 200, "description": "free text, e.g. glock 17" } });
            object(with_paging(q), &["q"])
        },
    },
    Tool {
        name: "get_firearm",
        title: "Get a firearm",
        description: "One firearm's specification with its sources, by id.",
        operation: ("GET", "/v1/firearms/{id}"),
        input: || {
            object(
                json!({ "id": { "type": "string", "pattern": ID, "description": "firearm id, e.g. ak-47" } }),
                &["id"],
            )
        },
    },
    Tool {
        name: "compare_firearms",
        title: "Compare firearms",
        description: "The details of 1 to 5 firearms side by side, in the order asked.",
        operation: ("GET", "/v1/firearms/compare"),
        input: || {
            let ids = json!({ "type": "array", "items": { "type": "string", "pattern": ID }, "minItems": 1, "maxItems": 5 });
            object(json!({ "ids": ids }), &["ids"])
        },
    },
    Tool {
        name: "top_firearms",
        title: "Top firearms",
        description: "Firearms ranked by one figure (heaviest, longest, fastest muzzle velocity...), optionally within a category.",
        operation: ("GET", "/v1/firearms/top"),
        input: || {
            object(
                json!({
                    "stat": { "type": "string", "enum": RANKED_STAT_NAMES },
                    "category": { "type": "string", "pattern": ID },
                    "limit": { "type": "integer", "minimum": 1, "maximum": 25, "default": 10 }
                }),
                &["stat"],
            )
        },
    },
    Tool {
        name: "resolve_firearm",
        title: "Resolve a firearm name",
        description: "The firearm id free text most likely names, with a confidence and alternatives.",
        operation: ("GET", "/v1/firearms/resolve"),
        input: || object(json!({ "q": { "type": "string", "minLength": 1, "maxLength": 200 } }), &["q"]),
    },
    Tool {
        name: "list_calibers",
        title: "List calibers",
        description: "Cartridges by name, a page at a time.",
        operation: ("GET", "/v1/calibers"),
        input: || object(paging_properties(), &[]),
    },
    Tool {
        name: "get_caliber",
        title: "Get a caliber",
        description: "One cartridge's dimensions and performance with its sources, by id.",
        operation: ("GET", "/v1/calibers/{id}"),
        input: || {
            object(
                json!({ "id": { "type": "string", "pattern": ID, "description": "caliber id, e.g. 9x19mm-parabellum" } }),
                &["id"],
            )
        },
    },
    Tool {
        name: "game_stats",
        title: "Game stats",
        description: "A firearm's game-balance stats (damage, accuracy, fire rate...) derived from its figures.",
        operation: ("GET", "/v1/firearms/{id}/game-stats"),
        input: || object(json!({ "id": { "type": "string", "pattern": ID } }), &["id"]),
    },
];

pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|tool| tool.name == name)
}

/// Why a tool call gave no result: shown to the assistant as a tool error.
#[derive(Debug)]
pub struct ToolError(pub String);

impl From<QueryError> for ToolError {
    fn from(error: QueryError) -> Self {
        Self(error.to_string())
    }
}

/// Runs `tool` with `arguments` for a caller on `plan` (its limits `limits`): the structured
/// output, or the tool error (a plan below the operation's, bad arguments, an unknown id).
pub fn call(
    tool: &Tool,
    arguments: &Map<String, Value>,
    snapshot: &Snapshot,
    limits: &PlanLimits,
) -> Result<Value, ToolError> {
    let needed = tool.min_plan();
    if limits.plan < needed {
        return Err(ToolError(format!(
            "{} needs the {} plan or higher; this key is on {}.",
            tool.name,
            needed.name(),
            limits.plan.name()
        )));
    }
    let args = Arguments(arguments);
    let view = View::of(limits.plan);
    let rendered = match tool.name {
        "search_firearms" => {
            search::firearms(snapshot, &args.text("q")?, false, &args.paging(limits)?, view)?
        }
        "get_firearm" => firearms::detail(snapshot, &args.id("id")?, view)?,
        "compare_firearms" => firearms::compare(snapshot, &args.ids("ids")?, view)?,
        "top_firearms" => {
            let category = args.optional_id("category")?;
            let limit = args.integer("limit", 10, 25)? as usize;
            rankings::top(snapshot, &args.text("stat")?, category.as_deref(), limit, view)?
        }
        "resolve_firearm" => json_of(rendered::one(resolve::one(snapshot, &args.text("q")?)?))?,
        "list_calibers" => {
            calibers::list(snapshot, &CaliberFilter::default(), false, &args.paging(limits)?, view)?
        }
        "get_caliber" => records::caliber(snapshot, &args.id("id")?, view)?.clone(),
        "game_stats" => json_of(rendered::one(game::live_stats(snapshot, &args.id("id")?)?))?,
        other => return Err(ToolError(format!("no tool is named {other}"))),
    };
    let mut body: Value = serde_json::from_slice(&rendered.body).map_err(|e| ToolError(e.to_string()))?;
    if let Some(fields) = body.as_object_mut() {
        fields.remove("success");
    }
    Ok(body)
}

fn json_of(rendered: serde_json::Result<Rendered>) -> Result<Rendered, ToolError> {
    rendered.map_err(|e| ToolError(e.to_string()))
}

/// A tool call's arguments, read as the REST operation reads its parameters.
struct Arguments<'a>(&'a Map<String, Value>);

impl Arguments<'_> {
    fn text(&self, name: &str) -> Result<String, ToolError> {
        match self.0.get(name).and_then(Value::as_str).map(str::trim) {
            Some(text) if (1..=200).contains(&text.chars().count()) => Ok(text.to_owned()),
            _ => Err(ToolError(format!("{name} must be a text of 1 to 200 characters"))),
        }
    }

    fn id(&self, name: &str) -> Result<String, ToolError> {
        self.optional_id(name)?.ok_or_else(|| ToolError(format!("{name} is required")))
    }

    fn optional_id(&self, name: &str) -> Result<Option<String>, ToolError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(id)) if is_id(id) => Ok(Some(id.clone())),
            Some(_) => Err(ToolError(format!("{name} must be an id (lower-case letters, digits and '-')"))),
        }
    }

    fn ids(&self, name: &str) -> Result<Vec<String>, ToolError> {
        let bad = || ToolError(format!("{name} must be a list of 1 to 5 ids"));
        let items = self.0.get(name).and_then(Value::as_array).ok_or_else(bad)?;
        let mut ids: Vec<String> = Vec::new();
        for item in items {
            let id = item.as_str().filter(|id| is_id(id)).ok_or_else(bad)?;
            if !ids.iter().any(|known| known == id) {
                ids.push(id.to_owned());
            }
        }
        if (1..=5).contains(&ids.len()) { Ok(ids) } else { Err(bad()) }
    }

    fn integer(&self, name: &str, default: u64, max: u64) -> Result<u64, ToolError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(value) => value
                .as_u64()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| ToolError(format!("{name} must be an integer from 1 to {max}"))),
        }
    }

    /// `page` and `per_page` as the REST list reads them, the plan's depth included.
    fn paging(&self, limits: &PlanLimits) -> Result<Paging, ToolError> {
        let mut query = HashMap::new();
        for name in ["page", "per_page"] {
            if let Some(value) = self.0.get(name).filter(|v| !v.is_null()) {
                query.insert(
                    name.to_owned(),
                    value.as_u64().map_or_else(|| value.to_string(), |n| n.to_string()),
                );
            }
        }
        Paging::parse(&query, 20, 100, limits).map_err(|e| ToolError(e.message))
    }
}

fn is_id(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}
