//! An agent turn in one call: an action answers with the observation that follows it
//! (`--observe` on the command line, the default over MCP), taken in the same supervisor turn
//! and recorded as the latest observation, so its refs are the ones the next action binds to.

use crate::mcp_pipe::McpClient;
use crate::support::*;
use serde_json::{json, Value};
use std::path::Path;

/// Opening the menu shows Alpha and removes the hint; Alpha writes what was picked; Dismiss
/// removes itself.
const MENU: &str = r#"<!doctype html><body><h1>Menu</h1>
<button type="button" aria-expanded="false" onclick="this.setAttribute('aria-expanded','true'); document.getElementById('items').hidden = false; document.getElementById('hint').remove()">Open</button>
<p id="hint">Closed</p>
<ul id="items" hidden><li><button type="button" onclick="document.getElementById('out').textContent = 'Picked Alpha'">Alpha</button></li></ul>
<button type="button" onclick="this.remove()">Dismiss</button>
<p id="out"></p>
</body>"#;

/// The output with the server's random port replaced, so it can be snapshotted.
fn stable(text: &str, server: &Server) -> String {
    text.replace(&server.origin, "http://127.0.0.1:PORT")
}

/// The observation id of an observation's JSON.
fn id(observation: &Value) -> u64 {
    observation["observation"]
        .as_u64()
        .unwrap_or_else(|| panic!("no observation id in {observation}"))
}

/// The ref of the control named `name` among a diff's changes.
fn changed_ref(observation: &Value, name: &str) -> String {
    observation["changes"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["name"] == name)
        .and_then(|c| c["ref"].as_str())
        .unwrap_or_else(|| panic!("no {name:?} among the changes of {observation}"))
        .to_string()
}

/// The session's latest observation as `session.json` records it: (id, open).
fn latest(d: &Path, session: &str) -> (u64, bool) {
    let latest = session_json(d, session)["latest"].clone();
    (
        latest["id"].as_u64().unwrap(),
        latest["open"].as_bool().unwrap(),
    )
}

#[test]
fn an_action_with_observe_answers_the_next_observation_whose_refs_the_next_action_takes() {
    let (_server, dir, groups) = session_on(&[("/", MENU)], "turn", &[]);
    let d = dir.path();
    let first = turn(d, "turn", &["observe"]);
    let n1 = id(&first);
    let open = ref_of(&first, "button", "Open");
    let dismiss = ref_of(&first, "button", "Dismiss");
    let n1s = n1.to_string();

    // View options without --observe would be ignored: they are refused instead.
    refused_turn(
        d,
        "turn",
        &["click", &open, "--since", &n1s],
        "test.session.invalid_input",
    );

    // One call: the click, then the diff against the observation it was bound to.
    let clicked = turn(
        d,
        "turn",
        &[
            "click",
            &open,
            "--observation",
            &n1s,
            "--observe",
            "--since",
            &n1s,
        ],
    );
    assert_eq!(clicked["status"], "passed", "{clicked}");
    assert_eq!(clicked["step"], "click", "{clicked}");
    let seen = &clicked["observation"];
    let n2 = id(seen);
    assert_eq!(n2, n1 + 1, "{clicked}");
    assert_eq!(seen["since"], n1, "{seen}");
    assert!(
        seen.get("lines").is_none(),
        "a diff, not the outline: {seen}"
    );
    let kinds: Vec<(&str, &str)> = seen["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let what = c["name"].as_str().or(c["text"].as_str()).unwrap_or("");
            (c["change"].as_str().unwrap(), what)
        })
        .collect();
    assert!(kinds.contains(&("added", "Alpha")), "{kinds:?}");
    assert!(kinds.contains(&("removed", "Closed")), "{kinds:?}");
    assert!(kinds.contains(&("changed", "Open")), "{kinds:?}");
    // The page was observed after the step: nothing to suggest, the refs are the agent's.
    assert!(clicked.get("next").is_none(), "{clicked}");
    // Recorded exactly as an observe turn records it: the latest, open.
    assert_eq!(latest(d, "turn"), (n2, true));

    // A refusal before dispatch observes nothing and ends nothing.
    let unknown = refused_turn(
        d,
        "turn",
        &[
            "click",
            "@e99",
            "--observation",
            &n2.to_string(),
            "--observe",
        ],
        "test.session.unknown_ref",
    );
    assert!(
        unknown["error"]["detail"].get("observation").is_none(),
        "{unknown}"
    );
    assert_eq!(latest(d, "turn"), (n2, true));

    // A ref of the answered observation is taken by the next action, no observe in between.
    let alpha = changed_ref(seen, "Alpha");
    let picked = turn(
        d,
        "turn",
        &[
            "click",
            &alpha,
            "--observation",
            &n2.to_string(),
            "--observe",
        ],
    );
    let n3 = id(&picked["observation"]);
    assert_eq!(n3, n2 + 1, "{picked}");
    assert!(
        picked["observation"]["lines"]
            .to_string()
            .contains("Picked Alpha"),
        "the whole view after the step: {picked}"
    );
    // The observation before the action is not the latest any more.
    let stale = refused_turn(
        d,
        "turn",
        &["click", &open, "--observation", &n2.to_string()],
        "test.session.stale_ref",
    );
    assert!(error_message(&stale).contains(&n2.to_string()), "{stale}");

    // Dismiss goes away with its click; the answered view no longer lists it, so its ref is
    // stale for the next action even bound to that newest observation.
    let dismissed = turn(
        d,
        "turn",
        &[
            "click",
            &dismiss,
            "--observation",
            &n3.to_string(),
            "--observe",
        ],
    );
    let n4 = id(&dismissed["observation"]);
    assert_eq!(
        refs(&dismissed["observation"])
            .iter()
            .filter(|r| r["name"] == "Dismiss")
            .count(),
        0,
        "{dismissed}"
    );
    refused_turn(
        d,
        "turn",
        &["click", &dismiss, "--observation", &n4.to_string()],
        "test.session.stale_ref",
    );
    // Without --observe the answer is the step's alone, as before.
    let plain = turn(d, "turn", &["press", "Tab"]);
    assert!(plain.get("observation").is_none(), "{plain}");
    assert_eq!(
        plain["next"], "a3s-test agent observe --session turn",
        "{plain}"
    );
    turn(d, "turn", &["abort"]);
    assert_gone(groups);
}

