//! The repair operations: inbox, inspect, import, and the agent and reviewer operations on one
//! finding. Every id is validated before it reaches the ledger or a generated command.

use super::Context;
use a3s_test_ledger::inbox::DEFAULT_INBOX_LIMIT;
use a3s_test_ledger::{
    build_inbox, inspect, parse_document, read_sessions, Action, Actor, AttemptId, ErrorCode,
    FindingId, InboxOptions, Ledger, LedgerError, Request, RequestId, SessionId, StoreLimits,
};
use serde::Deserialize;
use serde_json::{json, Value};

/// A repair operation on one finding, by the actor the verb implies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    /// Agent: take a lease.
    Claim,
    /// Agent: report work, renew the lease.
    Progress,
    /// Agent: ask the reviewer.
    Reply,
    /// Agent: end editing with the changed files.
    Complete,
    /// Agent: give up the repair.
    Fail,
    /// Agent: give the lease back.
    Cancel,
    /// Reviewer: accept.
    Accept,
    /// Reviewer: decline (dismiss or cancel).
    Reject,
    /// Reviewer: reopen.
    Reopen,
    /// Reviewer: answer and re-queue.
    Answer,
}

impl Verb {
    /// The actor that performs this verb.
    pub fn actor(self) -> Actor {
        match self {
            Verb::Claim
            | Verb::Progress
            | Verb::Reply
            | Verb::Complete
            | Verb::Fail
            | Verb::Cancel => Actor::Agent,
            Verb::Accept | Verb::Reject | Verb::Reopen | Verb::Answer => Actor::Human,
        }
    }

    /// The verb's name (as in `repair-<name>` and `test_repair_<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Verb::Claim => "claim",
            Verb::Progress => "progress",
            Verb::Reply => "reply",
            Verb::Complete => "complete",
            Verb::Fail => "fail",
            Verb::Cancel => "cancel",
            Verb::Accept => "accept",
            Verb::Reject => "reject",
            Verb::Reopen => "reopen",
            Verb::Answer => "answer",
        }
    }
}

/// Parameters of an operation on one finding (the union over verbs; each verb refuses the
/// fields it does not take).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpParams {
    /// The session.
    pub session: String,
    /// The finding.
    pub finding: String,
    /// The caller's request id.
    pub request_id: String,
    /// The active attempt id.
    #[serde(default)]
    pub attempt_id: Option<String>,
    /// Lease length in ms (claim, progress, complete).
    #[serde(default)]
    pub lease_ms: Option<u64>,
    /// A summary (complete, fail).
    #[serde(default)]
    pub summary: Option<String>,
    /// A message (progress, reply, cancel, accept, reject, reopen, answer).
    #[serde(default)]
    pub message: Option<String>,
    /// The exact ordered changed files (complete; required there, may be empty).
    #[serde(default)]
    pub changed_files: Option<Vec<String>>,
}

fn invalid(msg: impl Into<String>) -> LedgerError {
    LedgerError::new(ErrorCode::InvalidInput, msg)
}

fn refuse(verb: Verb, field: &str, present: bool) -> Result<(), LedgerError> {
    if present {
        return Err(invalid(format!("{} takes no {field}", verb.name())));
    }
    Ok(())
}

/// Turn `params` into a ledger action for `verb`, refusing fields the verb does not take.
fn action(verb: Verb, p: &OpParams) -> Result<Action, LedgerError> {
    let takes_lease = matches!(verb, Verb::Claim | Verb::Progress | Verb::Complete);
    let takes_summary = matches!(verb, Verb::Complete | Verb::Fail);
    let takes_message = !matches!(verb, Verb::Claim | Verb::Complete | Verb::Fail);
    refuse(verb, "lease_ms", !takes_lease && p.lease_ms.is_some())?;
    refuse(verb, "summary", !takes_summary && p.summary.is_some())?;
    refuse(verb, "message", !takes_message && p.message.is_some())?;
    refuse(
        verb,
        "changed_files",
        verb != Verb::Complete && p.changed_files.is_some(),
    )?;
    refuse(
        verb,
        "attempt id",
        verb.actor() == Actor::Human && p.attempt_id.is_some(),
    )?;
    let message = p.message.clone();
    let required = |what: &str| {
        message
            .clone()
            .ok_or_else(|| invalid(format!("{} needs a {what}", verb.name())))
    };
    Ok(match verb {
        Verb::Claim => Action::Claim {
            lease_ms: p.lease_ms,
        },
        Verb::Progress => Action::Progress {
            message,
            lease_ms: p.lease_ms,
        },
        Verb::Reply => Action::Reply {
            message: required("message")?,
        },
        Verb::Complete => Action::Complete {
            summary: p.summary.clone(),
            changed_files: p.changed_files.clone().ok_or_else(|| {
                invalid(
                    "complete needs the changed files: one --changed-file per file in order, \
                     or --no-changed-files for an explicit empty list",
                )
            })?,
            lease_ms: p.lease_ms,
        },
        Verb::Fail => Action::Fail {
            summary: p.summary.clone(),
        },
        Verb::Cancel => Action::Release { message },
        Verb::Accept => Action::Accept { message },
        Verb::Reject => Action::Reject { message },
        Verb::Reopen => Action::Reopen { message },
        Verb::Answer => Action::Answer {
            message: required("message")?,
        },
    })
}

fn ledger(ctx: &Context, session: &SessionId) -> Ledger {
    Ledger::open(&ctx.root, session, ctx.clock.clone())
}

