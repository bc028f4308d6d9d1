//! Reporters: each one turns the [`RunEvent`] stream into one output.
//!
//! - [`terminal::TerminalReporter`]: a line per scenario as it ends, a progress line while running
//!   (interactive terminals only), and a summary naming each failure's code, message, step path,
//!   source location and evidence.
//! - [`json::JsonReporter`]: the final [`crate::result::RunResult`] as JSON (`--json`).
//! - [`junit::JunitReporter`]: JUnit XML (`--junit <file>`) for CI.
//! - [`html::HtmlReporter`]: one self-contained HTML page (`--html <dir>`) a person opens.
//! - [`github::GithubReporter`]: GitHub Actions annotations (`--reporter github`).
//!
//! Each draws hooks and `use` groups as one nested step ([`tree`]), lists every failed soft
//! expect and keeps an `after_each` failure apart from the scenario's own.
//!
//! The live reporter (terminal) matches every [`crate::event::RunEventKind`] explicitly: a new
//! event kind does not compile until it decides what to do with it. The reporters that render
//! only the finished run (JSON, JUnit, HTML, GitHub) implement [`ResultReporter`], whose one
//! exhaustive match lives here. None of them is called from inside the executor: the executor
//! only sends events, and the CLI feeds them to the reporters — always through
//! [`set::Reporters`], the one place the reporters of a run are built from its output options.

pub mod github;
pub mod html;
pub mod json;
pub mod junit;
pub mod set;
pub mod terminal;
pub mod tree;

use crate::event::{RunEvent, RunEventKind};
use crate::result::RunResult;

/// Something that renders run events.
pub trait Reporter {
    /// Handle one event. An error stops only this reporter's output, never the run.
    fn report(&mut self, event: &RunEvent) -> std::io::Result<()>;
}

/// A reporter that renders only the finished run's result. Written once so the JSON, JUnit, HTML
/// and GitHub reporters do not each repeat the list of events they ignore.
pub trait ResultReporter {
    /// Render the finished run. An error stops only this reporter's output, never the run.
    fn finish(&mut self, result: &RunResult) -> std::io::Result<()>;
}

impl<R: ResultReporter> Reporter for R {
    fn report(&mut self, event: &RunEvent) -> std::io::Result<()> {
        match &event.kind {
            RunEventKind::RunFinished { result } => self.finish(result),
            RunEventKind::RunStarted { .. }
            | RunEventKind::DevServerReused { .. }
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
