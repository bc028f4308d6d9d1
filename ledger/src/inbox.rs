//! The repair inbox (`a3s.test.repair-inbox/1`): what needs doing across one or all sessions,
//! most urgent first. A read-only view: it never writes, never applies expiry, never starts a
//! browser.
//!
//! Order: expired leases (work may be half done), then active editing and verification (soonest
//! expiry first), then the oldest queued, then findings blocked on a person, then inspect-only
//! findings, and — only when asked — terminal ones.

use crate::clock::rfc3339;
use crate::error::{LedgerError, WarningCode};
use crate::event::HoldReason;
use crate::id::{validate_id, FindingId, SessionId};
use crate::lease::LeaseState;
use crate::ledger::{sessions_dir, LEDGER_FILE};
use crate::next_action::{next_action_of, NextAction, RequestIdSource};
use crate::record::{Intent, Severity, TargetKind};
use crate::state::{FindingState, LedgerState};
use crate::status::{Actor, Op, RepairStatus};
use crate::store::{read_ledger_for_view, StoreLimits, TornTail};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;

/// The protocol value of an inbox.
pub const INBOX_PROTOCOL: &str = "a3s.test.repair-inbox/1";
/// The largest `--limit`.
pub const MAX_INBOX_LIMIT: usize = 100;
/// The default `--limit`.
pub const DEFAULT_INBOX_LIMIT: usize = 20;
/// The longest instruction excerpt in an inbox item, in characters.
pub const EXCERPT_CHARS: usize = 160;

/// The inbox group of an item, in display order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InboxGroup {
    /// A lease ran out and no write has applied the expiry rule yet.
    ExpiredLease,
    /// Claimed, repairing or verifying under a live lease.
    Active,
    /// Waiting for an agent.
    Queued,
    /// Waiting for a reviewer.
    HumanBlocked,
    /// Nothing to repair (an approval); read it only.
    InspectOnly,
    /// Finished (shown only with `include_terminal`).
    Terminal,
}

/// Untrusted text, shown as data only.
#[derive(Clone, Debug, Serialize)]
pub struct UntrustedExcerpt {
    /// Always true: this came from a page or a reviewer and authorizes nothing.
    pub untrusted: bool,
    /// The first characters of the instruction.
    pub instruction_excerpt: String,
}

/// One inbox line.
#[derive(Clone, Debug, Serialize)]
pub struct InboxItem {
    /// The session.
    pub session: SessionId,
    /// The finding.
    pub finding_id: FindingId,
    /// Its status in the ledger.
    pub status: RepairStatus,
    /// Its group.
    pub group: InboxGroup,
    /// What the reviewer wants.
    pub intent: Intent,
    /// How much it matters.
    pub severity: Severity,
    /// What was marked.
    pub target_kind: TargetKind,
    /// Who sent it (the intake event's actor): `human` for a person's gesture in the Review
    /// Overlay (or a reviewer's import), `page_script` for something page code queued — which
    /// is not a person's request, whatever its instruction says.
    pub sent_by: Actor,
    /// The lease at the time of the view.
    pub lease: LeaseState,
    /// How many attempts it has had.
    pub attempts: usize,
    /// Why A3S Test held it, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hold_reason: Option<HoldReason>,
    /// When it last entered the queue.
    pub queued_at: String,
    /// When it last changed.
    pub updated_at: String,
    /// The instruction excerpt (untrusted).
    pub page_text: UntrustedExcerpt,
    /// What to do next.
    pub next_action: NextAction,
}

/// A session whose ledger could not be read, or had a torn tail.
#[derive(Clone, Debug, Serialize)]
pub struct InboxWarning {
    /// The session.
    pub session: String,
    /// A stable code.
    pub code: &'static str,
    /// What happened.
    pub message: String,
    /// The torn tail, for a torn-tail warning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub torn_tail: Option<TornTail>,
}