fn encode<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("ledger views serialize to JSON")
}

/// Perform `verb` on a finding. Returns `{session, result, next_action}`.
pub fn act(ctx: &Context, verb: Verb, p: &OpParams) -> Result<Value, LedgerError> {
    let session = SessionId::parse(&p.session)?;
    let finding = FindingId::parse(&p.finding)?;
    let request_id = RequestId::parse(&p.request_id)?;
    let attempt_id = p.attempt_id.as_deref().map(AttemptId::parse).transpose()?;
    let action = action(verb, p)?;
    let ledger = ledger(ctx, &session);
    let applied = ledger.apply(Request {
        finding_id: finding.clone(),
        actor: verb.actor(),
        request_id: Some(request_id),
        attempt_id,
        action,
    })?;
    let state = ledger.read()?;
    let record = inspect(&session, &state, &finding, ctx.clock.now_ms(), &ctx.ids)?;
    Ok(json!({
        "session": session,
        "result": encode(&applied),
        "next_action": encode(&record.next_action),
    }))
}

/// Parameters of recording a verification result (`agent repair-verify-result`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyParams {
    /// The session.
    pub session: String,
    /// The finding.
    pub finding: String,
    /// The caller's request id.
    pub request_id: String,
    /// The completed attempt being verified.
    pub attempt_id: String,
    /// Whether every check passed.
    pub passed: bool,
    /// The changed files, exactly as completed (same files, same order).
    pub changed_files: Vec<String>,
    /// What was checked.
    #[serde(default)]
    pub summary: Option<String>,
    /// Digests of evidence files (`sha256:<hex>`).
    #[serde(default)]
    pub evidence_digests: Vec<String>,
    /// `--auto-resolve-repairs`: resolve a passing result once it is persisted.
    #[serde(default)]
    pub auto_resolve: bool,
}

/// Record the result of verifying a completed attempt, as A3S Test (actor `a3s-test`). With
/// `auto_resolve`, a passing result is resolved in a second append only after the
/// `review_ready` event is on disk; a failing one never is. Returns `{session, result,
/// resolution, next_action}` (`resolution` is `null` unless the finding was auto-resolved).
pub fn verify_result(ctx: &Context, p: &VerifyParams) -> Result<Value, LedgerError> {
    let session = SessionId::parse(&p.session)?;
    let finding = FindingId::parse(&p.finding)?;
    let request_id = RequestId::parse(&p.request_id)?;
    let attempt_id = AttemptId::parse(&p.attempt_id)?;
    let ledger = ledger(ctx, &session);
    let (applied, resolution) = ledger.record_verification(
        Request {
            finding_id: finding.clone(),
            actor: Actor::A3sTest,
            request_id: Some(request_id),
            attempt_id: Some(attempt_id),
            action: Action::VerifyResult {
                passed: p.passed,
                summary: p.summary.clone(),
                changed_files: p.changed_files.clone(),
                evidence_digests: p.evidence_digests.clone(),
            },
        },
        p.auto_resolve,
    )?;
    let state = ledger.read()?;
    let record = inspect(&session, &state, &finding, ctx.clock.now_ms(), &ctx.ids)?;
    Ok(json!({
        "session": session,
        "result": encode(&applied),
        "resolution": resolution.as_ref().map(encode),
        "next_action": encode(&record.next_action),
    }))
}

/// The inbox of one session or all sessions (`a3s.test.repair-inbox/1`).
pub fn inbox(
    ctx: &Context,
    session: Option<&str>,
    limit: Option<usize>,
    include_terminal: bool,
) -> Result<Value, LedgerError> {
    let session = session.map(SessionId::parse).transpose()?;
    let options = InboxOptions::new(limit.unwrap_or(DEFAULT_INBOX_LIMIT), include_terminal)?;
    let ledgers = read_sessions(&ctx.root, session.as_ref(), &StoreLimits::default())?;
    Ok(encode(&build_inbox(
        &ledgers,
        ctx.clock.now_ms(),
        options,
        &ctx.ids,
    )))
}

/// The repair-loop record of one finding (`a3s.test.repair-loop-record/1`).
pub fn inspect_finding(ctx: &Context, session: &str, finding: &str) -> Result<Value, LedgerError> {
    let session = SessionId::parse(session)?;
    let finding = FindingId::parse(finding)?;
    let state = ledger(ctx, &session).read()?;
    let record = inspect(&session, &state, &finding, ctx.clock.now_ms(), &ctx.ids)?;
    Ok(encode(&record))
}

/// Append an `a3s.test.repair/1` document to a session's ledger (actor: the reviewer who sent
/// it). Returns the intake report.
pub fn import(ctx: &Context, session: &str, document: &[u8]) -> Result<Value, LedgerError> {
    let session = SessionId::parse(session)?;
    let findings = parse_document(document)?;
    let report = ledger(ctx, &session).intake(findings, Actor::Human)?;
    let mut value = encode(&report);
    value["session"] = json!(session);
    Ok(value)
}

/// Whether an error is about the caller's input (exit code 2) rather than a refusal.
pub fn is_input_error(err: &LedgerError) -> bool {
    matches!(
        err.code,
        ErrorCode::InvalidId
            | ErrorCode::InvalidInput
            | ErrorCode::InvalidLease
            | ErrorCode::MalformedDocument
            | ErrorCode::UnsupportedProtocol
            | ErrorCode::InvalidDocument
    )
}
