//! `--json`: the run result as one pretty-printed JSON document, written when the run finishes.
//!
//! A flaky scenario has `"status": "flaky"` (counted in `counts.flaky`, never in `passed`) and its
//! failed attempts in `earlier_attempts`, each with its failure, steps and artifact folder.

use super::ResultReporter;
use crate::result::RunResult;
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

impl<W: Write> ResultReporter for JsonReporter<W> {
    fn finish(&mut self, result: &RunResult) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut self.out, result)?;
        writeln!(self.out)?;
        self.out.flush()
    }
}
