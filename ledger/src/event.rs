//! One line of `repairs.jsonl`: an event with its sequence number, actor, time, request and
//! attempt ids, the status change, the requested action and the lease in force afterwards.
//!
//! Events are the only thing the ledger stores; a finding's state is the fold of its events
//! (`state.rs`). Each line carries `format` so a later reader can refuse a format it does not
//! know instead of misreading it.

use crate::error::{ErrorCode, LedgerError};
use crate::id::{AttemptId, FindingId, RequestId};
use crate::record::Finding;
use crate::status::{Actor, Op, RepairStatus};
use crate::verification::{Baseline, VerificationRecord};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The ledger line format this crate writes and reads.
pub const LEDGER_FORMAT: u32 = 1;

/// An attempt's lease on a finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    /// The attempt holding the lease.
    pub attempt_id: AttemptId,
    /// When the lease was taken or last renewed (ms since the epoch).
    pub renewed_at_ms: u64,
    /// When it expires (ms since the epoch); expired when `now >= expires_at_ms`.
    pub expires_at_ms: u64,
}

/// Why A3S Test held a queued finding for a person.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HoldReason {
    /// One of the two declared `conflicts_with` the other.
    ConflictsWith {
        /// The other finding.
        other: FindingId,
    },
    /// The two findings' targets overlap (a shared node id, or regions sharing an area), and
    /// both are open: two workers would edit one thing.
    TargetOverlap {
        /// The other finding.
        other: FindingId,
    },
    /// The two findings' source hints name the same file (and, when both name lines, line
    /// ranges that overlap), and both are open: two workers would edit one scope.
    SharedSource {
        /// The other finding.
        other: FindingId,
        /// The file both hints name (workspace-relative, validated).
        file: String,
    },
}

/// What was asked for (or, for A3S Test's own events, what it did). Stored in full so that a
/// repeated request id can be compared with the original.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A sent finding entered the ledger (the finding itself is the event's `finding`).
    Intake {
        /// sha256 of the stored finding JSON (`sha256:<hex>`).
        digest: String,
    },
    /// Take a lease.
    Claim {
        /// Requested lease length; `None` = the default.
        lease_ms: Option<u64>,
        /// The trusted checks as the project file had them when the finding was claimed: what
        /// verification runs, whatever the workspace holds by then (the agent edits it). Absent
        /// in ledgers written before checks were pinned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pinned: Option<PinnedChecks>,
    },
    /// Report work; renews the lease.
    Progress {
        /// What the agent did (≤ 8,192 characters).
        message: Option<String>,
        /// Requested lease length; `None` = the default.
        lease_ms: Option<u64>,
    },
    /// Ask the reviewer.
    Reply {
        /// The question or note (≤ 8,192 characters).
        message: String,
    },
    /// End editing.
    Complete {
        /// What changed, in the agent's words.
        summary: Option<String>,
        /// The exact ordered list of changed files (may be empty).
        changed_files: Vec<String>,
        /// Lease length for the verification window; `None` = the default.
        lease_ms: Option<u64>,
        /// The ACL target that stands for the original one when the repair removed or renamed
        /// it, as `lang` admitted and printed it (verification step 2 resolves it alone).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replacement: Option<String>,
    },
    /// Give up on the repair.
    Fail {
        /// Why.
        summary: Option<String>,
    },
    /// Give the lease back.
    Release {
        /// Why.
        message: Option<String>,
    },
    /// The lease of the event's attempt expired at `expired_at_ms`.
    Expire {
        /// The lease's expiry.
        expired_at_ms: u64,
    },
    /// Held for a person.
    Hold {
        /// Why.
        reason: HoldReason,
    },
    /// Start verifying; must repeat `complete`'s changed files.
    VerifyStart {
        /// The changed files, exactly as completed.
        changed_files: Vec<String>,
        /// How long the verification may take: its lease, renewed from now. A3S Test sets it
        /// to cover every step it may run, so a long project check cannot let the lease lapse
        /// (and the verdict be refused) while it runs. Absent: the default lease.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lease_ms: Option<u64>,
    },
    /// The verification's result: the full record A3S Test gathered (its `passed` is the
    /// verdict); must repeat `complete`'s changed files. Only A3S Test records it.
    VerifyResult {
        /// What the verification found, step by step.
        record: Box<VerificationRecord>,
        /// The changed files, exactly as completed.
        changed_files: Vec<String>,
        /// Who asked to resolve a passing result without a reviewer, if anyone did: part of
        /// the request, so a replay of its request id that asks otherwise is a conflict.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        auto_resolve: Option<AutoResolveReason>,
    },
    /// The *before* evidence A3S Test captured when the finding entered from a live page. No
    /// status change; the first one wins (a later one is a no-op).
    Baseline {
        /// The captured evidence.
        baseline: Box<Baseline>,
    },
    /// A3S Test returned a failed verification to the queue for the agent claiming it (the
    /// claim follows in the same append).
    Requeue {},
    /// A reviewer wrote the latest proven ACL candidate to a suite file. No status change.
    Promote {
        /// The suite file written (as the reviewer named it).
        path: String,
        /// `sha256:<hex>` of the bytes written: the proven candidate's digest.
        sha256: String,
    },
    /// Accept the repair.
    Accept {
        /// A note.
        message: Option<String>,
    },
    /// Resolve after a persisted passing verification.
    AutoResolve {},
    /// Decline (dismiss or cancel).
    Reject {
        /// Why.
        message: Option<String>,
    },
    /// Reopen.
    Reopen {
        /// Why.
        message: Option<String>,
    },
    /// Answer the agent / re-send; queues the finding again.
    Answer {
        /// The answer or new guidance.
        message: String,
    },
}

