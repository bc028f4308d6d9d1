//! The run result: what happened to every scenario and step, as plain serde data.
//!
//! This is the `--json` output and the input of the JUnit reporter and the terminal summary. A
//! failure always carries its typed code *and* its [`FailureClass`], so product, specification,
//! infrastructure and cleanup failures stay apart in every consumer. A cleanup failure never
//! replaces a scenario's verdict: it sits beside it (`cleanup_failure`). The format is versioned
//! ([`RESULT_FORMAT_VERSION`]); fields are only ever added within a version.

use crate::exit::{self, Exit};
use a3s_test_driver::{EvidenceFile, FailureClass, FailureCode, MissingEvidence, Waited};
use a3s_test_lang::ir::StepGroup;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Version of the JSON result format (`format_version`).
pub const RESULT_FORMAT_VERSION: u32 = 1;

/// A file written as evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceRecord {
    /// What it is (`screenshot`, `accessibility`, `console`, `page_errors`, …).
    pub kind: String,
    /// Where it is.
    pub path: PathBuf,
}

impl From<&EvidenceFile> for EvidenceRecord {
    fn from(file: &EvidenceFile) -> Self {
        EvidenceRecord {
            kind: file.kind.to_string(),
            path: file.path.clone(),
        }
    }
}

/// One failure: the code, its class, a sentence, where it happened and the evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailureRecord {
    /// The stable code.
    pub code: FailureCode,
    /// Who is to blame.
    pub failure_class: FailureClass,
    /// What was expected and what was found.
    pub message: String,
    /// Logical path of the step (`suite.s.scenario.x.click.pay`), when a step failed.
    pub step_path: Option<String>,
    /// `file:line:col` of the step, or of the scenario when no step was running.
    pub location: Option<String>,
    /// Evidence (the step's own and the automatic failure capture).
    pub evidence: Vec<EvidenceRecord>,
    /// Failure evidence that could not be captured, each with its reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_evidence: Vec<MissingEvidence>,
    /// For an `expect` or `wait` that waited: how long, and the last reading it got.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited: Option<Waited>,
    /// The element the failed step was about, as the suite wrote it: what the overlay marks
    /// when it offers this failure to a reviewer as a candidate (`runner/src/candidates/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<a3s_test_lang::ir::Target>,
    /// The address of the page when the failure was captured (browser surfaces): which page a
    /// candidate belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_url: Option<String>,
}

impl FailureRecord {
    /// A failure not tied to a step.
    pub fn new(code: FailureCode, message: impl Into<String>) -> Self {
        FailureRecord {
            code,
            failure_class: code.class(),
            message: message.into(),
            step_path: None,
            location: None,
            evidence: Vec::new(),
            missing_evidence: Vec::new(),
            waited: None,
            target: None,
            page_url: None,
        }
    }
}

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    /// It ran to completion.
    Passed,
    /// It failed (see the failure).
    Failed,
}

/// One executed step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepResult {
    /// 0-based position in the scenario.
    pub index: usize,
    /// The step label.
    pub label: Option<String>,
    /// The ACL block kind (`click`, …).
    pub kind: String,
    /// Logical path.
    pub path: String,
    /// `file:line:col`.
    pub location: String,
    /// Passed or failed.
    pub status: StepStatus,
    /// Wall time.
    pub duration_ms: u64,
    /// Evidence the step wrote.
    pub evidence: Vec<EvidenceRecord>,
    /// Step-specific facts from the driver, typed (result files are read back by `merge` of
    /// shards: [`a3s_test_driver::StepDetail`] reads its own JSON back).
    pub detail: Option<a3s_test_driver::StepDetail>,
    /// The failure, when it failed.
    pub failure: Option<FailureRecord>,
    /// The hook or `use` group it came from (index into `ScenarioResult::groups`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
    /// A `soft = true` expect: its failure did not stop the scenario.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soft: bool,
}

/// How a scenario ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScenarioStatus {
    /// Every step passed.
    Passed,
    /// A step (or the set-up) failed.
    Failed,
    /// The scenario deadline passed.
    TimedOut,
    /// The run was cancelled before or while it ran.
    Cancelled,
    /// An earlier attempt failed and a retry (`--retries`) passed: the product may be unreliable.
    /// Never counted as a plain pass; `--fail-on-flaky` fails the run with it.
    Flaky,
    /// Selected but not run: annotated `skip`/`fixme`, or a dependency did not pass
    /// ([`ScenarioResult::skip`] says which). Neither a pass nor a failure.
    Skipped,
}

impl ScenarioStatus {
    /// The status word used by reporters.
    pub fn as_str(self) -> &'static str {
        match self {
            ScenarioStatus::Passed => "passed",
            ScenarioStatus::Failed => "failed",
            ScenarioStatus::TimedOut => "timed_out",
            ScenarioStatus::Cancelled => "cancelled",
            ScenarioStatus::Flaky => "flaky",
            ScenarioStatus::Skipped => "skipped",
        }
    }
}

