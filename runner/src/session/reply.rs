//! The typed bodies of the supervisor's answers that the CLI and the MCP tools hand on as they
//! are: an exec turn's [`Executed`] and a close's [`Closing`] with its [`SessionReport`] (which
//! is also `report.json`), and what `finish`/`abort` report after the CLI's own cleanup
//! ([`Closed`]). The engine builds them and `crate::ops` of the binary reads them back as the
//! same types, so neither side writes or reads them by string key.
//!
//! [`SessionReport`] declares its fields in alphabetical order on purpose: the report used to be
//! built as a `serde_json::Value` (whose keys print sorted), and printing the struct must stay
//! byte-identical to that. Facts typed later print through a sorted value instead
//! (`session::sorted`).
//!
//! An exec answer's step detail has two forms ([`Executed`] is generic over it): on the socket
//! it is [`Tagged`], so the client reads back the very variant the driver reported
//! ([`ExecutedOnWire`]); printed, it is the untagged object a suite's results record.

use super::code::SessionError;
use super::file::SessionState;
use super::sorted::sorted;
use super::view::Observation;
use a3s_test_driver::detail::Tagged;
use a3s_test_driver::{EvidenceFile, StepDetail};
use a3s_test_lang::ir::ActionKind;
use a3s_test_ledger::SessionId;
use serde::{Deserialize, Serialize};

/// One ref a step resolved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resolved {
    /// The ref (`@e3`).
    #[serde(rename = "ref")]
    pub reference: String,
    /// The durable target it stood for, as ACL.
    pub target: String,
}

/// What a statement (or a typed action) reports: the supervisor's answer to an exec turn, with
/// its step detail as `D` — [`StepDetail`] where it is printed, [`Tagged`] on the socket
/// ([`ExecutedOnWire`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "D: Serialize", deserialize = "D: Deserialize<'de>"))]
pub struct Executed<D = StepDetail> {
    /// The turn number.
    pub turn: u64,
    /// The step kind.
    pub step: ActionKind,
    /// `passed`.
    pub status: String,
    /// The refs the step resolved.
    #[serde(default)]
    pub resolved: Vec<Resolved>,
    /// The evidence files the step wrote.
    #[serde(default)]
    pub evidence: Vec<EvidenceFile>,
    /// The driver's step-specific facts (tab list, dialog status, download, how long an
    /// `expect` waited …), typed; printed in the shape a suite's results record them, keys
    /// sorted (as the JSON object it was before it was typed).
    #[serde(default, serialize_with = "sorted")]
    pub detail: Option<D>,
    /// The page URL after the step.
    #[serde(default)]
    pub url: String,
    /// Page-derived fields are untrusted data.
    #[serde(default)]
    pub untrusted: bool,
    /// The command to run next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// Requests the network policy blocked since the last answer (untrusted URLs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_requests: Vec<String>,
    /// The observation taken right after the step, in the same turn, when the request asked
    /// for one (`then_observe`): the latest observation, whose refs the next statement binds
    /// to. Absent when not asked, so an answer without it is the answer it always was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation: Option<Observation>,
    /// Why the observation asked for could not be taken after a step that passed (the step
    /// stands and is recorded; observe again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation_error: Option<SessionError>,
}

/// An exec answer as it crosses the supervisor socket: its step detail tagged, so it reads back
/// as the variant the driver reported.
pub type ExecutedOnWire = Executed<Tagged>;

impl<D> Executed<D> {
    /// Take the observation asked for after the step (`None`: none was asked): its refs become
    /// the next statement's and its `next` the answer's; a failed one is reported beside the
    /// step, which stands. One place, so every engine answers an action the same way.
    pub(crate) fn with_observation(
        mut self,
        seen: Option<Result<Observation, SessionError>>,
    ) -> Executed<D> {
        match seen {
            Some(Ok(seen)) => {
                self.next = seen.next.clone();
                self.observation = Some(seen);
            }
            Some(Err(e)) => self.observation_error = Some(e),
            None => {}
        }
        self
    }

    /// The same answer with its step detail in another form (every other field moved as it is).
    fn with_detail<E>(self, form: impl FnOnce(D) -> E) -> Executed<E> {
        let Executed {
            turn,
            step,
            status,
            resolved,
            evidence,
            detail,
            url,
            untrusted,
            next,
            blocked_requests,
            observation,
            observation_error,
        } = self;
        Executed {
            turn,
            step,
            status,
            resolved,
            evidence,
            detail: detail.map(form),
            url,
            untrusted,
            next,
            blocked_requests,
            observation,
            observation_error,
        }
    }
}

