//! `a3s-test agent repair-*`: the repair inbox and record views, the agent operations (claim,
//! progress, reply, complete, fail, cancel), the reviewer operations (accept, reject, reopen,
//! answer), import, drain, and verification (`repair-verify`: A3S Test verifies the completed
//! attempt itself and records the verdict; no caller can choose it). All of them call
//! `crate::ops`, as the MCP tools do.

use super::render::{print, Cli};
use super::EXIT_REFUSED;
use crate::ops::catalog as c;
use crate::ops::repair::{
    self as ops, ClaimParams, CompleteParams, FailParams, FindingParams, Imported, InboxParams,
    MessageParams, Operation, ProgressParams, ReviewerParams, Verb,
};
use crate::ops::repair_drain::{drain, DrainParams, Drained};
use crate::ops::repair_promote::{promote, PromoteParams, Promoted, Refused};
use crate::ops::repair_verify::{verify, Verification, VerifyParams};
use crate::ops::Context;
use a3s_test_ledger::lease::LeaseState;
use a3s_test_ledger::{Actor, Applied, ErrorCode, Inbox, LedgerError, LoopRecord, NextAction};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::process::ExitCode;

/// The repair commands.
#[derive(Debug, Subcommand)]
pub enum RepairCommand {
    #[command(name = c::REPAIR_INBOX.command(), about = c::REPAIR_INBOX.about)]
    Inbox(Cli<InboxParams>),
    #[command(name = c::REPAIR_INSPECT.command(), about = c::REPAIR_INSPECT.about)]
    Inspect(Cli<FindingParams>),
    #[command(name = c::REPAIR_CLAIM.command(), about = c::REPAIR_CLAIM.about)]
    Claim(Cli<ClaimParams>),
    #[command(name = c::REPAIR_PROGRESS.command(), about = c::REPAIR_PROGRESS.about)]
    Progress(Cli<ProgressParams>),
    #[command(name = c::REPAIR_REPLY.command(), about = c::REPAIR_REPLY.about)]
    Reply(Cli<MessageParams>),
    #[command(name = c::REPAIR_COMPLETE.command(), about = c::REPAIR_COMPLETE.about)]
    Complete(Cli<CompleteParams>),
    #[command(name = c::REPAIR_FAIL.command(), about = c::REPAIR_FAIL.about)]
    Fail(Cli<FailParams>),
    #[command(name = c::REPAIR_CANCEL.command(), about = c::REPAIR_CANCEL.about)]
    Cancel(Cli<MessageParams>),
    #[command(name = c::REPAIR_ACCEPT.command(), about = c::REPAIR_ACCEPT.about)]
    Accept(Cli<ReviewerParams>),
    #[command(name = c::REPAIR_REJECT.command(), about = c::REPAIR_REJECT.about)]
    Reject(Cli<ReviewerParams>),
    #[command(name = c::REPAIR_REOPEN.command(), about = c::REPAIR_REOPEN.about)]
    Reopen(Cli<ReviewerParams>),
    #[command(name = c::REPAIR_ANSWER.command(), about = c::REPAIR_ANSWER.about)]
    Answer(Cli<ReviewerParams>),
    #[command(name = c::REPAIR_IMPORT.command(), about = c::REPAIR_IMPORT.about)]
    Import(ImportArgs),
    #[command(name = c::REPAIR_DRAIN.command(), about = c::REPAIR_DRAIN.about)]
    Drain(Cli<DrainParams>),
    #[command(name = c::REPAIR_VERIFY.command(), about = c::REPAIR_VERIFY.about)]
    Verify(Cli<VerifyParams>),
    #[command(name = c::REPAIR_PROMOTE.command(), about = c::REPAIR_PROMOTE.about)]
    Promote(Cli<PromoteParams>),
}

/// `repair-import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The document (`-` reads standard input).
    file: PathBuf,
    /// The session whose ledger receives it (created if needed).
    #[arg(long, allow_hyphen_values = true)]
    session: a3s_test_ledger::SessionId,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Run a repair command.
