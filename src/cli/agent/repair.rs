//! `a3s-test agent repair-*`: the repair inbox and record views, the agent operations (claim,
//! progress, reply, complete, fail, cancel), the reviewer operations (accept, reject, reopen,
//! answer), import, and recording a verification result (`repair-verify-result`, with
//! `--auto-resolve-repairs`). All of them call `crate::ops::repair`, as the MCP tools do.
//!
//! `repair-verify-result` is deliberately not an MCP tool: it records A3S Test's verdict on a
//! completed attempt, and the coding agent that made the repair must not certify it (browser
//! verification, a later part, will call the same operation itself).

use super::render::{self, s};
use crate::ops::repair::{self as ops, OpParams, Verb};
use crate::ops::repair_drain::DrainError;
use crate::ops::Context;
use a3s_test_ledger::{ErrorCode, LedgerError};
use clap::{Args, Subcommand};
use serde_json::Value;
use std::fmt::Write as _;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// The repair commands.
#[derive(Debug, Subcommand)]
pub enum RepairCommand {
    /// List what needs doing across sessions, most urgent first (`a3s.test.repair-inbox/1`).
    #[command(name = "repair-inbox")]
    Inbox(InboxArgs),
    /// Show everything about one finding (`a3s.test.repair-loop-record/1`).
    #[command(name = "repair-inspect")]
    Inspect(InspectArgs),
    /// Agent: claim a queued finding; returns the attempt id and its lease.
    #[command(name = "repair-claim")]
    Claim(ClaimArgs),
    /// Agent: report progress (edits may begin) and renew the lease.
    #[command(name = "repair-progress")]
    Progress(ProgressArgs),
    /// Agent: ask the reviewer; the finding waits for an answer.
    #[command(name = "repair-reply")]
    Reply(MessageArgs),
    /// Agent: end editing with the exact ordered list of changed files.
    #[command(name = "repair-complete")]
    Complete(CompleteArgs),
    /// Agent: the repair cannot be done.
    #[command(name = "repair-fail")]
    Fail(FailArgs),
    /// Agent: give the lease back (queued again before edits; needs input after).
    #[command(name = "repair-cancel")]
    Cancel(OptionalMessageArgs),
    /// Reviewer: accept a verified repair.
    #[command(name = "repair-accept")]
    Accept(ReviewerArgs),
    /// Reviewer: decline — dismiss a repair awaiting review, or cancel one not yet repaired.
    #[command(name = "repair-reject")]
    Reject(ReviewerArgs),
    /// Reviewer: reopen a finished finding.
    #[command(name = "repair-reopen")]
    Reopen(ReviewerArgs),
    /// Reviewer: answer the agent (or re-send) and queue the finding again.
    #[command(name = "repair-answer")]
    Answer(AnswerArgs),
    /// A3S Test / trusted verifier: record the result of verifying the completed attempt
    /// (`verifying` → `review_ready` or `verification_failed`).
    #[command(name = "repair-verify-result")]
    VerifyResult(VerifyResultArgs),
    /// Append an `a3s.test.repair/1` document (a file, or `-` for stdin) to a session's ledger.
    #[command(name = "repair-import")]
    Import(ImportArgs),
    /// Move the findings a reviewer sent in the live session's page (the Test Kit's page queue)
    /// into the session's ledger; idempotent, and a failed append keeps the page queue.
    #[command(name = "repair-drain")]
    Drain(DrainArgs),
}

/// `repair-drain`.
#[derive(Debug, Args)]
pub struct DrainArgs {
    /// The running session whose page queue is drained.
    #[arg(long)]
    session: String,
    /// Print the JSON document.
    #[arg(long)]
    json: bool,
}

/// `repair-inbox`.
#[derive(Debug, Args)]
pub struct InboxArgs {
    /// Only this session (default: every session under the root).
    #[arg(long)]
    session: Option<String>,
    /// At most this many items (1..=100).
    #[arg(long)]
    limit: Option<usize>,
    /// Also list resolved, dismissed, cancelled and failed findings.
    #[arg(long)]
    include_terminal: bool,
    /// Print the JSON document.
    #[arg(long)]
    json: bool,
}

/// `repair-inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The finding id.
    finding: String,
    /// The session id.
    #[arg(long)]
    session: String,
    /// Print the JSON document.
    #[arg(long)]
    json: bool,
}

