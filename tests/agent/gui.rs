//! Agent sessions on a desktop, end to end: the real binary, a real supervisor owning a desktop
//! (Xvfb, private buses) with the real `gnome-calculator` (GTK4) on it. An observation is the
//! program's windows as the outline with `@eN` refs; clicks name the latest observation and are
//! refused, with nothing sent, once it ended; promotion writes a `surface = "gui"` suite that
//! `a3s-test run` passes; closing leaves no process of the session's groups. The same
//! operations over MCP, on a real pipe.

use crate::mcp_pipe::McpClient;
use crate::support::*;
use serde_json::{json, Value};
use std::path::Path;

/// The ref of the calculator's button labelled `label` (GTK 4.8 names it `label label`: its
/// label twice).
fn button(observation: &Value, label: &str) -> String {
    let twice = format!("{label} {label}");
    observation["lines"]
        .as_array()
        .unwrap_or_else(|| panic!("no outline in {observation}"))
        .iter()
        .find(|l| l["role"] == "push button" && (l["name"] == label || l["name"] == twice))
        .and_then(|l| l["ref"].as_str())
        .unwrap_or_else(|| panic!("no button {label:?} in {observation}"))
        .to_string()
}

/// The calculator's display: the value of its editable text.
fn display(observation: &Value) -> String {
    observation["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["role"] == "text")
        .map(|l| l["value"].as_str().unwrap_or("").to_string())
        .unwrap_or_else(|| panic!("no display in {observation}"))
}

fn number(observation: &Value) -> String {
    observation["observation"].as_u64().unwrap().to_string()
}

/// Click `label` on the calculator as decided on `observation`; answers with the next one.
fn click(d: &Path, observation: &Value, label: &str) -> Value {
    let clicked = ok(
        d,
        &[
            "agent",
            "click",
            &button(observation, label),
            "--session",
            "calc",
            "--observation",
            &number(observation),
            "--observe",
            "--full",
            "--json",
        ],
    );
    assert_eq!(clicked["status"], "passed", "{clicked}");
    assert_eq!(clicked["detail"]["input"], "xtest", "{clicked}");
    clicked["observation"].clone()
}

#[test]
fn a_desktop_session_computes_on_the_calculator_refuses_stale_refs_and_promotes_a_passing_suite() {
    let dir = project();
    let d = dir.path();
    let started = ok(
        d,
        &[
            "agent",
            "start",
            "--session",
            "calc",
            "--json",
            "--gui",
            "--",
            "gnome-calculator",
        ],
    );
    assert_eq!(started["state"], "active", "{started}");
    let g = groups(d, "calc");
    assert_alive(g);
    let first = ok(
        d,
        &["agent", "observe", "--session", "calc", "--full", "--json"],
    );
    assert!(
        first["url"].as_str().unwrap().contains("Calculator"),
        "{first}"
    );
    let seven = click(d, &first, "7");
    let times = click(d, &seven, "×");
    let six = click(d, &times, "6");
    let answered = click(d, &six, "=");
    assert_eq!(display(&answered), "42", "{answered}");

    // A ref of an observation that is over: refused (exit 2), and the display shows nothing
    // was sent (a 7 would have started a new number).
    let old = a3s(
        d,
        &[
            "agent",
            "click",
            &button(&six, "7"),
            "--session",
            "calc",
            "--observation",
            &number(&six),
            "--json",
        ],
    );
    assert_eq!(old.code, 2, "{}\n{}", old.stdout, old.stderr);
    assert_eq!(old.json()["error"]["code"], "test.session.stale_ref");
    // The latest observation's ref, once an action (even a read) ended it, is refused too.
    let expected = ok(
        d,
        &[
            "agent",
            "exec",
            "--session",
            "calc",
            "--json",
            "expect { text = \"42\" }",
        ],
    );
    assert_eq!(expected["status"], "passed", "{expected}");
    let pressed = refused(
        d,
        &[
            "agent",
            "click",
            &button(&answered, "7"),
            "--session",
            "calc",
            "--json",
        ],
        "test.session.stale_ref",
    );
    assert!(
        pressed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("ended"),
        "{pressed}"
    );
    let after = ok(
        d,
        &["agent", "observe", "--session", "calc", "--full", "--json"],
    );
    assert_eq!(
        display(&after),
        "42",
        "a refused click reached the program: {after}"
    );
    // A diff against an earlier observation lists what changed.
    let since = ok(
        d,
        &[
            "agent",
            "observe",
            "--session",
            "calc",
            "--since",
            &number(&first),
            "--json",
        ],
    );
    assert!(
        since["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["value"] == "42"),
        "{since}"
    );
    // A browser-only target is refused at admission, before anything is sent.
    refused(
        d,
        &[
            "agent",
            "exec",
            "--session",
            "calc",
            "--json",
            "click { target = css(\"a\") }",
        ],
        "test.session.schema",
    );

    let closed = ok(
        d,
        &[
            "agent",
            "finish",
            "--session",
            "calc",
            "--status",
            "passed",
            "--summary",
            "42",
            "--json",
        ],
    );
    assert_eq!(closed["cleanup_verified"], true, "{closed}");
    assert_gone(g);

    let promoted = ok(
        d,
        &[
            "agent",
            "promote",
            "--session",
            "calc",
            "--output",
            "suites/calc.acl",
            "--json",
        ],
    );
    assert_eq!(promoted["steps"], 5, "{promoted}");
    let suite = std::fs::read_to_string(d.join("suites/calc.acl")).unwrap();
    assert!(suite.contains("surface = \"gui\""), "{suite}");
    assert!(!suite.contains("ref("), "{suite}");
    let next = promoted["next"].as_str().unwrap();
    let words: Vec<&str> = next.split_whitespace().collect();
    assert_eq!(words[..2], ["a3s-test", "run"], "{next}");
    let run = a3s(d, &words[1..]);
    assert_eq!(
        run.code, 0,
        "{next}\n{suite}\n{}\n{}",
        run.stdout, run.stderr
    );
}

#[test]
fn a_desktop_session_over_mcp_is_the_same_operations() {
    let dir = project();
    let d = dir.path();
    let mcp = McpClient::start(d, &[], TURN);
    let call = |name: &str, args: Value| {
        let (v, err) = mcp.result(name, args);
        assert!(!err, "{name}: {v}");
        v
    };
    let started = call(
        "test_session_start",
        json!({ "session": "calc", "gui": true, "program": ["gnome-calculator"] }),
    );
    assert_eq!(started["state"], "active", "{started}");
    let g = groups(d, "calc");
    assert_alive(g);
    let seen = call("test_observe", json!({ "session": "calc", "full": true }));
    let n = seen["observation"].clone();
    // Over MCP an action answers with the next observation.
    let clicked = call(
        "test_click",
        json!({ "session": "calc", "observation": n, "target": button(&seen, "9"), "full": true }),
    );
    assert_eq!(display(&clicked["observation"]), "9", "{clicked}");
    let (stale, err) = mcp.result(
        "test_click",
        json!({ "session": "calc", "observation": n, "target": button(&seen, "8") }),
    );
    assert!(err, "{stale}");
    assert_eq!(stale["error"]["code"], "test.session.stale_ref", "{stale}");
    let again = call("test_observe", json!({ "session": "calc", "full": true }));
    assert_eq!(
        display(&again),
        "9",
        "a refused click reached the program: {again}"
    );
    let closed = call("test_abort", json!({ "session": "calc" }));
    assert_eq!(closed["cleanup_verified"], true, "{closed}");
    assert_gone(g);
}
