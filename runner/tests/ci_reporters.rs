//! Snapshot tests of the two CI-facing reporters over one fixed run: the HTML report (`--html`)
//! and GitHub Actions annotations (`--reporter github`). The run holds a pass, a product failure
//! with a failure screenshot, console messages and page errors, a timeout, a failure before any
//! step, a cleanup failure — and hostile text (markup in a scenario name, a console message and a
//! failure message; `%`, `,`, `:` and newlines where the workflow-command syntax must escape them).
//! Evidence files live in a temporary folder whose path is replaced by `/TMP` in the snapshots.

mod common;

use a3s_test_driver::FailureCode;
use a3s_test_runner::event::{RunEvent, RunEventKind};
use a3s_test_runner::reporter::github::GithubReporter;
use a3s_test_runner::reporter::html;
use a3s_test_runner::reporter::Reporter;
use a3s_test_runner::result::{
    FailureRecord, RunResult, ScenarioResult, ScenarioStatus, StepResult,
};
use base64::Engine;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;

/// A real 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

fn step(
    index: usize,
    kind: &str,
    label: &str,
    file: &str,
    line: usize,
    failure: Option<FailureRecord>,
) -> StepResult {
    StepResult {
        duration_ms: 10 + index as u64,
        ..common::step(
            index,
            kind,
            label,
            format!("suite.shop.scenario.x.{kind}.{label}"),
            format!("{file}:{line}:9"),
            failure,
        )
    }
}

fn scenario(
    root: &Path,
    id: &str,
    name: &str,
    file: &str,
    status: ScenarioStatus,
    failure: Option<FailureRecord>,
    steps: Vec<StepResult>,
) -> ScenarioResult {
    let mut s = common::scenario(root, "shop", id, status, failure, steps);
    s.name = name.into();
    s.file = file.into();
    if id == "checkout" {
        s.tags.push("pay".into());
    }
    s
}

fn located(
    code: FailureCode,
    message: &str,
    file: &str,
    line: usize,
    label: &str,
) -> FailureRecord {
    common::located(
        code,
        message,
        format!("suite.shop.scenario.x.step.{label}"),
        format!("{file}:{line}:9"),
    )
}

/// The fixed run; evidence files are written under `tmp`.
fn fixture(tmp: &Path) -> RunResult {
    let root = tmp.join(".a3s-test/runs").join(common::RUN_ID);
    let failure_dir = root.join("shop/greets/failure");
    std::fs::create_dir_all(&failure_dir).unwrap();
    std::fs::write(
        failure_dir.join("screenshot.png"),
        base64::engine::general_purpose::STANDARD
            .decode(PNG)
            .unwrap(),
    )
    .unwrap();
    std::fs::write(
        failure_dir.join("console.json"),
        serde_json::to_vec(&serde_json::json!({"messages": [
            {"type": "log", "text": "rendering greeting", "url": "http://127.0.0.1:4173/app.js", "line": 11},
            {"type": "error", "text": "<img src=x onerror=alert(1)> & </script>", "url": null, "line": null}
        ]}))
        .unwrap(),
    )
    .unwrap();
    std::fs::write(
        failure_dir.join("page_errors.json"),
        serde_json::to_vec(&serde_json::json!({"errors": [
            {"message": "TypeError: user is undefined\n    at greet (app.js:12:5)", "url": "http://127.0.0.1:4173/app.js", "line": 11, "column": 4}
        ]}))
        .unwrap(),
    )
    .unwrap();
    std::fs::write(failure_dir.join("accessibility.json"), "{}").unwrap();

    let mut mismatch = located(
        FailureCode::TextMismatch,
        "expected visible text to contain \"Welcome, Ada\"; the page shows \"<b>Welcome</b>, guest\" (100% sure)",
        "suites/shop.acl",
        8,
        "welcome",
    );
    mismatch.evidence = common::failure_evidence(&failure_dir);
    mismatch.waited = Some(a3s_test_driver::Waited {
        waited_ms: 5003,
        last_seen: "the page shows \"<b>Welcome</b>, guest\"".into(),
    });
    let timeout = located(
        FailureCode::Timeout,
        "the scenario deadline (1000 ms) passed during this step,\nwhile waiting for: button \"Pay\"",
        "suites/odd: name,1.acl",
        20,
        "pay",
    );
    let mut surface = FailureRecord::new(
        FailureCode::UnsupportedSurface,
        "no driver for surface `gui`; only `web` scenarios run",
    );
    surface.location = Some("suites/shop.acl:30:5".into());
    let cleaned = common::with_context_cleanup_failure(scenario(
        &root,
        "home",
        "home page",
        "suites/shop.acl",
        ScenarioStatus::Passed,
        None,
        vec![step(0, "navigate", "open", "suites/shop.acl", 3, None)],
    ));
    common::run(
        root.clone(),
        2345,
        vec![
            cleaned,
            scenario(
                &root,
                "greets",
                "<script>alert('name')</script> greets & welcomes",
                "suites/shop.acl",
                ScenarioStatus::Failed,
                Some(mismatch.clone()),
                vec![
                    step(0, "navigate", "open", "suites/shop.acl", 6, None),
                    step(1, "fill", "name", "suites/shop.acl", 7, None),
                    step(2, "expect", "welcome", "suites/shop.acl", 8, Some(mismatch)),
                ],
            ),
            scenario(
                &root,
                "checkout",
                "checkout",
                "suites/odd: name,1.acl",
                ScenarioStatus::TimedOut,
                Some(timeout.clone()),
                vec![step(
                    0,
                    "click",
                    "pay",
                    "suites/odd: name,1.acl",
                    20,
                    Some(timeout),
                )],
            ),
            scenario(
                &root,
                "desktop",
                "desktop app",
                "suites/shop.acl",
                ScenarioStatus::Failed,
                Some(surface),
                vec![],
            ),
        ],
        |r| {
            r.skipped = 1;
            r.cleanup_failures = vec![common::process_left_behind()];
        },
    )
}

