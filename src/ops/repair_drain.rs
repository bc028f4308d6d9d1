//! `agent repair-drain` / `test_repair_drain`: move what a person sent in the page (the Test
//! Kit's page queue) into the session's ledger, without losing or duplicating a finding.
//!
//! Order matters: peek (nothing leaves the page), validate and append, then take from the page
//! only the ids the ledger now holds. A failed append leaves the page queue as it was; a crash
//! between append and take is harmless, because the next drain finds those ids already in the
//! ledger and only takes them. Each send (`batchId`) is appended as one intake so the ledger's
//! conflict rules see the batch the reviewer sent; a finding the ledger refuses stays in the page
//! queue and is reported with its code.
//!
//! Findings that reached the ledger some other way while the session runs — posted by the
//! Review Overlay to `a3s-test repair-endpoint`, which has no browser — get their *before*
//! baseline from the drain too: every finding that entered after the session started, is still
//! waiting, was never claimed and has no baseline is captured from the live page once per drain
//! (bounded; [`late_baselines`]), so an endpoint-sent finding does not verify as one imported
//! without a page.
//!
//! The reviewer's actions queued in the page (Accept, Reply, Dismiss, Reopen — the overlay's
//! `submitRepairAction`) are drained the same way: peek, apply each to the ledger on its own with
//! the repair endpoint's per-item answers, then hand the answers back (`takeRepairActions`), so
//! exactly the actions with a final answer leave the page and one the ledger could not judge
//! (`retry`) stays queued for the next drain.
//!
//! Authority: each finding's intake and each action is recorded as who queued it in the page —
//! `human` only when the Test Kit saw a person's trusted gesture in the Review Overlay send it,
//! `page_script` otherwise (and for anything that does not say). A `page_script` action is refused:
//! page code, which an agent edits, cannot decide a review. The drain itself never creates a
//! finding or decides anything, so an agent may run it.

use super::session::turn;
use super::Context;
use a3s_test_ledger::verification::Baseline;
use a3s_test_ledger::{
    parse_document, parse_submission, Action, Actor, ErrorCode, Finding, FindingId, Ledger,
    LedgerError, RepairStatus, Request as LedgerRequest, SessionId, Submission, REPAIR_PROTOCOL,
};
use a3s_test_runner::session::page_context::repair_queue::MAX_BATCH;
use a3s_test_runner::session::protocol::{
    RepairActionsPeek, RepairActionsTake, RepairBaseline, RepairPeek, RepairTake,
};
use a3s_test_runner::session::SessionError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// At most this many peek/append/take rounds per drain (each takes up to 100 findings).
const MAX_ROUNDS: usize = 4;

/// At most this many baselines of findings that entered without the drain, per drain.
const MAX_LATE_BASELINES: usize = 20;

/// Why a drain stopped (serialized as the error it wraps).
#[derive(Debug, thiserror::Error, Serialize)]
#[serde(untagged)]
pub enum DrainError {
    /// The session (its supervisor, browser or bridge) refused or failed.
    #[error("{0:?}")]
    Session(SessionError),
    /// The ledger refused or failed; nothing further was taken from the page.
    #[error("{0}")]
    Ledger(LedgerError),
}

impl From<SessionError> for DrainError {
    fn from(e: SessionError) -> Self {
        DrainError::Session(e)
    }
}

impl From<LedgerError> for DrainError {
    fn from(e: LedgerError) -> Self {
        DrainError::Ledger(e)
    }
}

/// `repair-drain` / `test_repair_drain`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct DrainParams {
    /// The running agent session whose page queue is drained.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
}

/// A finding the ledger refused; it stays in the page queue.
#[derive(Debug, Serialize)]
pub struct Refused {
    /// The finding id as the page sent it (clipped; untrusted).
    pub finding_id: String,
    /// Why the ledger refused it.
    pub error: LedgerError,
}

/// What a drain reports.
#[derive(Debug, Default, Serialize)]
pub struct Drained {
    /// Findings that entered the ledger.
    pub accepted: Vec<FindingId>,
    /// Already in the ledger with the same content (or appended by an earlier drain).
    pub duplicates: Vec<FindingId>,
    /// Findings held for a person.
    pub held: Vec<a3s_test_ledger::ledger::Held>,
    /// Findings the ledger refused (kept in the page queue).
    pub refused: Vec<Refused>,
    /// Removed from the page queue (every id is in the ledger).
    pub taken: Vec<String>,
    /// The last peek was full: more findings may be waiting.
    pub more: bool,
    /// The before baseline of each accepted finding: recorded, or why not (the finding stays
    /// in the ledger either way; one without a baseline verifies with an expanded slice).
    pub baselines: Vec<BaselineNote>,
    /// The reviewer's actions drained from the page: the ledger's answer to each, in the repair
    /// endpoint's shape (`applied`, `duplicate`, `refused` with its error, `retry`).
    pub actions: Vec<Value>,
    /// Why the page's actions could not be read (an older Test Kit without
    /// `peekRepairActions`); the findings were drained all the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actions_unread: Option<String>,
    /// The session.
    pub session: Option<SessionId>,
}

