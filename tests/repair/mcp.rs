//! `a3s-test mcp` over real stdio: lifecycle, tool listing with schemas, tool calls, and the
//! JSON-RPC error codes.

use crate::mcp_pipe::McpPipe;
use crate::support::*;
use serde_json::{json, Value};

/// `a3s-test mcp --root <root>`; the caller numbers its requests (the tests send malformed ones).
fn start_mcp(root: &std::path::Path) -> McpPipe {
    McpPipe::start(root, &["--root".as_ref(), root.as_os_str()], DEADLINE)
}

#[test]
fn mcp_lifecycle_tools_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut mcp = start_mcp(dir.path());
    let early = mcp.request(1, "tools/list", json!({}));
    assert_eq!(early["error"]["code"], -32002);
    let init = mcp.request(2, "initialize", json!({
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}
    }));
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(init["result"]["serverInfo"]["name"], "a3s-test");
    assert!(init["result"]["capabilities"]["tools"].is_object());
    mcp.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    let list = mcp.request(3, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for expected in [
        "test_repair_inbox",
        "test_repair_inspect",
        "test_repair_claim",
        "test_repair_progress",
        "test_repair_reply",
        "test_repair_complete",
        "test_repair_fail",
        "test_repair_cancel",
        "test_repair_drain",
    ] {
        assert!(names.contains(&expected), "{expected} missing");
    }
    // Human authorization is a separate authority: no reviewer verb is reachable over MCP, and
    // nothing there can create a finding recorded as a person's intake.
    for reviewer_only in [
        "test_repair_accept",
        "test_repair_reject",
        "test_repair_reopen",
        "test_repair_answer",
        "test_repair_import",
    ] {
        assert!(
            !names.contains(&reviewer_only),
            "{reviewer_only} is a reviewer action"
        );
    }
    for t in tools {
        assert_eq!(t["inputSchema"]["type"], "object", "{}", t["name"]);
        assert!(t["description"].as_str().is_some_and(|d| !d.is_empty()));
    }

    // The reviewer's finding arrives through the CLI (a person's channel), not through MCP.
    let imported = run(
        dir.path(),
        &["agent", "repair-import", "-", "--session", "s1", "--json"],
        Some(doc(&[finding("f1", "blue please")]).as_bytes()),
    );
    assert!(imported.status.success());
    // Draining needs a running session; with none, the refusal is a tool result.
    let drain = mcp.call(4, "test_repair_drain", json!({"session": "s1"}));
    assert_eq!(drain["result"]["isError"], true, "{drain}");
    let text: Value =
        serde_json::from_str(drain["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, drain["result"]["structuredContent"]);

    let claim = mcp.call(
        5,
        "test_repair_claim",
        json!({"session": "s1", "finding": "f1", "request_id": "r1"}),
    );
    let attempt = claim["result"]["structuredContent"]["result"]["attempt_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let progress = mcp.call(6, "test_repair_progress", json!({
        "session": "s1", "finding": "f1", "request_id": "r2", "attempt_id": attempt, "message": "on it"
    }));
    assert_eq!(
        progress["result"]["structuredContent"]["result"]["to"],
        "repairing"
    );
    let complete = mcp.call(7, "test_repair_complete", json!({
        "session": "s1", "finding": "f1", "request_id": "r3", "attempt_id": attempt, "changed_files": []
    }));
    assert_eq!(
        complete["result"]["structuredContent"]["result"]["to"],
        "verifying"
    );
    let inbox = mcp.call(8, "test_repair_inbox", json!({"limit": 5}));
    assert_eq!(
        inbox["result"]["structuredContent"]["protocol"],
        "a3s.test.repair-inbox/1"
    );
    let rec = mcp.call(
        9,
        "test_repair_inspect",
        json!({"session": "s1", "finding": "f1"}),
    );
    assert_eq!(
        rec["result"]["structuredContent"]["changed_files"],
        json!([])
    );

    // A refusal is a tool result with isError, not a protocol error.
    let refused = mcp.call(
        10,
        "test_repair_claim",
        json!({"session": "s1", "finding": "f1", "request_id": "r4"}),
    );
    assert_eq!(refused["result"]["isError"], true);
    assert_eq!(
        refused["result"]["structuredContent"]["error"]["code"],
        "test.session.repair_invalid_transition"
    );
    // Protocol errors.
    assert_eq!(
        mcp.call(11, "test_nope", json!({}))["error"]["code"],
        -32602
    );
    assert_eq!(
        mcp.call(12, "test_repair_claim", json!({"session": "s1"}))["error"]["code"],
        -32602
    );
    assert_eq!(
        mcp.call(
            13,
            "test_repair_claim",
            json!({"session": "s1", "finding": "f1", "request_id": "r", "shell": "id"})
        )["error"]["code"],
        -32602
    );
    assert_eq!(
        mcp.call(14, "test_repair_inbox", json!({"limit": "ten"}))["error"]["code"],
        -32602
    );
    assert_eq!(
        mcp.request(15, "resources/list", json!({}))["error"]["code"],
        -32601
    );
    mcp.send_raw("{not json");
    assert_eq!(mcp.recv()["error"]["code"], -32700);
    mcp.send_raw(r#"[{"jsonrpc":"2.0","id":16,"method":"ping"}]"#);
    assert_eq!(mcp.recv()["error"]["code"], -32600);
    mcp.send_raw(r#"{"jsonrpc":"1.0","id":17,"method":"ping"}"#);
    assert_eq!(mcp.recv()["error"]["code"], -32600);
    assert_eq!(mcp.request(18, "ping", json!({}))["result"], json!({}));
}

#[test]
fn mcp_negotiates_an_unknown_version_down_to_its_latest() {
    let dir = tempfile::tempdir().unwrap();
    let mut mcp = start_mcp(dir.path());
    let init = mcp.request(
        1,
        "initialize",
        json!({"protocolVersion": "1999-01-01", "capabilities": {}}),
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    let init = mcp.request(
        2,
        "initialize",
        json!({"protocolVersion": "2024-11-05", "capabilities": {}}),
    );
    assert_eq!(init["result"]["protocolVersion"], "2024-11-05");
}

#[test]
fn mcp_exits_when_stdin_closes() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &["mcp"],
        Some(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"),
    );
    assert!(out.status.success());
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["result"], json!({}));
}
