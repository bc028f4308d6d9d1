//! The fold of a ledger's events into the current state of each finding.
//!
//! Replaying is also the ledger's integrity check: every event must start from the status the
//! finding is in and follow the transition table, and a request id may appear once. A ledger
//! that breaks either was not written by this crate and is reported corrupt rather than guessed
//! at.

use crate::error::{ErrorCode, LedgerError};
use crate::event::{Action, Event, Lease};
use crate::id::{AttemptId, FindingId, RequestId};
use crate::record::{Finding, Intent};
use crate::status::{transition, Actor, Op, RepairStatus};
use crate::store::TornTail;
use crate::verification::{Baseline, VerificationRecord};
use std::collections::HashMap;

/// One attempt (one lease's worth of work) on a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptState {
    /// The attempt id returned by `claim`.
    pub id: AttemptId,
    /// 1 for the first attempt on the finding, 2 for the next, …
    pub number: u32,
    /// When it claimed (ms).
    pub claimed_at_ms: u64,
    /// When it ended (lease gone), if it has.
    pub ended_at_ms: Option<u64>,
    /// The operation that ended it.
    pub ended_by: Option<Op>,
    /// The ordered changed files it completed with.
    pub changed_files: Option<Vec<String>>,
    /// The replacement target it completed with, if it declared one.
    pub replacement: Option<String>,
    /// The verification result, if one was recorded.
    pub verified: Option<bool>,
    /// Index (in `LedgerState::events`) of its latest verification result, if any.
    pub last_verification: Option<usize>,
    /// The verification checks pinned when it claimed (`None` in older ledgers).
    pub pinned: Option<crate::event::PinnedChecks>,
}

/// The current state of one finding.
#[derive(Clone, Debug)]
pub struct FindingState {
    /// The finding's id.
    pub id: FindingId,
    /// Index of its intake event in `LedgerState::events`.
    pub intake: usize,
    /// Its status.
    pub status: RepairStatus,
    /// The lease in force, if any (it may have expired: check with the clock).
    pub lease: Option<Lease>,
    /// When it last entered `queued` (ms).
    pub queued_at_ms: u64,
    /// When its last event happened (ms).
    pub updated_at_ms: u64,
    /// Its attempts, oldest first.
    pub attempts: Vec<AttemptState>,
    /// Indices of all its events, oldest first.
    pub history: Vec<usize>,
    /// Index of its (first) baseline event, if A3S Test captured one.
    pub baseline: Option<usize>,
}

impl FindingState {
    /// The attempt holding the lease, if any.
    pub fn active_attempt(&self) -> Option<&AttemptState> {
        let lease = self.lease.as_ref()?;
        self.attempts
            .iter()
            .rev()
            .find(|a| a.id == lease.attempt_id)
    }

    /// The most recent attempt, active or not.
    pub fn latest_attempt(&self) -> Option<&AttemptState> {
        self.attempts.last()
    }
}

/// Every finding of one ledger, folded from its events.
#[derive(Debug, Default)]
pub struct LedgerState {
    /// The events, in sequence order.
    pub events: Vec<Event>,
    /// The findings, in intake order.
    pub findings: Vec<FindingState>,
    /// A torn last line seen on read, if any.
    pub torn_tail: Option<TornTail>,
    by_id: HashMap<FindingId, usize>,
    requests: HashMap<RequestId, usize>,
}

impl LedgerState {
    /// Fold `events` (already checked for format and sequence by the store).
    pub fn fold(events: Vec<Event>, torn_tail: Option<TornTail>) -> Result<Self, LedgerError> {
        let mut state = LedgerState {
            torn_tail,
            ..LedgerState::default()
        };
        for event in events {
            state.push(event)?;
        }
        Ok(state)
    }

    /// The finding with `id`.
    pub fn finding(&self, id: &FindingId) -> Option<&FindingState> {
        self.by_id.get(id).map(|&i| &self.findings[i])
    }

    /// The stored finding record of `state`, parsed from its intake event.
    pub fn record(&self, state: &FindingState) -> Result<Finding, LedgerError> {
        self.events[state.intake].record()
    }

    /// Only the intent of `state`'s finding (a cheaper parse than `record`).
    pub fn intent(&self, state: &FindingState) -> Result<Intent, LedgerError> {
        #[derive(serde::Deserialize)]
        struct IntentOnly {
            intent: Intent,
        }
        let e = &self.events[state.intake];
        let raw: &[u8] = e.finding.as_ref().map_or(b"", |r| r.bytes());
        // A view may hold the payload unchecked: this parse is its check.
        serde_json::from_slice::<IntentOnly>(raw)
            .map(|i| i.intent)
            .map_err(|err| {
                LedgerError::new(
                    ErrorCode::LedgerCorrupt,
                    format!("event {}: bad finding: {err}", e.seq),
                )
            })
    }

    /// The before baseline A3S Test captured for `state`'s finding, if any.
    pub fn baseline(&self, state: &FindingState) -> Option<&Baseline> {
        match &self.events[state.baseline?].action {
            Action::Baseline { baseline } => Some(baseline),
            _ => None,
        }
    }

