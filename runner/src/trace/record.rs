//! The trace file (`trace.json`, schema [`TRACE_SCHEMA`]): one typed record per traced
//! scenario, written once when the scenario ends. Screenshots are files beside it
//! (`trace/step-<n>.jpeg`), named here by path relative to the scenario folder.
//!
//! Why typed: the HTML report, the JSON results' comparison and the last-green store all read
//! it back; a field that changes meaning changes the schema name, never silently.

use crate::result::{ScenarioStatus, StepStatus};
pub use a3s_test_driver::trace::TRACE_SCHEMA;
use a3s_test_driver::trace::{
    ImageFormat, PageFingerprint, TargetCandidates, TraceConsole, TracePageError, TraceRequest,
};
use serde::{Deserialize, Serialize};

/// One scenario's trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Always [`TRACE_SCHEMA`].
    pub schema: String,
    /// `suite/scenario`.
    pub scenario: String,
    /// The suite file, as reports show it.
    pub file: String,
    /// Which attempt (1 = the first run, 2 = the first retry …).
    pub attempt: u32,
    /// How the attempt ended.
    pub status: ScenarioStatus,
    /// The scenario's ACL source, so a report can show each step's line in place.
    pub source: TraceSource,
    /// One entry per step that ran, in order.
    pub steps: Vec<TraceStep>,
    /// Screenshot bytes kept (the scenario's budget is [`super::SCREENSHOT_BUDGET`]).
    pub screenshot_bytes: u64,
    /// Why this trace holds less than the scenario did (screenshots past the budget, entries
    /// past a cap), one sentence each; empty when it is complete.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cuts: Vec<String>,
    /// False when the surface records no traces (a terminal scenario): steps are listed
    /// without page captures.
    pub traced: bool,
}

/// The scenario's lines of ACL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceSource {
    /// The 1-based line of `lines[0]` in the file.
    pub first_line: usize,
    /// The lines (at most [`super::MAX_SOURCE_LINES`]).
    pub lines: Vec<String>,
}

/// One traced step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceStep {
    /// Its index in the scenario's step list (hooks and groups expanded).
    pub index: usize,
    /// The ACL block name (`click`, `expect`, …).
    pub kind: String,
    /// The step's label, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The step's path in the scenario (`steps[3]`, `before_each[0]` …).
    pub path: String,
    /// The 1-based ACL line of the step.
    pub line: usize,
    /// The element the step acted on, as the driver described it after resolving the target
    /// (and the element the hit test found on top, for pointer steps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    /// How the target was found: the locator the resolver was given, as ACL writes it
    /// (`role("button", "Buy")`, `nth(css(".row"), 2)`; for an agent's `@eN` ref, the locator
    /// proven to name that node alone), a drag's two joined by ` → `. Absent for a step
    /// without a target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
    /// Passed or failed.
    pub status: StepStatus,
    /// How long it took, ms.
    pub duration_ms: u64,
    /// The failure's code and message, for a failed step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<TraceFailure>,
    /// For a step that failed on its target (not found, ambiguous, not actionable, or timed
    /// out waiting for it): per target, the elements the resolver saw right after the failure
    /// and why each was not acted on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<TargetCandidates>,
    /// The page after the step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<TraceShot>,
    /// The outline after the step, one text line per outline line as an agent observation shows
    /// it (empty when it could not be read: see `missing`). The outline before a step is the
    /// one after the step before it; before the first step a fresh context shows a blank page.
    #[serde(default)]
    pub outline: Vec<String>,
    /// True when the page was not read after this step (a passing `expect` or `wait` under
    /// `retain-on-failure`: it does not act on the page); `outline` is then the one before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outline_carried: bool,
    /// True when `outline` is the last green run's after the same step: the page's fingerprint
    /// (`page`) equalled that run's, so the outline was not read again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outline_from_last_green: bool,
    /// The page's fingerprint after the step (see [`PageFingerprint`]); absent when it was not
    /// taken (a terminal, a page not read, a scenario that typed an `env("NAME")` value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<PageFingerprint>,
    /// Console messages during the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub console: Vec<TraceConsole>,
    /// Uncaught page errors during the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub page_errors: Vec<TracePageError>,
    /// Requests the page started during the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub network: Vec<TraceRequest>,
    /// What the capture after the step could not get, one sentence each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// Why a step failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceFailure {
    /// The stable code.
    pub code: String,
    /// The message.
    pub message: String,
}

/// A screenshot file of the trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceShot {
    /// Relative to the scenario folder (`trace/step-004.jpeg`).
    pub file: String,
    /// Its encoding.
    pub format: ImageFormat,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Size in bytes.
    pub bytes: u64,
    /// For a pointer step: where it pressed, in image pixels (marked in the report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<(f64, f64)>,
    /// For a drag: where it released, in image pixels (the report draws the drag from `point`
    /// to here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<(f64, f64)>,
}
