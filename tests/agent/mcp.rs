//! The session tools over a real stdio pipe to `a3s-test mcp`, spoken by the official MCP client
//! (`rmcp`): same gates, same files, same cleanup checks as the CLI. (What no well-behaved client
//! sends — malformed lines, batches — is tested on raw lines in the repair suite.)

use crate::mcp_pipe::McpClient;
use crate::support::*;
use serde_json::{json, Value};

/// The agent tests' client: the official one, initialized, with the tests' expectations.
struct Mcp {
    client: McpClient,
}

impl Mcp {
    fn start(dir: &std::path::Path) -> Mcp {
        let client = McpClient::start(dir, &[], TURN);
        assert_eq!(client.server_info()["serverInfo"]["name"], "a3s-test");
        Mcp { client }
    }

    /// A tool call that must succeed as a tool: its structured result.
    fn ok(&self, name: &str, arguments: Value) -> Value {
        let (v, err) = self.client.result(name, arguments);
        assert!(!err, "{name}: {v}");
        v
    }

    /// A tool call the operation refuses with `code` (a tool result with `isError`).
    fn refused(&self, name: &str, arguments: Value, code: &str) -> Value {
        let (v, err) = self.client.result(name, arguments);
        assert!(err, "{name} should be refused: {v}");
        assert_eq!(v["error"]["code"], code, "{v}");
        v
    }

    /// A tool call whose arguments the server rejects against the tool's schema: the JSON-RPC
    /// error (`-32602`), before any gate ran.
    fn invalid_params(&self, name: &str, arguments: Value) -> Value {
        let e = self
            .client
            .call(name, arguments)
            .expect_err("arguments outside the schema are a protocol error");
        assert_eq!(e["code"], -32602, "{name}: {e}");
        e
    }
}

