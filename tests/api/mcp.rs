//! The MCP server (POST /v1/mcp) driven by the official Rust SDK's client (`rmcp`), as an
//! assistant would drive it: the handshake, the tools with their schemas, each tool's answer equal
//! to its REST operation's for the same key, a tool the plan does not reach refused as a tool
//! error, and the daily MCP allowance reached with 429 MCP_DAILY_CAP_EXCEEDED.

use armory::access::plan::Plan;
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};

use crate::support::{Backend, TestApp, error_reason, roomy_plans};

crate::on_each_database!(setup = crate::support::read_catalog_app;
    the_handshake_lists_every_tool_with_its_schemas,
    each_tool_answers_what_its_rest_operation_answers,
    a_tool_the_plan_does_not_reach_is_a_tool_error_naming_the_plan,
    bad_messages_are_refused_and_notifications_accepted,
);
crate::on_each_database!(the_daily_mcp_allowance_ends_in_429_until_midnight);

type Client = RunningService<RoleClient, ClientConfig>;

async fn connect(app: &TestApp, key: &str) -> Client {
    let config =
        StreamableHttpClientTransportConfig::with_uri(app.url("/v1/mcp")).auth_header(key.to_owned());
    let transport = StreamableHttpClientTransport::from_config(config);
    ClientConfig::default().serve(transport).await.expect("the MCP handshake succeeds")
}

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments(args));
    client.call_tool(params).await.expect("the tool call is answered")
}

async fn rest(app: &TestApp, key: &str, path: &str) -> Value {
    let response = app.get_with_key(path, key).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

async fn the_handshake_lists_every_tool_with_its_schemas(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    let client = connect(&app, &key).await;
    let server = client.peer_info().expect("the server introduced itself");
    assert_eq!(server.server_info.as_ref().map(|info| info.name.as_str()), Some("armory"));
    assert!(server.capabilities.tools.is_some(), "it offers tools");
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "search_firearms",
            "get_firearm",
            "compare_firearms",
            "top_firearms",
            "resolve_firearm",
            "list_calibers",
            "get_caliber",
            "game_stats"
        ]
    );
    for tool in &tools {
        let input = Value::Object((*tool.input_schema).clone());
        assert_eq!(input["type"], "object", "{}", tool.name);
        assert!(tool.output_schema.is_some(), "{} publishes its output schema", tool.name);
    }
    let get = tools.iter().find(|t| t.name == "get_firearm").unwrap();
    assert_eq!(get.input_schema["required"], json!(["id"]));
    client.cancel().await.unwrap();

    // Neither the handshake nor the listing spent the day's allowance.
    app.state.access.usage.flush().await.unwrap();
    let usage: Value = rest(&app, &key, "/v1/me/usage").await;
    assert_eq!(usage["data"]["today"]["used"], 0, "{usage}");
}

async fn each_tool_answers_what_its_rest_operation_answers(app: TestApp) {
    let (_, _, key) = app.key(Plan::Enterprise).await;
    let client = connect(&app, &key).await;
    let cases = [
        ("get_firearm", json!({ "id": "ak-47" }), "/v1/firearms/ak-47"),
        (
            "search_firearms",
            json!({ "q": "glock 17", "per_page": 5 }),
            "/v1/firearms/search?q=glock%2017&per_page=5",
        ),
        (
            "compare_firearms",
            json!({ "ids": ["ak-47", "glock-17"] }),
            "/v1/firearms/compare?ids=ak-47,glock-17",
        ),
        ("top_firearms", json!({ "stat": "heaviest", "limit": 3 }), "/v1/firearms/top?stat=heaviest&limit=3"),
        ("resolve_firearm", json!({ "q": "AK47" }), "/v1/firearms/resolve?q=AK47"),
        ("list_calibers", json!({ "page": 2 }), "/v1/calibers?page=2"),
        ("get_caliber", json!({ "id": "9x19mm-parabellum" }), "/v1/calibers/9x19mm-parabellum"),
        ("game_stats", json!({ "id": "ak-47" }), "/v1/firearms/ak-47/game-stats"),
    ];
    for (tool, args, path) in cases {
        let result = call(&client, tool, args).await;
        assert_eq!(result.is_error, Some(false), "{tool}: {result:?}");
        let structured = result.structured_content.clone().expect("structured output");
        let answered = rest(&app, &key, path).await;
        assert_eq!(structured["data"], answered["data"], "{tool} answers as {path}");
        assert_eq!(
            structured["pagination"],
            answered.get("pagination").cloned().unwrap_or(Value::Null),
            "{tool}"
        );
    }
    // An unknown id is a tool error saying so.
    let missing = call(&client, "get_firearm", json!({ "id": "no-such-gun" })).await;
    assert_eq!(missing.is_error, Some(true));
    assert!(format!("{:?}", missing.content).contains("no-such-gun"));
    client.cancel().await.unwrap();
}