/// One scenario's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioResult {
    /// `suite/scenario`.
    pub id: String,
    /// The suite id.
    pub suite: String,
    /// The scenario id.
    pub scenario: String,
    /// Display name.
    pub name: String,
    /// The suite file.
    pub file: String,
    /// Tags.
    pub tags: Vec<String>,
    /// The verdict.
    pub status: ScenarioStatus,
    /// Why it did not pass.
    pub failure: Option<FailureRecord>,
    /// A failure while tearing down, kept apart from the verdict.
    pub cleanup_failure: Option<FailureRecord>,
    /// The `after_each` hook's failure, kept apart from the scenario's own (`failure` repeats
    /// it only when the scenario's own steps passed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_failure: Option<FailureRecord>,
    /// Every failed `soft = true` expect, in order; the scenario fails at its end because of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub soft_failures: Vec<FailureRecord>,
    /// The hooks and `use` groups its steps came from, so reports nest them (`StepResult::group`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<StepGroup>,
    /// Steps that ran, in order.
    pub steps: Vec<StepResult>,
    /// Wall time, context open to close.
    pub duration_ms: u64,
    /// How long opening the fresh browser context took, in microseconds (absent when none opened).
    pub context_open_us: Option<u64>,
    /// How long closing it took, in microseconds.
    pub context_close_us: Option<u64>,
    /// The scenario's artifact folder (absent when nothing was opened for it).
    pub artifact_dir: Option<PathBuf>,
    /// Earlier attempts that failed and were run again (`--retries`), oldest first; the fields
    /// above describe the last attempt. Omitted from JSON when the first attempt decided.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_attempts: Vec<AttemptResult>,
    /// Why it was not run, when its status is `skipped`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip: Option<crate::skip::SkipRecord>,
    /// True when no selection flag chose it: it runs because a selected scenario depends on it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dependency_only: bool,
    /// The step trace of this attempt, when one was kept (`run --trace`), and what changed
    /// since the scenario last passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<crate::trace::TraceSummary>,
    /// Why this pass was not kept as the scenario's last green run (the last-green store
    /// refused the record — full of this run's own — or the disk failed): the scenario's next
    /// failure is compared with an older record, or with none. The verdict stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_green_not_written: Option<String>,
}

/// One attempt of a scenario that failed and was run again, with its own evidence folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttemptResult {
    /// 1-based attempt number.
    pub attempt: u32,
    /// How the attempt ended (never `passed`: a passing attempt is the last one).
    pub status: ScenarioStatus,
    /// Why it did not pass.
    pub failure: Option<FailureRecord>,
    /// Steps that ran, in order.
    pub steps: Vec<StepResult>,
    /// Wall time, context open to close.
    pub duration_ms: u64,
    /// The attempt's own artifact folder.
    pub artifact_dir: Option<PathBuf>,
    /// The attempt's step trace, when one was kept: a flaky scenario's failed attempt keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<crate::trace::TraceSummary>,
}

impl AttemptResult {
    /// Keep what a finished attempt of `result` found, before the scenario is run again.
    pub fn of(attempt: u32, result: ScenarioResult) -> AttemptResult {
        AttemptResult {
            attempt,
            status: result.status,
            failure: result.failure,
            steps: result.steps,
            duration_ms: result.duration_ms,
            artifact_dir: result.artifact_dir,
            trace: result.trace,
        }
    }
}

impl ScenarioResult {
    /// A bare result of scenario `id` (`suite/name`, in `suite.acl`): no steps, no failure,
    /// nothing timed. The unit tests' starting point; each sets what it is about.
    #[cfg(test)]
    pub(crate) fn bare(id: &str, status: ScenarioStatus) -> ScenarioResult {
        let (suite, name) = id.split_once('/').expect("a suite/name id");
        ScenarioResult {
            id: id.into(),
            suite: suite.into(),
            scenario: name.into(),
            name: name.into(),
            file: format!("{suite}.acl"),
            tags: vec![],
            status,
            failure: None,
            cleanup_failure: None,
            hook_failure: None,
            soft_failures: vec![],
            groups: vec![],
            steps: vec![],
            duration_ms: 0,
            context_open_us: None,
            context_close_us: None,
            artifact_dir: None,
            earlier_attempts: vec![],
            skip: None,
            dependency_only: false,
            trace: None,
            last_green_not_written: None,
        }
    }

    /// How many times the scenario ran (1 without retries).
    pub fn attempt_count(&self) -> usize {
        self.earlier_attempts.len() + 1
    }

    /// The failure class of the verdict, if it failed.
    pub fn failure_class(&self) -> Option<FailureClass> {
        self.failure.as_ref().map(|f| f.failure_class)
    }
}

/// The run's overall outcome (mirrors the exit code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunOutcome {
    /// Everything passed.
    Passed,
    /// A scenario failed on a product assertion.
    Failed,
    /// Invalid input, configuration or infrastructure (or a cleanup failure).
    Error,
    /// A scenario timed out.
    TimedOut,
    /// Cancelled by Ctrl+C.
    Cancelled,
}