#[test]
fn session_tools_run_the_same_gates_over_stdio() {
    let other = Server::start(&[]);
    let server = Server::start(&[("/form", &form_page(2))]);
    let dir = project();
    let d = dir.path();
    let mcp = Mcp::start(d);
    let tools = mcp.client.tools();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for t in [
        "test_session_start",
        "test_observe",
        "test_exec",
        "test_act",
        "test_finish",
        "test_abort",
        "test_schema",
        "test_inspect",
        "test_click",
        "test_hover",
        "test_check",
        "test_fill",
        "test_type",
        "test_select",
        "test_press",
        "test_scroll",
        "test_wheel",
        "test_drag",
        "test_wait",
        "test_expect",
    ] {
        assert!(names.contains(&t), "{t} missing from {names:?}");
    }
    let schema = mcp.ok("test_schema", json!({}));
    assert!(schema["action"]["oneOf"].is_array());

    let url = format!("{}/form", server.origin);
    let started = mcp.ok(
        "test_session_start",
        json!({ "session": "m", "url": url, "goal": "send" }),
    );
    assert_eq!(started["state"], "active");
    let groups = groups(d, "m");
    assert_alive(groups);

    let obs = mcp.ok("test_observe", json!({ "session": "m" }));
    assert_eq!(obs["untrusted"], true);
    let n = obs["observation"].as_u64().unwrap();
    let email = ref_of(&obs, "textbox", "Email");
    let filled = mcp.ok("test_act", json!({ "session": "m", "observation": n, "action": { "action": "fill", "target": email, "text": "m@x.y" } }));
    assert_eq!(filled["status"], "passed");
    // The observation ended with that action.
    mcp.refused("test_act", json!({ "session": "m", "observation": n, "action": { "action": "click", "target": email } }), "test.session.stale_ref");
    mcp.refused(
        "test_exec",
        json!({ "session": "m", "statement": "click { target = ref(\"@u2\") }" }),
        "test.session.ref_kind",
    );
    mcp.refused("test_exec", json!({ "session": "m", "statement": format!("navigate {{ url = \"{}/\" }}", other.origin) }), "test.session.policy");
    // An action outside the declared schema is invalid params, before any gate.
    let explode = mcp.invalid_params(
        "test_act",
        json!({ "session": "m", "action": { "action": "explode" } }),
    );
    assert_eq!(explode["data"]["field"], "/action/action", "{explode}");
    // No Test Kit on this page: inspect is refused, observe keeps working on @eN alone.
    mcp.refused(
        "test_inspect",
        json!({ "session": "m", "detail": "summary" }),
        "test.session.capability",
    );
    let obs = mcp.ok("test_observe", json!({ "session": "m" }));
    assert!(obs.get("page_context").is_none(), "{obs}");
    let send = ref_of(&obs, "button", "Send");
    let n = obs["observation"].as_u64().unwrap();
    mcp.ok("test_exec", json!({ "session": "m", "observation": n, "statement": format!("click {{ target = ref(\"{send}\") }}") }));
    mcp.ok(
        "test_act",
        json!({ "session": "m", "action": { "action": "expect_text", "text": "Thanks m@x.y" } }),
    );
    // The view's options are the tool's arguments: a diff after settling, within a budget.
    let diff = mcp.ok(
        "test_observe",
        json!({ "session": "m", "since": n, "settle_ms": 50, "max_bytes": 2048 }),
    );
    assert_eq!(diff["since"], n, "{diff}");
    assert_eq!(diff["settle"]["settled"], true, "{diff}");
    assert!(
        diff["changes"].to_string().contains("Thanks m@x.y"),
        "{diff}"
    );
    assert!(
        serde_json::to_string(&diff).unwrap().len() <= 2048,
        "{diff}"
    );
    mcp.invalid_params("test_observe", json!({ "session": "m", "max_bytes": 10 }));
    // The verb tools take the verb's own parameters and run the same statements.
    let obs = mcp.ok("test_observe", json!({ "session": "m" }));
    let tos = ref_of(&obs, "checkbox", "Accept terms");
    let checked = mcp.ok("test_check", json!({ "session": "m", "target": tos }));
    assert_eq!(checked["step"], "check", "{checked}");
    mcp.ok(
        "test_expect",
        json!({ "session": "m", "condition": "checked", "values": ["label(\"Accept terms\")"] }),
    );
    mcp.ok(
        "test_press",
        json!({ "session": "m", "key": "End", "target": "label(\"Email\")" }),
    );
    mcp.ok(
        "test_scroll",
        json!({ "session": "m", "direction": "down" }),
    );
    mcp.refused(
        "test_click",
        json!({ "session": "m", "target": "@e99" }),
        "test.session.unknown_ref",
    );
    mcp.refused(
        "test_fill",
        json!({ "session": "m", "target": "css(\"a\") } click { target = css(\"b\")", "text": "x" }),
        "test.session.invalid_input",
    );
    assert!(other.hits().is_empty());

    let finished = mcp.ok(
        "test_finish",
        json!({ "session": "m", "status": "passed", "summary": "sent" }),
    );
    assert_eq!(finished["cleanup_verified"], true);
    assert_gone(groups);
    // The same session files as the CLI: `agent show` reads them.
    let show = turn(d, "m", &["show"]);
    assert_eq!(show["session"]["state"], "finished");
    assert_eq!(show["report"]["status"], "passed");

    // test_abort closes a second session.
    mcp.ok(
        "test_session_start",
        json!({ "session": "m2", "url": format!("{}/form", server.origin),
                "max_actions": 7, "deadline_ms": 600000, "max_evidence_bytes": 1048576 }),
    );
    let g2 = crate::support::groups(d, "m2");
    // The budgets given at start are the session's.
    let budgets = crate::support::session_json(d, "m2")["budgets"].clone();
    assert_eq!(budgets["max_actions"], 7, "{budgets}");
    assert_eq!(budgets["session_ms"], 600000, "{budgets}");
    assert_eq!(budgets["evidence_bytes"], 1048576, "{budgets}");
    let aborted = mcp.ok("test_abort", json!({ "session": "m2", "reason": "test" }));
    assert_eq!(aborted["cleanup_verified"], true);
    assert_gone(g2);
}
