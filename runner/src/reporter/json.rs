//! `--json`: the run result as one pretty-printed JSON document, written when the run finishes.

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
            | RunEventKind::ScenarioFinished { .. }
            | RunEventKind::RunBeginCancel { .. }
            | RunEventKind::CleanupFailed { .. } => Ok(()),
        }
    }
}