#[test]
fn the_human_answer_prints_the_step_then_the_view_and_a_failed_step_still_shows_the_page() {
    let (server, dir, groups) = session_on(&[("/", MENU)], "human", &[]);
    let d = dir.path();
    let first = turn(d, "human", &["observe"]);
    let n1 = id(&first).to_string();
    let open = ref_of(&first, "button", "Open");
    let out = a3s(
        d,
        &[
            "agent",
            "click",
            &open,
            "--session",
            "human",
            "--observation",
            &n1,
            "--observe",
            "--since",
            &n1,
        ],
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    insta::assert_snapshot!("click_observe_since_text", stable(&out.stdout, &server));

    // A step that runs and fails keeps its failure code and exit code, and still answers with
    // the page after it (in the error's detail), whose refs the next action takes.
    let failed = a3s(
        d,
        &turn_args(
            "human",
            &["expect", "text", "Nowhere", "--immediate", "--observe"],
        ),
    );
    assert_eq!(failed.code, 1, "{}{}", failed.stdout, failed.stderr);
    let v = failed.json();
    assert_eq!(v["error"]["code"], "test.session.step_failed", "{v}");
    let detail = &v["error"]["detail"];
    assert_eq!(detail["dispatched"], true, "{v}");
    let seen = &detail["observation"];
    let n = id(seen);
    assert_eq!(latest(d, "human"), (n, true));
    assert!(detail.get("next").is_none(), "observed already: {v}");
    let alpha = ref_of(seen, "button", "Alpha");
    turn(
        d,
        "human",
        &["click", &alpha, "--observation", &n.to_string()],
    );
    // In text: the error on stderr, the page on stdout.
    let failed = a3s(
        d,
        &[
            "agent",
            "expect",
            "text",
            "Nowhere",
            "--immediate",
            "--observe",
            "--session",
            "human",
        ],
    );
    assert_eq!(failed.code, 1, "{}{}", failed.stdout, failed.stderr);
    assert!(
        failed
            .stderr
            .starts_with("error[test.session.step_failed]: "),
        "{}",
        failed.stderr
    );
    assert!(!failed.stderr.contains("next:"), "{}", failed.stderr);
    insta::assert_snapshot!(
        "failed_expect_observe_text",
        stable(&failed.stdout, &server)
    );
    turn(d, "human", &["abort"]);
    assert_gone(groups);
}

#[test]
fn mcp_actions_answer_with_the_next_observation_by_default_and_alone_when_told() {
    let server = Server::start(&[("/", MENU)]);
    let dir = project();
    let d = dir.path();
    let mcp = McpClient::start(d, &[], TURN);
    let ok = |name: &str, arguments: Value| -> Value {
        let (v, refused) = mcp.result(name, arguments);
        assert!(!refused, "{name}: {v}");
        v
    };
    ok(
        "test_session_start",
        json!({ "session": "m", "url": server.url() }),
    );
    let groups = groups(d, "m");
    let first = ok("test_observe", json!({ "session": "m" }));
    let n1 = id(&first);
    let open = ref_of(&first, "button", "Open");

    // By default: the action's result and the page after it, one call.
    let clicked = ok(
        "test_act",
        json!({ "session": "m", "observation": n1, "action": { "action": "click", "target": open } }),
    );
    assert_eq!(clicked["status"], "passed", "{clicked}");
    let seen = &clicked["observation"];
    let n2 = id(seen);
    assert_eq!(n2, n1 + 1, "{clicked}");
    assert_eq!(latest(d, "m"), (n2, true));
    assert!(clicked.get("next").is_none(), "{clicked}");
    // Counted in the JSON it is returned as.
    assert!(serde_json::to_string(seen).unwrap().len() <= 4096, "{seen}");
    let alpha = ref_of(seen, "button", "Alpha");

    // `observe: false`: the action's result alone; the observation it was bound to ends.
    let alone = ok(
        "test_act",
        json!({ "session": "m", "observation": n2, "observe": false,
                "action": { "action": "click", "target": alpha } }),
    );
    assert_eq!(alone["status"], "passed", "{alone}");
    assert!(alone.get("observation").is_none(), "{alone}");
    assert_eq!(
        alone["next"], "a3s-test agent observe --session m",
        "{alone}"
    );
    assert_eq!(latest(d, "m"), (n2, false));

    // A verb tool with the view options of test_observe: a diff against n2, within a budget.
    let dismissed = ok(
        "test_click",
        json!({ "session": "m", "target": "role(\"button\", \"Dismiss\")",
                "since": n2, "max_bytes": 1024 }),
    );
    let seen = &dismissed["observation"];
    assert_eq!(seen["since"], n2, "{dismissed}");
    let changes = seen["changes"].to_string();
    assert!(
        changes.contains("Dismiss") && changes.contains("Picked Alpha"),
        "{dismissed}"
    );
    assert!(serde_json::to_string(seen).unwrap().len() <= 1024, "{seen}");
    // Out of bounds is refused by the schema before anything runs.
    let e = mcp
        .call(
            "test_click",
            json!({ "session": "m", "target": "@e1", "max_bytes": 10 }),
        )
        .expect_err("outside the schema");
    assert_eq!(e["code"], -32602, "{e}");

    // A failing action keeps its code and carries the page after it.
    let (failed, refused) = mcp.result(
        "test_expect",
        json!({ "session": "m", "condition": "text", "values": ["Nowhere"], "immediate": true }),
    );
    assert!(refused, "{failed}");
    assert_eq!(
        failed["error"]["code"], "test.session.step_failed",
        "{failed}"
    );
    let n = id(&failed["error"]["detail"]["observation"]);
    assert_eq!(latest(d, "m"), (n, true));
    // Opted out, the failure is the failure alone.
    let (failed, refused) = mcp.result(
        "test_expect",
        json!({ "session": "m", "condition": "text", "values": ["Nowhere"], "immediate": true,
                "observe": false }),
    );
    assert!(refused, "{failed}");
    assert!(
        failed["error"]["detail"].get("observation").is_none(),
        "{failed}"
    );
    assert_eq!(latest(d, "m"), (n, false));

    let aborted = ok("test_abort", json!({ "session": "m" }));
    assert_eq!(aborted["cleanup_verified"], true, "{aborted}");
    assert_gone(groups);
}
