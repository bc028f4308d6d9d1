//! The stable `test.session.*` codes of agent sessions: one per gate, plus the session's own
//! lifecycle failures. Each gate refuses with its own code so an agent (and a test) can tell
//! which check stopped a statement before anything was dispatched.

use super::error_detail::ErrorDetail;
use serde::{Deserialize, Serialize};

a3s_test_lang::define_codes! {
    /// Why a session operation was refused or failed.
    pub enum SessionCode {
        /// Gate 1: the statement (or typed action) is not one admitted ACL step.
        Schema => "test.session.schema";
        /// Gate 2: the driver or the session cannot run this kind of step.
        Capability => "test.session.capability";
        /// Gate 3: the target kind may not be acted on here (`@cN` without Page Context).
        TargetType => "test.session.target_type";
        /// Gate 3: an `@uN` UI fact given as an action target; `@uN` refs are read-only evidence.
        RefKind => "test.session.ref_kind";
        /// Gate 4: a ref does not belong to the latest open observation (or its node changed).
        StaleRef => "test.session.stale_ref";
        /// Gate 4 on a terminal: the input names no observation, one that is not the latest, or
        /// one whose screen changed since (the program wrote to it); nothing was sent.
        StaleScreen => "test.session.stale_screen";
        /// Gate 4 on a desktop: a `visual_point` names a screenshot that is not the session's
        /// latest, the program or its window changed since, the window no longer looks like it (a
        /// fresh capture's digest differs), or the point lies outside its image; nothing was sent.
        StaleScreenshot => "test.session.stale_screenshot";
        /// Gate 4: a ref never issued on the current page (no observation of this document had
        /// it): a typo, or a ref of another session.
        UnknownRef => "test.session.unknown_ref";
        /// Gate 5: a URL, origin, file or evidence path outside the session's policy.
        Policy => "test.session.policy";
        /// The page left the session's exact-origin set by itself, or a server redirected a `navigate` out of it.
        OriginLoss => "test.session.origin_loss";
        /// Gate 6: the action, time or evidence budget is spent.
        Budget => "test.session.budget";
        /// Gate 7 (in the driver, before any input): the statement would operate the Test Kit
        /// Review Overlay — point at it or type into its focused control. The overlay is the
        /// reviewer's: only a person's Send makes a finding.
        ReviewOverlay => "test.session.review_overlay";
        /// The Test Kit's UI-understanding record broke a rule (a node of another revision, a
        /// broken layout graph, more than the budget allowed …); nothing of it was shown.
        UiInvalid => "test.session.ui_invalid";
        /// No session with this id exists.
        UnknownSession => "test.session.unknown";
        /// The session exists but its supervisor is not running (finished, aborted, expired).
        NotRunning => "test.session.not_running";
        /// A session with this id already exists.
        AlreadyExists => "test.session.exists";
        /// Invalid command-line or tool input (session id, status, bounds).
        InvalidInput => "test.session.invalid_input";
        /// The supervisor could not be started or did not answer in time.
        Supervisor => "test.session.supervisor";
        /// Reading or writing the session folder failed.
        Io => "test.session.io";
        /// A path to a session file (`.a3s-test`, `agent-sessions`, the session folder, or a
        /// file or folder in it) is a symbolic link, not a real folder or regular file, or a
        /// written file with other hard links: nothing was read or written through it.
        UnsafePath => "test.session.unsafe_path";
        /// Visual grounding: the page's pixels changed between the request to the provider and
        /// its answer where the answer is about (the region of its boxes; the whole viewport for
        /// an answer that names no place), so the answer is about a picture the page no longer
        /// shows.
        ScreenshotChanged => "test.session.screenshot_changed";
        /// Visual grounding: the advisory provider gave no usable advice; the message starts
        /// with its `test.provider.*` code and ends with that code's hint.
        Provider => "test.session.provider";
        /// The statement was dispatched and the product or the browser failed it.
        StepFailed => "test.session.step_failed";
        /// The session could not verify that every owned process is gone.
        Cleanup => "test.session.cleanup";
        /// Promotion found nothing to promote or produced an inadmissible suite.
        Promotion => "test.session.promotion";
        /// `agent start` was interrupted (SIGINT, SIGTERM, SIGHUP) before it returned; the session
        /// it was creating was torn down.
        Interrupted => "test.session.interrupted";
        /// A trusted verification check exited non-zero or was killed by a signal (or the
        /// orchestrator reported it failed).
        RepairCheckFailed => "test.session.repair_check_failed";
        /// A trusted verification check did not finish within its `timeout_ms`.
        RepairCheckTimeout => "test.session.repair_check_timeout";
        /// A trusted verification check exited but left a process of its own running (it was then
        /// stopped).
        RepairCheckSurvivor => "test.session.repair_check_survivor";
        /// A trusted verification check's processes could not all be stopped within the cleanup
        /// timeout.
        RepairCheckCleanup => "test.session.repair_check_cleanup";
        /// A trusted verification check could not be started.
        RepairCheckSpawn => "test.session.repair_check_spawn";
        /// The verification was interrupted (SIGINT, SIGTERM, SIGHUP) while a trusted check ran;
        /// the check's process group was stopped.
        RepairCheckInterrupted => "test.session.repair_check_interrupted";
        /// The `--checks-json` document is not a valid `a3s.test.repair-check-results/1` report.
        RepairCheckResults => "test.session.repair_check_results";
        /// Repair verification step 1: no ready Test Kit revision newer than the finding's
        /// context revision appeared before the revision timeout.
        RepairNoNewRevision => "test.session.repair_no_new_revision";
        /// Repair verification step 2: none of the finding's locators (or its declared
        /// replacement) names an element any more.
        RepairTargetMissing => "test.session.repair_target_missing";
        /// Repair verification step 2: the finding's target resolves to several elements, so it
        /// cannot be checked.
        RepairTargetAmbiguous => "test.session.repair_target_ambiguous";
        /// Repair verification step 3: a typed success criterion does not hold on the page.
        RepairCriterionFailed => "test.session.repair_criterion_failed";
        /// Repair verification step 3: a placement's destination is outside the viewport, or no
        /// element other than the page root occupies it after the repair.
        RepairLayoutUnaddressable => "test.session.repair_layout_unaddressable";
        /// Repair verification step 3: a rearranged node (or its declared replacement) does not
        /// overlap its destination after the repair.
        RepairLayoutNotMoved => "test.session.repair_layout_not_moved";
        /// Repair verification step 4: the repaired page has an uncaught page error its before
        /// baseline did not.
        RepairNewPageError => "test.session.repair_new_page_error";
        /// The repair's ACL candidate failed in a fresh browser context (or could not be
        /// generated): the verification fails at step 8.
        RepairCandidateFailed => "test.session.repair_candidate_failed";
    }
}

