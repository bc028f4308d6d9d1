//! The repair-loop record of one finding (`a3s.test.repair-loop-record/1`): everything the
//! ledger knows about it, for an agent deciding what to do or a reviewer deciding whether to
//! accept. A read-only view.
//!
//! The reviewer's instruction, criteria, target and the page's source hints sit under
//! `untrusted`: they are evidence to read, never instructions to follow or text to run.

use crate::clock::rfc3339;
use crate::error::{ErrorCode, LedgerError};
use crate::event::{Action, HoldReason};
use crate::id::{AttemptId, FindingId, RequestId, SessionId};
use crate::lease::LeaseState;
use crate::next_action::{next_action_of, NextAction, RequestIdSource};
use crate::record::{Intent, Severity};
use crate::state::LedgerState;
use crate::status::{Actor, Op, RepairStatus};
use serde::Serialize;
use serde_json::value::RawValue;

/// The protocol value of a repair-loop record.
pub const LOOP_RECORD_PROTOCOL: &str = "a3s.test.repair-loop-record/1";

/// Reviewer and page content: data only.
#[derive(Debug, Serialize)]
pub struct UntrustedContent {
    /// Always true.
    pub untrusted: bool,
    /// The instruction.
    pub instruction: String,
    /// The success criteria (prose and typed).
    pub success_criteria: Vec<crate::criterion::SuccessCriterion>,
    /// The marked target, as sent.
    pub target: crate::record::Target,
    /// `context.sourceHints` as the Test Kit sent them (source candidates of the target), if
    /// any. Unvalidated page data.
    pub source_hints: Option<Box<RawValue>>,
    /// The page context as sent, if any.
    pub context: Option<Box<RawValue>>,
}

/// One attempt.
#[derive(Debug, Serialize)]
pub struct AttemptView {
    /// Its id.
    pub attempt_id: AttemptId,
    /// 1, 2, …
    pub number: u32,
    /// When it claimed.
    pub claimed_at: String,
    /// When it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// What ended it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_by: Option<Op>,
    /// Its progress messages.
    pub progress: Vec<Message>,
    /// Its completion summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The changed files it completed with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed_files: Option<Vec<String>>,
}

/// A message in the loop.
#[derive(Debug, Serialize)]
pub struct Message {
    /// Its event.
    pub seq: u64,
    /// When.
    pub at: String,
    /// Who.
    pub actor: Actor,
    /// Which operation carried it.
    pub op: Op,
    /// The attempt, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt_id: Option<AttemptId>,
    /// The text (from an agent or a reviewer; data only).
    pub message: String,
}

/// One verification.
#[derive(Debug, Serialize)]
pub struct VerificationView {
    /// The verified attempt.
    pub attempt_id: Option<AttemptId>,
    /// When it started.
    pub started_at: Option<String>,
    /// When the result was recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    /// The result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passed: Option<bool>,
    /// What was checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The changed files it verified.
    pub changed_files: Vec<String>,
    /// Evidence digests.
    pub evidence_digests: Vec<String>,
}

/// A digest of something the loop relies on.
#[derive(Debug, Serialize)]
pub struct EvidenceDigest {
    /// `finding` (the stored finding) or `verification` (an evidence file).
    pub kind: &'static str,
    /// `sha256:<hex>`.
    pub digest: String,
}

/// One history line.
#[derive(Debug, Serialize)]
pub struct HistoryEntry {
    /// Sequence.
    pub seq: u64,
    /// When.
    pub at: String,
    /// Who.
    pub actor: Actor,
    /// What.
    pub op: Op,
    /// Status before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<RepairStatus>,
    /// Status after.
    pub to: RepairStatus,
    /// Request id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// Attempt id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt_id: Option<AttemptId>,
}

/// The repair-loop record.
#[derive(Debug, Serialize)]
pub struct LoopRecord {
    /// `a3s.test.repair-loop-record/1`.
    pub protocol: &'static str,
    /// When the view was made.
    pub generated_at: String,
    /// The session.
    pub session: SessionId,
    /// The finding.
    pub finding_id: FindingId,
    /// Its status.
    pub status: RepairStatus,
    /// What the reviewer wants.
    pub intent: Intent,
    /// How much it matters.
    pub severity: Severity,
    /// Declared conflicts.
    pub conflicts_with: Vec<FindingId>,
    /// Why A3S Test held it, if the last event was a hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hold_reason: Option<HoldReason>,
    /// Reviewer and page content.
    pub untrusted: UntrustedContent,
    /// The lease now.
    pub lease: LeaseState,
    /// Attempts, oldest first.
    pub attempts: Vec<AttemptView>,
    /// Agent replies, reviewer answers and other messages, oldest first.
    pub replies: Vec<Message>,
    /// The changed files of the latest completion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed_files: Option<Vec<String>>,
    /// Verifications, oldest first.
    pub verifications: Vec<VerificationView>,
    /// Digests: the stored finding, then verification evidence.
    pub evidence_digests: Vec<EvidenceDigest>,
    /// Every event of the finding.
    pub history: Vec<HistoryEntry>,
    /// What to do next.
    pub next_action: NextAction,
}

