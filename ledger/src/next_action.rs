//! The typed next action a view offers for a finding, with a ready command line.
//!
//! Commands are assembled from fixed words and validated ids only (`CommandArg` cannot hold
//! anything else), so no instruction, page text or agent message can ever reach a generated
//! command. Arguments that need free text (a message, the changed files) are named in
//! `add_arguments` for the caller to supply; the command fails closed without them.

use crate::event::Action;
use crate::id::{AttemptId, FindingId, RequestId, SessionId};
use crate::lease::LeaseState;
use crate::record::Intent;
use crate::state::{FindingState, LedgerState};
use crate::status::{Actor, RepairStatus};
use crate::verification::VerifyStep;
use serde::Serialize;
use std::hash::{BuildHasher, Hasher};

/// What should happen next to a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NextActionKind {
    /// An agent claims it.
    Claim,
    /// The holding agent reports progress (starts editing).
    Progress,
    /// The holding agent completes with its changed files.
    Complete,
    /// A3S Test verifies the completed attempt on a newer page revision.
    AwaitVerification,
    /// A reviewer answers (and so re-queues it).
    Answer,
    /// A reviewer accepts, rejects or reopens the verified repair.
    Accept,
    /// Read it; nothing to claim.
    Inspect,
    /// Verification failed on something the edit can change (target, criteria, errors, checks,
    /// candidate): an agent claims it again, fixes it and completes again.
    Fix,
    /// Verification passed with a proven ACL candidate: a reviewer may promote it to a suite
    /// file (and accepts as usual).
    Promote,
    /// A mutation lease expired after edits may have begun: reconcile the working tree with the
    /// record before anyone edits again.
    ReconcileLease,
}

