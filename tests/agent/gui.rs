//! Agent sessions on a desktop, end to end: the real binary, a real supervisor owning a desktop
//! (Xvfb, private buses) with the real `gnome-calculator` (GTK4) on it. An observation is the
//! program's windows as the outline with `@eN` refs; clicks name the latest observation and are
//! refused, with nothing sent, once it ended; promotion writes a `surface = "gui"` suite that
//! `a3s-test run` passes; closing leaves no process of the session's groups. The same
//! operations over MCP, on a real pipe, where `test_click` also takes a point of the latest
//! window screenshot (`visual_point("@vN", x, y)`).

use crate::mcp_pipe::McpClient;
use crate::support::*;
use serde_json::{json, Value};
use std::path::Path;

/// Click `label` on the calculator as decided on `observation`; answers with the next one.
fn click(d: &Path, observation: &Value, label: &str) -> Value {
    let clicked = ok(
        d,
        &[
            "agent",
            "click",
            &calculator_button(observation, label),
            "--session",
            "calc",
            "--observation",
            &observation_number(observation),
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
    let (_, g) = start_program(d, "calc", "gui", &["gnome-calculator"]);
    let first = turn(d, "calc", &["observe", "--full"]);
    assert!(
        first["url"].as_str().unwrap().contains("Calculator"),
        "{first}"
    );
    let seven = click(d, &first, "7");
    let times = click(d, &seven, "×");
    let six = click(d, &times, "6");
    let answered = click(d, &six, "=");
    assert_eq!(calculator_display(&answered), "42", "{answered}");

    // A ref of an observation that is over: refused (exit 2), and the display shows nothing
    // was sent (a 7 would have started a new number).
    let old = a3s(
        d,
        &[
            "agent",
            "click",
            &calculator_button(&six, "7"),
            "--session",
            "calc",
            "--observation",
            &observation_number(&six),
            "--json",
        ],
    );
    assert_eq!(old.code, 2, "{}\n{}", old.stdout, old.stderr);
    assert_eq!(old.json()["error"]["code"], "test.session.stale_ref");
    // The latest observation's ref, once an action (even a read) ended it, is refused too.
    let expected = turn(d, "calc", &["exec", "expect { text = \"42\" }"]);
    assert_eq!(expected["status"], "passed", "{expected}");
    let pressed = refused(
        d,
        &[
            "agent",
            "click",
            &calculator_button(&answered, "7"),
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
    let after = turn(d, "calc", &["observe", "--full"]);
    assert_eq!(
        calculator_display(&after),
        "42",
        "a refused click reached the program: {after}"
    );
    // A diff against an earlier observation lists what changed.
    let since = turn(
        d,
        "calc",
        &["observe", "--since", &observation_number(&first)],
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
    browser_step_refused(d, "calc");

    finish_passed(d, "calc", "42", g);
    let suite = promote_and_run(d, "calc", "gui", 5, d);
    assert!(!suite.contains("ref("), "{suite}");
}

#[test]
fn a_desktop_session_over_mcp_is_the_same_operations() {
    let dir = project();
    let d = dir.path();
    let mcp = McpClient::start(d, &[], TURN);
    let call = |name: &str, args: Value| mcp_ok(&mcp, name, args);
    let g = mcp_start_program(
        &mcp,
        d,
        json!({ "session": "calc", "gui": true, "program": ["gnome-calculator"] }),
    );
    let seen = call("test_observe", json!({ "session": "calc", "full": true }));
    let n = seen["observation"].clone();
    // Over MCP an action answers with the next observation.
    let clicked = call(
        "test_click",
        json!({ "session": "calc", "observation": n, "target": calculator_button(&seen, "9"), "full": true }),
    );
    assert_eq!(
        calculator_display(&clicked["observation"]),
        "9",
        "{clicked}"
    );
    let (stale, err) = mcp.result(
        "test_click",
        json!({ "session": "calc", "observation": n, "target": calculator_button(&seen, "8") }),
    );
    assert!(err, "{stale}");
    assert_eq!(stale["error"]["code"], "test.session.stale_ref", "{stale}");
    let again = call("test_observe", json!({ "session": "calc", "full": true }));
    assert_eq!(
        calculator_display(&again),
        "9",
        "a refused click reached the program: {again}"
    );
    // test_click also takes a point of the latest window screenshot (@vN): the "9" again.
    let shot = call(
        "test_exec",
        json!({ "session": "calc", "statement": "screenshot { path = \"mcp.png\" }" }),
    );
    let v = &shot["detail"];
    let (x, y) = (
        clicked["detail"]["x"].as_i64().unwrap() - v["left"].as_i64().unwrap(),
        clicked["detail"]["y"].as_i64().unwrap() - v["top"].as_i64().unwrap(),
    );
    let point = format!(
        "visual_point({:?}, {x}, {y})",
        v["screenshot"].as_str().unwrap()
    );
    let pointed = call(
        "test_click",
        json!({ "session": "calc", "target": point, "full": true }),
    );
    assert_eq!(
        pointed["detail"]["screenshot"], v["screenshot"],
        "{pointed}"
    );
    assert_eq!(
        calculator_display(&pointed["observation"]),
        "99",
        "{pointed}"
    );
    mcp_close(&mcp, "test_abort", json!({ "session": "calc" }), g);
}
