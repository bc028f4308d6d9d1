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
//! Every reporter matches every [`crate::event::RunEventKind`] explicitly: a new event kind does
//! not compile until each output decides what to do with it. None of them is called from inside
//! the executor.

pub mod github;
pub mod html;
pub mod json;
pub mod junit;
pub mod terminal;

use crate::event::RunEvent;

/// Something that renders run events.
pub trait Reporter {
    /// Handle one event. An error stops only this reporter's output, never the run.
    fn report(&mut self, event: &RunEvent) -> std::io::Result<()>;
}
