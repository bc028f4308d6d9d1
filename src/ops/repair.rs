//! The repair operations: inbox, inspect, import, and the agent and reviewer operations on one
//! finding. Every id is validated before it reaches the ledger or a generated command.
//!
//! Each verb has one parameters struct, shared by the `agent repair-*` subcommand and the MCP
//! tool; a verb can therefore never receive a field it does not take, and no refusal table is
//! needed.

mod replacement;

use super::bounded::{items_schema, present, some_items, Bounded, Text};
use super::Context;
use a3s_test_ledger::inbox::Inbox;
use a3s_test_ledger::inbox::DEFAULT_INBOX_LIMIT;
use a3s_test_ledger::inspect::LoopRecord;
use a3s_test_ledger::ledger::{Applied, IntakeReport};
use a3s_test_ledger::next_action::NextAction;
use a3s_test_ledger::validate::{MAX_REPLACEMENT_BYTES, MAX_TEXT_CHARS};
use a3s_test_ledger::{
    build_inbox, inspect, parse_document, read_sessions, Action, Actor, AttemptId, ErrorCode,
    FindingId, InboxOptions, Ledger, LedgerError, Request, RequestId, SessionId, StoreLimits,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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

/// What every operation on one finding names: the finding, its session and the caller's
/// request id.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct Target {
    /// The finding id.
    pub finding: FindingId,
    /// The agent session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// Your request id: repeating it with the same arguments is a no-op that returns the first
    /// result; reusing it for anything else is refused.
    #[arg(long)]
    pub request_id: RequestId,
}

/// What every agent operation after a claim names: the target and the active attempt.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct Attempt {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub target: Target,
    /// The active attempt id (from claim).
    #[serde(deserialize_with = "present")]
    #[arg(long)]
    #[schemars(required)]
    pub attempt_id: Option<AttemptId>,
}

/// `repair-claim` / `test_repair_claim`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct ClaimParams {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub target: Target,
    /// Lease length in ms (default 300000, max 900000).
    #[arg(long)]
    pub lease_ms: Option<Bounded<u64, 1000, 900000>>,
}

/// `repair-progress` / `test_repair_progress`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct ProgressParams {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub on: Attempt,
    /// New lease length in ms from now (default 300000, max 900000).
    #[arg(long)]
    pub lease_ms: Option<Bounded<u64, 1000, 900000>>,
    /// What you did.
    #[arg(long)]
    pub message: Option<Text<0, { MAX_TEXT_CHARS }>>,
}

/// `repair-reply` / `test_repair_reply` (the message is required), and `repair-cancel` /
/// `test_repair_cancel` (the message is optional).
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct MessageParams {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub on: Attempt,
    /// The question for the reviewer (reply), or why the lease is given back (cancel).
    #[arg(long)]
    pub message: Option<Text<0, { MAX_TEXT_CHARS }>>,
}

/// The changed files of an attempt: what `repair-complete` records and `repair-verify` must
/// repeat (same files, same order). One struct for both, so the flags, the schema bounds and the
/// "explicit empty list" rule cannot drift apart.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct ChangedFiles {
    /// The exact ordered workspace-relative changed files (may be empty; verification repeats
    /// the completion's list); on the command line one --changed-file per file, in order.
    #[arg(long = "changed-file", value_name = "FILE")]
    #[serde(deserialize_with = "some_items::<_, _, 0, 1000>")]
    #[schemars(schema_with = "items_schema::<Text<1, 1024>, 0, 1000>")]
    pub changed_files: Option<Vec<Text<1, 1024>>>,
    /// An explicit empty list of changed files.
    #[arg(long, conflicts_with = "changed_files")]
    #[serde(skip)]
    #[schemars(skip)]
    pub no_changed_files: bool,
}

impl ChangedFiles {
    /// The list, with `--no-changed-files` as the explicit empty one; `None` when neither was
    /// given (the caller refuses, in its own words).
    pub fn into_list(self) -> Option<Vec<String>> {
        if self.no_changed_files {
            Some(Vec::new())
        } else {
            self.changed_files
                .map(|files| files.into_iter().map(Into::into).collect())
        }
    }
}

/// An attempt and the files it changed: what `repair-complete` records and `repair-verify`
/// names again, flattened into both.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct Completion {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub on: Attempt,
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub changed: ChangedFiles,
}