fn finished(result: &RunResult) -> RunEvent {
    RunEvent {
        timestamp: OffsetDateTime::UNIX_EPOCH,
        elapsed: Duration::from_millis(result.duration_ms),
        kind: RunEventKind::RunFinished {
            result: Arc::new(result.clone()),
        },
    }
}

fn tmp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().canonicalize().unwrap();
    (dir, path)
}

/// The page with one tag per line and the inline CSS and script (source files of their own)
/// left out, so a snapshot diff shows what changed.
fn readable(page: &str) -> String {
    let mut out = String::new();
    let mut rest = page;
    for (open, close) in [("<style>", "</style>"), ("<script>", "</script>")] {
        let start = rest.find(open).unwrap() + open.len();
        let end = rest.find(close).unwrap();
        out.push_str(&rest[..start]);
        out.push('…');
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.replace("><", ">\n<")
}

#[test]
fn html_report() {
    let (_guard, tmp) = tmp();
    let result = fixture(&tmp);
    let page = html::render(&result, &tmp.join("report")).replace(tmp.to_str().unwrap(), "/TMP");
    // Untrusted text never becomes markup.
    for raw in ["<script>alert", "<img src=x", "<b>Welcome"] {
        assert!(!page.contains(raw), "{raw} is not escaped");
    }
    assert_eq!(
        page.matches("<script>").count(),
        1,
        "only the report's own script"
    );
    assert!(page.contains("&lt;script&gt;alert('name')&lt;/script&gt;"));
    assert!(page.contains(&format!("src=\"data:image/png;base64,{PNG}\"")));
    assert!(page.contains(
        "href=\"../.a3s-test/runs/20260101T120000Z-abcdef/shop/greets/failure/accessibility.json\""
    ));
    insta::assert_snapshot!(readable(&page));
}

#[test]
fn html_report_is_written_atomically_through_the_reporter() {
    let (_guard, tmp) = tmp();
    let result = fixture(&tmp);
    let dir = tmp.join("out/report");
    let mut reporter = html::HtmlReporter::new(&dir);
    reporter.report(&finished(&result)).unwrap();
    let written = reporter.written().unwrap().to_path_buf();
    assert_eq!(written, dir.join("index.html"));
    let text = std::fs::read_to_string(&written).unwrap();
    assert_eq!(text, html::render(&result, &dir));
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["index.html"], "no temporary file is left");

    // A folder that cannot be created is an error, and nothing is written.
    let blocker = tmp.join("file");
    std::fs::write(&blocker, "x").unwrap();
    let error = html::write_report(&blocker.join("report"), &result).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("failed to prepare the report folder"),
        "{error}"
    );
}

#[test]
fn github_annotations() {
    let (_guard, tmp) = tmp();
    let result = fixture(&tmp);
    let mut reporter = GithubReporter::new(Vec::new());
    reporter.report(&finished(&result)).unwrap();
    let text = String::from_utf8(reporter.into_inner()).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(text.lines().all(|l| l.starts_with("::error ")), "{text}");
    insta::assert_snapshot!(text);
}