async fn a_tool_the_plan_does_not_reach_is_a_tool_error_naming_the_plan(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    let client = connect(&app, &key).await;
    let refused = call(&client, "compare_firearms", json!({ "ids": ["ak-47", "glock-17"] })).await;
    assert_eq!(refused.is_error, Some(true));
    let said = format!("{:?}", refused.content);
    assert!(said.contains("needs the Builder plan"), "{said}");
    // The Explorer view of a firearm is the REST one for Explorer.
    let summary = call(&client, "get_firearm", json!({ "id": "ak-47" })).await;
    assert_eq!(
        summary.structured_content.unwrap()["data"],
        rest(&app, &key, "/v1/firearms/ak-47").await["data"]
    );
    client.cancel().await.unwrap();
}

async fn post(app: &TestApp, key: &str, body: Value) -> reqwest::Response {
    app.client.post(app.url("/v1/mcp")).header("x-api-key", key).json(&body).send().await.unwrap()
}

async fn bad_messages_are_refused_and_notifications_accepted(app: TestApp) {
    let (_, _, key) = app.key(Plan::Explorer).await;
    let (status, reason, body) =
        error_reason(post(&app, &key, json!({ "jsonrpc": "1.0", "method": "ping", "id": 1 })).await).await;
    assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"));
    assert!(body["error"]["details"]["jsonrpc"].is_string(), "{body}");
    let note = post(&app, &key, json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })).await;
    assert_eq!(note.status(), 202);
    assert!(note.headers().contains_key("x-request-id"));
    let unknown: Value = post(&app, &key, json!({ "jsonrpc": "2.0", "id": "x", "method": "resources/list" }))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!((unknown["id"].as_str(), unknown["error"]["code"].as_i64()), (Some("x"), Some(-32601)));
    let keyless = app
        .client
        .post(app.url("/v1/mcp"))
        .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }))
        .send()
        .await
        .unwrap();
    assert_eq!(error_reason(keyless).await.0, 401);
}

async fn the_daily_mcp_allowance_ends_in_429_until_midnight(backend: Backend) {
    let app = TestApp::with_catalog(backend, |config| {
        config.plans = roomy_plans().with_overrides("explorer.mcp_per_day=2").unwrap();
    })
    .await;
    let (_, _, key) = app.key(Plan::Explorer).await;
    let client = connect(&app, &key).await;
    for _ in 0..2 {
        assert_eq!(call(&client, "resolve_firearm", json!({ "q": "AK47" })).await.is_error, Some(false));
    }
    let params =
        CallToolRequestParams::new("resolve_firearm").with_arguments(arguments(json!({ "q": "AK47" })));
    assert!(client.call_tool(params).await.is_err(), "the third call is refused");
    // listing the tools still answers: it spends nothing.
    assert_eq!(client.list_all_tools().await.unwrap().len(), 8);
    client.cancel().await.unwrap();

    let call = json!({ "jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": { "name": "resolve_firearm", "arguments": { "q": "AK47" } } });
    let refused = post(&app, &key, call).await;
    let retry_after: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    let now = time::OffsetDateTime::now_utc();
    let to_midnight = 86_400 - (now.unix_timestamp().rem_euclid(86_400)) as u64;
    assert!(
        retry_after.abs_diff(to_midnight) <= 5,
        "Retry-After {retry_after} against {to_midnight} to midnight"
    );
    let (status, reason, _) = error_reason(refused).await;
    assert_eq!((status, reason.as_str()), (429, "MCP_DAILY_CAP_EXCEEDED"));
    // The calls counted against the plan's own allowance too: two of them.
    app.state.access.usage.flush().await.unwrap();
    let usage = rest(&app, &key, "/v1/me/usage").await;
    assert_eq!(usage["data"]["today"]["used"], 2, "{usage}");
}
