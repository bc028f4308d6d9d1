//! Typed error codes of the repair ledger (`test.session.repair_*`) and the one error type every
//! ledger operation returns.
//!
//! Codes are stable dotted strings: agents and the Review Overlay branch on them, so a code is
//! never renamed, only added. The message is for people and may change.

use serde::Serialize;

a3s_test_lang::define_codes! {
    /// A stable error code of the repair ledger. Serialized as its dotted string.
    pub enum ErrorCode {
        /// The operation is not allowed from the finding's current status (or for this actor).
        InvalidTransition => "test.session.repair_invalid_transition";
        /// A request id was reused for a different request.
        IdempotencyConflict => "test.session.repair_idempotency_conflict";
        /// A verification did not repeat the exact ordered `changed_files` of `complete`.
        ChangeMismatch => "test.session.repair_change_mismatch";
        /// No finding with this id exists in the session's ledger.
        UnknownFinding => "test.session.repair_unknown_finding";
        /// The operation needs the active attempt id and none was given.
        AttemptRequired => "test.session.repair_attempt_required";
        /// The given attempt id is not the finding's active attempt.
        AttemptMismatch => "test.session.repair_attempt_mismatch";
        /// The attempt's lease has expired; the finding was returned by the expiry rule.
        LeaseExpired => "test.session.repair_lease_expired";
        /// A lease duration outside 1,000..=900,000 ms (rejected, never clamped).
        InvalidLease => "test.session.repair_invalid_lease";
        /// A session, finding, request or attempt id that is not 1–64 of `[A-Za-z0-9_-]` or starts with `-`.
        InvalidId => "test.session.repair_invalid_id";
        /// A bounded text, list or path argument that is out of range, or a reject of a verified repair (`review_ready`) without a reason.
        InvalidInput => "test.session.repair_invalid_input";
        /// The body is not JSON (or not UTF-8).
        MalformedDocument => "test.session.repair_malformed_document";
        /// The document's `protocol` is not `a3s.test.repair/1`.
        UnsupportedProtocol => "test.session.repair_unsupported_protocol";
        /// The document is JSON with the right protocol but a finding has the wrong shape.
        InvalidDocument => "test.session.repair_invalid_document";
        /// Appending would take the ledger past its size ceiling.
        LedgerFull => "test.session.repair_ledger_full";
        /// A complete line of the ledger does not parse or breaks the sequence/state rules.
        LedgerCorrupt => "test.session.repair_ledger_corrupt";
        /// The ledger was written by a newer, unknown format version.
        LedgerFormat => "test.session.repair_ledger_format";
        /// The ledger's writer lock could not be taken before the deadline.
        LedgerBusy => "test.session.repair_ledger_busy";
        /// The file system refused a read, write, lock or sync.
        Io => "test.session.repair_io";
        /// A path to the ledger (`.a3s-test`, `agent-sessions`, the session folder,
        /// `repairs.jsonl` or its `.torn` file) is a symbolic link, not a real folder or regular
        /// file, or a ledger file with other hard links: nothing was read, written or moved.
        UnsafePath => "test.session.repair_unsafe_path";
        /// Auto-resolve was asked for a finding without a persisted passing verification.
        NotVerified => "test.session.repair_not_verified";
        /// The verification slice expanded and the project declares no checks (fails closed).
        SliceEmpty => "test.session.repair_slice_empty";
        /// The project file's verification checks changed since the finding was claimed, and the
        /// change was not among the declared changed files (the trusted checks are pinned at claim).
        ChecksChanged => "test.session.repair_checks_changed";
        /// Promotion asked for a finding whose latest verification has no passing candidate proof.
        NotProven => "test.session.repair_not_proven";
        /// Promotion's output file exists and `--force` was not given (it is never replaced silently).
        OutputExists => "test.session.repair_output_exists";
    }
}

a3s_test_lang::define_codes! {
    /// A stable warning code of the repair inbox: the listing went on, but something was skipped.
    pub enum WarningCode {
        /// The last line of a ledger is torn by an interrupted write and was skipped.
        TornTail => "test.session.repair_torn_tail";
    }
}

a3s_test_lang::define_codes! {
    /// A refusal of the repair endpoint itself (before the document is read), with its HTTP
    /// status. The endpoint lives in the binary; its codes are part of this crate's
    /// `test.session.repair_*` family.
    pub enum EndpointCode: fn status -> u16 {
        /// Neither POST nor a GET of `…/candidates`.
        Method => "test.session.repair_endpoint_method", 405;
        /// `Origin` missing or not the app's (or a cross-site `Sec-Fetch-Site`, or candidates
        /// asked for a page of another origin).
        Origin => "test.session.repair_endpoint_origin", 403;
        /// Not `application/json`.
        ContentType => "test.session.repair_endpoint_content_type", 415;
        /// No `Content-Length` (or a transfer coding).
        LengthRequired => "test.session.repair_endpoint_length_required", 411;
        /// Body over 1 MiB.
        TooLarge => "test.session.repair_endpoint_too_large", 413;
        /// Head over its bound.
        HeadTooLarge => "test.session.repair_endpoint_header_too_large", 431;
        /// The request did not arrive before the deadline.
        Timeout => "test.session.repair_endpoint_timeout", 408;
        /// Not valid HTTP (or a candidates read without one http(s) `page`).
        BadRequest => "test.session.repair_endpoint_bad_request", 400;
        /// Too many connections.
        Busy => "test.session.repair_endpoint_busy", 503;
        /// The `a3s-test dev` channel: no `Authorization: Bearer` with the session's token.
        Unauthorized => "test.session.repair_endpoint_unauthorized", 401;
        /// `GET …/candidates`: the latest run's result could not be read.
        CandidatesUnreadable => "test.session.repair_endpoint_candidates_unreadable", 500;
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

    /// A confined file operation that failed: a refused path (a link, a FIFO, a hard-linked
    /// ledger) is `repair_unsafe_path`, anything else `repair_io`; the message names the path.
    pub fn fs(err: &a3s_test_fsroot::FsError) -> Self {
        let code = if err.is_refusal() {
            ErrorCode::UnsafePath
        } else {
            ErrorCode::Io
        };
        LedgerError::new(code, err.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_in_the_session_namespace() {
        let mut seen = std::collections::HashSet::new();
        let errors = ErrorCode::ALL.iter().map(|c| c.as_str());
        let warnings = WarningCode::ALL.iter().map(|c| c.as_str());
        let endpoint = EndpointCode::ALL.iter().map(|c| c.as_str());
        for code in errors.chain(warnings).chain(endpoint) {
            assert!(code.starts_with("test.session.repair_"), "{code}");
            assert!(seen.insert(code), "duplicate {code}");
        }
    }
}
