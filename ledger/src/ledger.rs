//! The ledger of one session: every write goes through here — intake of sent findings and the
//! operations of the repair loop — under the store's exclusive lock.
//!
//! A write reads the whole ledger, folds it, answers a repeated request id from the stored event
//! (or refuses a different request under the same id), applies the lease-expiry rule to every
//! lapsed lease, checks the operation against the transition table and the attempt, and appends
//! the new event with one fsync. A refused operation appends nothing of its own.

use crate::clock::{rfc3339, Clock};
use crate::conflict::{holds, is_open, Candidate};
use crate::error::{ErrorCode, LedgerError};
use crate::event::{Action, Event, HoldReason, Lease, RawFinding, LEDGER_FORMAT};
use crate::id::{AttemptId, FindingId, RequestId, SessionId};
use crate::lease::{expiry_target, is_expired, lease_length, verify_lease_length};
use crate::record::Finding;
use crate::state::{FindingState, LedgerState};
use crate::status::{allowed_from, transition, Actor, Op, RepairStatus};
use crate::store::{read_ledger, LedgerWriter, StoreLimits, TornTail};
use crate::validate::validate_action;
use a3s_test_fsroot::ConfinedPath;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The ledger's file name inside a session folder.
pub const LEDGER_FILE: &str = "repairs.jsonl";

/// The folder holding every agent session under a project root: anchored at the root, walked
/// from `.a3s-test` down without following links.
pub fn sessions_dir(root: &Path) -> ConfinedPath {
    ConfinedPath::new(root, Path::new(".a3s-test").join("agent-sessions"))
}

/// The folder of session `session` under a project root.
pub fn session_dir(root: &Path, session: &SessionId) -> ConfinedPath {
    sessions_dir(root).join(session.as_str())
}

/// `sha256:<hex>` of `bytes`.
pub fn sha256_digest(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    let mut s = String::with_capacity(7 + 64);
    s.push_str("sha256:");
    for b in d.iter() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// One operation asked of the ledger.
#[derive(Clone, Debug)]
pub struct Request {
    /// The finding to act on.
    pub finding_id: FindingId,
    /// Who asks.
    pub actor: Actor,
    /// The caller's request id (required for humans and agents).
    pub request_id: Option<RequestId>,
    /// The active attempt id (required for attempt operations; refused for `claim`).
    pub attempt_id: Option<AttemptId>,
    /// What to do.
    pub action: Action,
}

/// A lease applied by the lease-expiry rule during a write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Expired {
    /// The finding.
    pub finding_id: FindingId,
    /// The attempt whose lease ran out.
    pub attempt_id: AttemptId,
    /// Where the rule moved the finding.
    pub to: RepairStatus,
}

/// The result of an operation.
#[derive(Clone, Debug, Serialize)]
pub struct Applied {
    /// The finding.
    pub finding_id: FindingId,
    /// The operation's event.
    pub seq: u64,
    /// The operation.
    pub op: Op,
    /// Status before.
    pub from: RepairStatus,
    /// Status after.
    pub to: RepairStatus,
    /// The attempt (the new one for `claim`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt_id: Option<AttemptId>,
    /// The lease after the operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lease: Option<LeaseView>,
    /// True when the request id was seen before and this is the stored result.
    pub replayed: bool,
    /// Leases the expiry rule applied during this write.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expired: Vec<Expired>,
    /// A torn tail this operation cut off before it appended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovered_tail: Option<TornTail>,
}

impl Applied {
    /// The stored result of `prior` answered again (a replayed request id, or a baseline that
    /// was already taken): nothing is written, so nothing expires.
    fn replay(prior: &Event, op: Op) -> Applied {
        Applied {
            finding_id: prior.finding_id.clone(),
            seq: prior.seq,
            op,
            from: prior.from.unwrap_or(prior.to),
            to: prior.to,
            attempt_id: prior.attempt_id.clone(),
            lease: prior.lease.as_ref().map(LeaseView::from),
            replayed: true,
            expired: Vec::new(),
            recovered_tail: None,
        }
    }
}

/// A lease as results show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaseView {
    /// The holding attempt.
    pub attempt_id: AttemptId,
    /// RFC 3339 expiry.
    pub expires_at: String,
    /// Expiry in ms since the epoch.
    pub expires_at_ms: u64,
}