/// Arguments every operation on a finding takes.
#[derive(Debug, Args)]
pub struct Target {
    /// The finding id.
    finding: String,
    /// The session id.
    #[arg(long)]
    session: String,
    /// Your request id: repeating it with the same arguments is a no-op that returns the first
    /// result; reusing it for anything else is refused.
    #[arg(long)]
    request_id: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

impl Target {
    fn params(&self) -> OpParams {
        OpParams {
            session: self.session.clone(),
            finding: self.finding.clone(),
            request_id: self.request_id.clone(),
            ..OpParams::default()
        }
    }
}

/// `repair-claim`.
#[derive(Debug, Args)]
pub struct ClaimArgs {
    #[command(flatten)]
    target: Target,
    /// Lease length in ms (default 300000, max 900000).
    #[arg(long)]
    lease_ms: Option<u64>,
}

/// `repair-progress`.
#[derive(Debug, Args)]
pub struct ProgressArgs {
    #[command(flatten)]
    target: Target,
    /// The active attempt id (from claim).
    #[arg(long)]
    attempt_id: Option<String>,
    /// New lease length in ms from now (default 300000, max 900000).
    #[arg(long)]
    lease_ms: Option<u64>,
    /// What you did.
    #[arg(long)]
    message: Option<String>,
}

/// `repair-reply`.
#[derive(Debug, Args)]
pub struct MessageArgs {
    #[command(flatten)]
    target: Target,
    /// The active attempt id (from claim).
    #[arg(long)]
    attempt_id: Option<String>,
    /// The question for the reviewer.
    #[arg(long)]
    message: Option<String>,
}

/// `repair-cancel`.
#[derive(Debug, Args)]
pub struct OptionalMessageArgs {
    #[command(flatten)]
    target: Target,
    /// The active attempt id (from claim).
    #[arg(long)]
    attempt_id: Option<String>,
    /// Why.
    #[arg(long)]
    message: Option<String>,
}

/// `repair-complete`.
#[derive(Debug, Args)]
pub struct CompleteArgs {
    #[command(flatten)]
    target: Target,
    /// The active attempt id (from claim).
    #[arg(long)]
    attempt_id: Option<String>,
    /// A changed file (workspace-relative); repeat in order, once per file.
    #[arg(long = "changed-file", value_name = "FILE")]
    changed_files: Vec<String>,
    /// Record an explicit empty list of changed files.
    #[arg(long, conflicts_with = "changed_files")]
    no_changed_files: bool,
    /// Lease length in ms for the verification window (default 300000, max 900000).
    #[arg(long)]
    lease_ms: Option<u64>,
    /// What changed.
    #[arg(long)]
    summary: Option<String>,
}

/// `repair-fail`.
#[derive(Debug, Args)]
pub struct FailArgs {
    #[command(flatten)]
    target: Target,
    /// The active attempt id (from claim).
    #[arg(long)]
    attempt_id: Option<String>,
    /// Why it cannot be done.
    #[arg(long)]
    summary: Option<String>,
}

/// `repair-accept`, `repair-reject`, `repair-reopen`.
#[derive(Debug, Args)]
pub struct ReviewerArgs {
    #[command(flatten)]
    target: Target,
    /// A note for the record.
    #[arg(long)]
    message: Option<String>,
}

/// `repair-answer`.
#[derive(Debug, Args)]
pub struct AnswerArgs {
    #[command(flatten)]
    target: Target,
    /// The answer or new guidance.
    #[arg(long)]
    message: Option<String>,
}

/// `repair-verify-result`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("verdict").required(true).args(["passed", "failed"])))]
#[command(group(clap::ArgGroup::new("changes").required(true).args(["changed_files", "no_changed_files"])))]
pub struct VerifyResultArgs {
    #[command(flatten)]
    target: Target,
    /// The completed attempt being verified.
    #[arg(long)]
    attempt_id: String,
    /// Every check passed: the finding becomes `review_ready`.
    #[arg(long)]
    passed: bool,
    /// A check failed: the finding becomes `verification_failed` (never auto-resolved).
    #[arg(long)]
    failed: bool,
    /// A changed file exactly as completed; repeat in the same order.
    #[arg(long = "changed-file", value_name = "FILE")]
    changed_files: Vec<String>,
    /// The attempt completed with an explicit empty list of changed files.
    #[arg(long)]
    no_changed_files: bool,
    /// What was checked.
    #[arg(long)]
    summary: Option<String>,
    /// Digest of an evidence file (`sha256:<hex>`); repeat for several.
    #[arg(long = "evidence-digest", value_name = "DIGEST")]
    evidence_digests: Vec<String>,
    /// Resolve a passing result once the `review_ready` event is persisted (no reviewer step).
    #[arg(long)]
    auto_resolve_repairs: bool,
}

/// `repair-import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The document (`-` reads standard input).
    file: PathBuf,
    /// The session whose ledger receives it (created if needed).
    #[arg(long)]
    session: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Run a repair command.
pub fn run(ctx: &Context, cmd: RepairCommand) -> ExitCode {
    use RepairCommand as C;
    let (verb, json, params) = match cmd {
        C::Inbox(a) => {
            let r = ops::inbox(ctx, a.session.as_deref(), a.limit, a.include_terminal);
            return finish(a.json, r, human_inbox);
        }
        C::Inspect(a) => {
            let r = ops::inspect_finding(ctx, &a.session, &a.finding);
            return finish(a.json, r, human_record);
        }
        C::Import(a) => {
            let r = read_document(&a.file).and_then(|doc| ops::import(ctx, &a.session, &doc));
            return finish(a.json, r, human_import);
        }
        C::Drain(a) => {
            return match crate::ops::repair_drain::drain(ctx, &a.session) {
                Ok(v) => render::ok(a.json, &v, human_drain),
                Err(DrainError::Ledger(e)) => render::error(a.json, &e),
                Err(DrainError::Session(e)) => render::session_error(a.json, &e),
            };
        }
        C::VerifyResult(a) => {
            let params = ops::VerifyParams {
                session: a.target.session,
                finding: a.target.finding,
                request_id: a.target.request_id,
                attempt_id: a.attempt_id,
                passed: a.passed,
                changed_files: a.changed_files,
                summary: a.summary,
                evidence_digests: a.evidence_digests,
                auto_resolve: a.auto_resolve_repairs,
            };
            let r = ops::verify_result(ctx, &params);
            return finish(a.target.json, r, human_result);
        }
        C::Claim(a) => (
            Verb::Claim,
            a.target.json,
            OpParams {
                lease_ms: a.lease_ms,
                ..a.target.params()
            },
        ),
        C::Progress(a) => (
            Verb::Progress,
            a.target.json,
            OpParams {
                attempt_id: a.attempt_id,
                lease_ms: a.lease_ms,
                message: a.message,
                ..a.target.params()
            },
        ),
        C::Reply(a) => (
            Verb::Reply,
            a.target.json,
            OpParams {
                attempt_id: a.attempt_id,
                message: a.message,
                ..a.target.params()
            },
        ),
        C::Complete(a) => {
            let changed = if a.no_changed_files {
                Some(Vec::new())
            } else {
                (!a.changed_files.is_empty()).then_some(a.changed_files)
            };
            (
                Verb::Complete,
                a.target.json,
                OpParams {
                    attempt_id: a.attempt_id,
                    lease_ms: a.lease_ms,
                    summary: a.summary,
                    changed_files: changed,
                    ..a.target.params()
                },
            )
        }
        C::Fail(a) => (
            Verb::Fail,
            a.target.json,
            OpParams {
                attempt_id: a.attempt_id,
                summary: a.summary,
                ..a.target.params()
            },
        ),
        C::Cancel(a) => (
            Verb::Cancel,
            a.target.json,
            OpParams {
                attempt_id: a.attempt_id,
                message: a.message,
                ..a.target.params()
            },
        ),
        C::Accept(a) => reviewer(Verb::Accept, a),
        C::Reject(a) => reviewer(Verb::Reject, a),
        C::Reopen(a) => reviewer(Verb::Reopen, a),
        C::Answer(a) => (
            Verb::Answer,
            a.target.json,
            OpParams {
                message: a.message,
                ..a.target.params()
            },
        ),
    };
    finish(json, ops::act(ctx, verb, &params), human_result)
}

fn reviewer(verb: Verb, a: ReviewerArgs) -> (Verb, bool, OpParams) {
    (
        verb,
        a.target.json,
        OpParams {
            message: a.message,
            ..a.target.params()
        },
    )
}

fn finish(
    json: bool,
    result: Result<Value, LedgerError>,
    human: impl FnOnce(&Value) -> String,
) -> ExitCode {
    match result {
        Ok(v) => render::ok(json, &v, human),
        Err(e) => render::error(json, &e),
    }
}

fn read_document(path: &PathBuf) -> Result<Vec<u8>, LedgerError> {
    let limit = a3s_test_ledger::intake::MAX_DOCUMENT_BYTES as u64;
    let mut bytes = Vec::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| {
        LedgerError::new(
            ErrorCode::InvalidInput,
            format!("failed to read {}: {e}", path.display()),
        )
    })?;
    Ok(bytes)
}

