//! `agent start --trace` … `agent finish --trace`: the session's statements written as the same
//! trace `run --trace` writes (schema `a3s.test.trace/1`), one step per dispatched statement
//! with the page after it, plus its HTML view, and `promote` naming it beside the suite.

use crate::support::*;
use serde_json::Value;
use std::path::Path;

/// A field and a button that logs what was saved.
const PAGE: &str = r#"<!doctype html><html><head><title>Notes</title></head><body>
<h1>Notes</h1>
<label for="note">Note</label><input id="note">
<button type="button" id="save">Save</button>
<p id="out"></p>
<script>
document.getElementById('save').addEventListener('click', () => {
  const v = document.getElementById('note').value;
  console.log('saved ' + v);
  document.getElementById('out').textContent = 'Saved ' + v;
});
</script>
</body></html>"#;

/// The JSON file at `path`.
fn read_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap()
}

/// A path an answer gives, relative to the project folder `d` (where the session was started).
fn under(d: &Path, path: &Value) -> std::path::PathBuf {
    let path = Path::new(path.as_str().unwrap_or_else(|| panic!("no path: {path}")));
    d.join(path.strip_prefix(".").unwrap_or(path))
}

/// The steps of a trace, as an array.
fn steps(trace: &Value) -> &Vec<Value> {
    trace["steps"]
        .as_array()
        .unwrap_or_else(|| panic!("no steps in {trace}"))
}