pub fn run(ctx: &Context, cmd: RepairCommand) -> ExitCode {
    use RepairCommand as C;
    let (json, op) = match cmd {
        C::Inbox(a) => return print(a.json, ops::inbox(ctx, &a.params), human_inbox),
        C::Inspect(a) => return print(a.json, ops::inspect_finding(ctx, &a.params), human_record),
        C::Import(a) => {
            let r = read_document(&a.file).and_then(|doc| ops::import(ctx, &a.session, &doc));
            return print(a.json, r, human_import);
        }
        C::Drain(a) => return print(a.json, drain(ctx, &a.params), human_drain),
        C::Verify(a) => {
            let result = verify(ctx, &a.params);
            let failed = matches!(&result, Ok(v) if !v.passed);
            let code = print(a.json, result, human_verification);
            return if failed {
                ExitCode::from(EXIT_REFUSED)
            } else {
                code
            };
        }
        C::Promote(a) => {
            let r = promote(ctx, &a.params).map_err(Refused);
            return print(a.json, r, human_promoted);
        }
        C::Claim(a) => (a.json, Ok(Operation::claim(a.params))),
        C::Progress(a) => (a.json, Ok(Operation::progress(a.params))),
        C::Reply(a) => (a.json, Operation::reply(a.params)),
        C::Complete(a) => (a.json, Operation::complete(a.params)),
        C::Fail(a) => (a.json, Ok(Operation::fail(a.params))),
        C::Cancel(a) => (a.json, Ok(Operation::cancel(a.params))),
        C::Accept(a) => (a.json, Operation::reviewer(Verb::Accept, a.params)),
        C::Reject(a) => (a.json, Operation::reviewer(Verb::Reject, a.params)),
        C::Reopen(a) => (a.json, Operation::reviewer(Verb::Reopen, a.params)),
        C::Answer(a) => (a.json, Operation::reviewer(Verb::Answer, a.params)),
    };
    print(json, op.and_then(|op| ops::act(ctx, op)), |v| {
        human_applied(&v.result, None, &v.next_action)
    })
}

fn read_document(path: &PathBuf) -> Result<Vec<u8>, LedgerError> {
    let limit = a3s_test_ledger::intake::MAX_DOCUMENT_BYTES as u64;
    let mut bytes = Vec::new();
    let refused = |why: String| {
        LedgerError::new(
            ErrorCode::InvalidInput,
            format!("failed to read {}: {why}", path.display()),
        )
    };
    if path.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| refused(e.to_string()))?;
        return Ok(bytes);
    }
    // Opened without blocking, so a FIFO (or a device) nobody writes to is refused at once
    // instead of waiting forever; only a regular file is read (stdin is `-`).
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| refused(e.to_string()))?;
    let kind = file
        .metadata()
        .map_err(|e| refused(e.to_string()))?
        .file_type();
    if !kind.is_file() {
        return Err(refused(
            "not a regular file (pass `-` to read the document from stdin)".into(),
        ));
    }
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refused(e.to_string()))?;
    Ok(bytes)
}

/// The wire spelling of a typed value (`queued`, `claim`, …) for human text.
fn word<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

fn lease_state(lease: &LeaseState) -> &'static str {
    match lease {
        LeaseState::None => "none",
        LeaseState::Active { .. } => "active",
        _ => "expired",
    }
}

fn human_promoted(v: &Promoted) -> String {
    format!(
        "{} {} from {}/{} ({}); not committed\n",
        if v.overwritten { "replaced" } else { "wrote" },
        v.output.display(),
        v.session.as_str(),
        v.candidate,
        v.sha256,
    )
}

/// How a finding's sender reads in a text line: nothing for a person's, a warning for page code's
/// (it is not a reviewer's request, whatever its instruction says).
fn sender(actor: Actor) -> &'static str {
    match actor {
        Actor::PageScript => "  [sent by page code, not a person]",
        _ => "",
    }
}