impl From<Executed> for ExecutedOnWire {
    fn from(executed: Executed) -> ExecutedOnWire {
        executed.with_detail(Tagged)
    }
}

impl From<ExecutedOnWire> for Executed {
    fn from(executed: ExecutedOnWire) -> Executed {
        executed.with_detail(|tagged| tagged.0)
    }
}

/// How the browser's cleanup went at close.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CleanupReport {
    /// The browser's process group.
    pub browser_pgid: u32,
    /// What could not be verified gone (empty: nothing survived).
    pub problems: Vec<String>,
}

/// The session report a close writes to `report.json` and answers with (fields alphabetical:
/// see the module doc).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionReport {
    /// Statements dispatched.
    pub actions: u32,
    /// The browser's cleanup.
    pub cleanup: CleanupReport,
    /// When it closed.
    pub closed_at_ms: u64,
    /// [`super::file::FORMAT_VERSION`].
    pub format_version: u32,
    /// The goal, in the person's words.
    pub goal: Option<String>,
    /// The session id.
    pub session: String,
    /// The start URL.
    pub start_url: String,
    /// When it started.
    pub started_at_ms: u64,
    /// How it ended: `passed`, `failed`, `aborted` or `expired`.
    pub status: String,
    /// Steps that passed.
    pub steps_passed: usize,
    /// The success criteria.
    pub success: Vec<String>,
    /// What happened, in the agent's words (or why it closed).
    pub summary: Option<String>,
    /// The summary is untrusted data.
    pub summary_untrusted: bool,
    /// The session's trace, when `finish --trace` wrote one ([`super::trace`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<Box<super::trace::SessionTraceSummary>>,
}

impl SessionReport {
    /// The report of `file` closing with `status` (`problems`: what of its owned processes
    /// could not be verified gone), whatever the session drove.
    pub fn of(
        file: &super::file::SessionFile,
        status: &str,
        summary: Option<String>,
        problems: Vec<String>,
    ) -> SessionReport {
        SessionReport {
            format_version: super::file::FORMAT_VERSION,
            session: file.id.to_string(),
            status: status.to_string(),
            summary,
            summary_untrusted: true,
            goal: file.goal.clone(),
            success: file.success.clone(),
            start_url: file.start_url.clone(),
            actions: file.actions,
            steps_passed: file.steps.len(),
            started_at_ms: file.started_at_ms,
            closed_at_ms: super::file::now_ms(),
            cleanup: CleanupReport {
                browser_pgid: file.ownership.browser_pgid,
                problems,
            },
            trace: None,
        }
    }
}

/// The supervisor's answer to `finish` and `abort`: the report it wrote and what to run next.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Closing {
    /// The session report (also `report.json`).
    pub report: SessionReport,
    /// The command to run next (promote, after a passed session with steps).
    #[serde(default)]
    pub next: Option<String>,
    /// Requests the network policy blocked since the last answer (untrusted URLs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_requests: Vec<String>,
}

/// What `finish` and `abort` report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Closed {
    /// The session report (the supervisor's, or a forced close's).
    pub report: ClosedReport,
    /// The command to run next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// No owned process remains.
    #[serde(default)]
    pub cleanup_verified: bool,
    /// Pids of owned processes that survived.
    #[serde(default)]
    pub survivors: Vec<u32>,
    /// Requests the network policy blocked since the last answer (untrusted URLs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_requests: Vec<String>,
}

/// The report of a close: the supervisor's, or the CLI's own when it had to stop the recorded
/// processes without one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClosedReport {
    /// The supervisor closed the session (also `report.json`).
    Supervisor(SessionReport),
    /// No supervisor answered; the recorded process groups were stopped here.
    Forced(ForcedReport),
}

impl ClosedReport {
    /// How the session ended: the supervisor's status (`passed`, `aborted` …), or the state a
    /// forced close recorded (`aborted`, `finished`), so a line never says less than the record.
    pub fn status(&self) -> &str {
        match self {
            ClosedReport::Supervisor(r) => &r.status,
            ClosedReport::Forced(r) => r.state.as_str(),
        }
    }
}

/// A forced close's report (fields alphabetical: it printed through a sorted `Value` before it
/// was typed, and prints the same).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForcedReport {
    /// Why the supervisor could not close it (none when the session was in cleanup).
    #[serde(serialize_with = "sorted")]
    pub cause: Option<SessionError>,
    /// Always true.
    pub forced: bool,
    /// The session id.
    pub session: SessionId,
    /// Its state after the close.
    pub state: SessionState,
}