fn human_inbox(v: &Value) -> String {
    let mut out = String::new();
    let items = v["items"].as_array().map(Vec::as_slice).unwrap_or_default();
    if items.is_empty() {
        out.push_str("no findings need attention\n");
    }
    for it in items {
        let _ = writeln!(
            out,
            "{:<14} {}/{}  {}  {} {}\n    next ({}): {}",
            s(it, "group"),
            s(it, "session"),
            s(it, "finding_id"),
            s(it, "status"),
            s(it, "severity"),
            s(it, "intent"),
            s(&it["next_action"], "actor"),
            s(&it["next_action"], "command"),
        );
    }
    if v["truncated"] == Value::Bool(true) {
        let _ = writeln!(out, "… {} in total (raise --limit)", v["total"]);
    }
    for w in v["warnings"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let _ = writeln!(
            out,
            "warning[{}] {}: {}",
            s(w, "code"),
            s(w, "session"),
            s(w, "message")
        );
    }
    out
}

fn human_record(v: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}/{}: {} ({} {}, lease {})",
        s(v, "session"),
        s(v, "finding_id"),
        s(v, "status"),
        s(v, "severity"),
        s(v, "intent"),
        s(&v["lease"], "state"),
    );
    let _ = writeln!(
        out,
        "instruction (untrusted): {}",
        s(&v["untrusted"], "instruction")
    );
    for h in v["history"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let _ = writeln!(
            out,
            "  #{} {} {} {} -> {}",
            h["seq"],
            s(h, "at"),
            s(h, "actor"),
            s(h, "op"),
            s(h, "to"),
        );
    }
    let _ = writeln!(out, "next: {}", s(&v["next_action"], "command"));
    out
}

