//! Snapshot tests of the three reporters over one fixed run: a pass, a product failure with
//! evidence, a timeout, a specification failure, a cleanup failure. Times and paths are fixed,
//! so the snapshots are byte-for-byte what a person (or CI) sees, minus colour.

mod common;

use a3s_test_driver::FailureCode;
use a3s_test_runner::event::{RunEvent, RunEventKind};
use a3s_test_runner::exit::Exit;
use a3s_test_runner::plan::ScenarioId;
use a3s_test_runner::reporter::json::JsonReporter;
use a3s_test_runner::reporter::junit::JunitReporter;
use a3s_test_runner::reporter::terminal::{TerminalOptions, TerminalReporter};
use a3s_test_runner::reporter::Reporter;
use a3s_test_runner::result::{
    AttemptResult, EvidenceRecord, FailureRecord, RunResult, ScenarioResult, ScenarioStatus,
    StepResult,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;

const ROOT: &str = "/work/.a3s-test/runs/20260101T120000Z-abcdef";

fn step(
    index: usize,
    kind: &str,
    label: &str,
    scenario: &str,
    failure: Option<FailureRecord>,
) -> StepResult {
    common::step(
        index,
        kind,
        label,
        format!("suite.forms.scenario.{scenario}.{kind}.{label}"),
        format!("suites/forms.acl:{}:9", 4 + index),
        failure,
    )
}

fn scenario(
    id: &str,
    status: ScenarioStatus,
    failure: Option<FailureRecord>,
    steps: Vec<StepResult>,
    ms: u64,
) -> ScenarioResult {
    ScenarioResult {
        duration_ms: ms,
        ..common::scenario(Path::new(ROOT), "forms", id, status, failure, steps)
    }
}

fn located(
    code: FailureCode,
    message: &str,
    scenario: &str,
    kind: &str,
    label: &str,
    line: usize,
) -> FailureRecord {
    common::located(
        code,
        message,
        format!("suite.forms.scenario.{scenario}.{kind}.{label}"),
        format!("suites/forms.acl:{line}:9"),
    )
}

/// The passing first scenario of both fixtures.
fn open_form() -> ScenarioResult {
    scenario(
        "open-form",
        ScenarioStatus::Passed,
        None,
        vec![step(0, "navigate", "open", "open-form", None)],
        120,
    )
}

fn fixture() -> RunResult {
    let seen =
        "the visible page text does not contain \"Welcome, Ada\"; it reads \"Welcome, guest\"";
    let mut mismatch = located(
        FailureCode::TextMismatch,
        &format!("text = \"Welcome, Ada\" did not hold within 5000 ms; last seen: {seen} (waited 5003 ms)"),
        "greets-user",
        "expect",
        "greeting",
        12,
    );
    mismatch.waited = Some(a3s_test_driver::Waited {
        waited_ms: 5003,
        last_seen: seen.into(),
    });
    mismatch.evidence =
        common::failure_evidence(&Path::new(ROOT).join("forms/greets-user/failure"));
    let timeout = located(
        FailureCode::Timeout,
        "the scenario deadline (1000 ms) passed during this step",
        "slow-save",
        "click",
        "save",
        20,
    );
    let mut unsupported = FailureRecord::new(
        FailureCode::UnsupportedSurface,
        "no driver for surface `gui`; only `web` scenarios run",
    );
    unsupported.step_path = Some("suite.forms.scenario.desktop".into());
    unsupported.location = Some("suites/forms.acl:30:5".into());
    let cleaned = common::with_context_cleanup_failure(scenario(
        "submit",
        ScenarioStatus::Passed,
        None,
        vec![step(0, "navigate", "open", "submit", None)],
        412,
    ));
    common::run(
        PathBuf::from(ROOT),
        2345,
        vec![
            open_form(),
            scenario(
                "greets-user",
                ScenarioStatus::Failed,
                Some(mismatch.clone()),
                vec![
                    step(0, "navigate", "open", "greets-user", None),
                    step(1, "expect", "greeting", "greets-user", Some(mismatch)),
                ],
                955,
            ),
            scenario(
                "slow-save",
                ScenarioStatus::TimedOut,
                Some(timeout.clone()),
                vec![step(0, "click", "save", "slow-save", Some(timeout))],
                1250,
            ),
            scenario(
                "desktop",
                ScenarioStatus::Failed,
                Some(unsupported),
                vec![],
                0,
            ),
            cleaned,
        ],
        |r| {
            r.skipped = 2;
            r.cleanup_failures = vec![common::process_left_behind()];
        },
    )
}

fn at(ms: u64, kind: RunEventKind) -> RunEvent {
    RunEvent {
        timestamp: OffsetDateTime::UNIX_EPOCH,
        elapsed: Duration::from_millis(ms),
        kind,
    }
}

fn events(result: &RunResult) -> Vec<RunEvent> {
    let total = result.scenarios.len();
    let mut events = vec![
        at(
            0,
            RunEventKind::RunStarted {
                run_id: result.run_id.clone(),
                scenario_count: total,
                skipped: result.skipped,
                jobs: 2,
                artifact_root: result.artifact_root.clone(),
            },
        ),
        at(
            180,
            RunEventKind::DriverStarted {
                launch: Duration::from_millis(180),
            },
        ),
    ];
    for (i, s) in result.scenarios.iter().enumerate() {
        let id = ScenarioId::new(&s.suite, &s.scenario);
        events.push(at(
            200,
            RunEventKind::ScenarioStarted {
                id: id.clone(),
                running: 1,
            },
        ));
        for step in &s.steps {
            events.push(at(
                300,
                RunEventKind::StepFinished {
                    id: id.clone(),
                    step: Arc::new(step.clone()),
                },
            ));
        }
        for attempt in &s.earlier_attempts {
            events.push(at(
                350,
                RunEventKind::ScenarioRetrying {
                    id: id.clone(),
                    failed: Arc::new(attempt.clone()),
                    max_attempts: 3,
                },
            ));
        }
        events.push(at(
            400,
            RunEventKind::ScenarioFinished {
                result: Arc::new(s.clone()),
                running: 0,
                finished: i + 1,
                total,
            },
        ));
    }
    for failure in &result.cleanup_failures {
        events.push(at(
            2300,
            RunEventKind::CleanupFailed {
                failure: failure.clone(),
            },
        ));
    }
    events.push(at(
        2345,
        RunEventKind::RunFinished {
            result: Arc::new(result.clone()),
        },
    ));
    events
}

fn render(reporter: &mut dyn Reporter, result: &RunResult) {
    for event in events(result) {
        reporter.report(&event).unwrap();
    }
}

#[test]
fn terminal_output() {
    let result = fixture();
    let options = TerminalOptions {
        colour: false,
        progress: false,
        base_dir: Some(PathBuf::from("/work")),
    };
    let mut reporter = TerminalReporter::new(Vec::new(), options);
    render(&mut reporter, &result);
    insta::assert_snapshot!(String::from_utf8(reporter.into_inner()).unwrap());
}

#[test]
fn terminal_progress_line_is_drawn_and_cleared() {
    let result = fixture();
    let options = TerminalOptions {
        colour: true,
        progress: true,
        base_dir: None,
    };
    let mut reporter = TerminalReporter::new(Vec::new(), options);
    render(&mut reporter, &result);
    let text = String::from_utf8(reporter.into_inner()).unwrap();
    assert!(text.contains("Running"), "progress line drawn");
    assert!(
        text.contains("\r\x1b[2K"),
        "progress line cleared before each line"
    );
    assert!(text.contains("\x1b[31;1m"), "colour when asked");
    let tail = text.rsplit("Summary").next().unwrap();
    assert!(
        !tail.contains("Running"),
        "no progress line after the summary"
    );
}

#[test]
fn json_output() {
    let result = fixture();
    let mut out = Vec::new();
    render(&mut JsonReporter::new(&mut out), &result);
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["exit_code"], 2);
    insta::assert_json_snapshot!(value);
}