/// Counts by verdict and failure class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Scenarios planned.
    pub total: usize,
    /// Passed.
    pub passed: usize,
    /// Failed, any class (timed out and cancelled excluded).
    pub failed: usize,
    /// Timed out.
    pub timed_out: usize,
    /// Cancelled.
    pub cancelled: usize,
    /// Passed only on a retry (not counted in `passed`).
    pub flaky: usize,
    /// Selected but not run: `skip`/`fixme` annotations, or a dependency that did not pass
    /// (scenarios no selection flag chose are `RunResult::skipped`, not here).
    #[serde(default)]
    pub skipped: usize,
    /// Failures by class: product.
    pub product: usize,
    /// Failures by class: specification.
    pub specification: usize,
    /// Failures by class: infrastructure (timeouts and cancellations included).
    pub infrastructure: usize,
    /// Cleanup failures (scenario and run level).
    pub cleanup: usize,
}

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// [`RESULT_FORMAT_VERSION`].
    pub format_version: u32,
    /// `<UTC timestamp>-<random suffix>`.
    pub run_id: String,
    /// RFC 3339 start time.
    pub started_at: String,
    /// Wall time of the whole run.
    pub duration_ms: u64,
    /// The overall outcome.
    pub outcome: RunOutcome,
    /// The process exit code ([`crate::exit`]).
    pub exit_code: Exit,
    /// `.a3s-test/runs/<run-id>/`.
    pub artifact_root: PathBuf,
    /// Scenarios left out by `--filter`, `--tag` or `--shard`.
    pub skipped: usize,
    /// Counts.
    pub counts: Counts,
    /// Every planned scenario, in plan order.
    pub scenarios: Vec<ScenarioResult>,
    /// Run-level cleanup failures (browser shutdown, dev server, leftover processes).
    pub cleanup_failures: Vec<FailureRecord>,
    /// `--fail-on-flaky`: a flaky scenario fails the run (exit 1) instead of passing it.
    #[serde(default)]
    pub fail_on_flaky: bool,
    /// Which shard this run was (`--shard i/n`); absent for an unsharded run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRecord>,
    /// The shard results this one was merged from (`merge-reports`); absent for a plain run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merge: Option<MergeRecord>,
}

/// The shard a result covers, and what the whole sharded run selected, so `merge-reports` can
/// tell the shards of one run from shards of another selection (other suites, filters or tags).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// 1-based shard number.
    pub index: u32,
    /// Number of shards.
    pub total: u32,
    /// Scenarios selected (by filter and tag) across all shards.
    pub selected: usize,
    /// SHA-256 (hex) of the selected scenario ids across all shards, one per line in plan order.
    pub selection: String,
}

impl ShardRecord {
    /// The record of shard `index`/`total` of a run that selected `ids` (before sharding).
    pub fn new<'a>(index: u32, total: u32, ids: impl IntoIterator<Item = &'a str>) -> Self {
        use sha2::{Digest, Sha256};
        let mut hash = Sha256::new();
        let mut selected = 0;
        for id in ids {
            hash.update(id.as_bytes());
            hash.update(b"\n");
            selected += 1;
        }
        let selection = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
        ShardRecord {
            index,
            total,
            selected,
            selection,
        }
    }
}

/// Where a merged result came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergeRecord {
    /// Number of shards the run was split into.
    pub total: u32,
    /// The merged shards, in shard order.
    pub shards: Vec<MergedShard>,
    /// Shard numbers no result was given for: their scenarios are unknown, so the merged run
    /// cannot pass (exit code 2).
    pub missing_shards: Vec<u32>,
}

/// One shard result that went into a merge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergedShard {
    /// 1-based shard number.
    pub index: u32,
    /// That shard's run id.
    pub run_id: String,
    /// The result file it was read from.
    pub file: PathBuf,
    /// That shard's exit code.
    pub exit_code: Exit,
}

impl RunResult {
    /// Fill `counts`, `outcome` and `exit_code` from the scenarios and run-level failures.
    pub fn finalize(&mut self) {
        let mut counts = Counts {
            total: self.scenarios.len(),
            ..Counts::default()
        };
        for s in &self.scenarios {
            match s.status {
                ScenarioStatus::Passed => counts.passed += 1,
                ScenarioStatus::Failed => counts.failed += 1,
                ScenarioStatus::TimedOut => counts.timed_out += 1,
                ScenarioStatus::Cancelled => counts.cancelled += 1,
                ScenarioStatus::Flaky => counts.flaky += 1,
                ScenarioStatus::Skipped => counts.skipped += 1,
            }
            match s.failure_class() {
                Some(FailureClass::Product) => counts.product += 1,
                Some(FailureClass::Specification) => counts.specification += 1,
                Some(FailureClass::Infrastructure) => counts.infrastructure += 1,
                Some(FailureClass::Cleanup) => counts.cleanup += 1,
                None => {}
            }
            counts.cleanup += usize::from(s.cleanup_failure.is_some());
        }
        counts.cleanup += self.cleanup_failures.len();
        self.counts = counts;
        self.exit_code = exit::exit_code(self);
        self.outcome = self.exit_code.outcome();
    }
}