impl SessionCode {
    /// True for the pre-dispatch gates: when one refuses, nothing reached the browser.
    pub fn is_gate(self) -> bool {
        matches!(
            self,
            SessionCode::Schema
                | SessionCode::Capability
                | SessionCode::TargetType
                | SessionCode::RefKind
                | SessionCode::StaleRef
                | SessionCode::StaleScreen
                | SessionCode::StaleScreenshot
                | SessionCode::UnknownRef
                | SessionCode::Policy
                | SessionCode::OriginLoss
                | SessionCode::Budget
                | SessionCode::ReviewOverlay
        )
    }
}

/// A refused or failed session operation.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
#[error("{code}: {message}")]
pub struct SessionError {
    /// The stable code.
    pub code: SessionCode,
    /// One plain sentence.
    pub message: String,
    /// The facts beyond the sentence (admission diagnostics, the driver's failure, the page
    /// after a failed step, a cleanup report, the next command …), typed; absent when there
    /// are none. Printed with its keys sorted at every level, as the JSON object it was before
    /// it was typed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::sorted::sorted"
    )]
    pub detail: Option<Box<ErrorDetail>>,
}

impl SessionError {
    /// An error without detail.
    pub fn new(code: SessionCode, message: impl Into<String>) -> Self {
        SessionError {
            code,
            message: message.into(),
            detail: None,
        }
    }