/// One word of a generated command: a fixed word or a validated id.
#[derive(Clone, Debug)]
pub enum CommandArg<'a> {
    /// A fixed word of this crate.
    Word(&'static str),
    /// A validated session id.
    Session(&'a SessionId),
    /// A validated finding id.
    Finding(&'a FindingId),
    /// A validated request id.
    Request(&'a RequestId),
    /// A validated attempt id.
    Attempt(&'a AttemptId),
}

impl CommandArg<'_> {
    fn as_str(&self) -> &str {
        match self {
            CommandArg::Word(w) => w,
            CommandArg::Session(s) => s.as_str(),
            CommandArg::Finding(f) => f.as_str(),
            CommandArg::Request(r) => r.as_str(),
            CommandArg::Attempt(a) => a.as_str(),
        }
    }
}

/// A next action with its command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NextAction {
    /// What to do.
    pub kind: NextActionKind,
    /// Who does it.
    pub actor: Actor,
    /// The command as one line (ids only; safe to run as shown).
    pub command: String,
    /// The same command as an argument vector.
    pub argv: Vec<String>,
    /// Arguments the caller must add (free text is never generated).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub add_arguments: Vec<&'static str>,
    /// A fixed explanation.
    pub hint: &'static str,
}

/// A source of fresh request ids for generated commands: each command gets its own, so two
/// workers copying commands never share one (a shared id would replay the other's claim).
pub trait RequestIdSource {
    /// A new request id.
    fn fresh(&self) -> RequestId;
}

/// Random request ids (`r` + 16 hex digits) from the standard library's randomly keyed hasher.
#[derive(Debug, Default)]
pub struct RandomRequestIds {
    counter: std::sync::atomic::AtomicU64,
}

impl RequestIdSource for RandomRequestIds {
    fn fresh(&self) -> RequestId {
        let n = self
            .counter
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(n);
        h.write_u32(std::process::id());
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        RequestId::parse(&format!("r{:016x}", h.finish())).expect("hex is a valid id")
    }
}

fn build(
    kind: NextActionKind,
    actor: Actor,
    args: &[CommandArg<'_>],
    add_arguments: Vec<&'static str>,
    hint: &'static str,
) -> NextAction {
    let mut argv = vec!["a3s-test".to_owned()];
    argv.extend(args.iter().map(|a| a.as_str().to_owned()));
    NextAction {
        kind,
        actor,
        command: argv.join(" "),
        argv,
        add_arguments,
        hint,
    }
}

/// What the latest verification of a finding's latest attempt says, as far as the next action
/// cares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerificationOutlook {
    /// The failing step, when that verification failed.
    pub failed_step: Option<VerifyStep>,
    /// It has a proven ACL candidate that no reviewer has promoted since.
    pub promotable: bool,
}

impl VerificationOutlook {
    /// The outlook of `f` in the folded ledger `state`.
    pub fn of(state: &LedgerState, f: &FindingState) -> Self {
        let Some(attempt) = f.latest_attempt() else {
            return Self::default();
        };
        let Some(record) = state.verification(attempt) else {
            return Self::default();
        };
        let verified_at = attempt.last_verification.unwrap_or(0);
        let promoted = f
            .history
            .iter()
            .any(|&i| i > verified_at && matches!(state.events[i].action, Action::Promote { .. }));
        VerificationOutlook {
            failed_step: (!record.passed)
                .then(|| record.failure.as_ref().map(|f| f.step))
                .flatten(),
            promotable: record.proven_candidate().is_some() && !promoted,
        }
    }
}

/// The lease of finding `f` as of `now` and its next action: what the inbox and inspect views
/// both show, computed in one place so they never disagree.
pub(crate) fn next_action_of(
    session: &SessionId,
    state: &LedgerState,
    f: &FindingState,
    intent: Intent,
    now: u64,
    ids: &dyn RequestIdSource,
) -> (LeaseState, NextAction) {
    let lease = LeaseState::at(f.lease.as_ref(), f.status, now);
    let next = next_action(
        session,
        &f.id,
        f.status,
        intent,
        &lease,
        f.lease.as_ref().map(|l| &l.attempt_id),
        VerificationOutlook::of(state, f),
        ids,
    );
    (lease, next)
}

/// The next action for a finding in `status` with lease state `lease` and what its latest
/// verification says (`outlook`).
#[allow(clippy::too_many_arguments)]
pub fn next_action(
    session: &SessionId,
    finding: &FindingId,
    status: RepairStatus,
    intent: Intent,
    lease: &LeaseState,
    active_attempt: Option<&AttemptId>,
    outlook: VerificationOutlook,
    ids: &dyn RequestIdSource,
) -> NextAction {
    use CommandArg::{Attempt, Finding, Request, Session, Word};
    use NextActionKind as K;
    let rid = ids.fresh();
    let inspect = |kind: NextActionKind, actor: Actor, hint: &'static str| {
        build(
            kind,
            actor,
            &[
                Word("agent"),
                Word("repair-inspect"),
                Finding(finding),
                Word("--session"),
                Session(session),
                Word("--json"),
            ],
            vec![],
            hint,
        )
    };
    let with_request = |verb: &'static str| {
        [
            Word("agent"),
            Word(verb),
            Finding(finding),
            Word("--session"),
            Session(session),
            Word("--request-id"),
            Request(&rid),
        ]
    };
    let with_attempt = |verb: &'static str| -> Option<Vec<CommandArg<'_>>> {
        let a = active_attempt?;
        let mut v = with_request(verb).to_vec();
        v.extend([Word("--attempt-id"), Attempt(a), Word("--json")]);
        Some(v)
    };
    // A request-carrying command with no further identifiers, answered as JSON.
    let request = |kind: NextActionKind, actor: Actor, verb: &'static str, add, hint| {
        let mut v = with_request(verb).to_vec();
        v.push(Word("--json"));
        build(kind, actor, &v, add, hint)
    };
    if let LeaseState::Expired { returns_to, .. } = lease {
        return if *returns_to == RepairStatus::Queued {
            request(
                K::Claim,
                Actor::Agent,
                "repair-claim",
                vec![],
                "the lease expired before any edit; claiming returns it to the queue first",
            )
        } else {
            inspect(
                K::ReconcileLease,
                Actor::Agent,
                "the lease expired after edits may have begun: reconcile the working tree with \
                 this record before anyone edits again; a reviewer then answers",
            )
        };
    }
    match status {
        RepairStatus::Queued if intent == Intent::Approve => inspect(
            K::Inspect,
            Actor::Agent,
            "an approval: nothing to repair, read it only",
        ),
        RepairStatus::Queued => request(
            K::Claim,
            Actor::Agent,
            "repair-claim",
            vec![],
            "claim it to get an attempt id and a lease",
        ),
        RepairStatus::Claimed => match with_attempt("repair-progress") {
            Some(v) => build(
                K::Progress,
                Actor::Agent,
                &v,
                vec![],
                "report progress before editing; it renews the lease",
            ),
            None => inspect(K::Inspect, Actor::Agent, "no active attempt"),
        },
        RepairStatus::Repairing => match with_attempt("repair-complete") {
            Some(v) => build(
                K::Complete,
                Actor::Agent,
                &v,
                vec!["--changed-file PATH (once per changed file, in order) or --no-changed-files"],
                "complete with the exact ordered list of changed files",
            ),
            None => inspect(K::Inspect, Actor::Agent, "no active attempt"),
        },
        RepairStatus::Verifying => inspect(
            K::AwaitVerification,
            Actor::A3sTest,
            "A3S Test verifies the completed attempt on a newer page revision",
        ),
        RepairStatus::VerificationFailed
            if outlook.failed_step.is_some_and(|s| {
                matches!(
                    s,
                    VerifyStep::Target
                        | VerifyStep::Criteria
                        | VerifyStep::Errors
                        | VerifyStep::Checks
                        | VerifyStep::Candidate
                )
            }) =>
        {
            request(
                K::Fix,
                Actor::Agent,
                "repair-claim",
                vec![],
                "verification failed on something the edit can change (see the failing step): \
                 claim it again, fix it, and complete with the changed files",
            )
        }
        RepairStatus::ReviewReady if outlook.promotable => build(
            K::Promote,
            Actor::Human,
            &[
                Word("agent"),
                Word("repair-promote"),
                Finding(finding),
                Word("--session"),
                Session(session),
                Word("--json"),
            ],
            vec!["--output SUITE.acl"],
            "verification passed and its ACL candidate is proven: a reviewer may promote it to a \
             suite file, and accepts, rejects or reopens the repair",
        ),
        RepairStatus::NeedsInput | RepairStatus::VerificationFailed | RepairStatus::Reopened => {
            request(
                K::Answer,
                Actor::Human,
                "repair-answer",
                vec!["--message TEXT"],
                "a reviewer answers; the finding is queued again",
            )
        }
        RepairStatus::ReviewReady => request(
            K::Accept,
            Actor::Human,
            "repair-accept",
            vec![],
            "verification passed: a reviewer accepts, rejects or reopens",
        ),
        RepairStatus::Draft
        | RepairStatus::Resolved
        | RepairStatus::Cancelled
        | RepairStatus::Failed
        | RepairStatus::Dismissed => inspect(
            K::Inspect,
            Actor::Human,
            "finished; a reviewer may reopen it",
        ),
    }
}
