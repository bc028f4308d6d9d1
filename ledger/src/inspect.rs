//! The repair-loop record of one finding (`a3s.test.repair-loop-record/1`): everything the
//! ledger knows about it, for an agent deciding what to do or a reviewer deciding whether to
//! accept — the before baseline, each verification's slice, check results, evidence paths and
//! digests, the ACL candidate and its proof, the failing step, and promotions. Evidence files
//! (screenshots, Page Context snapshots, check output) are referenced by path and digest, never
//! inlined. A read-only view.
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
use crate::source::{source_mappings, SourceMapping};
use crate::state::LedgerState;
use crate::status::{Actor, Op, RepairStatus};
use crate::verification::{Baseline, EvidenceRef, VerificationRecord};
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
    /// any. Unvalidated page data. The rest of the page context is not repeated here: the record
    /// points at evidence files instead of duplicating a Page Context.
    pub source_hints: Option<Box<RawValue>>,
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
    /// The replacement target it completed with, if it declared one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
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
    /// The changed files it verified.
    pub changed_files: Vec<String>,
    /// What A3S Test found (`a3s.test.repair-verification/1`: target, criteria, error delta,
    /// evidence paths and digests, slice, check results, candidate and proof, failing step);
    /// absent while the verification runs. Evidence is referenced by path, never inlined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<VerificationRecord>,
}

/// The before baseline A3S Test captured.
#[derive(Debug, Serialize)]
pub struct BaselineView {
    /// Its event.
    pub seq: u64,
    /// When.
    pub at: String,
    /// The captured facts and evidence files.
    pub baseline: Baseline,
}

/// A reviewer's promotion of the proven candidate to a suite file.
#[derive(Debug, Serialize)]
pub struct PromotionView {
    /// Its event.
    pub seq: u64,
    /// When.
    pub at: String,
    /// The request id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// The suite file written.
    pub path: String,
    /// Digest of the bytes written.
    pub sha256: String,
}

/// A digest of something the loop relies on.
#[derive(Debug, Serialize)]
pub struct EvidenceDigest {
    /// `finding` (the stored finding), `baseline` (before evidence), `verification` (after
    /// evidence and check output) or `candidate` (the ACL candidate).
    pub kind: &'static str,
    /// `sha256:<hex>`.
    pub digest: String,
    /// The file, relative to the session folder (absent for the stored finding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl EvidenceDigest {
    fn of(kind: &'static str, e: &EvidenceRef) -> Self {
        EvidenceDigest {
            kind,
            digest: e.sha256.clone(),
            path: Some(e.path.clone()),
        }
    }
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
    /// Who sent it (the intake event's actor): `human` or `page_script` (see the inbox item).
    pub sent_by: Actor,
    /// Declared conflicts.
    pub conflicts_with: Vec<FindingId>,
    /// Why A3S Test held it, if the last event was a hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hold_reason: Option<HoldReason>,
    /// Reviewer and page content.
    pub untrusted: UntrustedContent,
    /// The source mappings of `untrusted.source_hints` that passed validation (plain
    /// workspace-relative files, known origin and relation, confidence in 0..=1).
    pub source_mappings: Vec<SourceMapping>,
    /// The before baseline, when the finding entered from a live page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineView>,
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
    /// Promotions of a proven candidate, oldest first.
    pub promotions: Vec<PromotionView>,
    /// Digests in event order: the stored finding, baseline evidence, then each verification's
    /// evidence, check output and candidate.
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
            replacement: a.replacement.clone(),
        })
        .collect();
    let mut replies = Vec::new();
    let mut verifications: Vec<VerificationView> = Vec::new();
    let mut digests = Vec::new();
    let mut history = Vec::new();
    let mut hold_reason = None;
    let mut baseline = None;
    let mut promotions = Vec::new();
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
                path: None,
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
            Action::VerifyStart { changed_files, .. } => verifications.push(VerificationView {
                attempt_id: e.attempt_id.clone(),
                started_at: Some(e.at.clone()),
                finished_at: None,
                passed: None,
                changed_files: changed_files.clone(),
                record: None,
            }),
            Action::VerifyResult {
                record,
                changed_files,
                ..
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
                            changed_files: changed_files.clone(),
                            record: None,
                        });
                        verifications.last_mut().expect("just pushed")
                    }
                };
                v.finished_at = Some(e.at.clone());
                v.passed = Some(record.passed);
                digests.extend(
                    record
                        .page
                        .evidence
                        .iter()
                        .chain(
                            record
                                .checks
                                .iter()
                                .flat_map(|c| c.stdout.iter().chain(&c.stderr)),
                        )
                        .map(|r| EvidenceDigest::of("verification", r)),
                );
                if let Some(c) = &record.candidate {
                    digests.push(EvidenceDigest {
                        kind: "candidate",
                        digest: c.sha256.clone(),
                        path: Some(c.path.clone()),
                    });
                }
                v.record = Some((**record).clone());
            }
            Action::Baseline { baseline: b } if baseline.is_none() => {
                digests.extend(b.evidence.iter().map(|r| EvidenceDigest::of("baseline", r)));
                baseline = Some(BaselineView {
                    seq: e.seq,
                    at: e.at.clone(),
                    baseline: (**b).clone(),
                });
            }
            Action::Promote { path, sha256 } => promotions.push(PromotionView {
                seq: e.seq,
                at: e.at.clone(),
                request_id: e.request_id.clone(),
                path: path.clone(),
                sha256: sha256.clone(),
            }),
            _ => {}
        }
    }
    let (lease, next) = next_action_of(session, state, f, record.intent, now, ids);
    let source_mappings = source_mappings(record.context.as_deref());
    let conflicts_with: Vec<FindingId> = record.conflicts_with().cloned().collect();
    Ok(LoopRecord {
        protocol: LOOP_RECORD_PROTOCOL,
        generated_at: rfc3339(now),
        session: session.clone(),
        finding_id: f.id.clone(),
        status: f.status,
        intent: record.intent,
        severity: record.severity,
        sent_by: state.events[f.intake].actor,
        hold_reason,
        untrusted: UntrustedContent {
            untrusted: true,
            source_hints: source_hints(record.context.as_deref()),
            instruction: record.instruction,
            success_criteria: record.success_criteria.unwrap_or_default(),
            target: record.target,
        },
        conflicts_with,
        source_mappings,
        baseline,
        lease,
        attempts,
        replies,
        changed_files: f
            .attempts
            .iter()
            .rev()
            .find_map(|a| a.changed_files.clone()),
        verifications,
        promotions,
        evidence_digests: digests,
        history,
        next_action: next,
    })
}
