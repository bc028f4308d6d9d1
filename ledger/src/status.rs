//! The repair state machine: the 13 statuses, the four actors, the operations and the one
//! transition table every write is checked against.
//!
//! The table is the whole state machine of `docs/repair.md` ("States") plus self-loops that
//! record work or evidence without changing status (`progress` while repairing, `verify_start`
//! while verifying, `baseline` before a finding is finished, `promote` after a passed
//! verification). Nothing else in the crate decides whether a status may change.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a finding is in the repair loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairStatus {
    /// Saved in the page, not sent. Never enters the ledger: sending is what queues it.
    Draft,
    /// Sent by a reviewer; waiting for an agent to claim it.
    Queued,
    /// Leased by an agent attempt; no edit reported yet.
    Claimed,
    /// The agent reported progress: edits may have begun.
    Repairing,
    /// The agent completed its edits; A3S Test verifies on a newer page revision.
    Verifying,
    /// Verification passed; waiting for the reviewer.
    ReviewReady,
    /// The reviewer accepted the repair (terminal).
    Resolved,
    /// The reviewer withdrew the finding before it was repaired (terminal).
    Cancelled,
    /// Blocked on a person: a question, a conflict or an expired lease after edits.
    NeedsInput,
    /// The repair could not be done (terminal).
    Failed,
    /// Verification ran and did not pass.
    VerificationFailed,
    /// The reviewer reopened a finished finding.
    Reopened,
    /// The reviewer dismissed a repair awaiting review (terminal).
    Dismissed,
}

impl RepairStatus {
    /// All 13 statuses (the overlay shows exactly these).
    pub const ALL: [RepairStatus; 13] = [
        RepairStatus::Draft,
        RepairStatus::Queued,
        RepairStatus::Claimed,
        RepairStatus::Repairing,
        RepairStatus::Verifying,
        RepairStatus::ReviewReady,
        RepairStatus::Resolved,
        RepairStatus::Cancelled,
        RepairStatus::NeedsInput,
        RepairStatus::Failed,
        RepairStatus::VerificationFailed,
        RepairStatus::Reopened,
        RepairStatus::Dismissed,
    ];

    /// The snake_case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            RepairStatus::Draft => "draft",
            RepairStatus::Queued => "queued",
            RepairStatus::Claimed => "claimed",
            RepairStatus::Repairing => "repairing",
            RepairStatus::Verifying => "verifying",
            RepairStatus::ReviewReady => "review_ready",
            RepairStatus::Resolved => "resolved",
            RepairStatus::Cancelled => "cancelled",
            RepairStatus::NeedsInput => "needs_input",
            RepairStatus::Failed => "failed",
            RepairStatus::VerificationFailed => "verification_failed",
            RepairStatus::Reopened => "reopened",
            RepairStatus::Dismissed => "dismissed",
        }
    }

    /// Terminal statuses: only `reopen` leaves them.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            RepairStatus::Resolved
                | RepairStatus::Dismissed
                | RepairStatus::Cancelled
                | RepairStatus::Failed
        )
    }

    /// Statuses that hold an attempt's lease.
    pub fn holds_lease(self) -> bool {
        matches!(
            self,
            RepairStatus::Claimed | RepairStatus::Repairing | RepairStatus::Verifying
        )
    }

    /// Statuses in which edits to the working tree may have begun.
    pub fn editing_may_have_begun(self) -> bool {
        matches!(self, RepairStatus::Repairing | RepairStatus::Verifying)
    }
}

impl fmt::Display for RepairStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who caused an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Actor {
    /// A reviewer (the Review Overlay, or reviewer commands).
    Human,
    /// A coding agent holding (or asking for) a lease.
    Agent,
    /// A3S Test itself: intake checks, lease expiry, verification.
    A3sTest,
    /// Code running in the reviewed page: a finding or action the Test Kit queued without a
    /// person's trusted gesture in the Review Overlay (a page script calling `submitRepair`, the
    /// overlay API driven by script). It may only enter findings (`intake`): the page is code an
    /// agent edits, so nothing it queues may decide a review.
    #[serde(rename = "page_script")]
    PageScript,
}

