//! The stable `test.session.*` codes of agent sessions: one per gate, plus the session's own
//! lifecycle failures. Each gate refuses with its own code so an agent (and a test) can tell
//! which check stopped a statement before anything was dispatched.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Why a session operation was refused or failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SessionCode {
    /// Gate 1: the statement (or typed action) is not one admitted ACL step.
    Schema,
    /// Gate 2: the driver or the session cannot run this kind of step.
    Capability,
    /// Gate 3: the target kind may never be acted on here (`@uN`, or `@cN` without Page Context).
    TargetType,
    /// Gate 4: a ref does not belong to the latest open observation (or its node changed).
    StaleRef,
    /// Gate 5: a URL, origin, file or evidence path outside the session's policy.
    Policy,
    /// The page left the session's exact-origin set by itself.
    OriginLoss,
    /// Gate 6: the action, time or evidence budget is spent.
    Budget,
    /// No session with this id exists.
    UnknownSession,
    /// The session exists but its supervisor is not running (finished, aborted, expired).
    NotRunning,
    /// A session with this id already exists.
    AlreadyExists,
    /// Invalid command-line or tool input (session id, status, bounds).
    InvalidInput,
    /// The supervisor could not be started or did not answer in time.
    Supervisor,
    /// Reading or writing the session folder failed.
    Io,
    /// The statement was dispatched and the product or the browser failed it.
    StepFailed,
    /// The session could not verify that every owned process is gone.
    Cleanup,
    /// Promotion found nothing to promote or produced an inadmissible suite.
    Promotion,
    /// `agent start` was interrupted (SIGINT, SIGTERM, SIGHUP) before it returned; the session
    /// it was creating was torn down.
    Interrupted,
}

impl SessionCode {
    /// Every code.
    pub const ALL: [SessionCode; 17] = [
        SessionCode::Schema,
        SessionCode::Capability,
        SessionCode::TargetType,
        SessionCode::StaleRef,
        SessionCode::Policy,
        SessionCode::OriginLoss,
        SessionCode::Budget,
        SessionCode::UnknownSession,
        SessionCode::NotRunning,
        SessionCode::AlreadyExists,
        SessionCode::InvalidInput,
        SessionCode::Supervisor,
        SessionCode::Io,
        SessionCode::StepFailed,
        SessionCode::Cleanup,
        SessionCode::Promotion,
        SessionCode::Interrupted,
    ];

    /// The code for a dotted string.
    pub fn parse(s: &str) -> Option<SessionCode> {
        SessionCode::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The stable dotted code.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionCode::Schema => "test.session.schema",
            SessionCode::Capability => "test.session.capability",
            SessionCode::TargetType => "test.session.target_type",
            SessionCode::StaleRef => "test.session.stale_ref",
            SessionCode::Policy => "test.session.policy",
            SessionCode::OriginLoss => "test.session.origin_loss",
            SessionCode::Budget => "test.session.budget",
            SessionCode::UnknownSession => "test.session.unknown",
            SessionCode::NotRunning => "test.session.not_running",
            SessionCode::AlreadyExists => "test.session.exists",
            SessionCode::InvalidInput => "test.session.invalid_input",
            SessionCode::Supervisor => "test.session.supervisor",
            SessionCode::Io => "test.session.io",
            SessionCode::StepFailed => "test.session.step_failed",
            SessionCode::Cleanup => "test.session.cleanup",
            SessionCode::Promotion => "test.session.promotion",
            SessionCode::Interrupted => "test.session.interrupted",
        }
    }

    /// True for the pre-dispatch gates: when one refuses, nothing reached the browser.
    pub fn is_gate(self) -> bool {
        matches!(
            self,
            SessionCode::Schema
                | SessionCode::Capability
                | SessionCode::TargetType
                | SessionCode::StaleRef
                | SessionCode::Policy
                | SessionCode::OriginLoss
                | SessionCode::Budget
        )
    }
}

impl std::fmt::Display for SessionCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for SessionCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SessionCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        SessionCode::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown code {s}")))
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
    /// Extra facts (admission diagnostics, the driver failure code, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<serde_json::Value>,
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

    /// Attach detail.
    pub fn with_detail(mut self, detail: serde_json::Value) -> Self {
        self.detail = Some(detail);
        self
    }
}

/// A driver step failure reported through the session: `test.session.step_failed`, its message
/// naming the driver's code (`test.driver.*: …`).
impl From<a3s_test_driver::StepFailure> for SessionError {
    fn from(f: a3s_test_driver::StepFailure) -> Self {
        SessionError::new(
            SessionCode::StepFailed,
            format!("{}: {}", f.code, f.message),
        )
    }
}