impl From<&Lease> for LeaseView {
    fn from(l: &Lease) -> Self {
        LeaseView {
            attempt_id: l.attempt_id.clone(),
            expires_at: rfc3339(l.expires_at_ms),
            expires_at_ms: l.expires_at_ms,
        }
    }
}

/// A finding held at intake.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Held {
    /// The held finding.
    pub finding_id: FindingId,
    /// Why.
    pub reason: HoldReason,
}

/// The result of an intake.
#[derive(Clone, Debug, Default, Serialize)]
pub struct IntakeReport {
    /// Findings that entered the ledger.
    pub accepted: Vec<FindingId>,
    /// Findings already in the ledger with identical content (nothing appended for them).
    pub duplicates: Vec<FindingId>,
    /// Findings held for a person (conflict or overlapping target).
    pub held: Vec<Held>,
    /// A torn tail this intake cut off before it appended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovered_tail: Option<TornTail>,
}

/// The repair ledger of one session.
#[derive(Clone)]
pub struct Ledger {
    path: ConfinedPath,
    clock: Arc<dyn Clock>,
    limits: StoreLimits,
}

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ledger").field("path", &self.path).finish()
    }
}

impl Ledger {
    /// The ledger of `session` under project root `root`.
    pub fn open(root: &Path, session: &SessionId, clock: Arc<dyn Clock>) -> Self {
        Ledger::at_path(session_dir(root, session).join(LEDGER_FILE), clock)
    }

    /// The ledger in file `path` (anchored where the caller says; the part below the anchor is
    /// never reached through a link).
    pub fn at_path(path: ConfinedPath, clock: Arc<dyn Clock>) -> Self {
        Ledger {
            path,
            clock,
            limits: StoreLimits::default(),
        }
    }