/// `repair-complete` / `test_repair_complete`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct CompleteParams {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub done: Completion,
    /// Lease length in ms for the verification window (default 300000, max 900000).
    #[arg(long)]
    pub lease_ms: Option<Bounded<u64, 1000, 900000>>,
    /// What changed.
    #[arg(long)]
    pub summary: Option<Text<0, { MAX_TEXT_CHARS }>>,
    /// The ACL target that stands for the marked element when the repair removed or renamed it,
    /// e.g. `role("button", "Pay")` (admitted by the ACL checker; verification resolves it
    /// instead of the finding's own locators).
    #[arg(long, value_name = "ACL_TARGET")]
    pub replacement: Option<Text<1, { MAX_REPLACEMENT_BYTES }>>,
}

/// `repair-fail` / `test_repair_fail`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct FailParams {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub on: Attempt,
    /// Why it cannot be done.
    #[arg(long)]
    pub summary: Option<Text<0, { MAX_TEXT_CHARS }>>,
}

/// `repair-accept`, `repair-reject`, `repair-reopen`, `repair-answer` (reviewer commands; never
/// MCP tools).
#[derive(Clone, Debug, clap::Args)]
pub struct ReviewerParams {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub target: Target,
    /// A note for the record. Required for answer (the answer or new guidance) and for a
    /// reject of a verified repair (the reason); optional otherwise.
    #[arg(long)]
    pub message: Option<String>,
}

/// `repair-inbox` / `test_repair_inbox`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct InboxParams {
    /// Only this session (default: every session under the root; over MCP, the sessions this
    /// server started).
    #[arg(long, allow_hyphen_values = true)]
    pub session: Option<SessionId>,
    /// At most this many items (1..=100).
    #[arg(long)]
    pub limit: Option<Bounded<usize, 1, 100>>,
    /// Also list resolved, dismissed, cancelled and failed findings.
    #[arg(long)]
    #[serde(default)]
    pub include_terminal: bool,
}

/// `repair-inspect` / `test_repair_inspect`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct FindingParams {
    /// The finding id.
    pub finding: FindingId,
    /// The agent session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
}

/// One agent or reviewer operation on a finding: its target, the attempt it names and the
/// ledger action it asks for.
#[derive(Clone, Debug)]
pub struct Operation {
    /// The verb (it implies the actor).
    pub verb: Verb,
    /// The finding, session and request id.
    pub target: Target,
    /// The active attempt, for agent verbs.
    pub attempt_id: Option<AttemptId>,
    /// The ledger action.
    pub action: Action,
}

fn invalid(msg: impl Into<String>) -> LedgerError {
    LedgerError::new(ErrorCode::InvalidInput, msg)
}

fn needs_message(verb: Verb, message: Option<String>) -> Result<String, LedgerError> {
    message.ok_or_else(|| invalid(format!("{} needs a message", verb.name())))
}

impl Operation {
    fn new(verb: Verb, target: Target, attempt_id: Option<AttemptId>, action: Action) -> Self {
        Operation {
            verb,
            target,
            attempt_id,
            action,
        }
    }

    /// Claim.
    pub fn claim(p: ClaimParams) -> Self {
        // The checks are pinned when the claim is applied (`act`), where the project is known.
        let action = Action::Claim {
            lease_ms: p.lease_ms.map(Into::into),
            pinned: None,
        };
        Operation::new(Verb::Claim, p.target, None, action)
    }

    /// Progress.
    pub fn progress(p: ProgressParams) -> Self {
        let action = Action::Progress {
            message: p.message.map(Into::into),
            lease_ms: p.lease_ms.map(Into::into),
        };
        Operation::new(Verb::Progress, p.on.target, p.on.attempt_id, action)
    }

    /// Reply (a message is required).
    pub fn reply(p: MessageParams) -> Result<Self, LedgerError> {
        let action = Action::Reply {
            message: needs_message(Verb::Reply, p.message.map(Into::into))?,
        };
        Ok(Operation::new(
            Verb::Reply,
            p.on.target,
            p.on.attempt_id,
            action,
        ))
    }

    /// Cancel: give the lease back.
    pub fn cancel(p: MessageParams) -> Self {
        let action = Action::Release {
            message: p.message.map(Into::into),
        };
        Operation::new(Verb::Cancel, p.on.target, p.on.attempt_id, action)
    }

    /// Complete (the changed files are required; an explicit empty list is allowed; a declared
    /// replacement must admit as one ACL target).
    pub fn complete(p: CompleteParams) -> Result<Self, LedgerError> {
        let replacement = p
            .replacement
            .as_deref()
            .map(replacement::admit)
            .transpose()?;
        let Completion { on, changed } = p.done;
        let changed_files = changed.into_list().ok_or_else(|| {
            invalid(
                "complete needs the changed files: one --changed-file per file in order, \
                 or --no-changed-files for an explicit empty list",
            )
        })?;
        let action = Action::Complete {
            summary: p.summary.map(Into::into),
            changed_files,
            lease_ms: p.lease_ms.map(Into::into),
            replacement,
        };
        Ok(Operation::new(
            Verb::Complete,
            on.target,
            on.attempt_id,
            action,
        ))
    }

