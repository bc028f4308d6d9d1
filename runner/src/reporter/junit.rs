//! `--junit <file>`: JUnit XML (junit-report) for CI dashboards.
//!
//! One `<testsuite>` per ACL suite, one `<testcase>` per scenario (`classname` = suite id,
//! `file` = the suite file). A product failure is a `<failure>`; a specification, infrastructure,
//! timeout or cancel verdict is an `<error>` (the product was not judged). Either carries the code
//! as `type`, the message, and in its body the class, step path, source location, for a
//! condition that was waited for how long and what was seen last, and every evidence path. A cleanup failure of a passing scenario goes to `system-err`; run-level cleanup
//! failures get their own `a3s-test.cleanup` suite so CI shows them as errors.
//!
//! Hooks and `use` groups: a scenario that has them lists its step tree in `<system-out>`
//! (`steps:`, one indented line per group and step with its status). Every failed soft expect,
//! and an `after_each` failure that is not the verdict, is written with its details to
//! `<system-err>`.
//!
//! Retries (`--retries`): JUnit has no standard flaky verdict, and junit-report writes only the
//! standard elements, so a flaky scenario is a passing `<testcase>` whose `<system-out>` starts
//! with `flaky: passed on attempt N of N` followed by each failed attempt (code, message, step,
//! location, evidence). With `--fail-on-flaky` it is a `<failure type="flaky">` instead, so CI
//! shows it red. A scenario that failed on every attempt keeps its last failure as usual and
//! lists the earlier attempts the same way in `<system-out>`.

use super::tree;
use super::ResultReporter;
use crate::result::{FailureRecord, RunResult, ScenarioResult, ScenarioStatus, StepStatus};
use a3s_test_driver::FailureClass;
use junit_report::{Report, TestCase, TestResult, TestSuite};
use std::io::Write;
use time::OffsetDateTime;

/// Builds the XML when the run finishes and writes it to `out`; the suites' timestamp is the
/// result's own start time, so a merged result (`merge-reports`) carries its shards' start too.
#[derive(Debug)]
pub struct JunitReporter<W: Write> {
    out: Option<W>,
}

impl<W: Write> JunitReporter<W> {
    /// A reporter writing to `out` (the `--junit` file).
    pub fn new(out: W) -> Self {
        JunitReporter { out: Some(out) }
    }
}

impl<W: Write> ResultReporter for JunitReporter<W> {
    fn finish(&mut self, result: &RunResult) -> std::io::Result<()> {
        let Some(mut out) = self.out.take() else {
            return Ok(());
        };
        build(result, started(result))
            .write_xml(&mut out)
            .map_err(std::io::Error::other)?;
        writeln!(out)?;
        out.flush()
    }
}