/// Whether an accepted finding got its before baseline.
#[derive(Debug, Serialize)]
pub struct BaselineNote {
    /// The finding.
    pub finding_id: FindingId,
    /// True when the baseline is in the ledger.
    pub recorded: bool,
    /// Why it is not (a session or ledger error, as one sentence).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Record the before baseline of `finding` (just appended from the live page) as A3S Test: the
/// supervisor writes the evidence under `artifacts/repairs/<finding>/baseline/`, the ledger
/// keeps the references and digests.
pub(crate) fn record_baseline(
    ctx: &Context,
    session: &str,
    ledger: &Ledger,
    finding: &FindingId,
) -> BaselineNote {
    let request = RepairBaseline {
        finding: finding.as_str().to_owned(),
        dir: format!("artifacts/repairs/{}/baseline", finding.as_str()),
    };
    let recorded = turn(ctx, session, request)
        .map_err(|e| format!("{}: {}", e.code, e.message))
        .and_then(|baseline: Baseline| {
            ledger
                .apply(LedgerRequest {
                    finding_id: finding.clone(),
                    actor: Actor::A3sTest,
                    request_id: None,
                    attempt_id: None,
                    action: Action::Baseline {
                        baseline: Box::new(baseline),
                    },
                })
                .map_err(|e| e.to_string())
        });
    BaselineNote {
        finding_id: finding.clone(),
        recorded: recorded.is_ok(),
        error: recorded.err(),
    }
}

fn transient(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::LedgerBusy
            | ErrorCode::Io
            | ErrorCode::UnsafePath
            | ErrorCode::LedgerFull
            | ErrorCode::LedgerCorrupt
    )
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

/// One finding from the page, validated on its own.
fn parse_one(record: &Value) -> Result<Finding, LedgerError> {
    let doc = json!({ "protocol": REPAIR_PROTOCOL, "repairs": [record] });
    let bytes = serde_json::to_vec(&doc).expect("JSON values serialize");
    let mut findings = parse_document(&bytes)?;
    Ok(findings.remove(0))
}

/// Drain the page queue of `session` into its ledger. Returns the drain report.
pub fn drain(ctx: &Context, p: &DrainParams) -> Result<Drained, DrainError> {
    let session = p.session.as_str();
    let session_id = p.session.clone();
    let ledger = Ledger::open(&ctx.root, &session_id, ctx.clock.clone());
    let mut report = Drained::default();
    for _ in 0..MAX_ROUNDS {
        let request = RepairPeek {
            max: MAX_BATCH as u32,
        };
        let records = turn(ctx, session, request)?.repairs;
        report.more = records.len() >= MAX_BATCH;
        if records.is_empty() {
            break;
        }
        let before = report.accepted.len();
        let taken = round(&ledger, &records, &mut report);
        let notes: Vec<BaselineNote> = report.accepted[before..]
            .iter()
            .map(|finding| record_baseline(ctx, session, &ledger, finding))
            .collect();
        report.baselines.extend(notes);
        if !taken.ids.is_empty() {
            turn(
                ctx,
                session,
                RepairTake {
                    ids: taken.ids.clone(),
                },
            )?;
            report.taken.extend(taken.ids);
        }
        if let Some(e) = taken.stopped {
            return Err(e.into());
        }
        if !report.more || report.taken.is_empty() {
            break;
        }
    }
    let accepted = report.accepted.clone();
    let late = late_baselines(ctx, session, &ledger, |id| accepted.contains(id))?;
    report.baselines.extend(late);
    drain_actions(ctx, session, &ledger, &mut report)?;
    report.session = Some(session_id);
    Ok(report)
}

/// Apply the reviewer's queued actions (after the findings, so an action on a finding sent in the
/// same moment finds it) and hand the answers back to the page.
fn drain_actions(
    ctx: &Context,
    session: &str,
    ledger: &Ledger,
    report: &mut Drained,
) -> Result<(), DrainError> {
    for _ in 0..MAX_ROUNDS {
        let request = RepairActionsPeek {
            max: MAX_BATCH as u32,
        };
        let items = match turn(ctx, session, request) {
            Ok(batch) => batch.actions,
            Err(e) if e.code == a3s_test_runner::session::SessionCode::Capability => {
                report.actions_unread = Some(e.message);
                break;
            }
            Err(e) => return Err(e.into()),
        };
        if items.is_empty() {
            break;
        }
        let answers: Vec<Value> = items.iter().map(|item| answer(ledger, item)).collect();
        let finals = answers
            .iter()
            .filter(|a| a.get("outcome").and_then(Value::as_str) != Some("retry"))
            .count();
        report.actions.extend(answers.iter().cloned());
        turn(ctx, session, RepairActionsTake { answers })?;
        if items.len() < MAX_BATCH || finals == 0 {
            break;
        }
    }
    Ok(())
}

/// The ledger's answer to one queued action, in the endpoint's per-item shape. An action that
/// does not validate is refused with its error, echoing the page's ids so the page can match it.
fn answer(ledger: &Ledger, item: &Value) -> Value {
    let doc = json!({ "protocol": REPAIR_PROTOCOL, "actions": [item] });
    let bytes = serde_json::to_vec(&doc).expect("JSON values serialize");
    match parse_submission(&bytes) {
        Ok(Submission::Actions(actions)) => {
            let outcome = ledger.apply_human_actions(&actions).remove(0);
            serde_json::to_value(outcome).expect("outcomes serialize")
        }
        Ok(Submission::Repairs(_)) => unreachable!("an actions document reads as actions"),
        Err(error) => json!({
            "id": item.get("id"),
            "findingId": item.get("repairId"),
            "requestId": item.get("requestId"),
            "outcome": "refused",
            "error": error,
        }),
    }
}

/// Baselines for findings that entered the ledger while the session runs without passing the
/// page queue (the repair endpoint, `a3s-test dev`'s channel): never claimed, still waiting
/// (queued, or held for a person), no baseline yet, intake after the session started, and not
/// named by `skip`. At most [`MAX_LATE_BASELINES`] per call, oldest first. The one rule both the
/// drain and `a3s-test dev` use.
pub(crate) fn late_baselines(
    ctx: &Context,
    session: &str,
    ledger: &Ledger,
    skip: impl Fn(&FindingId) -> bool,
) -> Result<Vec<BaselineNote>, DrainError> {
    let (_, file) = super::session::load(ctx, session)?;
    let state = ledger.read()?;
    let due: Vec<FindingId> = state
        .findings
        .iter()
        .filter(|f| {
            f.baseline.is_none()
                && f.attempts.is_empty()
                && matches!(f.status, RepairStatus::Queued | RepairStatus::NeedsInput)
                && !skip(&f.id)
                && state
                    .events
                    .get(f.intake)
                    .is_some_and(|e| e.at_ms >= file.started_at_ms)
        })
        .take(MAX_LATE_BASELINES)
        .map(|f| f.id.clone())
        .collect();
    Ok(due
        .iter()
        .map(|finding| record_baseline(ctx, session, ledger, finding))
        .collect())
}

struct Round {
    /// Ids now in the ledger, to take from the page.
    ids: Vec<String>,
    /// A transient ledger failure that ended the round early.
    stopped: Option<LedgerError>,
}

/// Append one peeked batch: known ids are only taken, each send is one intake.
fn round(ledger: &Ledger, records: &[Value], report: &mut Drained) -> Round {
    let mut out = Round {
        ids: Vec::new(),
        stopped: None,
    };
    let state = match ledger.read() {
        Ok(s) => s,
        Err(e) => {
            out.stopped = Some(e);
            return out;
        }
    };
    // Consecutive findings of one send form one intake group.
    let mut groups: Vec<(Option<String>, Vec<Finding>)> = Vec::new();
    for record in records {
        let raw_id = record.get("id").and_then(Value::as_str).unwrap_or("");
        if let Some(known) = FindingId::parse(raw_id)
            .ok()
            .filter(|id| state.finding(id).is_some())
        {
            report.duplicates.push(known);
            out.ids.push(raw_id.to_owned());
            continue;
        }
        match parse_one(record) {
            Ok(f) => {
                let batch = f.batch_id.as_ref().map(|b| b.as_str().to_owned());
                let same_send =
                    matches!(groups.last(), Some((b, _)) if batch.is_some() && *b == batch);
                if same_send {
                    groups.last_mut().expect("a group to join").1.push(f);
                } else {
                    groups.push((batch, vec![f]));
                }
            }
            Err(error) => report.refused.push(Refused {
                finding_id: clip(raw_id),
                error,
            }),
        }
    }
    for (_, findings) in groups {
        let ids: Vec<String> = findings.iter().map(|f| f.id.as_str().to_owned()).collect();
        match ledger.intake(findings, Actor::PageScript) {
            Ok(r) => {
                report.accepted.extend(r.accepted);
                report.duplicates.extend(r.duplicates);
                report.held.extend(r.held);
                out.ids.extend(ids);
            }
            Err(e) if transient(e.code) => {
                out.stopped = Some(e);
                return out;
            }
            Err(e) => {
                for id in ids {
                    report.refused.push(Refused {
                        finding_id: id,
                        error: e.clone(),
                    });
                }
            }
        }
    }
    out
}