#[test]
fn junit_output() {
    let result = fixture();
    let mut out = Vec::new();
    render(&mut JunitReporter::new(&mut out), &result);
    insta::assert_snapshot!(String::from_utf8(out).unwrap());
}

/// A `--retries 2` run: one scenario passes at once, one passes on its second attempt (flaky),
/// one fails all three attempts.
fn retried_fixture(fail_on_flaky: bool) -> RunResult {
    let mismatch = |scenario: &str| {
        located(
            FailureCode::TextMismatch,
            "expected visible text to contain \"Saved\"; the page shows \"Saving…\"",
            scenario,
            "expect",
            "saved",
            14,
        )
    };
    let failed_attempt = |scenario: &str, attempt: u32| {
        let mut failure = mismatch(scenario);
        let folder = match attempt {
            1 => scenario.to_string(),
            n => format!("{scenario}.retry-{}", n - 1),
        };
        failure.evidence = vec![EvidenceRecord {
            kind: "screenshot".into(),
            path: PathBuf::from(format!("{ROOT}/forms/{folder}/failure/screenshot.png")),
        }];
        AttemptResult {
            attempt,
            status: ScenarioStatus::Failed,
            failure: Some(failure.clone()),
            steps: vec![step(0, "expect", "saved", scenario, Some(failure))],
            duration_ms: 300,
            artifact_dir: Some(PathBuf::from(format!("{ROOT}/forms/{folder}"))),
            trace: None,
        }
    };
    let mut flaky = scenario(
        "autosave",
        ScenarioStatus::Flaky,
        None,
        vec![step(0, "expect", "saved", "autosave", None)],
        250,
    );
    flaky.artifact_dir = Some(PathBuf::from(format!("{ROOT}/forms/autosave.retry-1")));
    flaky.earlier_attempts = vec![failed_attempt("autosave", 1)];
    let mut broken = scenario(
        "publish",
        ScenarioStatus::Failed,
        Some(failed_attempt("publish", 3).failure.unwrap()),
        failed_attempt("publish", 3).steps,
        300,
    );
    broken.artifact_dir = Some(PathBuf::from(format!("{ROOT}/forms/publish.retry-2")));
    broken.earlier_attempts = vec![failed_attempt("publish", 1), failed_attempt("publish", 2)];
    common::run(
        PathBuf::from(ROOT),
        2100,
        vec![open_form(), flaky, broken],
        |r| r.fail_on_flaky = fail_on_flaky,
    )
}

