//! `a3s-test mcp` over real stdio: lifecycle, tool listing with schemas, tool calls, and the
//! JSON-RPC error codes.

use crate::mcp_pipe::{McpClient, McpPipe};
use crate::support::*;
use serde_json::{json, Value};

/// `a3s-test mcp --root <root>`; the caller numbers its requests (the tests send malformed ones).
fn start_mcp(root: &std::path::Path) -> McpPipe {
    McpPipe::start(root, &["--root".as_ref(), root.as_os_str()], DEADLINE)
}

/// The official MCP client on `a3s-test mcp --root <root>`.
fn client(root: &std::path::Path) -> McpClient {
    McpClient::start(root, &["--root".as_ref(), root.as_os_str()], DEADLINE)
}

#[test]
fn mcp_lifecycle_and_envelope_errors_over_raw_lines() {
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
    // An id no 64-bit integer holds (or a fraction) cannot be echoed as sent: refused, id null.
    for id in ["99999999999999999999", "1.5"] {
        mcp.send_raw(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#));
        let refused = mcp.recv();
        assert_eq!(refused["error"]["code"], -32600, "{refused}");
        assert!(refused["id"].is_null(), "{refused}");
    }
    let largest = mcp.request(i64::MAX as u64, "ping", json!({}));
    assert_eq!(largest["id"], i64::MAX, "{largest}");
    assert_eq!(mcp.request(18, "ping", json!({}))["result"], json!({}));
}

#[test]
fn mcp_tools_answer_the_official_client() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = client(dir.path());
    assert_eq!(mcp.server_info()["serverInfo"]["name"], "a3s-test");
    let tools = mcp.tools();
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
        "test_repair_verify",
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
        "test_repair_verify_result",
    ] {
        assert!(
            !names.contains(&reviewer_only),
            "{reviewer_only} is a reviewer action"
        );
    }
    for t in &tools {
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
    let (_, is_error) = mcp.result("test_repair_drain", json!({"session": "s1"}));
    assert!(is_error);

    let (claim, _) = mcp.result(
        "test_repair_claim",
        json!({"session": "s1", "finding": "f1", "request_id": "r1"}),
    );
    let attempt = claim["result"]["attempt_id"].as_str().unwrap().to_owned();
    let (progress, _) = mcp.result("test_repair_progress", json!({
        "session": "s1", "finding": "f1", "request_id": "r2", "attempt_id": attempt, "message": "on it"
    }));
    assert_eq!(progress["result"]["to"], "repairing");
    let (complete, _) = mcp.result("test_repair_complete", json!({
        "session": "s1", "finding": "f1", "request_id": "r3", "attempt_id": attempt, "changed_files": []
    }));
    assert_eq!(complete["result"]["to"], "verifying");
    // The server started no session: an inbox without a named session shows none of the
    // sessions under the root; naming one shows it.
    let (inbox, _) = mcp.result("test_repair_inbox", json!({"limit": 5}));
    assert_eq!(inbox["protocol"], "a3s.test.repair-inbox/1");
    assert_eq!(inbox["items"], json!([]), "{inbox}");
    let (named, _) = mcp.result("test_repair_inbox", json!({"session": "s1"}));
    assert_eq!(named["items"][0]["finding_id"], "f1", "{named}");
    // An agent may ask for verification; a changed-file list other than the completion's is
    // refused before any browser is asked (and no verdict is anyone's to choose: the tool has
    // no `passed` field).
    let verify = tools
        .iter()
        .find(|t| t["name"] == "test_repair_verify")
        .unwrap();
    let props = verify["inputSchema"]["properties"].as_object().unwrap();
    for absent in [
        "passed",
        "failed",
        "checks_json",
        "evidence_digests",
        "auto_resolve_repairs",
    ] {
        assert!(!props.contains_key(absent), "{absent} in {props:?}");
    }
    let (refused, is_error) = mcp.result(
        "test_repair_verify",
        json!({
            "session": "s1", "finding": "f1", "request_id": "r-v", "attempt_id": attempt,
            "changed_files": ["src/other.css"]
        }),
    );
    assert!(is_error, "{refused}");
    assert_eq!(
        refused["error"]["code"],
        "test.session.repair_change_mismatch"
    );
    let (rec, _) = mcp.result(
        "test_repair_inspect",
        json!({"session": "s1", "finding": "f1"}),
    );
    assert_eq!(rec["changed_files"], json!([]));

    // A refusal is a tool result with isError, not a protocol error.
    let (refused, is_error) = mcp.result(
        "test_repair_claim",
        json!({"session": "s1", "finding": "f1", "request_id": "r4"}),
    );
    assert!(is_error);
    assert_eq!(
        refused["error"]["code"],
        "test.session.repair_invalid_transition"
    );
    // Protocol errors: an unknown tool, and arguments outside the derived schema.
    let code = |name: &str, args: Value| mcp.call(name, args).unwrap_err()["code"].clone();
    assert_eq!(code("test_nope", json!({})), -32602);
    assert_eq!(code("test_repair_claim", json!({"session": "s1"})), -32602);
    let unknown = mcp
        .call(
            "test_repair_claim",
            json!({"session": "s1", "finding": "f1", "request_id": "r", "shell": "id"}),
        )
        .unwrap_err();
    assert_eq!(unknown["code"], -32602, "{unknown}");
    assert_eq!(unknown["data"]["field"], "/shell", "{unknown}");
    assert_eq!(
        unknown["data"]["reason"], "is not an argument of this tool",
        "{unknown}"
    );
    assert_eq!(code("test_repair_inbox", json!({"limit": "ten"})), -32602);

    // A session id is refused by the one id rule, in the words `agent start --session=-x` uses
    // (tests/repair/cli.rs), by the session tools and the repair tools alike.
    let message =
        "invalid session id \"-x\": use 1-64 characters of A-Z a-z 0-9 _ - (not starting with -)";
    for (tool, args) in [
        (
            "test_session_start",
            json!({"session": "-x", "url": "http://127.0.0.1:9/"}),
        ),
        ("test_observe", json!({"session": "-x"})),
        ("test_repair_inbox", json!({"session": "-x"})),
    ] {
        let e = mcp.call(tool, args).unwrap_err();
        assert_eq!(e["code"], -32602, "{tool}: {e}");
        assert_eq!(e["data"]["field"], "/session", "{tool}: {e}");
        assert_eq!(e["data"]["reason"], message, "{tool}: {e}");
        assert!(e["message"].as_str().unwrap().contains(message), "{e}");
    }
}

