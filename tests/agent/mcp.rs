//! The session tools over a real stdio pipe to `a3s-test mcp`: same gates, same files, same
//! cleanup checks as the CLI.

use crate::mcp_pipe::McpPipe;
use crate::support::*;
use serde_json::{json, Value};

/// The agent tests' client: ids are numbered for the caller, and the session is initialized.
struct Mcp {
    pipe: McpPipe,
    next_id: u64,
}

impl Mcp {
    fn start(dir: &std::path::Path) -> Mcp {
        let mut mcp = Mcp {
            pipe: McpPipe::start(dir, &[], TURN),
            next_id: 1,
        };
        let init = mcp.request("initialize", json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }));
        assert_eq!(init["result"]["serverInfo"]["name"], "a3s-test");
        mcp.pipe.send_raw(
            &json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }).to_string(),
        );
        mcp
    }

    /// The next request id.
    fn id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.id();
        self.pipe.request(id, method, params)
    }

    /// Call a tool; returns (structuredContent, isError).
    fn call(&mut self, name: &str, arguments: Value) -> (Value, bool) {
        let id = self.id();
        let v = self.pipe.call(id, name, arguments);
        let r = &v["result"];
        assert!(r.is_object(), "{name}: {v}");
        (r["structuredContent"].clone(), r["isError"] == true)
    }

    fn ok(&mut self, name: &str, arguments: Value) -> Value {
        let (v, err) = self.call(name, arguments);
        assert!(!err, "{name}: {v}");
        v
    }

    fn refused(&mut self, name: &str, arguments: Value, code: &str) -> Value {
        let (v, err) = self.call(name, arguments);
        assert!(err, "{name} should be refused: {v}");
        assert_eq!(v["error"]["code"], code, "{v}");
        v
    }
}

#[test]
fn session_tools_run_the_same_gates_over_stdio() {
    let other = Server::start(&[]);
    let server = Server::start(&[("/form", &form_page(2))]);
    let dir = project();
    let d = dir.path();
    let mut mcp = Mcp::start(d);
    let list = mcp.request("tools/list", json!({}));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
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
        "test.session.target_type",
    );
    mcp.refused("test_exec", json!({ "session": "m", "statement": format!("navigate {{ url = \"{}/\" }}", other.origin) }), "test.session.policy");
    // An action outside the declared schema is invalid params, before any gate.
    let id = mcp.id();
    let explode = mcp.pipe.call(
        id,
        "test_act",
        json!({ "session": "m", "action": { "action": "explode" } }),
    );
    assert_eq!(explode["error"]["code"], -32602, "{explode}");
    assert_eq!(explode["error"]["data"]["field"], "/action", "{explode}");
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
    let id = mcp.id();
    let tiny = mcp.pipe.call(
        id,
        "test_observe",
        json!({ "session": "m", "max_bytes": 10 }),
    );
    assert_eq!(tiny["error"]["code"], -32602, "{tiny}");
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