    /// Fail.
    pub fn fail(p: FailParams) -> Self {
        let action = Action::Fail {
            summary: p.summary.map(Into::into),
        };
        Operation::new(Verb::Fail, p.on.target, p.on.attempt_id, action)
    }

    /// A reviewer verb (accept, reject, reopen, answer).
    pub fn reviewer(verb: Verb, p: ReviewerParams) -> Result<Self, LedgerError> {
        let message = p.message;
        let action = match verb {
            Verb::Accept => Action::Accept { message },
            Verb::Reject => Action::Reject { message },
            Verb::Reopen => Action::Reopen { message },
            Verb::Answer => Action::Answer {
                message: needs_message(verb, message)?,
            },
            other => return Err(invalid(format!("{} is not a reviewer verb", other.name()))),
        };
        Ok(Operation::new(verb, p.target, None, action))
    }
}

/// What an operation on a finding reports.
#[derive(Debug, Serialize)]
pub struct Acted {
    /// The session.
    pub session: SessionId,
    /// The ledger's result.
    pub result: Applied,
    /// What to do next.
    pub next_action: NextAction,
}

/// What an import reports.
#[derive(Debug, Serialize)]
pub struct Imported {
    /// The intake report.
    #[serde(flatten)]
    pub report: IntakeReport,
    /// The session.
    pub session: SessionId,
}

fn ledger(ctx: &Context, session: &SessionId) -> Ledger {
    Ledger::open(&ctx.root, session, ctx.clock.clone())
}

/// Perform an operation on a finding, as the actor its verb implies.
pub fn act(ctx: &Context, op: Operation) -> Result<Acted, LedgerError> {
    let Target {
        finding,
        session,
        request_id,
    } = op.target;
    let attempt_id = op.attempt_id;
    let ledger = ledger(ctx, &session);
    let mut action = op.action;
    // A claim fixes the trusted checks verification will run: the project file as it is now,
    // before the agent edits the workspace.
    if let Action::Claim { pinned, .. } = &mut action {
        *pinned = Some(a3s_test_runner::repair::verify::inputs::read_checks(
            &ctx.root,
        )?);
    }
    let result = ledger.apply(Request {
        finding_id: finding.clone(),
        actor: op.verb.actor(),
        request_id: Some(request_id),
        attempt_id,
        action,
    })?;
    let state = ledger.read()?;
    let record = inspect(&session, &state, &finding, ctx.clock.now_ms(), &ctx.ids)?;
    Ok(Acted {
        session,
        result,
        next_action: record.next_action,
    })
}

/// The inbox of one session or all sessions (`a3s.test.repair-inbox/1`).
pub fn inbox(ctx: &Context, p: &InboxParams) -> Result<Inbox, LedgerError> {
    let session = p.session.as_deref().map(SessionId::parse).transpose()?;
    let limit = p.limit.map_or(DEFAULT_INBOX_LIMIT, Into::into);
    let options = InboxOptions::new(limit, p.include_terminal)?;
    let limits = StoreLimits::default();
    let ledgers = match (session, ctx.visible_sessions()) {
        (Some(s), _) => read_sessions(&ctx.root, Some(&s), &limits)?,
        (None, None) => read_sessions(&ctx.root, None, &limits)?,
        // A scoped front end (MCP) lists only the sessions it started, and of those only the
        // ones that have a ledger yet.
        (None, Some(owned)) => {
            let mut ledgers = Vec::new();
            for id in owned {
                let id = SessionId::parse(&id)?;
                if ledger(ctx, &id).exists()? {
                    ledgers.extend(read_sessions(&ctx.root, Some(&id), &limits)?);
                }
            }
            ledgers
        }
    };
    Ok(build_inbox(&ledgers, ctx.clock.now_ms(), options, &ctx.ids))
}

/// The repair-loop record of one finding (`a3s.test.repair-loop-record/1`).
pub fn inspect_finding(ctx: &Context, p: &FindingParams) -> Result<LoopRecord, LedgerError> {
    let state = ledger(ctx, &p.session).read()?;
    inspect(&p.session, &state, &p.finding, ctx.clock.now_ms(), &ctx.ids)
}

/// Append an `a3s.test.repair/1` document to a session's ledger (actor: the reviewer who runs
/// the command, unless a finding says page code sent it). Returns the intake report.
pub fn import(
    ctx: &Context,
    session: &SessionId,
    document: &[u8],
) -> Result<Imported, LedgerError> {
    let session = session.clone();
    let findings = parse_document(document)?;
    let report = ledger(ctx, &session).intake(findings, Actor::Human)?;
    Ok(Imported { report, session })
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