/// Why a passing verification may be resolved without a reviewer: only a person's decision,
/// made outside any agent-facing tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoResolveReason {
    /// `repair-verify --auto-resolve-repairs` on the command line.
    CommandLine,
}

/// The verification checks of the project file, fixed when a finding is claimed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedChecks {
    /// `sha256:<hex>` of `.a3s-test/project.acl` as it was read; `None` when there was none.
    pub project_sha256: Option<String>,
    /// Its `verification` checks, in source order.
    pub checks: Vec<a3s_test_lang::ir::VerificationCheck>,
}

impl Action {
    /// The operation this action performs (the transition table's key).
    pub fn op(&self) -> Op {
        match self {
            Action::Intake { .. } => Op::Intake,
            Action::Claim { .. } => Op::Claim,
            Action::Progress { .. } => Op::Progress,
            Action::Reply { .. } => Op::Reply,
            Action::Complete { .. } => Op::Complete,
            Action::Fail { .. } => Op::Fail,
            Action::Release { .. } => Op::Release,
            Action::Expire { .. } => Op::Expire,
            Action::Hold { .. } => Op::Hold,
            Action::VerifyStart { .. } => Op::VerifyStart,
            Action::VerifyResult { record, .. } if record.passed => Op::VerifyPass,
            Action::VerifyResult { .. } => Op::VerifyFail,
            Action::Baseline { .. } => Op::Baseline,
            Action::Promote { .. } => Op::Promote,
            Action::Requeue {} => Op::Requeue,
            Action::Accept { .. } => Op::Accept,
            Action::AutoResolve {} => Op::AutoResolve,
            Action::Reject { .. } => Op::Reject,
            Action::Reopen { .. } => Op::Reopen,
            Action::Answer { .. } => Op::Answer,
        }
    }
}

/// One ledger line.
#[derive(Debug, Serialize, Deserialize)]
pub struct Event {
    /// The line format (`LEDGER_FORMAT`).
    pub format: u32,
    /// 1, 2, 3, … with no gap within one ledger file.
    pub seq: u64,
    /// RFC 3339 UTC time of the event.
    pub at: String,
    /// The same time in ms since the epoch (what lease arithmetic uses).
    pub at_ms: u64,
    /// Who caused it.
    pub actor: Actor,
    /// The finding it is about.
    pub finding_id: FindingId,
    /// The caller's request id (absent for intake and A3S Test's own events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// The attempt the event belongs to (the new one for `claim`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt_id: Option<AttemptId>,
    /// Status before (absent for intake).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<RepairStatus>,
    /// Status after.
    pub to: RepairStatus,
    /// What was asked for.
    pub action: Action,
    /// The lease in force after this event (absent = no lease).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease: Option<Lease>,
    /// The finding, on intake events only. Kept as raw JSON and parsed on demand
    /// (`Event::record`): views that rank thousands of findings need only a few of them.
    /// Always the last field of a line (see `store::parse_ledger_for_view`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finding: Option<RawFinding>,
}

/// The JSON text of a stored finding. Parsing a ledger for a view may leave it unchecked
/// (`store::parse_ledger_for_view`) and share the file's buffer instead of copying it;
/// `Event::record` checks it when it is used, and every writer reads the ledger with full checks.
#[derive(Clone, Debug)]
pub struct RawFinding(RawBytes);

#[derive(Clone, Debug)]
enum RawBytes {
    Owned(Box<[u8]>),
    Shared(std::sync::Arc<[u8]>, std::ops::Range<usize>),
}

impl RawFinding {
    /// Encode `finding`.
    pub fn new(finding: &Finding) -> Result<Self, LedgerError> {
        serde_json::to_vec(finding)
            .map(|v| RawFinding(RawBytes::Owned(v.into_boxed_slice())))
            .map_err(|e| {
                LedgerError::new(ErrorCode::Io, format!("failed to encode a finding: {e}"))
            })
    }

    /// Refer to `range` of a shared ledger buffer without checking it.
    pub(crate) fn shared(buffer: &std::sync::Arc<[u8]>, range: std::ops::Range<usize>) -> Self {
        RawFinding(RawBytes::Shared(buffer.clone(), range))
    }

    /// The JSON bytes (unchecked until parsed).
    pub fn bytes(&self) -> &[u8] {
        match &self.0 {
            RawBytes::Owned(b) => b,
            RawBytes::Shared(buf, range) => &buf[range.clone()],
        }
    }
}

impl Serialize for RawFinding {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = std::str::from_utf8(self.bytes()).map_err(serde::ser::Error::custom)?;
        let raw = RawValue::from_string(text.to_owned()).map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for RawFinding {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        Ok(RawFinding(RawBytes::Owned(raw.get().as_bytes().into())))
    }
}

impl Event {
    /// The operation of this event.
    pub fn op(&self) -> Op {
        self.action.op()
    }

    /// Parse the finding of an intake event; it must carry the event's finding id.
    pub fn record(&self) -> Result<Finding, LedgerError> {
        let corrupt = |msg: String| {
            LedgerError::new(
                ErrorCode::LedgerCorrupt,
                format!("event {}: {msg}", self.seq),
            )
        };
        let raw = self
            .finding
            .as_ref()
            .ok_or_else(|| corrupt("not an intake event".into()))?;
        let finding: Finding = serde_json::from_slice(raw.bytes())
            .map_err(|e| corrupt(format!("bad finding: {e}")))?;
        if finding.id != self.finding_id {
            return Err(corrupt("the finding's id is not the event's".into()));
        }
        Ok(finding)
    }
}
