//! A trace that holds less than the scenario did says so, in `trace.json` and in the report:
//! the real binary, real Chromium, `tests/fixtures/web/trace-heavy.html` (a viewport of pixel
//! noise, whose JPEGs spend the scenario's screenshot budget in a few steps, and a button that
//! logs more console lines at once than a step keeps).

use crate::common::workdir;
use crate::harness::{run_served, trace_file, FixtureServer};
use serde_json::Value;

/// A scenario on the heavy page: `steps` (ACL lines) after opening it.
fn suite(steps: &[String]) -> String {
    format!(
        "suite \"heavy\" {{\n    scenario \"page\" {{\n        surface = \"web\"\n        \
         timeout_ms = 60000\n        navigate \"open\" {{ url = \"/trace-heavy.html\" }}\n{}    }}\n}}\n",
        steps.iter().map(|s| format!("        {s}\n")).collect::<String>()
    )
}

/// Run `acl` with `--trace on --json --html report`; the trace file and the report's text.
fn traced(acl: &str) -> (Value, String, tempfile::TempDir) {
    let server = FixtureServer::start();
    let work = workdir(&[("heavy.acl", acl)]);
    let done = run_served(
        &server,
        work.path(),
        &["heavy.acl", "--json", "--trace", "on", "--html", "report"],
    );
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let result = done.json();
    let trace = trace_file(work.path(), &result["scenarios"][0]);
    let html = std::fs::read_to_string(work.path().join("report/index.html")).unwrap();
    (trace, html, work)
}

/// The trace's cut notes.
fn cuts(trace: &Value) -> Vec<&str> {
    trace["cuts"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

#[test]
fn screenshots_past_the_scenarios_budget_are_left_out_with_a_note() {
    let clicks: Vec<String> = (1..=24)
        .map(|n| format!("click \"redraw-{n}\" {{ target = role(\"button\", \"Redraw\") }}"))
        .collect();
    let (trace, html, _work) = traced(&suite(&clicks));
    let steps = trace["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 25, "every step is traced, photographed or not");
    let shots: Vec<u64> = steps
        .iter()
        .filter_map(|s| s["screenshot"]["bytes"].as_u64())
        .collect();
    let left_out = steps.len() - shots.len();
    assert!(left_out > 0, "the budget was never spent: {shots:?}");
    // What was kept fits the budget, and is what the trace counts.
    let kept: u64 = shots.iter().sum();
    assert!(kept <= a3s_test_runner::trace::SCREENSHOT_BUDGET, "{kept}");
    assert_eq!(trace["screenshot_bytes"].as_u64(), Some(kept));
    let note = format!(
        "{left_out} screenshot(s) left out: the scenario's {} KB screenshot budget was spent",
        a3s_test_runner::trace::SCREENSHOT_BUDGET / 1000
    );
    assert_eq!(cuts(&trace), [note.as_str()], "{:#}", trace["cuts"]);
    assert!(
        html.contains(&format!(
            "The trace itself is cut: {left_out} screenshot(s) left out"
        )),
        "the report shows the cut"
    );
}

#[test]
fn console_lines_past_a_steps_cap_are_left_out_with_a_note() {
    let chatter = ["click \"chatter\" { target = role(\"button\", \"Chatter\") }".to_string()];
    let (trace, html, _work) = traced(&suite(&chatter));
    let cap = a3s_test_driver::trace::MAX_STEP_ENTRIES;
    let click = &trace["steps"][1];
    let lines: Vec<&str> = click["console"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    // The page logged 150 lines in the step: the first `cap` are kept, in order.
    let expected: Vec<String> = (1..=cap).map(|n| format!("chatter {n}")).collect();
    assert_eq!(lines, expected, "{click:#}");
    let note = format!(
        "{} console, error or network entries left out past the per-step cap of {cap}",
        150 - cap
    );
    assert_eq!(cuts(&trace), [note.as_str()], "{:#}", trace["cuts"]);
    assert!(
        html.contains(&format!("The trace itself is cut: {note}")),
        "the report shows the cut"
    );
}