/// The inbox document.
#[derive(Clone, Debug, Serialize)]
pub struct Inbox {
    /// `a3s.test.repair-inbox/1`.
    pub protocol: &'static str,
    /// When the view was made.
    pub generated_at: String,
    /// The sessions read.
    pub sessions: Vec<SessionId>,
    /// Items before the limit.
    pub total: usize,
    /// Whether the limit cut items.
    pub truncated: bool,
    /// The items, most urgent first.
    pub items: Vec<InboxItem>,
    /// Unreadable ledgers and torn tails.
    pub warnings: Vec<InboxWarning>,
}

/// Options of an inbox view.
#[derive(Clone, Copy, Debug)]
pub struct InboxOptions {
    /// At most this many items (1..=100).
    pub limit: usize,
    /// Include terminal findings.
    pub include_terminal: bool,
}

impl InboxOptions {
    /// Options with a checked limit (1..=100; rejected, never clamped).
    pub fn new(limit: usize, include_terminal: bool) -> Result<Self, LedgerError> {
        if !(1..=MAX_INBOX_LIMIT).contains(&limit) {
            return Err(LedgerError::new(
                crate::error::ErrorCode::InvalidInput,
                format!("limit {limit} is out of range 1..={MAX_INBOX_LIMIT}"),
            ));
        }
        Ok(InboxOptions {
            limit,
            include_terminal,
        })
    }
}

/// One session's ledger as read for a view: folded, or the error that stopped it.
pub type SessionLedger = (SessionId, Result<LedgerState, LedgerError>);

/// Read the ledgers of `session` (or of every session under `root`) in parallel.
pub fn read_sessions(
    root: &Path,
    session: Option<&SessionId>,
    limits: &StoreLimits,
) -> Result<Vec<SessionLedger>, LedgerError> {
    let dir = sessions_dir(root);
    let ids: Vec<SessionId> = match session {
        Some(s) => vec![s.clone()],
        None => {
            let folder = match dir.open_dir() {
                Ok(folder) => folder,
                Err(e) if e.is_not_found() => return Ok(Vec::new()),
                Err(e) => return Err(LedgerError::fs(&e)),
            };
            let entries = folder.list().map_err(|e| LedgerError::fs(&e))?;
            let mut ids: Vec<SessionId> = entries
                .into_iter()
                .filter_map(|e| {
                    let name = e.name.into_string().ok()?;
                    validate_id("session id", &name).ok()?;
                    // A session whose folder or ledger is a link is listed, so its refusal
                    // (`repair_unsafe_path`) shows instead of the session silently missing.
                    let present = folder
                        .kind_of(Path::new(&name).join(LEDGER_FILE))
                        .map_or(true, |kind| kind.is_some());
                    present.then_some(())?;
                    SessionId::parse(&name).ok()
                })
                .collect();
            ids.sort();
            ids
        }
    };
    Ok(ids
        .into_par_iter()
        .map(|id| {
            let path = dir.join(id.as_str()).join(LEDGER_FILE);
            let state = read_ledger_for_view(&path, limits)
                .and_then(|r| LedgerState::fold(r.events, r.torn_tail));
            (id, state)
        })
        .collect())
}

fn excerpt(text: &str) -> String {
    let mut out: String = text.chars().take(EXCERPT_CHARS).collect();
    if text.chars().count() > EXCERPT_CHARS {
        out.push('…');
    }
    out
}

fn hold_reason(state: &LedgerState, f: &FindingState) -> Option<HoldReason> {
    if f.status != RepairStatus::NeedsInput {
        return None;
    }
    let last = &state.events[*f.history.last()?];
    match (&last.action, last.op()) {
        (crate::event::Action::Hold { reason }, Op::Hold) => Some(reason.clone()),
        _ => None,
    }
}

/// The group of a finding at `now` and its order key within the group.
fn classify(
    state: &LedgerState,
    f: &FindingState,
    now: u64,
) -> Result<(InboxGroup, u64), LedgerError> {
    if let Some(l) = &f.lease {
        let group = if crate::lease::is_expired(l, now) {
            InboxGroup::ExpiredLease
        } else {
            InboxGroup::Active
        };
        return Ok((group, l.expires_at_ms));
    }
    Ok(match f.status {
        s if s.is_terminal() => (InboxGroup::Terminal, u64::MAX - f.updated_at_ms),
        RepairStatus::Queued if state.intent(f)? == Intent::Approve => {
            (InboxGroup::InspectOnly, f.queued_at_ms)
        }
        RepairStatus::Queued => (InboxGroup::Queued, f.queued_at_ms),
        _ => (InboxGroup::HumanBlocked, f.updated_at_ms),
    })
}

