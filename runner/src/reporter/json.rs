//! `--json`: the run result as one pretty-printed JSON document, written when the run finishes.
//!
//! A flaky scenario has `"status": "flaky"` (counted in `counts.flaky`, never in `passed`) and its
//! failed attempts in `earlier_attempts`, each with its failure, steps and artifact folder.

use super::Reporter;
use crate::event::{RunEvent, RunEventKind};
use std::io::Write;

/// Writes the final [`crate::result::RunResult`] to `out`.
#[derive(Debug)]
pub struct JsonReporter<W: Write> {
    out: W,
}

impl<W: Write> JsonReporter<W> {
    /// A reporter writing to `out` (stdout for `--json`).
    pub fn new(out: W) -> Self {
        JsonReporter { out }
    }
}

impl<W: Write> Reporter for JsonReporter<W> {
    fn report(&mut self, event: &RunEvent) -> std::io::Result<()> {
        match &event.kind {
            RunEventKind::RunFinished { result } => {
                serde_json::to_writer_pretty(&mut self.out, result.as_ref())?;
                writeln!(self.out)?;
                self.out.flush()
            }
            RunEventKind::RunStarted { .. }
            | RunEventKind::DriverStarted { .. }
            | RunEventKind::ScenarioStarted { .. }
            | RunEventKind::StepFinished { .. }
            | RunEventKind::ScenarioRetrying { .. }
            | RunEventKind::ScenarioFinished { .. }
            | RunEventKind::RunBeginCancel { .. }
            | RunEventKind::CleanupFailed { .. } => Ok(()),
        }
    }
}
