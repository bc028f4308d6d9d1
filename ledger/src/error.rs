//! Typed error codes of the repair ledger (`test.session.repair_*`) and the one error type every
//! ledger operation returns.
//!
//! Codes are stable dotted strings: agents and the Review Overlay branch on them, so a code is
//! never renamed, only added. The message is for people and may change.

use serde::Serialize;
use std::fmt;

/// A stable error code of the repair ledger. Serialized as its dotted string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The operation is not allowed from the finding's current status (or for this actor).
    InvalidTransition,
    /// A request id was reused for a different request.
    IdempotencyConflict,
    /// A verification did not repeat the exact ordered `changed_files` of `complete`.
    ChangeMismatch,
    /// No finding with this id exists in the session's ledger.
    UnknownFinding,
    /// The operation needs the active attempt id and none was given.
    AttemptRequired,
    /// The given attempt id is not the finding's active attempt.
    AttemptMismatch,
    /// The attempt's lease has expired; the finding was returned by the expiry rule.
    LeaseExpired,
    /// A lease duration outside 1,000..=900,000 ms (rejected, never clamped).
    InvalidLease,
    /// A session, finding, request or attempt id that is not 1–64 of `[A-Za-z0-9_-]`.
    InvalidId,
    /// A bounded text, list or path argument that is out of range.
    InvalidInput,
    /// The body is not JSON (or not UTF-8).
    MalformedDocument,
    /// The document's `protocol` is not `a3s.test.repair/1`.
    UnsupportedProtocol,
    /// The document is JSON with the right protocol but a finding has the wrong shape.
    InvalidDocument,
    /// Appending would take the ledger past its size ceiling.
    LedgerFull,
    /// A complete line of the ledger does not parse or breaks the sequence/state rules.
    LedgerCorrupt,
    /// The ledger was written by a newer, unknown format version.
    LedgerFormat,
    /// The ledger's writer lock could not be taken before the deadline.
    LedgerBusy,
    /// The file system refused a read, write, lock or sync.
    Io,
    /// Auto-resolve was asked for a finding without a persisted passing verification.
    NotVerified,
}

impl ErrorCode {
    /// Every code, in declaration order (for docs and tests).
    pub const ALL: [ErrorCode; 19] = [
        ErrorCode::InvalidTransition,
        ErrorCode::IdempotencyConflict,
        ErrorCode::ChangeMismatch,
        ErrorCode::UnknownFinding,
        ErrorCode::AttemptRequired,
        ErrorCode::AttemptMismatch,
        ErrorCode::LeaseExpired,
        ErrorCode::InvalidLease,
        ErrorCode::InvalidId,
        ErrorCode::InvalidInput,
        ErrorCode::MalformedDocument,
        ErrorCode::UnsupportedProtocol,
        ErrorCode::InvalidDocument,
        ErrorCode::LedgerFull,
        ErrorCode::LedgerCorrupt,
        ErrorCode::LedgerFormat,
        ErrorCode::LedgerBusy,
        ErrorCode::Io,
        ErrorCode::NotVerified,
    ];

    /// The stable dotted string of this code.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidTransition => "test.session.repair_invalid_transition",
            ErrorCode::IdempotencyConflict => "test.session.repair_idempotency_conflict",
            ErrorCode::ChangeMismatch => "test.session.repair_change_mismatch",
            ErrorCode::UnknownFinding => "test.session.repair_unknown_finding",
            ErrorCode::AttemptRequired => "test.session.repair_attempt_required",
            ErrorCode::AttemptMismatch => "test.session.repair_attempt_mismatch",
            ErrorCode::LeaseExpired => "test.session.repair_lease_expired",
            ErrorCode::InvalidLease => "test.session.repair_invalid_lease",
            ErrorCode::InvalidId => "test.session.repair_invalid_id",
            ErrorCode::InvalidInput => "test.session.repair_invalid_input",
            ErrorCode::MalformedDocument => "test.session.repair_malformed_document",
            ErrorCode::UnsupportedProtocol => "test.session.repair_unsupported_protocol",
            ErrorCode::InvalidDocument => "test.session.repair_invalid_document",
            ErrorCode::LedgerFull => "test.session.repair_ledger_full",
            ErrorCode::LedgerCorrupt => "test.session.repair_ledger_corrupt",
            ErrorCode::LedgerFormat => "test.session.repair_ledger_format",
            ErrorCode::LedgerBusy => "test.session.repair_ledger_busy",
            ErrorCode::Io => "test.session.repair_io",
            ErrorCode::NotVerified => "test.session.repair_not_verified",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// The error of every ledger operation: a stable code plus a lowercase human message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("{code}: {message}")]
pub struct LedgerError {
    /// The stable code callers branch on.
    pub code: ErrorCode,
    /// What went wrong, for people ("failed to …", "cannot …").
    pub message: String,
}

impl LedgerError {
    /// Build an error from a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        LedgerError {
            code,
            message: message.into(),
        }
    }

    /// An I/O failure while doing `what` on the ledger.
    pub fn io(what: &str, err: &std::io::Error) -> Self {
        LedgerError::new(ErrorCode::Io, format!("failed to {what}: {err}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_in_the_session_namespace() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            assert!(code.as_str().starts_with("test.session.repair_"), "{code}");
            assert!(seen.insert(code.as_str()), "duplicate {code}");
        }
    }
}