    /// Use other store limits (size ceiling, lock wait).
    pub fn with_limits(mut self, limits: StoreLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The ledger file, for messages (opening it by this path would follow links).
    pub fn path(&self) -> PathBuf {
        self.path.path()
    }

    /// Where the ledger file is: the project root and the path below it.
    pub fn location(&self) -> &ConfinedPath {
        &self.path
    }

    /// True when the ledger file exists (a link in its place, or on the way to it, is
    /// `repair_unsafe_path`).
    pub fn exists(&self) -> Result<bool, LedgerError> {
        let Some((folder, name)) = self.path.split() else {
            return Ok(false);
        };
        let dir = match folder.open_dir() {
            Ok(dir) => dir,
            Err(e) if e.is_not_found() => return Ok(false),
            Err(e) => return Err(LedgerError::fs(&e)),
        };
        match dir.kind_of(name) {
            Ok(kind) => Ok(kind.is_some()),
            Err(e) => Err(LedgerError::fs(&e)),
        }
    }

    /// The ledger's clock.
    pub fn clock(&self) -> &dyn Clock {
        &*self.clock
    }

    /// Read and fold the ledger (shared lock; a torn tail is reported in the state).
    pub fn read(&self) -> Result<LedgerState, LedgerError> {
        let report = read_ledger(&self.path, &self.limits)?;
        LedgerState::fold(report.events, report.torn_tail)
    }

    fn open_writer(&self) -> Result<(LedgerWriter, LedgerState), LedgerError> {
        let (writer, events) = LedgerWriter::open(&self.path, self.limits)?;
        let state = LedgerState::fold(events, None)?;
        Ok((writer, state))
    }

    /// Append `findings` (already validated by `intake::parse_document`) as one batch: new
    /// findings enter `queued`, identical re-sends are no-ops, a changed re-send refuses the whole
    /// batch, and conflicts with open findings (`conflict.rs`) hold the new finding and every
    /// queued one it conflicts with. Each intake event's actor is who the finding says sent it
    /// (`sentBy`), or `unmarked` when it does not say (the channel decides what silence means).
    pub fn intake(
        &self,
        findings: Vec<Finding>,
        unmarked: Actor,
    ) -> Result<IntakeReport, LedgerError> {
        let (mut writer, mut state) = self.open_writer()?;
        let mut report = IntakeReport::default();
        let now = self.clock.now_ms();
        let mut fresh = Vec::new();
        for finding in findings {
            let raw = RawFinding::new(&finding)?;
            let digest = sha256_digest(raw.bytes());
            if let Some(existing) = state.finding(&finding.id) {
                match &state.events[existing.intake].action {
                    Action::Intake { digest: d } if *d == digest => {
                        report.duplicates.push(finding.id.clone());
                        continue;
                    }
                    _ => {
                        return Err(LedgerError::new(
                            ErrorCode::IdempotencyConflict,
                            format!(
                                "finding {} was already sent with different content; nothing \
                                 from this batch was recorded",
                                finding.id
                            ),
                        ))
                    }
                }
            }
            let actor = crate::record::SentBy::actor(finding.sent_by, unmarked);
            fresh.push((finding.id, raw, digest, actor));
        }
        let first = state.events.len();
        for (id, raw, digest, actor) in fresh {
            report.accepted.push(id.clone());
            let event = Event {
                finding: Some(raw),
                ..stamped(
                    &state,
                    now,
                    actor,
                    id,
                    None,
                    RepairStatus::Queued,
                    Action::Intake { digest },
                )
            };
            state.push(event)?;
        }
        let batch: Vec<FindingId> = report.accepted.clone();
        // Only open findings can conflict with a new one, so only they are parsed.
        let open: Vec<(Finding, RepairStatus, bool)> = state
            .findings
            .iter()
            .filter(|f| is_open(f.status))
            .map(|f| Ok((state.record(f)?, f.status, batch.contains(&f.id))))
            .collect::<Result<_, LedgerError>>()?;
        let held = {
            let candidates: Vec<Candidate<'_>> = open
                .iter()
                .map(|(finding, status, in_batch)| Candidate {
                    finding,
                    status: *status,
                    in_batch: *in_batch,
                })
                .collect();
            holds(&candidates)
        };
        for (id, reason) in held {
            let event = stamped(
                &state,
                now,
                Actor::A3sTest,
                id.clone(),
                Some(RepairStatus::Queued),
                RepairStatus::NeedsInput,
                Action::Hold {
                    reason: reason.clone(),
                },
            );
            state.push(event)?;
            report.held.push(Held {
                finding_id: id,
                reason,
            });
        }
        let new_events: Vec<Event> = state.events.drain(first..).collect();
        writer.append(new_events)?;
        report.recovered_tail = writer.recovered_tail().cloned();
        Ok(report)
    }

    /// Perform one operation of the repair loop.
    pub fn apply(&self, req: Request) -> Result<Applied, LedgerError> {
        validate_action(&req.action)?;
        let op = req.action.op();
        if matches!(op, Op::Intake | Op::Expire | Op::Hold | Op::Requeue) {
            return Err(LedgerError::new(
                ErrorCode::InvalidInput,
                format!("{op} is recorded by A3S Test itself, not requested"),
            ));
        }
        if req.actor != Actor::A3sTest && req.request_id.is_none() {
            return Err(LedgerError::new(
                ErrorCode::InvalidInput,
                "a request id is required",
            ));
        }
        if req.attempt_id.is_some() && !op.needs_attempt(req.actor) {
            return Err(LedgerError::new(
                ErrorCode::InvalidInput,
                format!("{op} by {} takes no attempt id", req.actor),
            ));
        }
        let (mut writer, mut state) = self.open_writer()?;
        if let Some(rid) = &req.request_id {
            if let Some(prior) = state.request(rid) {
                let same = prior.finding_id == req.finding_id
                    && prior.actor == req.actor
                    && prior.action == req.action
                    && (op == Op::Claim || prior.attempt_id == req.attempt_id);
                if !same {
                    return Err(LedgerError::new(
                        ErrorCode::IdempotencyConflict,
                        format!(
                            "request id {rid} was already used for {} on finding {}; use a new \
                             request id for a different request",
                            prior.op(),
                            prior.finding_id
                        ),
                    ));
                }
                return Ok(Applied::replay(prior, op));
            }
        }
        if let (Action::Baseline { .. }, Actor::A3sTest) = (&req.action, req.actor) {
            // The first baseline wins: a later capture would measure errors against a page the
            // repair may already have changed.
            if let Some(prior) = state
                .finding(&req.finding_id)
                .and_then(|f| f.baseline)
                .map(|i| &state.events[i])
            {
                let mut applied = Applied::replay(prior, op);
                applied.attempt_id = None;
                return Ok(applied);
            }
        }
        let now = self.clock.now_ms();
        let first_new = state.events.len();
        let expired = sweep(&mut state, now)?;
        let swept_len = state.events.len();
        requeue_for_claim(&mut state, &req, now)?;
        let result = self.decide(&state, &req, now, &expired);
        let event = match result {
            Ok(event) => event,
            Err(err) => {
                // The expiry rule's events stand on their own; the refused request adds none
                // (not even its requeue).
                state.events.truncate(swept_len);
                let swept: Vec<Event> = state.events.drain(first_new..).collect();
                writer.append(swept)?;
                return Err(err);
            }
        };
        let applied = Applied {
            finding_id: event.finding_id.clone(),
            seq: event.seq,
            op,
            from: event.from.unwrap_or(event.to),
            to: event.to,
            attempt_id: event.attempt_id.clone(),
            lease: event.lease.as_ref().map(LeaseView::from),
            replayed: false,
            expired,
            recovered_tail: None,
        };
        state.push(event)?;
        let new_events: Vec<Event> = state.events.drain(first_new..).collect();
        writer.append(new_events)?;
        Ok(Applied {
            recovered_tail: writer.recovered_tail().cloned(),
            ..applied
        })
    }

    /// Record a verification result (`req.action` must be `VerifyResult`). When it carries an
    /// auto-resolve reason (`--auto-resolve-repairs`), a passing result is resolved by A3S Test
    /// only after the `review_ready` event has been appended and synced, in a second append; a
    /// failed verification never auto-resolves. A replay of the request id must ask the same
    /// (reason included), else it is an idempotency conflict and appends nothing. Returns the
    /// result and the resolution, if any.
    pub fn record_verification(
        &self,
        req: Request,
    ) -> Result<(Applied, Option<Applied>), LedgerError> {
        let Action::VerifyResult {
            record,
            auto_resolve,
            ..
        } = &req.action
        else {
            return Err(LedgerError::new(
                ErrorCode::InvalidInput,
                "record_verification takes a verification result",
            ));
        };
        let auto_resolve = auto_resolve.is_some();
        let passed = record.passed;
        let finding_id = req.finding_id.clone();
        let result = self.apply(req)?;
        if !(auto_resolve && passed && result.to == RepairStatus::ReviewReady) {
            return Ok((result, None));
        }
        let resolved = self.apply(Request {
            finding_id,
            actor: Actor::A3sTest,
            request_id: None,
            attempt_id: None,
            action: Action::AutoResolve {},
        });
        match resolved {
            Ok(resolved) => Ok((result, Some(resolved))),
            // A replayed result may already have been resolved (or reviewed) since: `decide`
            // resolves only a finding still awaiting review (checked under the writer lock), so
            // a retry after a crash between the two appends finishes the job and a plain retry
            // changes nothing.
            Err(e) if result.replayed && e.code == ErrorCode::NotVerified => Ok((result, None)),
            Err(e) => Err(e),
        }
    }

    /// Check `req` against the folded state and build its event.
    fn decide(
        &self,
        state: &LedgerState,
        req: &Request,
        now: u64,
        expired: &[Expired],
    ) -> Result<Event, LedgerError> {
        let op = req.action.op();
        let f = state.finding(&req.finding_id).ok_or_else(|| {
            LedgerError::new(
                ErrorCode::UnknownFinding,
                format!("no finding {} in this session", req.finding_id),
            )
        })?;
        if let Some(given) = &req.attempt_id {
            if let Some(e) = expired.iter().find(|e| &e.attempt_id == given) {
                return Err(LedgerError::new(
                    ErrorCode::LeaseExpired,
                    format!(
                        "the lease of attempt {given} expired; finding {} returned to {}",
                        e.finding_id, e.to
                    ),
                ));
            }
        }
        if op == Op::AutoResolve && f.status != RepairStatus::ReviewReady {
            return Err(LedgerError::new(
                ErrorCode::NotVerified,
                format!(
                    "finding {} is {}: auto-resolve needs a persisted passing verification",
                    f.id, f.status
                ),
            ));
        }
        if let (Action::Promote { sha256, .. }, Actor::Human) = (&req.action, req.actor) {
            proven(state, f, sha256)?;
        }
        if req.actor == Actor::PageScript {
            // Page code is code an agent edits: what it queues may enter a finding, never
            // decide one. Judged here, under the lock like every refusal, so a ledger that
            // cannot be read answers `retry` first.
            return Err(LedgerError::new(
                ErrorCode::InvalidTransition,
                format!(
                    "cannot {op} finding {}: the page's script queued this action, not a \
                     person's gesture in the Review Overlay; only a person may {op}",
                    f.id
                ),
            ));
        }
        let edge = transition(op, req.actor, f.status).ok_or_else(|| {
            let from: Vec<&str> = allowed_from(op, req.actor)
                .into_iter()
                .map(RepairStatus::as_str)
                .collect();
            let allowed = if from.is_empty() {
                format!("{} cannot {op}", req.actor)
            } else {
                format!("{op} by {} is allowed from {}", req.actor, from.join(", "))
            };
            LedgerError::new(
                ErrorCode::InvalidTransition,
                format!(
                    "cannot {op} finding {}: it is {}; {allowed}",
                    f.id, f.status
                ),
            )
        })?;
        // Rejecting a result A3S Test verified says why (the reviewer's reason is what the next
        // attempt works from); withdrawing a finding not yet repaired need not.
        if let (Action::Reject { message }, RepairStatus::ReviewReady) = (&req.action, f.status) {
            if message.as_deref().is_none_or(|m| m.trim().is_empty()) {
                return Err(LedgerError::new(
                    ErrorCode::InvalidInput,
                    format!(
                        "dismissing the verified repair of finding {} needs a reason (a message)",
                        f.id
                    ),
                ));
            }
        }
        if op.needs_attempt(req.actor) {
            let given = req.attempt_id.as_ref().ok_or_else(|| {
                LedgerError::new(
                    ErrorCode::AttemptRequired,
                    format!("{op} needs the active attempt id (from claim)"),
                )
            })?;
            let lease = f.lease.as_ref().ok_or_else(|| {
                LedgerError::new(
                    ErrorCode::AttemptMismatch,
                    format!("finding {} has no active attempt", f.id),
                )
            })?;
            if &lease.attempt_id != given {
                return Err(LedgerError::new(
                    ErrorCode::AttemptMismatch,
                    format!(
                        "attempt {given} is not the active attempt of finding {}",
                        f.id
                    ),
                ));
            }
            debug_assert!(!is_expired(lease, now));
        }
        if let Action::VerifyStart { changed_files, .. }
        | Action::VerifyResult { changed_files, .. } = &req.action
        {
            let completed = f
                .active_attempt()
                .and_then(|a| a.changed_files.as_ref())
                .ok_or_else(|| {
                    LedgerError::new(
                        ErrorCode::InvalidTransition,
                        format!("finding {} has no completed attempt to verify", f.id),
                    )
                })?;
            if completed != changed_files {
                return Err(LedgerError::new(
                    ErrorCode::ChangeMismatch,
                    format!(
                        "verification of finding {} lists {} changed file(s) that differ from \
                         the {} completed (same files, same order required)",
                        f.id,
                        changed_files.len(),
                        completed.len()
                    ),
                ));
            }
        }
        let seq = state.next_seq();
        let (attempt_id, lease) = match &req.action {
            Action::Claim { lease_ms, .. } => {
                let attempt = AttemptId::parse(&format!("att{}-{seq}", f.attempts.len() + 1))?;
                let lease = new_lease(&attempt, now, lease_length(*lease_ms)?);
                (Some(attempt), Some(lease))
            }
            Action::Progress { lease_ms, .. } | Action::Complete { lease_ms, .. } => {
                let ms = lease_length(*lease_ms)?;
                let attempt = req.attempt_id.clone();
                let lease = attempt.as_ref().map(|a| new_lease(a, now, ms));
                (attempt, lease)
            }
            Action::VerifyStart { lease_ms, .. } => {
                let ms = verify_lease_length(*lease_ms)?;
                let attempt = req.attempt_id.clone();
                let lease = attempt.as_ref().map(|a| new_lease(a, now, ms));
                (attempt, lease)
            }
            // Evidence events change nothing about the attempt or its lease.
            Action::Baseline { .. } | Action::Promote { .. } => (None, f.lease.clone()),
            _ => (
                req.attempt_id
                    .clone()
                    .or_else(|| f.lease.as_ref().map(|l| l.attempt_id.clone())),
                None,
            ),
        };
        debug_assert_eq!(lease.is_some(), edge.to.holds_lease());
        Ok(Event {
            format: LEDGER_FORMAT,
            seq,
            at: rfc3339(now),
            at_ms: now,
            actor: req.actor,
            finding_id: f.id.clone(),
            request_id: req.request_id.clone(),
            attempt_id,
            from: Some(f.status),
            to: edge.to,
            action: req.action.clone(),
            lease,
            finding: None,
        })
    }
}

/// An agent claiming a finding whose verification failed takes it back to fix it: the state
/// machine's way back is `verification_failed → queued`, so A3S Test records that edge first and
/// the claim then starts a new attempt from `queued`, in the same append.
fn requeue_for_claim(state: &mut LedgerState, req: &Request, now: u64) -> Result<(), LedgerError> {
    let claims = matches!(req.action, Action::Claim { .. }) && req.actor == Actor::Agent;
    let Some(f) = state.finding(&req.finding_id) else {
        return Ok(());
    };
    if !claims || f.status != RepairStatus::VerificationFailed {
        return Ok(());
    }
    let event = stamped(
        state,
        now,
        Actor::A3sTest,
        f.id.clone(),
        Some(RepairStatus::VerificationFailed),
        RepairStatus::Queued,
        Action::Requeue {},
    );
    state.push(event)
}

/// Refuse a promotion unless the latest verification of `f`'s latest attempt has a candidate
/// whose proof passed, and `sha256` is that candidate's digest (the bytes promoted are the bytes
/// proven).
fn proven(state: &LedgerState, f: &FindingState, sha256: &str) -> Result<(), LedgerError> {
    let not_proven = |why: &str| {
        LedgerError::new(
            ErrorCode::NotProven,
            format!("cannot promote finding {}: {why}", f.id),
        )
    };
    let record = state
        .latest_verification(f)
        .ok_or_else(|| not_proven("its latest attempt has no verification"))?;
    let candidate = record
        .candidate
        .as_ref()
        .ok_or_else(|| not_proven("its latest verification generated no ACL candidate"))?;
    if !candidate.proof.passed {
        return Err(not_proven(
            "the ACL candidate of its latest verification failed its proof",
        ));
    }
    if candidate.sha256 != sha256 {
        return Err(not_proven(
            "the promoted bytes are not the proven candidate (digest differs)",
        ));
    }
    Ok(())
}

/// An event with the next sequence number and the time `now`, carrying no request, attempt, lease
/// or finding; the operations that carry one of those set it with struct update syntax.
fn stamped(
    state: &LedgerState,
    now: u64,
    actor: Actor,
    finding_id: FindingId,
    from: Option<RepairStatus>,
    to: RepairStatus,
    action: Action,
) -> Event {
    Event {
        format: LEDGER_FORMAT,
        seq: state.next_seq(),
        at: rfc3339(now),
        at_ms: now,
        actor,
        finding_id,
        request_id: None,
        attempt_id: None,
        from,
        to,
        action,
        lease: None,
        finding: None,
    }
}

fn new_lease(attempt: &AttemptId, now: u64, ms: u64) -> Lease {
    Lease {
        attempt_id: attempt.clone(),
        renewed_at_ms: now,
        expires_at_ms: now.saturating_add(ms),
    }
}

/// Apply the lease-expiry rule to every lapsed lease, pushing one `expire` event each.
fn sweep(state: &mut LedgerState, now: u64) -> Result<Vec<Expired>, LedgerError> {
    let lapsed: Vec<(FindingId, RepairStatus, Lease)> = state
        .findings
        .iter()
        .filter_map(|f| {
            let l = f.lease.as_ref()?;
            is_expired(l, now).then(|| (f.id.clone(), f.status, l.clone()))
        })
        .collect();
    let mut out = Vec::with_capacity(lapsed.len());
    for (id, status, lease) in lapsed {
        let to = expiry_target(status);
        state.push(Event {
            attempt_id: Some(lease.attempt_id.clone()),
            ..stamped(
                state,
                now,
                Actor::A3sTest,
                id.clone(),
                Some(status),
                to,
                Action::Expire {
                    expired_at_ms: lease.expires_at_ms,
                },
            )
        })?;
        out.push(Expired {
            finding_id: id,
            attempt_id: lease.attempt_id,
            to,
        });
    }
    Ok(out)
}
