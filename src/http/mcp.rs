//! POST /v1/mcp (operation 121): the MCP server over the streamable HTTP transport. The gate has
//! admitted the key (its per-minute slot taken, no daily unit: `access::admission`); a tool call
//! spends the MCP and daily allowances here (`admission::spend_mcp_call`), then `mcp::protocol`
//! answers with the tool run by `mcp::tools`. Answers are JSON (the transport lets a server answer
//! a POST with one JSON response rather than an event stream); a notification is 202 with no body.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::access::admission;
use crate::access::caller::Caller;
use crate::http::edge::body_limit::ApiJson;
use crate::http::extract::snapshot::CurrentSnapshot;
use crate::http::{ApiError, AppState};
use crate::mcp::{protocol, tools};

/// The JSON-RPC version, always "2.0".
#[derive(Serialize, Deserialize, ToSchema)]
pub enum JsonRpcVersion {
    #[serde(rename = "2.0")]
    V2,
}

/// A JSON-RPC request id.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum McpId {
    Text(String),
    Number(i64),
}

/// One Model Context Protocol message (JSON-RPC 2.0): `initialize`, `ping`, `tools/list` or
/// `tools/call` with an `id`, or a notification (such as `notifications/initialized`) without.
#[derive(Deserialize, ToSchema)]
pub struct McpMessage {
    pub jsonrpc: JsonRpcVersion,
    pub method: String,
    /// Absent for a notification; never null (MCP requests carry a string or an integer).
    #[schema(nullable = false)]
    pub id: Option<McpId>,
    #[schema(value_type = Object, nullable = false, required = false)]
    pub params: Option<Map<String, Value>>,
}

/// The answer to a request: its `result`, or a JSON-RPC `error` (an unknown method or tool, or
/// bad params). A tool that ran but could not answer (a plan below its operation's, an unknown
/// id) is a result with `isError` true and the reason as text.
#[derive(Serialize, ToSchema)]
pub struct McpAnswer {
    pub jsonrpc: JsonRpcVersion,
    pub id: McpId,
    #[schema(value_type = Option<Object>)]
    pub result: Option<Value>,
    pub error: Option<McpError>,
}

#[derive(Serialize, ToSchema)]
pub struct McpError {
    pub code: i64,
    pub message: String,
}

/// A Model Context Protocol server (streamable HTTP transport, JSON answers, no session) with
/// tools over the catalog: search_firearms, get_firearm, compare_firearms, top_firearms,
/// resolve_firearm, list_calibers, get_caliber and game_stats. Each tool answers what its REST
/// operation answers for this key's plan, and a tool whose operation the plan does not reach is a
/// tool error naming the plan it needs. Every tools/call counts against the plan's daily MCP
/// allowance (then 429 MCP_DAILY_CAP_EXCEEDED, Retry-After until midnight UTC) and its own daily
/// allowance; initialize, ping, tools/list and notifications do not.
#[utoipa::path(post, path = "/v1/mcp", tag = "MCP", request_body = McpMessage,
    responses(
        (status = 200, body = McpAnswer, description = "The answer to a request"),
        (status = 202, description = "A notification, accepted; no body")))]
pub async fn mcp(
    State(state): State<AppState>,
    CurrentSnapshot(snapshot): CurrentSnapshot,
    caller: Caller,
    ApiJson(body): ApiJson<Value>,
) -> Result<Response, ApiError> {
    let message =
        protocol::Message::parse(&body).map_err(|(field, why)| ApiError::invalid_parameter(field, why))?;
    if message.is_tool_call() {
        admission::spend_mcp_call(&state.access, &caller, crate::clock::Second::now()).await?;
    }
    let limits = state.access.plans.get(caller.plan);
    let answer = protocol::answer(&message, |tool, arguments| {
        protocol::tool_result(tools::call(tool, arguments, &snapshot, limits))
    });
    Ok(match answer {
        None => StatusCode::ACCEPTED.into_response(),
        Some(answer) => ([(header::CONTENT_TYPE, "application/json")], answer.to_string()).into_response(),
    })
}