#[test]
fn a_traced_session_writes_one_step_per_statement_with_its_page_and_an_html_timeline() {
    let (_server, dir, groups) = session_on(&[("/", PAGE)], "tr", &["--trace"]);
    let d = dir.path();
    let seen = turn(d, "tr", &["observe"]);
    let note = ref_of(&seen, "textbox", "Note");
    turn(d, "tr", &["fill", &note, "first note"]);
    turn(d, "tr", &["click", r#"role("button", "Save")"#]);
    // A statement refused before dispatch is no step of the trace: nothing ran.
    refused_turn(d, "tr", &["click", &note], "test.session.stale_ref");
    // One that ran and failed is.
    let failed = a3s(d, &turn_args("tr", &["click", r##"css("#missing")"##]));
    assert_eq!(failed.code, 1, "{}\n{}", failed.stdout, failed.stderr);
    assert_eq!(failed.json()["error"]["code"], "test.session.step_failed");

    let closed = ok(
        d,
        &[
            "agent",
            "finish",
            "--session",
            "tr",
            "--status",
            "passed",
            "--trace",
            "--json",
        ],
    );
    assert_gone(groups);
    let summary = &closed["report"]["trace"];
    assert_eq!(summary["steps"], 4, "{closed}");
    assert_eq!(summary["captured"], true, "{closed}");
    let folder = d.join(".a3s-test/agent-sessions/tr");
    assert_eq!(under(d, &summary["path"]), folder.join("trace.json"));
    assert_eq!(under(d, &summary["html"]), folder.join("trace.html"));
    // report.json names it too.
    assert_eq!(read_json(&folder.join("report.json"))["trace"], *summary);

    let trace = read_json(&folder.join("trace.json"));
    assert_eq!(trace["schema"], "a3s.test.trace/1");
    assert_eq!(trace["traced"], true);
    let steps = steps(&trace);
    let kinds: Vec<&str> = steps.iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["navigate", "fill", "click", "click"], "{trace}");
    let statuses: Vec<&str> = steps
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["passed", "passed", "passed", "failed"]);
    assert_eq!(
        steps[3]["failure"]["code"], "test.driver.web.target_not_found",
        "{}",
        steps[3]
    );
    // Each step points at its statement in the trace's source.
    let source: Vec<&str> = trace["source"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(source.len(), 4, "{source:?}");
    let line_of = |i: usize| source[steps[i]["line"].as_u64().unwrap() as usize - 1];
    assert!(line_of(0).starts_with("navigate"), "{source:?}");
    assert!(
        line_of(1).starts_with("fill") && line_of(1).contains("first note"),
        "{source:?}"
    );
    assert!(
        line_of(2).contains(r#"role("button", "Save")"#),
        "{source:?}"
    );
    assert!(line_of(3).contains("#missing"), "{source:?}");
    // How each target was found: a ref's step names the locator proven to name its node (the
    // statement shows the ref), a written locator is itself.
    assert!(line_of(1).contains(&note), "{source:?}");
    let found = steps[1]["locator"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", steps[1]));
    assert!(!found.contains('@') && found.contains("Note"), "{found}");
    assert_eq!(
        steps[2]["locator"], r#"role("button", "Save")"#,
        "{}",
        steps[2]
    );
    assert_eq!(steps[3]["locator"], r##"css("#missing")"##, "{}", steps[3]);
    // A screenshot after every step, on disk beside the trace.
    for step in steps {
        let shot = step["screenshot"]["file"]
            .as_str()
            .unwrap_or_else(|| panic!("no screenshot: {step}"));
        let bytes = std::fs::read(folder.join(shot)).unwrap();
        assert!(bytes.starts_with(&[0xFF, 0xD8, 0xFF]), "{shot} is no JPEG");
        assert!(step["duration_ms"].is_u64());
    }
    // The outline after the fill shows the value; the click logged what it saved, in its step.
    let outline = steps[1]["outline"].to_string();
    assert!(outline.contains("first note"), "{outline}");
    let console: Vec<&str> = steps[2]["console"]
        .as_array()
        .unwrap_or_else(|| panic!("no console in {}", steps[2]))
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert_eq!(console, ["saved first note"]);
    assert!(steps[1].get("console").is_none(), "{}", steps[1]);

    // The HTML view: the report's timeline, one tab per step, the failed one selected.
    let html = std::fs::read_to_string(folder.join("trace.html")).unwrap();
    assert!(html.contains("A3S Test trace"), "{html}");
    assert!(html.contains(r#"role="tablist""#));
    assert_eq!(html.matches(r#"role="tab""#).count(), 4);
    assert_eq!(html.matches("data:image/jpeg;base64,").count(), 4);
    assert!(html.contains(r#"aria-selected="true" tabindex="0" data-line="4""#));
    assert!(html.contains("saved first note"));
    assert!(!html.contains("http-equiv=\"refresh\""));

    // The promoted suite names the session's trace as its evidence.
    let out = d.join("suites/notes.acl");
    let promoted = ok(
        d,
        &[
            "agent",
            "promote",
            "--session",
            "tr",
            "--output",
            out.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(
        under(d, &promoted["trace"]),
        folder.join("trace.html"),
        "{promoted}"
    );
    let text = a3s(
        d,
        &[
            "agent",
            "promote",
            "--session",
            "tr",
            "--output",
            out.to_str().unwrap(),
        ],
    );
    assert!(
        text.stdout.contains("evidence: the session's trace"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_session_started_without_trace_lists_its_steps_without_pages_and_says_why() {
    let (_server, dir, groups) = session_on(&[("/", PAGE)], "plain", &[]);
    let d = dir.path();
    turn(d, "plain", &["click", r#"role("button", "Save")"#]);
    let closed = a3s(
        d,
        &[
            "agent",
            "finish",
            "--session",
            "plain",
            "--status",
            "failed",
            "--trace",
        ],
    );
    assert_eq!(closed.code, 0, "{}\n{}", closed.stdout, closed.stderr);
    assert!(
        closed
            .stdout
            .contains("(2 steps, no pages: started without --trace)"),
        "{}",
        closed.stdout
    );
    assert_gone(groups);
    let folder = d.join(".a3s-test/agent-sessions/plain");
    let trace = read_json(&folder.join("trace.json"));
    assert_eq!(trace["traced"], false);
    assert_eq!(trace["status"], "failed");
    let steps = steps(&trace);
    assert_eq!(steps.len(), 2);
    assert!(steps
        .iter()
        .all(|s| s.get("screenshot").is_none() && s.get("console").is_none()));
    assert!(
        trace["cuts"][0]
            .as_str()
            .is_some_and(|c| c.contains("started without --trace")),
        "{trace}"
    );
    assert!(!folder.join("trace").exists());
    let html = std::fs::read_to_string(folder.join("trace.html")).unwrap();
    assert!(html.contains("started without --trace"), "{html}");
    assert!(html.contains("No page was captured"), "{html}");
    assert!(!html.contains("This surface records no page"), "{html}");
}

#[test]
fn trace_is_refused_for_a_terminal_session() {
    let dir = project();
    let out = a3s(
        dir.path(),
        &[
            "agent",
            "start",
            "--tui",
            "--session",
            "t",
            "--trace",
            "--",
            "cat",
        ],
    );
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("--trace"), "{}", out.stderr);
}

#[test]
fn mcp_takes_trace_on_start_and_finish_through_the_same_parameters() {
    let (server, dir, url) = page_and_project(PAGE);
    let d = dir.path();
    let mcp = crate::mcp_pipe::McpClient::start(d, &[], TURN);
    let tools = mcp.tools();
    for name in ["test_session_start", "test_finish"] {
        let tool = tools.iter().find(|t| t["name"] == name).unwrap();
        assert_eq!(
            tool["inputSchema"]["properties"]["trace"]["type"], "boolean",
            "{tool}"
        );
    }
    let (started, err) = mcp.result(
        "test_session_start",
        serde_json::json!({ "url": url, "session": "m", "trace": true }),
    );
    assert!(!err, "{started}");
    let groups = groups(d, "m");
    let (clicked, err) = mcp.result(
        "test_click",
        serde_json::json!({ "session": "m", "target": "role(\"button\", \"Save\")", "observe": false }),
    );
    assert!(!err, "{clicked}");
    let (closed, err) = mcp.result(
        "test_finish",
        serde_json::json!({ "session": "m", "status": "passed", "trace": true }),
    );
    assert!(!err, "{closed}");
    assert_gone(groups);
    assert_eq!(closed["report"]["trace"]["steps"], 2, "{closed}");
    assert_eq!(closed["report"]["trace"]["captured"], true, "{closed}");
    let trace = read_json(&under(d, &closed["report"]["trace"]["path"]));
    let console = &steps(&trace)[1]["console"][0]["text"];
    assert_eq!(console, "saved ", "{trace}");
    drop(server);
}

/// A password field whose value the page shows back in plain text and logs: the typed value
/// reaches the outline, the console and a request unless the trace keeps it out.
const ECHO_PAGE: &str = r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body>
<main>
<h1>Sign in</h1>
<label for="pw">Password</label><input id="pw" type="password">
<p id="echo"></p>
</main>
<script>
document.getElementById('pw').addEventListener('input', (e) => {
  document.getElementById('echo').textContent = 'You typed ' + e.target.value;
  console.log('typed ' + e.target.value);
  fetch('/?check=' + encodeURIComponent(e.target.value)).catch(() => {});
});
</script>
</body></html>"#;

const TYPED: &str = "pw-Qx81-kept-out";

/// A value the agent typed, as it wrote it, into a private field is written nowhere in the
/// session folder — not in the trace's outline (where the page shows it back), console or
/// requests, nor in its HTML view — and the outline names it `env("PASSWORD")` instead. Then
/// axe-core, run in real Chromium over the session's `trace.html`, finds no violation.
#[test]
fn a_private_value_typed_in_a_traced_session_stays_out_of_its_trace_and_the_view_passes_axe() {
    let (_server, dir, groups) = session_on(&[("/", ECHO_PAGE)], "pw", &["--trace"]);
    let d = dir.path();
    turn(d, "pw", &["fill", r#"label("Password")"#, TYPED]);
    turn(d, "pw", &["expect", "text", "You typed"]);
    ok(
        d,
        &[
            "agent",
            "finish",
            "--session",
            "pw",
            "--status",
            "passed",
            "--trace",
            "--json",
        ],
    );
    assert_gone(groups);
    let folder = d.join(".a3s-test/agent-sessions/pw");
    let trace = read_json(&folder.join("trace.json"));
    let fill = &steps(&trace)[1];
    assert_eq!(fill["kind"], "fill", "{trace}");
    let outline = fill["outline"].to_string();
    assert!(
        outline.contains(r#"You typed env(\"PASSWORD\")"#),
        "the echo is named, not shown: {outline}"
    );
    assert!(
        fill["console"]
            .to_string()
            .contains(r#"typed env(\"PASSWORD\")"#),
        "{fill}"
    );
    let mut searched = 0;
    let mut pending = vec![folder.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
                continue;
            }
            let bytes = std::fs::read(entry.path()).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            let encoded = TYPED.replace('-', "%2D");
            assert!(
                !text.contains(TYPED) && !text.contains(&encoded),
                "the typed value is in {}",
                entry.path().display()
            );
            searched += 1;
        }
    }
    assert!(
        searched >= 4,
        "trace.json, trace.html, report.json, the images …"
    );

    let view = url::Url::from_file_path(folder.join("trace.html").canonicalize().unwrap())
        .unwrap()
        .to_string();
    assert_eq!(
        axe_violations(&view),
        serde_json::json!([]),
        "axe-core violations"
    );
}

/// axe-core's violations on the page at `url`, opened in real Chromium.
fn axe_violations(url: &str) -> Value {
    use a3s_test_driver::{ContextOptions, StepEnv, SurfaceContext, SurfaceDriver};
    use a3s_test_lang::ir::{Action, Step};
    use a3s_test_web::{LaunchOptions, WebDriver};
    use std::time::Duration;
    use tokio::time::Instant;
    let axe = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/axe/node_modules/axe-core/axe.min.js");
    let axe = std::fs::read_to_string(&axe)
        .unwrap_or_else(|e| panic!("{} is missing ({e}): run scripts/setup.sh", axe.display()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(60), async {
            let driver = WebDriver::launch(LaunchOptions::default())
                .await
                .expect("launch chromium");
            let mut ctx = driver
                .new_context(ContextOptions::default())
                .await
                .expect("open a context");
            let artifacts = tempfile::tempdir().unwrap();
            let dir = a3s_test_fsroot::Dir::open_anchor(artifacts.path()).unwrap();
            let bound = Instant::now() + Duration::from_secs(30);
            let env = StepEnv {
                base_url: None,
                action_timeout: Duration::from_secs(5),
                expect_timeout: Duration::from_secs(5),
                deadline: bound,
                deadline_name: "scenario",
                artifact_dir: &dir,
                working_dir: dir.path(),
                vars: &a3s_test_driver::ProcessVars::RUN,
                snapshots: None,
            };
            let open = Step {
                label: None,
                path: "axe.open".into(),
                span: Default::default(),
                action: Action::Navigate { url: url.to_string() },
                group: None,
                hook: None,
            };
            if let Err(f) = ctx.execute(&open, &env).await {
                panic!("opening {url} failed: {} {}", f.code, f.message);
            }
            let run = format!(
                "{axe}\n;axe.run(document, {{ resultTypes: ['violations'] }}).then(r => r.violations.map(v => ({{ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')) }})))"
            );
            let found = ctx
                .evaluate_json(&run, bound)
                .await
                .unwrap_or_else(|f| panic!("axe: {} {}", f.code, f.message));
            ctx.close().await.expect("close the context");
            driver.shutdown().await.expect("shut the browser down");
            found
        })
        .await
        .expect("axe finished in time")
    })
}