fn terminal_text(result: &RunResult) -> String {
    let options = TerminalOptions {
        colour: false,
        progress: false,
        base_dir: Some(PathBuf::from("/work")),
    };
    let mut reporter = TerminalReporter::new(Vec::new(), options);
    render(&mut reporter, result);
    String::from_utf8(reporter.into_inner()).unwrap()
}

#[test]
fn terminal_output_with_retries() {
    let text = terminal_text(&retried_fixture(false));
    assert!(
        !text.contains("PASS [   0.250s] forms/autosave"),
        "flaky is never a plain pass"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn terminal_summary_of_a_flaky_only_run() {
    let mut result = retried_fixture(false);
    result.scenarios.truncate(2);
    result.finalize();
    assert_eq!(result.exit_code, Exit::Success);
    let summary = terminal_text(&result);
    let tail = summary.rsplit("Summary").next().unwrap();
    assert!(tail.contains("1 passed, 1 flaky"), "{tail}");
    assert!(
        tail.contains("Result passed with 1 flaky (exit code 0)"),
        "{tail}"
    );
    let mut strict = retried_fixture(true);
    strict.scenarios.truncate(2);
    strict.finalize();
    assert_eq!(
        strict.exit_code,
        Exit::Failed,
        "--fail-on-flaky fails the run"
    );
    let text = terminal_text(&strict);
    assert!(text.contains("1 flaky (--fail-on-flaky)"), "{text}");
    assert!(text.contains("Result failed (exit code 1)"), "{text}");
}

#[test]
fn json_output_with_retries() {
    let result = retried_fixture(false);
    let mut out = Vec::new();
    render(&mut JsonReporter::new(&mut out), &result);
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["scenarios"][1]["status"], "flaky");
    assert_eq!(value["counts"]["flaky"], 1);
    assert_eq!(value["counts"]["passed"], 1);
    insta::assert_json_snapshot!(value);
}

#[test]
fn junit_output_with_retries() {
    let mut out = Vec::new();
    render(&mut JunitReporter::new(&mut out), &retried_fixture(false));
    insta::assert_snapshot!(String::from_utf8(out).unwrap());
}

#[test]
fn junit_output_with_fail_on_flaky() {
    let mut out = Vec::new();
    render(&mut JunitReporter::new(&mut out), &retried_fixture(true));
    let xml = String::from_utf8(out).unwrap();
    let case = xml
        .split("<testcase")
        .find(|c| c.contains("name=\"autosave\""))
        .unwrap();
    assert!(case.contains("<failure type=\"flaky\""), "{case}");
    assert!(case.contains("flaky: passed on attempt 2 of 2"), "{case}");
}

/// A pass the last-green store did not take says so in every place a person or an agent reads
/// the run: otherwise the next failure's missing comparison goes unexplained.
#[test]
fn a_last_green_record_not_written_is_said_by_each_reporter() {
    let why = "the store would hold 2001 of its records in 900 bytes, over its bound";
    let mut passed = open_form();
    passed.last_green_not_written = Some(why.into());
    let result = common::run(PathBuf::from(ROOT), 120, vec![passed], |_| {});
    let text = terminal_text(&result);
    assert!(
        text.contains(&format!("the last-green record was not written: {why}")),
        "{text}"
    );
    let mut out = Vec::new();
    render(&mut JsonReporter::new(&mut out), &result);
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["scenarios"][0]["last_green_not_written"], why);
    let page = a3s_test_runner::reporter::html::render(&result, Path::new("/work/report"));
    assert!(
        page.contains(&format!("The last-green record was not written: {why}")),
        "the HTML report says so"
    );
}