/// The run's start as a time (`started_at` is RFC 3339); a result with an unreadable one (hand
/// edited) gets the Unix epoch rather than no report.
fn started(result: &RunResult) -> OffsetDateTime {
    OffsetDateTime::parse(
        &result.started_at,
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// The failure body: class, where, and every evidence path, one per line.
fn details(failure: &FailureRecord) -> String {
    let mut text = format!("class: {}\n", class_name(failure.failure_class));
    if let Some(path) = &failure.step_path {
        text.push_str(&format!("step: {path}\n"));
    }
    if let Some(location) = &failure.location {
        text.push_str(&format!("at: {location}\n"));
    }
    if let Some(w) = &failure.waited {
        text.push_str(&format!(
            "waited: {} ms\nlast seen: {}\n",
            w.waited_ms, w.last_seen
        ));
    }
    for evidence in &failure.evidence {
        text.push_str(&format!(
            "evidence ({}): {}\n",
            evidence.kind,
            evidence.path.display()
        ));
    }
    for missing in &failure.missing_evidence {
        text.push_str(&format!(
            "evidence missing ({}): {}\n",
            missing.kind.as_str(),
            missing.reason
        ));
    }
    text
}

/// The `<system-out>` of a scenario that ran more than once: its verdict, then every failed attempt.
fn attempts_text(scenario: &ScenarioResult) -> Option<String> {
    if scenario.earlier_attempts.is_empty() {
        return None;
    }
    let n = scenario.attempt_count();
    let mut text = match scenario.status {
        ScenarioStatus::Flaky => format!("flaky: passed on attempt {n} of {n}\n"),
        _ => format!("failed on all {n} attempts\n"),
    };
    for attempt in &scenario.earlier_attempts {
        text.push_str(&format!(
            "attempt {} ({}):",
            attempt.attempt,
            attempt.status.as_str()
        ));
        if let Some(f) = &attempt.failure {
            text.push_str(&format!(" {}: {}\n{}", f.code, f.message, details(f)));
        } else {
            text.push('\n');
        }
        if let Some(dir) = &attempt.artifact_dir {
            text.push_str(&format!("artifacts: {}\n", dir.display()));
        }
    }
    Some(text)
}

/// The step tree of a scenario with hooks or `use` groups (`steps:` then one indented line per
/// group and step); `None` for a scenario without groups, whose JUnit stays as it was.
fn steps_text(scenario: &ScenarioResult) -> Option<String> {
    if scenario.groups.is_empty() {
        return None;
    }
    let mut text = String::from("steps:\n");
    for row in tree::rows(scenario) {
        let pad = "  ".repeat(row.depth + 1);
        match row.node {
            tree::Node::Group { group, failed } => {
                let word = if failed { "failed" } else { "passed" };
                text.push_str(&format!("{pad}{} ({word})\n", tree::title(group)));
            }
            tree::Node::Step(step) => {
                let word = match (step.status, step.soft) {
                    (StepStatus::Passed, _) => "passed",
                    (StepStatus::Failed, true) => "failed (soft)",
                    (StepStatus::Failed, false) => "failed",
                };
                let label = step.label.as_deref().unwrap_or(&step.kind);
                text.push_str(&format!("{pad}{} \"{label}\" ({word})\n", step.kind));
            }
        }
    }
    Some(text)
}

/// Every failed soft expect and an `after_each` failure that is not the verdict, for
/// `<system-err>`: the verdict names them, this keeps each one's details.
fn apart_text(scenario: &ScenarioResult) -> String {
    let mut text = String::new();
    for (i, soft) in scenario.soft_failures.iter().enumerate() {
        text.push_str(&format!(
            "soft expect {}: {}: {}\n{}",
            i + 1,
            soft.code,
            soft.message,
            details(soft)
        ));
    }
    if let Some(hook) = &scenario.hook_failure {
        let verdict = scenario.failure.as_ref().and_then(|f| f.step_path.as_ref());
        if hook.step_path.as_ref() != verdict {
            text.push_str(&format!(
                "after_each: {}: {}\n{}",
                hook.code,
                hook.message,
                details(hook)
            ));
        }
    }
    text
}

/// The lowercase class name used in reports.
pub fn class_name(class: FailureClass) -> &'static str {
    match class {
        FailureClass::Product => "product",
        FailureClass::Specification => "specification",
        FailureClass::Infrastructure => "infrastructure",
        FailureClass::Cleanup => "cleanup",
    }
}

/// Build the report for a finished run.
pub fn build(result: &RunResult, timestamp: OffsetDateTime) -> Report {
    let mut suites: Vec<TestSuite> = Vec::new();
    for scenario in &result.scenarios {
        let index = match suites.iter().position(|s| s.name == scenario.suite) {
            Some(i) => i,
            None => {
                let mut suite = TestSuite::new(&scenario.suite);
                suite.set_timestamp(timestamp);
                suites.push(suite);
                suites.len() - 1
            }
        };
        let time = time::Duration::milliseconds(scenario.duration_ms as i64);
        let mut case = match (&scenario.failure, scenario.status) {
            (None, ScenarioStatus::Flaky) if result.fail_on_flaky => {
                let n = scenario.attempt_count();
                let mut case = TestCase::success(&scenario.scenario, time);
                case.result = TestResult::Failure {
                    type_: "flaky".into(),
                    message: format!(
                        "passed only on attempt {n} of {n}, and --fail-on-flaky fails the run"
                    ),
                    cause: None,
                };
                case
            }
            (None, ScenarioStatus::Skipped) => {
                let mut case = TestCase::success(&scenario.scenario, time);
                let skip = scenario.skip.as_ref();
                case.result = TestResult::SkippedWithCause {
                    type_: skip.map_or("skipped".to_string(), |s| {
                        format!("{:?}", s.kind).to_lowercase()
                    }),
                    message: skip.map(|s| s.line()).unwrap_or_default(),
                    cause: None,
                };
                case
            }
            (None, _) | (_, ScenarioStatus::Passed) => TestCase::success(&scenario.scenario, time),
            (Some(f), status) => {
                let (type_, message, cause) =
                    (f.code.to_string(), f.message.clone(), Some(details(f)));
                let product =
                    f.failure_class == FailureClass::Product && status == ScenarioStatus::Failed;
                let mut case = TestCase::success(&scenario.scenario, time);
                case.result = if product {
                    TestResult::Failure {
                        type_,
                        message,
                        cause,
                    }
                } else {
                    TestResult::Error {
                        type_,
                        message,
                        cause,
                    }
                };
                case
            }
        };
        case.set_classname(&scenario.suite);
        case.set_filepath(&scenario.file);
        let out: String = [attempts_text(scenario), steps_text(scenario)]
            .into_iter()
            .flatten()
            .collect();
        if !out.is_empty() {
            case.set_system_out(&out);
        }
        let mut err = String::new();
        if let Some(cleanup) = &scenario.cleanup_failure {
            err.push_str(&format!(
                "{}: {}\n{}",
                cleanup.code,
                cleanup.message,
                details(cleanup)
            ));
        }
        err.push_str(&apart_text(scenario));
        if !err.is_empty() {
            case.set_system_err(&err);
        }
        suites[index].add_testcase(case);
    }
    if !result.cleanup_failures.is_empty() {
        let mut suite = TestSuite::new("a3s-test.cleanup");
        suite.set_timestamp(timestamp);
        for (i, f) in result.cleanup_failures.iter().enumerate() {
            let mut case =
                TestCase::success(&format!("run-cleanup-{}", i + 1), time::Duration::ZERO);
            case.result = TestResult::Error {
                type_: f.code.to_string(),
                message: f.message.clone(),
                cause: Some(details(f)),
            };
            case.set_classname("a3s-test.cleanup");
            suite.add_testcase(case);
        }
        suites.push(suite);
    }
    let mut report = Report::new();
    report.add_testsuites(suites);
    report
}
