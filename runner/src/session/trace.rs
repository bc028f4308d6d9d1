//! A session's trace (`agent start --trace`, written by `agent finish --trace`): each statement
//! the session dispatched is one step of the same record `run --trace` writes (schema
//! `a3s.test.trace/1`, [`crate::trace::record`]) — its kind, its statement as the session
//! recorded it (the source line the step points at), result or failure code, duration, and with
//! `--trace` at the start the page after it (screenshot, outline) and its console messages, page
//! errors and requests — so a promoted suite comes with the evidence of the session that found
//! it. `finish --trace` writes `trace.json`, its screenshots (`trace/step-<n>.jpeg`) and
//! `trace.html` (the HTML report's trace view, on a page of its own) into the session folder.
//!
//! Why captures are chosen at the start and not at the finish: a page is only seen as it was
//! right after a turn; a session that was not started with `--trace` pays nothing per turn, and
//! its `finish --trace` lists the steps without pages and says why in the trace's `cuts`.

use super::file::SessionFile;
use crate::result::{FailureRecord, ScenarioStatus, StepResult, StepStatus};
use crate::trace::Recorder;
use a3s_test_driver::trace::TraceMark;
use a3s_test_driver::{ProcessVars, StepFailure, StepOutput, SurfaceContext};
use a3s_test_fsroot::Dir;
use a3s_test_lang::ir::Step;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The HTML view of a session's trace, beside `trace.json` in the session folder.
pub const TRACE_HTML: &str = "trace.html";

/// What `finish --trace` wrote, in the session report (`report.json`, the finish answer).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionTraceSummary {
    /// `trace.json` in the session folder (schema `a3s.test.trace/1`).
    pub path: PathBuf,
    /// Its HTML view (`trace.html`), when it was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<PathBuf>,
    /// Steps traced: one per statement the session dispatched, the start URL's `navigate`
    /// first.
    pub steps: usize,
    /// Screenshot bytes kept.
    pub screenshot_bytes: u64,
    /// Whether the page was captured after each step (the session was started with `--trace`).
    pub captured: bool,
    /// Why the trace (or its HTML view) could not be written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_written: Option<String>,
}

/// The trace of a running session's turns, in memory until the finish (screenshots within the
/// per-trace budget, `crate::trace::SCREENSHOT_BUDGET`).
#[derive(Debug)]
pub struct SessionTrace {
    recorder: Option<Recorder>,
    /// `agent start --trace`: pages are captured after each step.
    wanted: bool,
}

impl SessionTrace {
    /// The trace of session `file` (nothing captured yet).
    pub fn new(file: &SessionFile) -> SessionTrace {
        let name = format!("session {}", file.id);
        SessionTrace {
            recorder: Some(Recorder::session(&name, "session statements")),
            wanted: file.trace,
        }
    }

    /// Start the surface's capture when the session was started with `--trace` (before the
    /// first step: the start URL's `navigate`).
    pub fn begin<C: SurfaceContext>(&mut self, ctx: &mut C) {
        if let (true, Some(recorder)) = (self.wanted, self.recorder.as_mut()) {
            recorder.begin(ctx, None);
        }
    }

    /// Where the page's logs stand before a step (nothing to mark when pages are not captured).
    pub fn mark<C: SurfaceContext>(&self, ctx: &C) -> TraceMark {
        match &self.recorder {
            Some(r) if r.traced() => r.mark(ctx),
            _ => TraceMark::default(),
        }
    }

    /// Record the step `turn` dispatched: `statement` as the session records it, `step` as it
    /// ran, how it ended and how long it took, then (when captured) the page after it. `private`
    /// names the environment variable the session records the step's literal value as, when
    /// the step typed it into a private field: that value is kept out of this and every later
    /// step's capture (outline, console, requests), as a run's `env("NAME")` values are.
    #[allow(clippy::too_many_arguments)]
    pub async fn record<C: SurfaceContext>(
        &mut self,
        ctx: &mut C,
        mark: TraceMark,
        (turn, statement): (u64, &str),
        step: &Step,
        private: Option<&str>,
        outcome: &Result<StepOutput, StepFailure>,
        duration_ms: u64,
    ) {
        let Some(recorder) = self.recorder.as_mut() else {
            return;
        };
        if let (Some(var), Some(typed)) = (private, super::private_input::typed_value(step)) {
            recorder.keep_out(typed.value, var);
        }
        // One source line per statement: a statement written over several lines is shown on one.
        let text = statement.split_whitespace().collect::<Vec<_>>().join(" ");
        let line = recorder.add_source_line(&text);
        let (status, detail, failure) = match outcome {
            Ok(output) => (StepStatus::Passed, output.detail.clone(), None),
            Err(f) => (
                StepStatus::Failed,
                None,
                Some(FailureRecord::new(f.code, f.message.clone())),
            ),
        };
        let result = StepResult {
            index: recorder.steps(),
            label: step.label.clone(),
            kind: step.action.kind().name().to_string(),
            path: format!("turn {turn}"),
            location: format!("session statements:{line}"),
            status,
            duration_ms,
            evidence: Vec::new(),
            detail,
            failure,
            group: None,
            soft: false,
        };
        recorder
            .step(ctx, mark, (step, line), &result, &ProcessVars::SESSION)
            .await;
    }

    /// `finish --trace`: write `trace.json`, its screenshots and `trace.html` into the session
    /// folder `dir`; the session ended `passed` or not. Written once: a second call answers
    /// `None`.
    pub fn write(&mut self, dir: &Dir, passed: bool, title: &str) -> Option<SessionTraceSummary> {
        let mut recorder = self.recorder.take()?;
        let captured = recorder.traced();
        if !captured {
            recorder.note_cut(if self.wanted {
                "this surface records no page captures: the steps are listed without pages"
            } else {
                "the session was started without --trace: the steps are listed without pages, \
                 console or requests (agent start --trace captures them)"
            });
        }
        let status = if passed {
            ScenarioStatus::Passed
        } else {
            ScenarioStatus::Failed
        };
        let summary = recorder
            .finish(dir, status, None, &Default::default())
            .summary?;
        let mut out = SessionTraceSummary {
            path: summary.path.clone(),
            html: None,
            steps: summary.steps,
            screenshot_bytes: summary.screenshot_bytes,
            captured,
            not_written: summary.not_written.clone(),
        };
        if out.not_written.is_none() {
            let page = crate::reporter::html::trace_page(title, &summary, dir.path());
            match dir.write_atomic(TRACE_HTML, page.as_bytes(), a3s_test_fsroot::SHARED) {
                Ok(()) => out.html = Some(dir.path().join(TRACE_HTML)),
                Err(e) => out.not_written = Some(format!("failed to write `{TRACE_HTML}`: {e}")),
            }
        }
        Some(out)
    }
}