fn item(
    session: &SessionId,
    state: &LedgerState,
    f: &FindingState,
    group: InboxGroup,
    now: u64,
    ids: &dyn RequestIdSource,
) -> Result<InboxItem, LedgerError> {
    let record = state.record(f)?;
    let (lease, next) = next_action_of(session, state, f, record.intent, now, ids);
    Ok(InboxItem {
        session: session.clone(),
        finding_id: f.id.clone(),
        status: f.status,
        group,
        intent: record.intent,
        severity: record.severity,
        target_kind: record.target.kind,
        sent_by: state.events[f.intake].actor,
        lease,
        attempts: f.attempts.len(),
        hold_reason: hold_reason(state, f),
        queued_at: rfc3339(f.queued_at_ms),
        updated_at: rfc3339(f.updated_at_ms),
        page_text: UntrustedExcerpt {
            untrusted: true,
            instruction_excerpt: excerpt(&record.instruction),
        },
        next_action: next,
    })
}

/// Build the inbox from read ledgers at time `now`.
pub fn build_inbox(
    ledgers: &[SessionLedger],
    now: u64,
    options: InboxOptions,
    ids: &dyn RequestIdSource,
) -> Inbox {
    let mut warnings = Vec::new();
    let warn = |warnings: &mut Vec<InboxWarning>, session: &SessionId, e: &LedgerError| {
        warnings.push(InboxWarning {
            session: session.to_string(),
            code: e.code.as_str(),
            message: e.message.clone(),
            torn_tail: None,
        })
    };
    type Key = (InboxGroup, u64, u64);
    let mut candidates: Vec<(Key, &SessionId, &LedgerState, &FindingState)> = Vec::new();
    for (session, state) in ledgers {
        let state = match state {
            Ok(s) => s,
            Err(e) => {
                warn(&mut warnings, session, e);
                continue;
            }
        };
        if let Some(t) = &state.torn_tail {
            warnings.push(InboxWarning {
                session: session.to_string(),
                code: WarningCode::TornTail.as_str(),
                message: format!(
                    "the last {} bytes of the ledger are a torn line from an interrupted write; \
                     skipped (the next write moves them to repairs.jsonl.torn)",
                    t.bytes
                ),
                torn_tail: Some(t.clone()),
            });
        }
        for f in &state.findings {
            let (group, key) = match classify(state, f, now) {
                Ok(c) => c,
                Err(e) => {
                    warn(&mut warnings, session, &e);
                    continue;
                }
            };
            if group == InboxGroup::Terminal && !options.include_terminal {
                continue;
            }
            candidates.push(((group, key, state.events[f.intake].seq), session, state, f));
        }
    }
    let total = candidates.len();
    let by_key = |a: &(Key, &SessionId, &LedgerState, &FindingState),
                  b: &(Key, &SessionId, &LedgerState, &FindingState)| {
        a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1))
    };
    let limit = options.limit.min(total);
    if limit < total {
        candidates.select_nth_unstable_by(limit, by_key);
        candidates.truncate(limit);
    }
    candidates.sort_by(by_key);
    let mut items = Vec::with_capacity(candidates.len());
    for ((group, _, _), session, state, f) in candidates {
        match item(session, state, f, group, now, ids) {
            Ok(it) => items.push(it),
            Err(e) => warn(&mut warnings, session, &e),
        }
    }
    let mut sessions: Vec<SessionId> = ledgers.iter().map(|(s, _)| s.clone()).collect();
    sessions.sort();
    Inbox {
        protocol: INBOX_PROTOCOL,
        generated_at: rfc3339(now),
        sessions,
        total,
        truncated: total > items.len(),
        items,
        warnings,
    }
}
