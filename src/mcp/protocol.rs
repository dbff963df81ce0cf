//! The Model Context Protocol's JSON-RPC 2.0 messages as this server answers them: the
//! `initialize` handshake (revisions 2024-11-05 to 2025-11-25), `ping`, `tools/list` and
//! `tools/call`; notifications are accepted without an answer. The server is stateless: it issues
//! no session id, so any node answers any message. `server/discover` (the 2026-07-28 revision's
//! start) is answered "method not found", which tells a client to fall back to `initialize`.

use serde_json::{Map, Value, json};

use super::tools::{self, Tool};

/// The revisions with an `initialize` handshake, newest first; the first is answered to a client
/// asking for one this server does not know.
pub const VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

/// One message, checked against the JSON-RPC envelope: what the description publishes as the
/// request body. Anything else is refused before it is read as a message.
#[derive(Debug)]
pub struct Message {
    /// None for a notification (no answer).
    pub id: Option<Value>,
    pub method: String,
    pub params: Map<String, Value>,
}

impl Message {
    /// `body` as a message, or why it is not one (named by field).
    pub fn parse(body: &Value) -> Result<Self, (&'static str, &'static str)> {
        let fields = body
            .as_object()
            .ok_or(("body", "must be a JSON-RPC 2.0 message object (batches are not supported)"))?;
        if fields.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Err(("jsonrpc", "must be \"2.0\""));
        }
        let method = fields.get("method").and_then(Value::as_str).ok_or(("method", "must be a string"))?;
        let id = match fields.get("id") {
            None => None,
            Some(id @ Value::String(_)) => Some(id.clone()),
            Some(id @ Value::Number(n)) if is_int64(n) => Some(id.clone()),
            Some(_) => return Err(("id", "must be a string or a 64-bit signed integer")),
        };
        let params = match fields.get("params") {
            None => Map::new(),
            Some(Value::Object(params)) => params.clone(),
            Some(_) => return Err(("params", "must be an object")),
        };
        Ok(Self { id, method: method.to_owned(), params })
    }

    /// Whether it is a tool call (the one message that spends the day's allowances).
    pub fn is_tool_call(&self) -> bool {
        self.id.is_some() && self.method == "tools/call"
    }
}

/// Whether `n` is an integer JSON Schema's `int64` admits: `-144`, or `-144.0` written as a
/// decimal. A decimal past ±2⁵³ is refused: it may be an integer past ±2⁶³ rounded to fit.
fn is_int64(n: &serde_json::Number) -> bool {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    n.as_i64().is_some() || n.as_f64().is_some_and(|f| f.fract() == 0.0 && f.abs() < EXACT)
}

/// What a method answers: its result, or a JSON-RPC error (code, message).
pub type Answer = Result<Value, (i64, String)>;

/// The answer to `message` (None for a notification); `call_tool` runs a tool by name with its
/// arguments.
pub fn answer(
    message: &Message,
    call_tool: impl FnOnce(&'static Tool, &Map<String, Value>) -> Value,
) -> Option<Value> {
    let id = message.id.clone()?;
    let answered: Answer = match message.method.as_str() {
        "initialize" => Ok(initialize(&message.params)),
        "ping" => Ok(json!({})),
        "tools/list" => Ok(json!({ "tools": listed_tools() })),
        "tools/call" => tool_call(&message.params, call_tool),
        other => Err((
            METHOD_NOT_FOUND,
            format!("no method {other}: this server answers initialize, ping, tools/list and tools/call"),
        )),
    };
    Some(match answered {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err((code, text)) => {
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": text } })
        }
    })
}

fn initialize(params: &Map<String, Value>) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let version = asked.filter(|v| VERSIONS.contains(v)).unwrap_or(VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": { "tools": { "listChanged": false } },
        "serverInfo": { "name": "armory", "title": "Armory firearms catalog", "version": env!("CARGO_PKG_VERSION") },
        "instructions": "Tools over the Armory catalog of firearm specifications. Each answers what its REST operation answers for this key's plan; every tools/call counts against the plan's daily MCP allowance and its own daily allowance."
    })
}

fn listed_tools() -> Vec<Value> {
    tools::TOOLS
        .iter()
        .map(|tool| {
            json!({
                "name": tool.name,
                "title": tool.title,
                "description": format!("{} Needs the {} plan.", tool.description, tool.min_plan().name()),
                "inputSchema": tool.input_schema(),
                "outputSchema": Tool::output_schema(),
                "annotations": { "readOnlyHint": true, "openWorldHint": false }
            })
        })
        .collect()
}

fn tool_call(
    params: &Map<String, Value>,
    call_tool: impl FnOnce(&'static Tool, &Map<String, Value>) -> Value,
) -> Answer {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or((INVALID_PARAMS, "params.name must name a tool".to_owned()))?;
    let tool = tools::find(name)
        .ok_or_else(|| (INVALID_PARAMS, format!("no tool is named {name}; tools/list names them")))?;
    let empty = Map::new();
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(arguments)) => arguments,
        Some(_) => return Err((INVALID_PARAMS, "params.arguments must be an object".to_owned())),
    };
    Ok(call_tool(tool, arguments))
}

/// A tool's result: its structured output, also as text for a client that reads only content.
pub fn tool_result(output: Result<Value, tools::ToolError>) -> Value {
    match output {
        Ok(structured) => json!({
            "content": [{ "type": "text", "text": structured.to_string() }],
            "structuredContent": structured,
            "isError": false
        }),
        Err(tools::ToolError(text)) => {
            json!({ "content": [{ "type": "text", "text": text }], "isError": true })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_is_checked_field_by_field() {
        assert_eq!(Message::parse(&json!([])).unwrap_err().0, "body");
        assert_eq!(Message::parse(&json!({ "jsonrpc": "1.0", "method": "ping" })).unwrap_err().0, "jsonrpc");
        assert_eq!(Message::parse(&json!({ "jsonrpc": "2.0" })).unwrap_err().0, "method");
        assert_eq!(
            Message::parse(&json!({ "jsonrpc": "2.0", "method": "ping", "id": 1.5 })).unwrap_err().0,
            "id"
        );
        let too_large = json!({ "jsonrpc": "2.0", "method": "ping", "id": 9_223_372_036_854_775_808u64 });
        assert_eq!(Message::parse(&too_large).unwrap_err().0, "id");
        assert!(Message::parse(&json!({ "jsonrpc": "2.0", "method": "ping", "id": -144.0 })).is_ok());
        let rounded: Value =
            serde_json::from_str(r#"{"jsonrpc":"2.0","method":"ping","id":-9223372036854775809}"#).unwrap();
        assert_eq!(Message::parse(&rounded).unwrap_err().0, "id");
        let call = Message::parse(&json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call" })).unwrap();
        assert!(call.is_tool_call());
        let note =
            Message::parse(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })).unwrap();
        assert!(answer(&note, |_, _| Value::Null).is_none(), "a notification has no answer");
    }

    #[test]
    fn initialize_answers_the_version_asked_when_known() {
        let asked = |version: &str| {
            initialize(json!({ "protocolVersion": version }).as_object().unwrap())["protocolVersion"].clone()
        };
        assert_eq!(asked("2025-06-18"), "2025-06-18");
        assert_eq!(asked("2026-07-28"), "2025-11-25");
        let unknown =
            Message::parse(&json!({ "jsonrpc": "2.0", "id": "a", "method": "server/discover" })).unwrap();
        assert_eq!(answer(&unknown, |_, _| Value::Null).unwrap()["error"]["code"], METHOD_NOT_FOUND);
    }
}