    /// The latest verification record of `attempt` (of `state`'s finding), if one was recorded.
    pub fn verification(&self, attempt: &AttemptState) -> Option<&VerificationRecord> {
        match &self.events[attempt.last_verification?].action {
            Action::VerifyResult { record, .. } => Some(record),
            _ => None,
        }
    }

    /// The latest verification of the finding's latest attempt: what promotion and the next
    /// action look at.
    pub fn latest_verification(&self, state: &FindingState) -> Option<&VerificationRecord> {
        self.verification(state.latest_attempt()?)
    }

    /// The result of the latest ACL candidate proof of `state`'s finding, over all its attempts
    /// (`None` when no verification proved a candidate yet): the slice's `priorAclProofPassed`.
    pub fn prior_acl_proof_passed(&self, state: &FindingState) -> Option<bool> {
        state
            .attempts
            .iter()
            .rev()
            .filter_map(|a| self.verification(a))
            .find_map(|r| r.candidate.as_ref().map(|c| c.proof.passed))
    }

    /// The event that used request id `id`, if any.
    pub fn request(&self, id: &RequestId) -> Option<&Event> {
        self.requests.get(id).map(|&i| &self.events[i])
    }

    /// The sequence number the next event gets.
    pub fn next_seq(&self) -> u64 {
        self.events.len() as u64 + 1
    }

    /// Apply one more event (the next in sequence), checking it against the state machine.
    pub fn push(&mut self, event: Event) -> Result<(), LedgerError> {
        let index = self.events.len();
        let corrupt = |msg: String| {
            Err(LedgerError::new(
                ErrorCode::LedgerCorrupt,
                format!("event {}: {msg}", event.seq),
            ))
        };
        if let Some(rid) = &event.request_id {
            if self.requests.insert(rid.clone(), index).is_some() {
                return corrupt(format!("request id {rid} is used twice"));
            }
        }
        let op = event.op();
        if op == Op::Intake {
            if event.finding.is_none() {
                return corrupt("intake without its finding".into());
            }
            if self.by_id.contains_key(&event.finding_id) {
                return corrupt(format!("finding {} enters twice", event.finding_id));
            }
            if event.from.is_some() || event.to != RepairStatus::Queued {
                return corrupt("intake must enter as queued".into());
            }
            if !matches!(event.actor, Actor::Human | Actor::PageScript) {
                return corrupt(format!(
                    "intake by {} (only a sender may enter a finding)",
                    event.actor
                ));
            }
            self.by_id
                .insert(event.finding_id.clone(), self.findings.len());
            self.findings.push(FindingState {
                id: event.finding_id.clone(),
                intake: index,
                status: RepairStatus::Queued,
                lease: None,
                queued_at_ms: event.at_ms,
                updated_at_ms: event.at_ms,
                attempts: Vec::new(),
                history: vec![index],
                baseline: None,
            });
            self.events.push(event);
            return Ok(());
        }
        let Some(&fi) = self.by_id.get(&event.finding_id) else {
            return corrupt(format!("unknown finding {}", event.finding_id));
        };
        let f = &mut self.findings[fi];
        if event.from != Some(f.status) {
            return corrupt(format!(
                "{op} from {:?} but finding {} is {}",
                event.from, f.id, f.status
            ));
        }
        match transition(op, event.actor, f.status) {
            Some(t) if t.to == event.to => {}
            _ => {
                return corrupt(format!(
                    "{op} by {} from {} to {} is not in the state machine",
                    event.actor, f.status, event.to
                ))
            }
        }
        let at = event.at_ms;
        match (&event.action, &event.attempt_id) {
            (Action::Claim { pinned, .. }, Some(attempt)) => f.attempts.push(AttemptState {
                id: attempt.clone(),
                number: f.attempts.len() as u32 + 1,
                claimed_at_ms: at,
                ended_at_ms: None,
                ended_by: None,
                changed_files: None,
                replacement: None,
                verified: None,
                last_verification: None,
                pinned: pinned.clone(),
            }),
            (Action::Claim { .. }, None) => return corrupt("claim without attempt id".into()),
            (
                Action::Complete {
                    changed_files,
                    replacement,
                    ..
                },
                Some(attempt),
            ) => {
                if let Some(a) = f.attempts.iter_mut().find(|a| &a.id == attempt) {
                    a.changed_files = Some(changed_files.clone());
                    a.replacement = replacement.clone();
                }
            }
            (Action::VerifyResult { record, .. }, Some(attempt)) => {
                if let Some(a) = f.attempts.iter_mut().find(|a| &a.id == attempt) {
                    a.verified = Some(record.passed);
                    a.last_verification = Some(index);
                }
            }
            (Action::Baseline { .. }, _) => {
                f.baseline.get_or_insert(index);
            }
            _ => {}
        }
        if f.lease.is_some() && event.lease.is_none() {
            if let Some(a) = f.attempts.last_mut() {
                a.ended_at_ms = Some(at);
                a.ended_by = Some(op);
            }
        }
        f.status = event.to;
        f.lease = event.lease.clone();
        f.updated_at_ms = at;
        if event.to == RepairStatus::Queued {
            f.queued_at_ms = at;
        }
        f.history.push(index);
        self.events.push(event);
        Ok(())
    }
}
