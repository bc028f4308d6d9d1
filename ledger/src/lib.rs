//! `a3s-test-ledger`: the repair ledger — the only source of truth of the review → repair →
//! verify loop.
//!
//! A reviewer's sent finding is a promise: it must not be lost, duplicated or silently handed to
//! a second worker. The ledger keeps it in an append-only `repairs.jsonl` per agent session
//! (`store`), checks every change against one transition table (`status`), fences work with
//! leases and attempt ids (`lease`), makes requests idempotent by request id (`ledger`), and
//! offers read-only views for agents and reviewers (`inbox`, `inspect`). Intake of hostile
//! documents is validated in `intake`.
//!
//! The crate has no CLI and starts no browser: the `a3s-test` binary and its MCP server call it.

pub mod actions;
pub mod clock;
pub mod conflict;
pub mod criterion;
pub mod error;
pub mod event;
pub mod id;
pub mod inbox;
pub mod inspect;
pub mod intake;
pub mod layout;
pub mod lease;
pub mod ledger;
pub mod next_action;
pub mod record;
pub mod slice;
pub mod source;
pub mod state;
pub mod status;
pub mod store;
pub mod validate;
pub mod verdict;
pub mod verification;

pub use actions::{ActionAnswer, ActionOutcome, ActionsResponse, HumanAction, HumanActionKind};
pub use clock::{Clock, ManualClock, SystemClock};
pub use criterion::{SuccessCriterion, TargetState, TypedCriterion};
pub use error::{EndpointCode, ErrorCode, LedgerError, WarningCode};
pub use event::{Action, AutoResolveReason, Event, HoldReason, Lease, PinnedChecks, LEDGER_FORMAT};
pub use id::{AttemptId, BatchId, FindingId, IdError, RequestId, SessionId, ID_PATTERN};
pub use inbox::{build_inbox, read_sessions, Inbox, InboxGroup, InboxOptions};
pub use inspect::{inspect, LoopRecord};
pub use intake::{parse_document, parse_submission, Submission};
pub use ledger::{session_dir, sessions_dir, Applied, IntakeReport, Ledger, Request, LEDGER_FILE};
pub use next_action::{NextAction, NextActionKind, RandomRequestIds, RequestIdSource};
pub use record::{Finding, Intent, Relation, SentBy, Severity, REPAIR_PROTOCOL};
pub use slice::{plan_slice, SliceError};
pub use source::source_files;
pub use state::{FindingState, LedgerState};
pub use status::{Actor, Op, RepairStatus};
pub use store::StoreLimits;
pub use verification::{
    Baseline, CandidateRecord, CheckMode, CheckOutcome, CheckResult, CriterionOutcome, ErrorDelta,
    EvidenceKind, EvidenceRef, ExpansionReason, LocatorKind, PageResult, PinnedChecksChange, Proof,
    Scope, SliceDecision, SliceInput, TargetResolution, VerificationFailure, VerificationRecord,
    VerifyStep, SLICE_PROTOCOL, VERIFICATION_PROTOCOL,
};
