//! The CLI flow: start → observe → act → promote → check/run → finish, the gates with their
//! codes, abort, expiry, show/list/schema.

use crate::support::*;
use a3s_test_runner::process_tree::ProcessInfo;
use serde_json::Value;
use std::time::Duration;

#[test]
fn a_session_observes_acts_promotes_and_finishes_without_leftovers() {
    let server = Server::start(&[("/form", &form_page(17))]);
    let dir = project();
    let d = dir.path();
    let url = format!("{}/form", server.origin);
    let groups = start(
        d,
        "signup",
        &url,
        &["--goal", "sign up", "--success", "Thanks shows"],
    );

    // A 20-control form observes in well under 2 KB.
    let out = a3s(d, &["agent", "observe", "--session", "signup"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.len() < 2048,
        "compact view is {} bytes:\n{}",
        out.stdout.len(),
        out.stdout
    );
    let obs = turn(d, "signup", &["observe"]);
    assert_eq!(obs["ref_count"], 20, "{obs}");
    assert_eq!(obs["untrusted"], true);
    assert_eq!(obs["observation"], 2);
    let json_bytes = serde_json::to_vec(&obs).unwrap().len();
    assert!(
        json_bytes < 2048 * 2,
        "json observation is {json_bytes} bytes"
    );
    let email = ref_of(&obs, "textbox", "Email");
    let tos = ref_of(&obs, "checkbox", "Accept terms");
    // Each ref keeps its backend node and durable targets, most readable first.
    let record = session_json(d, "signup");
    let entry = &record["refs"][0];
    assert_eq!(entry["reference"], email);
    assert!(entry["backend_node_id"].as_i64().unwrap() > 0);
    assert_eq!(
        entry["durable"][0],
        serde_json::json!({ "by": "role", "role": "textbox", "name": { "match": "contains", "value": "Email" } })
    );
    assert_eq!(
        entry["durable"][1],
        serde_json::json!({ "by": "role", "role": "textbox", "name": { "match": "exact", "value": "Email" } })
    );
    assert_eq!(
        entry["durable"][2],
        serde_json::json!({ "by": "label", "label": { "match": "exact", "value": "Email" } })
    );
    assert_eq!(record["latest"]["id"], 2);
    assert!(record["cdp_endpoint"]
        .as_str()
        .unwrap()
        .starts_with("ws://127.0.0.1:"));

    let filled = turn(
        d,
        "signup",
        &["fill", &email, "a@b.c", "--observation", "2"],
    );
    assert_eq!(filled["status"], "passed");
    assert_eq!(
        filled["resolved"][0]["target"],
        "role(\"textbox\", \"Email\")"
    );
    assert_eq!(filled["next"], "a3s-test agent observe --session signup");

    let obs = turn(d, "signup", &["observe"]);
    let n = obs["observation"].as_u64().unwrap().to_string();
    let tos_now = ref_of(&obs, "checkbox", "Accept terms");
    assert_eq!(tos, tos_now);
    assert_eq!(refs(&obs)[0]["value"], "a@b.c");
    let statement = format!("check \"terms\" {{ target = ref(\"{tos_now}\") }}");
    turn(d, "signup", &["exec", &statement, "--observation", &n]);
    let obs = turn(d, "signup", &["observe"]);
    let send = ref_of(&obs, "button", "Send");
    turn(d, "signup", &["click", &send]);
    turn(d, "signup", &["expect-text", "Thanks a@b.c"]);

    // Promotion replaces every ref by the durable target it was dispatched through.
    let promoted = turn(d, "signup", &["promote", "--output", "suites/signup.acl"]);
    assert_eq!(promoted["steps"], 5);
    let suite = std::fs::read_to_string(d.join("suites/signup.acl")).unwrap();
    assert!(!suite.contains("ref("), "{suite}");
    assert!(suite.contains("role(\"textbox\", \"Email\")"), "{suite}");
    assert!(suite.contains("check \"terms\""), "{suite}");
    let check = a3s(d, &["check", "suites/signup.acl"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);

    let finished = turn(
        d,
        "signup",
        &["finish", "--status", "passed", "--summary", "done"],
    );
    assert_eq!(finished["cleanup_verified"], true, "{finished}");
    assert_eq!(finished["report"]["status"], "passed");
    assert_gone(groups);
    let report: Value = serde_json::from_slice(
        &std::fs::read(d.join(".a3s-test/agent-sessions/signup/report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["steps_passed"], 4);
    assert_eq!(session_json(d, "signup")["state"], "finished");
    let events =
        std::fs::read_to_string(d.join(".a3s-test/agent-sessions/signup/events.jsonl")).unwrap();
    assert!(events.lines().all(|l| l.contains("\"format_version\":1")));

    // The promoted suite passes on the same page, with the session closed.
    let run = a3s(d, &["run", "suites/signup.acl"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);

    // A closed session serves no more turns.
    refused_turn(d, "signup", &["observe"], "test.session.not_running");
}

#[test]
fn each_gate_refuses_with_its_own_code_before_dispatch() {
    let other = Server::start(&[("/", "<p>other</p>")]);
    let server = Server::start(&[("/form", &form_page(2))]);
    let dir = project();
    let d = dir.path();
    let url = format!("{}/form", server.origin);
    let groups = start(d, "gates", &url, &["--max-actions", "2"]);
    let s = ["--session", "gates", "--json"];
    let exec = |statement: &str, code: &str| {
        let mut args = vec!["agent", "exec", statement];
        args.extend_from_slice(&s);
        refused(d, &args, code)
    };
    let obs = turn(d, "gates", &["observe"]);
    let email = ref_of(&obs, "textbox", "Email");

    exec("clik { target = css(\"#email\") }", "test.session.schema");
    exec(
        "click { target = css(\"a\") }\nclick { target = css(\"b\") }",
        "test.session.schema",
    );
    exec("tab { operation = \"list\" }", "test.session.capability");
    exec("click { target = ref(\"@u1\") }", "test.session.ref_kind");
    exec(
        "click { target = ref(\"@c1\") }",
        "test.session.target_type",
    );
    exec(
        "click { target = ref(\"@e99\") }",
        "test.session.unknown_ref",
    );
    let nav = format!("navigate {{ url = \"{}/\" }}", other.origin);
    let v = exec(&nav, "test.session.policy");
    assert!(error_message(&v).contains("--allow-origin"));
    assert!(
        other.hits().is_empty(),
        "the other origin was contacted: {:?}",
        other.hits()
    );
    // None of those refusals ended the observation: nothing was dispatched.
    let stale_check = format!("focus {{ target = ref(\"{email}\") }}");
    turn(d, "gates", &["exec", &stale_check, "--observation", "1"]);
    // That action ended observation 1.
    exec(&stale_check, "test.session.stale_ref");
    turn(d, "gates", &["press", "Tab"]);
    // Two actions spent the budget.
    exec("press { key = \"Tab\" }", "test.session.budget");

    let aborted = turn(d, "gates", &["abort"]);
    assert_eq!(aborted["cleanup_verified"], true);
    // An aborted session's path is not a proven one: no promotion is suggested.
    assert!(aborted.get("next").is_none(), "{aborted}");
    assert_gone(groups);
    assert_eq!(session_json(d, "gates")["state"], "aborted");
}

#[test]
fn an_idle_session_expires_and_takes_its_browser_with_it() {
    let (_server, dir, groups) = session_on(
        &[("/", "<button>Go</button>")],
        "idle",
        &["--idle-timeout-ms", "1500"],
    );
    let d = dir.path();
    wait_gone(groups, Duration::from_secs(20));
    assert_eq!(session_json(d, "idle")["state"], "expired");
    refused_turn(d, "idle", &["observe"], "test.session.not_running");
    // abort of a closed session still verifies cleanup.
    let v = turn(d, "idle", &["abort"]);
    assert_eq!(v["cleanup_verified"], true);
}

#[test]
fn the_evidence_budget_and_the_session_deadline_are_set_at_start() {
    let (_server, dir, url) = page_and_project("<button>Go</button>");
    let d = dir.path();

    // Evidence: a screenshot runs while the budget is unspent; the bytes it wrote spend it, and
    // the next action is refused before dispatch.
    let budget = 1024;
    let groups = start(
        d,
        "evidence",
        &url,
        &["--max-evidence-bytes", &budget.to_string()],
    );
    assert_eq!(
        session_json(d, "evidence")["budgets"]["evidence_bytes"],
        budget
    );
    let artifacts = d.join(".a3s-test/agent-sessions/evidence/artifacts");
    let used: u64 = std::fs::read_dir(&artifacts)
        .unwrap()
        .flatten()
        .map(|e| e.metadata().unwrap().len())
        .sum();
    assert!(
        used < budget,
        "the session started with {used} bytes of evidence"
    );
    turn(
        d,
        "evidence",
        &["exec", "screenshot \"shot\" { path = \"shot.png\" }"],
    );
    assert!(std::fs::metadata(artifacts.join("shot.png")).unwrap().len() >= budget);
    let v = refused_turn(d, "evidence", &["press", "Tab"], "test.session.budget");
    let message = error_message(&v);
    assert!(
        message.contains(&format!("evidence budget ({budget} bytes)")),
        "{message}"
    );
    assert_eq!(session_json(d, "evidence")["actions"], 1);
    let aborted = turn(d, "evidence", &["abort"]);
    assert_eq!(aborted["cleanup_verified"], true);
    assert_gone(groups);

    // Deadline: the supervisor closes the session (and its browser) when it passes, however
    // recently the last turn was.
    let groups = start(d, "deadline", &url, &["--deadline-ms", "8000"]);
    assert_eq!(session_json(d, "deadline")["budgets"]["session_ms"], 8000);
    turn(d, "deadline", &["observe"]);
    wait_gone(groups, Duration::from_secs(40));
    assert_eq!(session_json(d, "deadline")["state"], "expired");
    let report: Value = serde_json::from_slice(
        &std::fs::read(d.join(".a3s-test/agent-sessions/deadline/report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["summary"], "session deadline", "{report}");
    refused_turn(d, "deadline", &["observe"], "test.session.not_running");
}

#[test]
fn show_list_schema_and_input_errors() {
    let (server, dir, url) = page_and_project("<button>Go</button>");
    let d = dir.path();
    refused_turn(d, "bad id", &["start", &url], "test.session.invalid_input");
    // A leading dash is refused by the same rule as the ledger's (that session could not have
    // used its own ledger), with the ledger's message.
    let dash = refused_turn(d, "-x", &["start", &url], "test.session.invalid_input");
    assert!(
        error_message(&dash).starts_with("invalid session id \"-x\""),
        "{dash}"
    );
    refused_turn(
        d,
        "x",
        &["start", &url, "--allow-origin", "nope"],
        "test.session.invalid_input",
    );
    refused_turn(d, "missing", &["observe"], "test.session.unknown");
    let groups = start(d, "shown", &url, &[]);
    refused_turn(d, "shown", &["start", &url], "test.session.exists");
    // The id `agent start` accepted names a ledger the repair verbs use.
    let inbox = ok(
        d,
        &["agent", "repair-inbox", "--session", "shown", "--json"],
    );
    assert_eq!(inbox["items"], serde_json::json!([]), "{inbox}");
    let list = ok(d, &["agent", "list", "--json"]);
    assert_eq!(list["sessions"][0]["session"], "shown");
    let show = turn(d, "shown", &["show"]);
    assert_eq!(show["session"]["state"], "active");
    assert_eq!(show["session"]["policy"]["origins"][0], server.origin);
    let schema = ok(d, &["agent", "schema"]);
    assert_eq!(schema["statement"]["type"], "string");
    // One action form per verb (its own arguments, the terminal `paste` and `resize` too) and
    // `expect_text`.
    let forms = schema["action"]["oneOf"].as_array().unwrap();
    assert_eq!(forms.len(), 20);
    assert!(
        forms
            .iter()
            .any(|f| f["properties"]["action"]["const"] == "double_click"
                && f["properties"]["target"]["maxLength"] == 4096),
        "{schema}"
    );
    refused_turn(
        d,
        "shown",
        &["promote", "--output", "x.acl"],
        "test.session.promotion",
    );
    turn(d, "shown", &["finish", "--status", "failed"]);
    assert_gone(groups);
}

#[test]
fn a_terminated_supervisor_closes_the_browser_first() {
    let (_server, dir, groups) = session_on(&[("/", "<button>Go</button>")], "term", &[]);
    let d = dir.path();
    let pid = session_json(d, "term")["ownership"]["supervisor_pid"]
        .as_u64()
        .unwrap();
    let supervisor = ProcessInfo::read(pid as i32).expect("the supervisor is running");
    // SAFETY: signals the supervisor this test started (pid read from its session record).
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGTERM) };
    // Watch the supervisor itself (pid and start time, so a reused pid does not count): the
    // moment it is gone, its browser must already be.
    // The supervisor is not our child: /proc is the only thing to watch.
    assert!(
        crate::common::wait_until(Duration::from_secs(20), || !supervisor.is_alive()),
        "the supervisor {pid} outlived SIGTERM"
    );
    let browser = a3s_test_web::live_group_members(groups.1);
    assert!(
        browser.is_empty(),
        "browser processes {browser:?} of group {} outlived their supervisor",
        groups.1
    );
    wait_gone(groups, Duration::from_secs(20));
    assert_eq!(session_json(d, "term")["state"], "aborted");
}

#[test]
fn a_nameless_control_is_reached_and_promoted_through_the_locator_the_page_writes() {
    let page = r#"<!doctype html><body><div><button onclick="out.textContent = 'icon clicked'"><svg width="10" height="10"></svg></button></div><p id="out"></p></body>"#;
    let (_server, dir, groups) = session_on(&[("/", page)], "icon", &[]);
    let d = dir.path();
    let obs = turn(d, "icon", &["observe"]);
    let icon = ref_of(&obs, "button", "");
    let clicked = turn(d, "icon", &["click", &icon]);
    let target = clicked["resolved"][0]["target"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(target, r#"role("button")"#, "the one button of the page");
    turn(d, "icon", &["expect-text", "icon clicked"]);
    turn(d, "icon", &["promote", "--output", "icon.acl"]);
    turn(d, "icon", &["finish", "--status", "passed"]);
    assert_gone(groups);
    let run = a3s(d, &["run", "icon.acl"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}
