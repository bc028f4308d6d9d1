//! Helpers shared by the reporter snapshot tests: the evidence, step, scenario and run records
//! both fixtures are built from, so each fixture only states what it is about.

use a3s_test_driver::FailureCode;
use a3s_test_runner::exit::Exit;
use a3s_test_runner::result::{
    EvidenceRecord, FailureRecord, RunOutcome, RunResult, ScenarioResult, ScenarioStatus,
    StepResult, StepStatus, RESULT_FORMAT_VERSION,
};
use std::path::{Path, PathBuf};

/// The run id of both fixtures.
pub const RUN_ID: &str = "20260101T120000Z-abcdef";

/// The four failure evidence files of a failed web scenario, as the executor records them
/// (kind = file stem), under `dir`.
pub fn failure_evidence(dir: &Path) -> Vec<EvidenceRecord> {
    [
        "screenshot.png",
        "accessibility.json",
        "console.json",
        "page_errors.json",
    ]
    .iter()
    .map(|f| EvidenceRecord {
        kind: f.split('.').next().unwrap().to_string(),
        path: dir.join(f),
    })
    .collect()
}

/// A 10 ms step at `location` (`file:line:col`), failed when `failure` is set.
pub fn step(
    index: usize,
    kind: &str,
    label: &str,
    path: String,
    location: String,
    failure: Option<FailureRecord>,
) -> StepResult {
    StepResult {
        index,
        label: Some(label.into()),
        kind: kind.into(),
        path,
        location,
        status: if failure.is_some() {
            StepStatus::Failed
        } else {
            StepStatus::Passed
        },
        duration_ms: 10,
        evidence: vec![],
        detail: None,
        failure,
        group: None,
        soft: false,
    }
}

/// A failure located at a step path and a source location.
pub fn located(
    code: FailureCode,
    message: &str,
    step_path: String,
    location: String,
) -> FailureRecord {
    let mut f = FailureRecord::new(code, message);
    f.step_path = Some(step_path);
    f.location = Some(location);
    f
}

/// Scenario `id` of `suite` (in `suites/<suite>.acl`, tagged `smoke`, 955 ms), its artifacts
/// under `root/<suite>/<id>`.
pub fn scenario(
    root: &Path,
    suite: &str,
    id: &str,
    status: ScenarioStatus,
    failure: Option<FailureRecord>,
    steps: Vec<StepResult>,
) -> ScenarioResult {
    ScenarioResult {
        id: format!("{suite}/{id}"),
        suite: suite.into(),
        scenario: id.into(),
        name: id.replace('-', " "),
        file: format!("suites/{suite}.acl"),
        tags: vec!["smoke".into()],
        status,
        failure,
        cleanup_failure: None,
        hook_failure: None,
        soft_failures: Vec::new(),
        groups: Vec::new(),
        steps,
        duration_ms: 955,
        context_open_us: Some(4200),
        context_close_us: Some(1800),
        artifact_dir: Some(root.join(format!("{suite}/{id}"))),
        earlier_attempts: vec![],
        skip: None,
        dependency_only: false,
        trace: None,
        last_green_not_written: None,
    }
}

/// `scenario` passed, but its browser context did not close in time.
pub fn with_context_cleanup_failure(mut scenario: ScenarioResult) -> ScenarioResult {
    scenario.cleanup_failure = Some(FailureRecord::new(
        FailureCode::CleanupFailed,
        "failed to close the browser context within 5000 ms",
    ));
    scenario
}

/// The run-level cleanup failure: a process the run left behind.
pub fn process_left_behind() -> FailureRecord {
    FailureRecord::new(
        FailureCode::CleanupFailed,
        "killed 1 process left behind by the run: pid 4242",
    )
}

/// Run [`RUN_ID`] over `scenarios`, finalized (counts, outcome, exit code) after `more` set
/// what the fixture adds (skipped scenarios, cleanup failures, `fail_on_flaky`).
pub fn run(
    artifact_root: PathBuf,
    duration_ms: u64,
    scenarios: Vec<ScenarioResult>,
    more: impl FnOnce(&mut RunResult),
) -> RunResult {
    let mut result = RunResult {
        format_version: RESULT_FORMAT_VERSION,
        run_id: RUN_ID.into(),
        started_at: "2026-01-01T12:00:00Z".into(),
        duration_ms,
        outcome: RunOutcome::Passed,
        exit_code: Exit::Success,
        artifact_root,
        skipped: 0,
        counts: Default::default(),
        scenarios,
        cleanup_failures: vec![],
        fail_on_flaky: false,
        shard: None,
        merge: None,
    };
    more(&mut result);
    result.finalize();
    result
}