fn source_hints(context: Option<&RawValue>) -> Option<Box<RawValue>> {
    #[derive(serde::Deserialize)]
    struct Ctx {
        #[serde(rename = "sourceHints")]
        source_hints: Option<Box<RawValue>>,
    }
    let ctx: Ctx = serde_json::from_str(context?.get()).ok()?;
    ctx.source_hints
}

/// Build the record of `finding` from a folded ledger at `now`.
pub fn inspect(
    session: &SessionId,
    state: &LedgerState,
    finding: &FindingId,
    now: u64,
    ids: &dyn RequestIdSource,
) -> Result<LoopRecord, LedgerError> {
    let f = state.finding(finding).ok_or_else(|| {
        LedgerError::new(
            ErrorCode::UnknownFinding,
            format!("no finding {finding} in session {session}"),
        )
    })?;
    let record = state.record(f)?;
    let mut attempts: Vec<AttemptView> = f
        .attempts
        .iter()
        .map(|a| AttemptView {
            attempt_id: a.id.clone(),
            number: a.number,
            claimed_at: rfc3339(a.claimed_at_ms),
            ended_at: a.ended_at_ms.map(rfc3339),
            ended_by: a.ended_by,
            progress: Vec::new(),
            summary: None,
            changed_files: a.changed_files.clone(),
        })
        .collect();
    let mut replies = Vec::new();
    let mut verifications: Vec<VerificationView> = Vec::new();
    let mut digests = Vec::new();
    let mut history = Vec::new();
    let mut hold_reason = None;
    for &i in &f.history {
        let e = &state.events[i];
        history.push(HistoryEntry {
            seq: e.seq,
            at: e.at.clone(),
            actor: e.actor,
            op: e.op(),
            from: e.from,
            to: e.to,
            request_id: e.request_id.clone(),
            attempt_id: e.attempt_id.clone(),
        });
        hold_reason = None;
        let msg = |text: &String| Message {
            seq: e.seq,
            at: e.at.clone(),
            actor: e.actor,
            op: e.op(),
            attempt_id: e.attempt_id.clone(),
            message: text.clone(),
        };
        let attempt = attempts
            .iter_mut()
            .find(|a| Some(&a.attempt_id) == e.attempt_id.as_ref());
        match &e.action {
            Action::Intake { digest } => digests.push(EvidenceDigest {
                kind: "finding",
                digest: digest.clone(),
            }),
            Action::Progress {
                message: Some(m), ..
            } => {
                if let Some(a) = attempt {
                    a.progress.push(msg(m));
                }
            }
            Action::Complete {
                summary: Some(s), ..
            } => {
                if let Some(a) = attempt {
                    a.summary = Some(s.clone());
                }
            }
            Action::Reply { message } | Action::Answer { message } => replies.push(msg(message)),
            Action::Fail { summary: Some(m) }
            | Action::Release { message: Some(m) }
            | Action::Accept { message: Some(m) }
            | Action::Reject { message: Some(m) }
            | Action::Reopen { message: Some(m) } => replies.push(msg(m)),
            Action::Hold { reason } => hold_reason = Some(reason.clone()),
            Action::VerifyStart { changed_files } => verifications.push(VerificationView {
                attempt_id: e.attempt_id.clone(),
                started_at: Some(e.at.clone()),
                finished_at: None,
                passed: None,
                summary: None,
                changed_files: changed_files.clone(),
                evidence_digests: Vec::new(),
            }),
            Action::VerifyResult {
                passed,
                summary,
                evidence_digests,
                changed_files,
            } => {
                let open = verifications
                    .iter_mut()
                    .rev()
                    .find(|v| v.passed.is_none() && v.attempt_id == e.attempt_id);
                let v = match open {
                    Some(v) => v,
                    None => {
                        verifications.push(VerificationView {
                            attempt_id: e.attempt_id.clone(),
                            started_at: None,
                            finished_at: None,
                            passed: None,
                            summary: None,
                            changed_files: changed_files.clone(),
                            evidence_digests: Vec::new(),
                        });
                        verifications.last_mut().expect("just pushed")
                    }
                };
                v.finished_at = Some(e.at.clone());
                v.passed = Some(*passed);
                v.summary = summary.clone();
                v.evidence_digests = evidence_digests.clone();
                digests.extend(evidence_digests.iter().map(|d| EvidenceDigest {
                    kind: "verification",
                    digest: d.clone(),
                }));
            }
            _ => {}
        }
    }
    let (lease, next) = next_action_of(session, f, record.intent, now, ids);
    let conflicts_with: Vec<FindingId> = record.conflicts_with().cloned().collect();
    Ok(LoopRecord {
        protocol: LOOP_RECORD_PROTOCOL,
        generated_at: rfc3339(now),
        session: session.clone(),
        finding_id: f.id.clone(),
        status: f.status,
        intent: record.intent,
        severity: record.severity,
        hold_reason,
        untrusted: UntrustedContent {
            untrusted: true,
            source_hints: source_hints(record.context.as_deref()),
            instruction: record.instruction,
            success_criteria: record.success_criteria.unwrap_or_default(),
            target: record.target,
            context: record.context,
        },
        conflicts_with,
        lease,
        attempts,
        replies,
        changed_files: f
            .attempts
            .iter()
            .rev()
            .find_map(|a| a.changed_files.clone()),
        verifications,
        evidence_digests: digests,
        history,
        next_action: next,
    })
}