    /// A confined file operation on the session folder that failed: a refused path (a link, a
    /// FIFO, a hard-linked file) is `test.session.unsafe_path`, anything else `test.session.io`;
    /// the message names the path.
    pub fn fs(err: &a3s_test_fsroot::FsError) -> Self {
        let code = if err.is_refusal() {
            SessionCode::UnsafePath
        } else {
            SessionCode::Io
        };
        SessionError::new(code, err.to_string())
    }

    /// The detail, created empty when the error had none, for a caller to add its facts.
    pub fn detail_mut(&mut self) -> &mut ErrorDetail {
        self.detail.get_or_insert_with(Default::default)
    }

    /// Add facts: `add` fills in the fields it knows, on the detail the error already has.
    pub fn with(mut self, add: impl FnOnce(&mut ErrorDetail)) -> Self {
        add(self.detail_mut());
        self
    }

    /// Attach the observation asked for after a failed step (`None`: none was asked): the page
    /// after the failure, or why it could not be taken. The failure's counterpart of
    /// [`super::reply::Executed::with_observation`], so every engine answers a failed step the
    /// same way.
    pub(crate) fn with_observation(
        self,
        seen: Option<Result<super::view::Observation, SessionError>>,
    ) -> Self {
        match seen {
            Some(Ok(seen)) => self.with(|d| d.observation = Some(Box::new(seen))),
            Some(Err(e)) => self.with(|d| d.observation_error = Some(Box::new(e))),
            None => self,
        }
    }

    /// Mark an error raised after the statement was dispatched, so it is told apart from the
    /// same code raised by a gate: the page may have changed.
    pub fn after_dispatch(self) -> Self {
        self.with(|d| d.dispatched = true)
    }

    /// Name the command that gets the agent further (`next` in the detail, where the CLI
    /// prints it and reads it back with [`Self::next`]); the supervisor sends it as the typed
    /// `next` of its answer and the client puts it here.
    pub fn with_next(self, next: String) -> Self {
        self.with(|d| d.next = Some(next))
    }

    /// The command this error names to run next ([`Self::with_next`]).
    pub fn next(&self) -> Option<&str> {
        self.detail.as_ref()?.next.as_deref()
    }

    /// True when the statement reached the browser before this error (a step failure, or the
    /// page leaving the origins after the step ran).
    pub fn dispatched(&self) -> bool {
        self.code == SessionCode::StepFailed || self.detail.as_ref().is_some_and(|d| d.dispatched)
    }

    /// The exit code of the command that ended with this error: 1 when the statement ran and
    /// failed (the page may have changed), 2 when it was refused before dispatch or the input,
    /// the session or the infrastructure is wrong (nothing happened in the page), 130 for an
    /// interrupted `agent start`. A promotion that found nothing to promote ran and failed: 1.
    pub fn exit(&self) -> crate::exit::Exit {
        use crate::exit::Exit;
        match self.code {
            SessionCode::Interrupted => Exit::Interrupted,
            SessionCode::Promotion => Exit::Failed,
            _ if self.dispatched() => Exit::Failed,
            _ => Exit::InvalidInput,
        }
    }
}

/// A driver step failure reported through the session: `test.session.step_failed`, its message
/// naming the driver's code (`test.driver.*: …`).
/// An id refused by the one id parser is invalid input of the session verbs.
impl From<a3s_test_ledger::IdError> for SessionError {
    fn from(e: a3s_test_ledger::IdError) -> Self {
        SessionError::new(SessionCode::InvalidInput, e.to_string())
    }
}

impl From<a3s_test_driver::StepFailure> for SessionError {
    fn from(f: a3s_test_driver::StepFailure) -> Self {
        SessionError::new(
            SessionCode::StepFailed,
            format!("{}: {}", f.code, f.message),
        )
    }
}