fn human_result(v: &Value) -> String {
    let r = &v["result"];
    let mut out = format!(
        "{}: {} {} -> {}{}",
        s(r, "finding_id"),
        s(r, "op"),
        s(r, "from"),
        s(r, "to"),
        if r["replayed"] == Value::Bool(true) {
            " (replayed)"
        } else {
            ""
        }
    );
    if let Some(a) = r["attempt_id"].as_str() {
        let _ = write!(out, ", attempt {a}");
    }
    if let Some(l) = r["lease"].as_object() {
        let _ = write!(
            out,
            ", lease until {}",
            l["expires_at"].as_str().unwrap_or("")
        );
    }
    if let Some(r) = v.get("resolution").filter(|r| !r.is_null()) {
        let _ = write!(
            out,
            "\n{}: {} {} -> {}",
            s(r, "finding_id"),
            s(r, "op"),
            s(r, "from"),
            s(r, "to")
        );
    }
    let _ = writeln!(out, "\nnext: {}", s(&v["next_action"], "command"));
    out
}

fn human_drain(v: &Value) -> String {
    let count = |k: &str| v[k].as_array().map_or(0, Vec::len);
    let mut out = format!(
        "session {}: drained {} from the page: {} accepted, {} already present, {} held for \
         input, {} refused (kept in the page queue)\n",
        s(v, "session"),
        count("taken"),
        count("accepted"),
        count("duplicates"),
        count("held"),
        count("refused")
    );
    for r in v["refused"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "  {}: {}",
            s(r, "finding_id").escape_default(),
            s(&r["error"], "code")
        );
    }
    if v["more"] == true {
        out.push_str("more findings may be waiting: run repair-drain again\n");
    }
    out
}

fn human_import(v: &Value) -> String {
    let count = |k: &str| v[k].as_array().map_or(0, Vec::len);
    format!(
        "session {}: {} accepted, {} already present, {} held for input\n",
        s(v, "session"),
        count("accepted"),
        count("duplicates"),
        count("held")
    )
}
