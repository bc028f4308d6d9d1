//! Every operation by every actor from every status the ledger can hold: valid ones move the
//! finding exactly as the transition table says; invalid ones return a coded error and leave the
//! ledger byte-for-byte unchanged. The table itself is checked against the edges of
//! `docs/repair.md` ("States").

mod common;

use a3s_test_ledger::status::{transition, TRANSITIONS};
use a3s_test_ledger::*;
use common::*;
use std::collections::BTreeSet;
use RepairStatus::*;

/// The state machine of `docs/repair.md` ("States"), edge by edge, as written there.
fn architecture_edges() -> BTreeSet<(RepairStatus, RepairStatus)> {
    let mut e = BTreeSet::new();
    for w in [
        Draft,
        Queued,
        Claimed,
        Repairing,
        Verifying,
        ReviewReady,
        Resolved,
    ]
    .windows(2)
    {
        e.insert((w[0], w[1]));
    }
    for to in [Cancelled, NeedsInput, Failed] {
        e.insert((Queued, to));
    }
    e.insert((Claimed, Queued));
    for from in [Repairing, Verifying] {
        e.insert((from, NeedsInput));
        e.insert((from, Failed));
    }
    e.insert((Verifying, VerificationFailed));
    for from in [NeedsInput, VerificationFailed, Reopened] {
        for to in [Queued, Cancelled, Failed] {
            e.insert((from, to));
        }
    }
    for to in [Resolved, Reopened, Dismissed] {
        e.insert((ReviewReady, to));
    }
    for from in [Resolved, Dismissed, Cancelled, Failed] {
        e.insert((from, Reopened));
    }
    e
}

#[test]
fn table_is_exactly_the_architecture_state_machine() {
    let arch = architecture_edges();
    let table: BTreeSet<_> = TRANSITIONS
        .iter()
        .filter(|t| t.from != t.to)
        .map(|t| (t.from, t.to))
        .collect();
    let self_loops: Vec<_> = TRANSITIONS.iter().filter(|t| t.from == t.to).collect();
    assert!(self_loops.iter().all(|t| matches!(
        t.op,
        Op::Progress | Op::VerifyStart | Op::Baseline | Op::Promote
    )));
    let missing: Vec<_> = arch.difference(&table).collect();
    // draft → queued is the page's send; the ledger receives it as an intake.
    assert_eq!(missing, vec![&(Draft, Queued)]);
    let extra: Vec<_> = table.difference(&arch).collect();
    assert!(extra.is_empty(), "edges not in docs/repair.md: {extra:?}");
}

#[test]
fn every_op_actor_and_status_is_valid_exactly_when_the_table_says() {
    let statuses: Vec<RepairStatus> = RepairStatus::ALL
        .into_iter()
        .filter(|s| *s != Draft)
        .collect();
    let requests: Vec<(Actor, Action)> = vec![
        claim(),
        progress(),
        reply(),
        complete(),
        fail(),
        (Actor::A3sTest, Action::Fail { summary: None }),
        (Actor::Agent, Action::Release { message: None }),
        verify_start(),
        verify(true),
        verify(false),
        accept(),
        (Actor::A3sTest, Action::AutoResolve {}),
        reject(),
        reopen(),
        answer(),
        baseline(),
        promote(),
    ];
    let actors = [
        Actor::Human,
        Actor::Agent,
        Actor::A3sTest,
        Actor::PageScript,
    ];
    let mut checked = 0;
    for status in &statuses {
        let fx = Fixture::new();
        fx.import(&[finding("f1", "")]).unwrap();
        fx.drive("f1", *status);
        for (_, action) in &requests {
            for actor in actors {
                let op = action.op();
                let before = fx.bytes();
                // Claiming a failed verification goes through `requeue` first.
                let expected = match (op, actor, *status) {
                    (Op::Claim, Actor::Agent, VerificationFailed) => {
                        transition(Op::Claim, actor, Queued)
                    }
                    _ => transition(op, actor, *status),
                };
                let result = fx.act("f1", actor, action.clone());
                match (expected, result) {
                    (Some(t), Ok(applied)) => {
                        assert_eq!(applied.to, t.to, "{op} by {actor} from {status}");
                        assert_eq!(fx.status("f1"), t.to);
                        // Put the ledger back so the next case starts from `status` again.
                        std::fs::write(fx.ledger.path(), &before).unwrap();
                        checked += 1;
                    }
                    (None, Err(err)) => {
                        let ok_codes = [
                            ErrorCode::InvalidTransition,
                            ErrorCode::NotVerified,
                            ErrorCode::InvalidInput,
                            ErrorCode::NotProven,
                        ];
                        assert!(
                            ok_codes.contains(&err.code),
                            "{op} by {actor} from {status}: {err}"
                        );
                        assert_eq!(fx.bytes(), before, "{op} by {actor} from {status} wrote");
                        assert_eq!(fx.status("f1"), *status);
                        checked += 1;
                    }
                    (Some(_), Err(e)) => panic!("{op} by {actor} from {status} refused: {e}"),
                    (None, Ok(a)) => panic!("{op} by {actor} from {status} allowed: {a:?}"),
                }
            }
        }
    }
    assert_eq!(checked, statuses.len() * requests.len() * actors.len());
}

#[test]
fn agent_operations_need_the_active_attempt() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Claimed);
    let before = fx.bytes();
    let (a, act) = progress();
    let err = fx.op("f1", a, None, act.clone()).unwrap_err();
    assert_eq!(err.code, ErrorCode::AttemptRequired);
    let wrong = AttemptId::parse("att9-99").unwrap();
    let err = fx.op("f1", a, Some(wrong), act).unwrap_err();
    assert_eq!(err.code, ErrorCode::AttemptMismatch);
    let (a, act) = claim();
    let err = fx
        .op("f1", a, Some(AttemptId::parse("x").unwrap()), act)
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(fx.bytes(), before);
}

#[test]
fn second_worker_cannot_claim_a_claimed_finding() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    let first = fx.act("f1", Actor::Agent, claim().1).unwrap();
    let err = fx.act("f1", Actor::Agent, claim().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidTransition);
    assert_eq!(fx.active_attempt("f1"), first.attempt_id);
}

#[test]
fn unknown_findings_and_internal_ops_are_refused() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    let before = fx.bytes();
    let err = fx.act("nope", Actor::Agent, claim().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::UnknownFinding);
    let err = fx
        .act("f1", Actor::A3sTest, Action::Expire { expired_at_ms: 0 })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    let err = fx
        .ledger
        .apply(Request {
            finding_id: fid("f1"),
            actor: Actor::Agent,
            request_id: None,
            attempt_id: None,
            action: claim().1,
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(fx.bytes(), before);
}
