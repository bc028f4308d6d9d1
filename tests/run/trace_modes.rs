//! Which attempts `run --trace` records and keeps, through the real binary in real Chromium:
//! `on-first-retry` traces only the first retry (a scenario that fails then passes keeps the
//! retry's trace and none of the first attempt; one that fails every time keeps the retry's), and
//! the project file's `trace` takes effect without the flag, which overrides it.

use crate::common::workdir;
use crate::harness::{run_served, scenario, trace_file, FixtureServer};
use serde_json::Value;
use std::path::Path;

/// A scenario that waits for a text the page never shows: it fails every attempt.
const BROKEN: &str = r#"suite "broken" {
    scenario "always" {
        surface = "web"
        timeout_ms = 20000
        navigate "open" { url = "/forms.html" }
        expect "never" { text = "never on this page" timeout_ms = 500 }
    }
}
"#;

/// Scenario `id` ended `status` after one retry: its first attempt has no trace (in the result or
/// in its folder), and the retry's trace, which ended `retry`, is returned.
fn traced_retry(work: &Path, result: &Value, (id, status): (&str, &str), retry: &str) -> Value {
    let scenario = scenario(result, id);
    assert_eq!(scenario["status"], status, "{scenario:#}");
    let attempts = scenario["earlier_attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 1, "{scenario:#}");
    let first = &attempts[0];
    assert!(first.get("trace").is_none(), "{first:#}");
    let dir = work.join(first["artifact_dir"].as_str().unwrap());
    assert!(
        !dir.join("trace.json").exists(),
        "the first attempt wrote a trace in {}",
        dir.display()
    );
    let trace = trace_file(work, scenario);
    assert_eq!(trace["attempt"], 2, "{trace:#}");
    assert_eq!(trace["status"], retry, "{trace:#}");
    trace
}

#[test]
fn on_first_retry_keeps_the_retrys_trace_and_none_of_the_first_attempt() {
    let server = FixtureServer::start();
    let work = workdir(&[
        ("retry.acl", &crate::retries::suite("first-retry")),
        ("broken.acl", BROKEN),
    ]);
    let done = run_served(
        &server,
        work.path(),
        &[
            ".",
            "--json",
            "--jobs",
            "1",
            "--retries",
            "1",
            "--trace",
            "on-first-retry",
        ],
    );
    assert_eq!(done.code, 1, "{}\n{}", done.stdout, done.stderr);
    let result = done.json();

    // Passed at once: never retried, so never traced.
    let steady = scenario(&result, "retry/steady");
    assert_eq!(steady["status"], "passed", "{steady:#}");
    assert!(steady.get("trace").is_none(), "{steady:#}");

    // Failed, then passed: only the retry is traced, and its trace is kept though it passed.
    let flaky = ("retry/flaky", "flaky");
    let trace = traced_retry(work.path(), &result, flaky, "passed");
    let steps = trace["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3, "{trace:#}");
    assert!(
        steps.iter().all(|s| s.get("screenshot").is_some()),
        "every step of a traced retry is photographed: {trace:#}"
    );

    // Failed both times: the retry's trace is kept, the first attempt still has none.
    let broken = ("broken/always", "failed");
    let trace = traced_retry(work.path(), &result, broken, "failed");
    let last = trace["steps"].as_array().unwrap().last().unwrap();
    assert_eq!(
        last["failure"]["code"], "test.assert.text_mismatch",
        "{last:#}"
    );
}

/// A scenario that passes: the default `retain-on-failure` keeps no trace of it.
const PASSING: &str = r#"suite "kept" {
    scenario "pass" {
        surface = "web"
        navigate "open" { url = "/forms.html" }
        expect "title" { visible = role("heading", "Contact form") }
    }
}
"#;

#[test]
fn the_project_files_trace_applies_without_the_flag_and_the_flag_overrides_it() {
    let server = FixtureServer::start();
    let project = "project \"p\" {\n    trace = \"on\"\n}\n";
    let work = workdir(&[("kept.acl", PASSING), (".a3s-test/project.acl", project)]);

    // The project's `on` keeps the trace of a pass and photographs every step.
    let by_project = run_served(&server, work.path(), &["kept.acl", "--json"]);
    assert_eq!(
        by_project.code, 0,
        "{}\n{}",
        by_project.stdout, by_project.stderr
    );
    let result = by_project.json();
    let trace = trace_file(work.path(), scenario(&result, "kept/pass"));
    assert_eq!(trace["status"], "passed");
    let steps = trace["steps"].as_array().unwrap();
    assert!(
        !steps.is_empty() && steps.iter().all(|s| s.get("screenshot").is_some()),
        "{trace:#}"
    );

    // The flag wins over the project file.
    for flag in ["off", "retain-on-failure"] {
        let by_flag = run_served(
            &server,
            work.path(),
            &["kept.acl", "--json", "--trace", flag],
        );
        assert_eq!(by_flag.code, 0, "{}\n{}", by_flag.stdout, by_flag.stderr);
        let result = by_flag.json();
        let pass = scenario(&result, "kept/pass");
        assert!(pass.get("trace").is_none(), "--trace {flag}: {pass:#}");
    }
}