fn human_inbox(v: &Inbox) -> String {
    let mut out = String::new();
    if v.items.is_empty() {
        out.push_str("no findings need attention\n");
    }
    for it in &v.items {
        let _ = writeln!(
            out,
            "{:<14} {}/{}  {}  {} {}{}\n    next ({}): {}",
            word(&it.group),
            it.session.as_str(),
            it.finding_id.as_str(),
            word(&it.status),
            word(&it.severity),
            word(&it.intent),
            sender(it.sent_by),
            word(&it.next_action.actor),
            it.next_action.command,
        );
    }
    if v.truncated {
        let _ = writeln!(out, "… {} in total (raise --limit)", v.total);
    }
    for w in &v.warnings {
        let _ = writeln!(out, "warning[{}] {}: {}", w.code, w.session, w.message);
    }
    out
}

fn human_record(v: &LoopRecord) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}/{}: {} ({} {}, lease {}){}",
        v.session.as_str(),
        v.finding_id.as_str(),
        word(&v.status),
        word(&v.severity),
        word(&v.intent),
        lease_state(&v.lease),
        sender(v.sent_by),
    );
    let _ = writeln!(out, "instruction (untrusted): {}", v.untrusted.instruction);
    for h in &v.history {
        let _ = writeln!(
            out,
            "  #{} {} {} {} -> {}",
            h.seq,
            h.at,
            word(&h.actor),
            word(&h.op),
            word(&h.to),
        );
    }
    let _ = writeln!(out, "next: {}", v.next_action.command);
    out
}

fn applied_line(r: &Applied) -> String {
    format!(
        "{}: {} {} -> {}",
        r.finding_id.as_str(),
        word(&r.op),
        word(&r.from),
        word(&r.to)
    )
}

fn human_applied(r: &Applied, resolution: Option<&Applied>, next: &NextAction) -> String {
    let mut out = applied_line(r);
    if r.replayed {
        out.push_str(" (replayed)");
    }
    if let Some(a) = &r.attempt_id {
        let _ = write!(out, ", attempt {}", a.as_str());
    }
    if let Some(l) = &r.lease {
        let _ = write!(out, ", lease until {}", l.expires_at);
    }
    if let Some(r) = resolution {
        let _ = write!(out, "\n{}", applied_line(r));
    }
    let _ = writeln!(out, "\nnext: {}", next.command);
    out
}

fn human_drain(v: &Drained) -> String {
    let mut out = format!(
        "session {}: drained {} from the page: {} accepted, {} already present, {} held for \
         input, {} refused (kept in the page queue)\n",
        v.session.as_ref().map(|s| s.as_str()).unwrap_or(""),
        v.taken.len(),
        v.accepted.len(),
        v.duplicates.len(),
        v.held.len(),
        v.refused.len()
    );
    for r in &v.refused {
        let _ = writeln!(out, "  {}: {}", r.finding_id.escape_default(), r.error.code);
    }
    for a in &v.actions {
        let text = |k: &str| a.get(k).and_then(|v| v.as_str()).unwrap_or("?");
        let code = a.pointer("/error/code").and_then(|v| v.as_str());
        let _ = writeln!(
            out,
            "  action {} on {}: {}{}",
            text("requestId").escape_default(),
            text("findingId").escape_default(),
            text("outcome"),
            code.map(|c| format!(" ({c})")).unwrap_or_default()
        );
    }
    if v.more {
        out.push_str("more findings may be waiting: run repair-drain again\n");
    }
    out
}

fn human_verification(v: &Verification) -> String {
    let mut out = human_applied(&v.result, v.resolution.as_ref(), &v.next_action);
    if let Some(f) = &v.record.failure {
        let _ = writeln!(out, "failed at {}: {} {}", word(&f.step), f.code, f.message);
    }
    if let Some(s) = &v.record.slice {
        let _ = writeln!(
            out,
            "slice {}: {}",
            word(&s.scope),
            s.selected_checks.join(", ")
        );
    }
    for c in &v.record.checks {
        let _ = writeln!(out, "  check {}: {}", c.id, word(&c.outcome));
    }
    if let Some(c) = &v.record.candidate {
        let proof = if c.proof.passed { "proven" } else { "failed" };
        let _ = writeln!(out, "candidate {} ({proof})", c.path);
    }
    out
}

fn human_import(v: &Imported) -> String {
    format!(
        "session {}: {} accepted, {} already present, {} held for input\n",
        v.session.as_str(),
        v.report.accepted.len(),
        v.report.duplicates.len(),
        v.report.held.len()
    )
}