/// Start and initialize a server.
fn initialized(root: &std::path::Path) -> McpPipe {
    let mut mcp = start_mcp(root);
    let init = mcp.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}}),
    );
    assert!(init["result"].is_object(), "{init}");
    mcp
}

#[test]
fn mcp_skips_an_over_long_line_without_holding_it_and_carries_on() {
    // Issue 16 case 7: a 512 MiB line grew the server from 144 to 538 MB before the 4 MiB limit
    // answered. 64 MiB is enough to tell: the limit plus a chunk is all that may be held.
    let dir = tempfile::tempdir().unwrap();
    let mut mcp = initialized(dir.path());
    let before = mcp.peak_rss_kib();
    mcp.send_long_line(64 * 1024 * 1024);
    let refused = mcp.recv();
    assert_eq!(refused["error"]["code"], -32700, "{refused}");
    assert_eq!(refused["id"], Value::Null, "{refused}");
    // The next message is served as usual.
    assert_eq!(mcp.request(2, "ping", json!({}))["result"], json!({}));
    let grown = mcp.peak_rss_kib().saturating_sub(before);
    assert!(
        grown < 24 * 1024,
        "the server grew by {grown} KiB reading a 64 MiB line"
    );
}

#[test]
fn mcp_answers_schema_violations_as_invalid_params_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let mcp = client(dir.path());
    let long_statement = "x".repeat(65_537);
    let cases = [
        ("test_repair_inbox", json!({"limit": 0}), "/limit"),
        ("test_repair_inbox", json!({"limit": "ten"}), "/limit"),
        ("test_repair_inbox", json!({"limit": 101}), "/limit"),
        ("test_observe", json!({"session": "../x"}), "/session"),
        (
            "test_observe",
            json!({"session": "s", "full": "yes"}),
            "/full",
        ),
        (
            "test_exec",
            json!({"session": "s", "statement": long_statement}),
            "/statement",
        ),
        ("test_exec", json!({"session": "s"}), "/statement"),
        (
            "test_finish",
            json!({"session": "s", "status": "maybe"}),
            "/status",
        ),
        ("test_repair_claim", json!({"session": "s1"}), "/finding"),
        (
            "test_repair_claim",
            json!({"session": "s1", "finding": "f1", "request_id": "r", "lease_ms": 10}),
            "/lease_ms",
        ),
        (
            "test_repair_complete",
            json!({"session": "s1", "finding": "f1", "request_id": "r", "attempt_id": "a",
                   "changed_files": [""]}),
            "/changed_files/0",
        ),
        (
            "test_act",
            json!({"session": "s", "action": {"action": "explode"}}),
            "/action/action",
        ),
        (
            "test_abort",
            json!({"session": "s", "shell": "id"}),
            "/shell",
        ),
        // A review is a person's decision: an agent cannot ask verification to resolve.
        (
            "test_repair_verify",
            json!({"session": "s1", "finding": "f1", "request_id": "r", "attempt_id": "a",
                   "changed_files": [], "auto_resolve_repairs": true}),
            "/auto_resolve_repairs",
        ),
    ];
    for (tool, arguments, field) in cases {
        let e = mcp.call(tool, arguments).unwrap_err();
        assert_eq!(e["code"], -32602, "{tool}: {e}");
        assert_eq!(e["data"]["field"], field, "{tool}: {e}");
    }
    // Arguments inside the schema still reach the tool (and its own refusal is a tool error).
    let (r, is_error) = mcp.result("test_observe", json!({"session": "missing"}));
    assert!(is_error, "{r}");
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
