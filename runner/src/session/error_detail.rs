//! The facts a session error carries besides its code and message, typed.
//!
//! Each code has its own facts (a gate's admission diagnostics, a dispatched step's driver
//! failure, the page after a failed step, a cleanup's report), so they are one struct of
//! optional fields rather than one enum: a step failure answered with `--observe` has both the
//! failure and the observation, and a refusal gains the statement it refused. Every field is
//! absent from the JSON when unset, so each error prints only the facts it has.

use super::code::SessionError;
use super::reply::{Closed, Resolved};
use super::view::Observation;
use a3s_test_driver::failure::{DiffRule, FailureClass};
use a3s_test_driver::StepFailure;
use a3s_test_lang::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};

/// What a refused or failed session operation knows beyond its one sentence.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// Gate 1: every admission diagnostic of the refused statement.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
    /// The statement refused or failed, as the session recorded it (a private value as its
    /// `env("NAME")`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    /// The driver's failure, as the driver said it (evidence and the last reading included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<StepFailure>,
    /// Who is to blame for [`Self::failure`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<FailureClass>,
    /// The refs the failed statement used, with the durable targets they stood for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<Resolved>,
    /// The statement reached the browser before this error: the page may have changed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dispatched: bool,
    /// The Page Context rule a delta broke.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_context_code: Option<DiffRule>,
    /// The page after a failed step, when the action asked for it (`--observe`): the latest
    /// observation, whose refs the next statement binds to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation: Option<Box<Observation>>,
    /// Why the observation asked for after a failed step could not be taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation_error: Option<Box<SessionError>>,
    /// A close whose cleanup could not be verified: the report written and the pids that
    /// survived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<Box<Closed>>,
    /// The command that gets the agent further.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

#[cfg(test)]
mod tests;