impl Actor {
    /// The JSON name (`human`, `agent`, `a3s-test`, `page_script`).
    pub fn as_str(self) -> &'static str {
        match self {
            Actor::Human => "human",
            Actor::Agent => "agent",
            Actor::A3sTest => "a3s-test",
            Actor::PageScript => "page_script",
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An operation on a finding; each event records exactly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// A sent finding enters the ledger as `queued`.
    Intake,
    /// An agent takes a lease and gets an attempt id.
    Claim,
    /// The agent reports work (edits may have begun) and renews its lease.
    Progress,
    /// The agent asks the reviewer something; the finding waits for input.
    Reply,
    /// The agent ends editing with its exact changed files.
    Complete,
    /// The repair could not be done.
    Fail,
    /// The agent gives its lease back (the CLI's `repair-cancel`).
    Release,
    /// A3S Test applies the lease-expiry rule.
    Expire,
    /// A3S Test holds a finding for a declared conflict or an overlapping target.
    Hold,
    /// A3S Test starts verifying the completed attempt.
    VerifyStart,
    /// Verification passed.
    VerifyPass,
    /// Verification did not pass.
    VerifyFail,
    /// The reviewer accepts the repair.
    Accept,
    /// A3S Test resolves after a persisted passing verification (`--auto-resolve-repairs`).
    AutoResolve,
    /// The reviewer declines: dismiss a repair awaiting review, or cancel one not yet repaired.
    Reject,
    /// The reviewer reopens a finished finding.
    Reopen,
    /// The reviewer answers / re-sends; the finding is queued again.
    Answer,
    /// A3S Test records the before baseline of a finding that entered from a live page.
    Baseline,
    /// The reviewer writes the proven ACL candidate to a suite file.
    Promote,
    /// A3S Test returns a failed verification to the queue because an agent claims it to fix it.
    Requeue,
}

impl Op {
    /// The snake_case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Intake => "intake",
            Op::Claim => "claim",
            Op::Progress => "progress",
            Op::Reply => "reply",
            Op::Complete => "complete",
            Op::Fail => "fail",
            Op::Release => "release",
            Op::Expire => "expire",
            Op::Hold => "hold",
            Op::VerifyStart => "verify_start",
            Op::VerifyPass => "verify_pass",
            Op::VerifyFail => "verify_fail",
            Op::Accept => "accept",
            Op::AutoResolve => "auto_resolve",
            Op::Reject => "reject",
            Op::Reopen => "reopen",
            Op::Answer => "answer",
            Op::Baseline => "baseline",
            Op::Promote => "promote",
            Op::Requeue => "requeue",
        }
    }

    /// Whether `op` by `actor` acts on an attempt and so needs the active attempt id: every agent
    /// operation but `claim` (which creates the attempt), and the verification of an attempt.
    pub fn needs_attempt(self, actor: Actor) -> bool {
        match actor {
            Actor::Agent => self != Op::Claim,
            Actor::A3sTest => matches!(self, Op::VerifyStart | Op::VerifyPass | Op::VerifyFail),
            Actor::Human | Actor::PageScript => false,
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One allowed edge: `op` by `actor` moves a finding from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transition {
    /// The operation.
    pub op: Op,
    /// The only actor allowed to perform it on this edge.
    pub actor: Actor,
    /// The status before.
    pub from: RepairStatus,
    /// The status after.
    pub to: RepairStatus,
}

const fn t(op: Op, actor: Actor, from: RepairStatus, to: RepairStatus) -> Transition {
    Transition {
        op,
        actor,
        from,
        to,
    }
}

use Actor::{A3sTest, Agent, Human};
use RepairStatus::*;

/// The transition table: every edge any write may take. `intake` is not here (it creates a
/// finding, it has no `from`).
pub const TRANSITIONS: &[Transition] = &[
    t(Op::Claim, Agent, Queued, Claimed),
    t(Op::Progress, Agent, Claimed, Repairing),
    t(Op::Progress, Agent, Repairing, Repairing),
    t(Op::Reply, Agent, Repairing, NeedsInput),
    t(Op::Reply, Agent, Verifying, NeedsInput),
    t(Op::Complete, Agent, Repairing, Verifying),
    t(Op::Fail, Agent, Repairing, Failed),
    t(Op::Fail, Agent, Verifying, Failed),
    t(Op::Fail, A3sTest, Queued, Failed),
    t(Op::Fail, A3sTest, Repairing, Failed),
    t(Op::Fail, A3sTest, Verifying, Failed),
    t(Op::Fail, A3sTest, NeedsInput, Failed),
    t(Op::Fail, A3sTest, VerificationFailed, Failed),
    t(Op::Fail, A3sTest, Reopened, Failed),
    t(Op::Release, Agent, Claimed, Queued),
    t(Op::Release, Agent, Repairing, NeedsInput),
    t(Op::Release, Agent, Verifying, NeedsInput),
    t(Op::Expire, A3sTest, Claimed, Queued),
    t(Op::Expire, A3sTest, Repairing, NeedsInput),
    t(Op::Expire, A3sTest, Verifying, NeedsInput),
    t(Op::Hold, A3sTest, Queued, NeedsInput),
    t(Op::VerifyStart, A3sTest, Verifying, Verifying),
    t(Op::VerifyPass, A3sTest, Verifying, ReviewReady),
    t(Op::VerifyFail, A3sTest, Verifying, VerificationFailed),
    t(Op::Accept, Human, ReviewReady, Resolved),
    t(Op::AutoResolve, A3sTest, ReviewReady, Resolved),
    t(Op::Reject, Human, ReviewReady, Dismissed),
    t(Op::Reject, Human, Queued, Cancelled),
    t(Op::Reject, Human, NeedsInput, Cancelled),
    t(Op::Reject, Human, VerificationFailed, Cancelled),
    t(Op::Reject, Human, Reopened, Cancelled),
    t(Op::Reopen, Human, ReviewReady, Reopened),
    t(Op::Reopen, Human, Resolved, Reopened),
    t(Op::Reopen, Human, Dismissed, Reopened),
    t(Op::Reopen, Human, Cancelled, Reopened),
    t(Op::Reopen, Human, Failed, Reopened),
    t(Op::Answer, Human, NeedsInput, Queued),
    t(Op::Answer, Human, VerificationFailed, Queued),
    t(Op::Answer, Human, Reopened, Queued),
    // An agent claiming a failed verification to fix it: A3S Test first returns it to the queue.
    t(Op::Requeue, A3sTest, VerificationFailed, Queued),
    // Baselines record evidence only; every status a finding can be in before it is finished.
    t(Op::Baseline, A3sTest, Queued, Queued),
    t(Op::Baseline, A3sTest, Claimed, Claimed),
    t(Op::Baseline, A3sTest, Repairing, Repairing),
    t(Op::Baseline, A3sTest, Verifying, Verifying),
    t(Op::Baseline, A3sTest, ReviewReady, ReviewReady),
    t(Op::Baseline, A3sTest, NeedsInput, NeedsInput),
    t(
        Op::Baseline,
        A3sTest,
        VerificationFailed,
        VerificationFailed,
    ),
    t(Op::Baseline, A3sTest, Reopened, Reopened),
    // Promotion needs a passed verification (and a proven candidate, checked by the ledger).
    t(Op::Promote, Human, ReviewReady, ReviewReady),
    t(Op::Promote, Human, Resolved, Resolved),
];

/// Look up the edge for `op` by `actor` from `from`; `None` means the operation is invalid there.
pub fn transition(op: Op, actor: Actor, from: RepairStatus) -> Option<Transition> {
    TRANSITIONS
        .iter()
        .copied()
        .find(|e| e.op == op && e.actor == actor && e.from == from)
}

/// The statuses from which `op` by `actor` is allowed (for error messages).
pub fn allowed_from(op: Op, actor: Actor) -> Vec<RepairStatus> {
    TRANSITIONS
        .iter()
        .filter(|e| e.op == op && e.actor == actor)
        .map(|e| e.from)
        .collect()
}
