//! The verification rules of the ledger: who may record a baseline, a verdict and a promotion;
//! that a verdict agrees with its facts; that promotion needs a proven candidate on the latest
//! attempt; the next actions that follow; and the `repair-inspect` view of it all (snapshot).

mod common;

use a3s_test_ledger::*;
use common::*;
use RepairStatus::*;

fn verify_with(record: VerificationRecord) -> Action {
    Action::VerifyResult {
        record: Box::new(record),
        changed_files: files(),
        auto_resolve: None,
    }
}

fn next_kind(fx: &Fixture, id: &str) -> NextActionKind {
    fx.inspect(id).unwrap().next_action.kind
}

#[test]
fn only_a3s_test_records_a_verdict() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Verifying);
    let attempt = fx.active_attempt("f1");
    for actor in [Actor::Agent, Actor::Human] {
        for passed in [true, false] {
            let before = fx.bytes();
            let attempt = attempt.clone().filter(|_| actor == Actor::Agent);
            let err = fx.op("f1", actor, attempt, verify(passed).1).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidTransition, "{actor}: {err}");
            assert_eq!(fx.bytes(), before, "{actor} wrote to the ledger");
            assert_eq!(fx.status("f1"), Verifying);
        }
    }
    let applied = fx.act("f1", Actor::A3sTest, verify(true).1).unwrap();
    assert_eq!(applied.to, ReviewReady);
    let state = fx.ledger.read().unwrap();
    let f = state.finding(&fid("f1")).unwrap();
    assert_eq!(state.latest_verification(f), Some(&record(true)));
}

#[test]
fn a_verdict_must_agree_with_its_facts() {
    type Break = fn(&mut VerificationRecord);
    let cases: Vec<(&str, Break)> = vec![
        ("a failed check", |r| {
            r.checks[0].outcome = CheckOutcome::TimedOut
        }),
        ("a missing check result", |r| r.checks.clear()),
        ("no slice", |r| r.slice = None),
        ("a false criterion", |r| {
            r.page.criteria[1].passed = Some(false)
        }),
        ("an unevaluated criterion", |r| {
            r.page.criteria[1].passed = None
        }),
        ("a new page error", |r| {
            r.page.errors.as_mut().unwrap().new_page_errors = 1;
        }),
        ("a failed layout check", |r| {
            r.page.layout = Some(verification::LayoutOutcome {
                check: verification::LayoutCheck::Rearrange,
                in_viewport: true,
                occupant: None,
                overlap_px: Some(0),
                passed: false,
            });
        }),
        ("an unproven candidate", |r| {
            r.candidate.as_mut().unwrap().proof.passed = false;
        }),
        ("a failure", |r| {
            r.failure = record(false).failure;
        }),
        ("a wrong protocol", |r| r.protocol = "x/1".into()),
        ("an escaping evidence path", |r| {
            r.page.evidence[0].path = "../../etc/passwd".into();
        }),
        ("a bad digest", |r| {
            r.page.evidence[0].sha256 = "sha256:XY".into()
        }),
        ("UI facts without the file they come from", |r| {
            r.page
                .evidence
                .retain(|e| e.kind != verification::EvidenceKind::UiUnderstanding);
        }),
        ("too many UI facts", |r| {
            r.page.ui_facts = vec!["@u1 clip".into(); verification::MAX_UI_FACTS + 1];
        }),
        ("a UI fact without its @uN", |r| {
            r.page.ui_facts = vec!["clip @c1".into()];
        }),
        ("a UI fact past its length", |r| {
            r.page.ui_facts = vec![format!(
                "@u1 {}",
                "x".repeat(verification::MAX_UI_FACT_CHARS)
            )];
        }),
    ];
    for (name, break_it) in cases {
        let fx = Fixture::new();
        fx.import(&[finding("f1", "")]).unwrap();
        fx.drive("f1", Verifying);
        let mut r = record(true);
        break_it(&mut r);
        let before = fx.bytes();
        let err = fx.act("f1", Actor::A3sTest, verify_with(r)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidInput, "{name}: {err}");
        assert_eq!(fx.bytes(), before, "{name}");
    }
    // A failed verdict must say where it failed.
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Verifying);
    let mut r = record(false);
    r.failure = None;
    let err = fx.act("f1", Actor::A3sTest, verify_with(r)).unwrap_err();
    assert!(err.message.contains("failing step"), "{err}");
    // A console error alone does not contradict a pass (it only expands the slice).
    let mut r = record(true);
    r.page.errors.as_mut().unwrap().new_console_errors = 2;
    assert_eq!(
        fx.act("f1", Actor::A3sTest, verify_with(r)).unwrap().to,
        ReviewReady
    );
}

#[test]
fn ledgers_with_the_old_verdict_shape_are_refused() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Verifying);
    let attempt = fx.active_attempt("f1").unwrap();
    let mut bytes = fx.bytes();
    let seq = fx.ledger.read().unwrap().events.len() + 1;
    bytes.extend(format!(
        r#"{{"format":1,"seq":{seq},"at":"2026-01-01T00:00:00.000Z","at_ms":{T0},"actor":"a3s-test","finding_id":"f1","attempt_id":"{attempt}","from":"verifying","to":"review_ready","action":{{"verify_result":{{"passed":true,"summary":null,"changed_files":["src/App.tsx"],"evidence_digests":[]}}}}}}"#
    ).bytes());
    bytes.push(b'\n');
    std::fs::write(fx.ledger.path(), bytes).unwrap();
    let err = fx.ledger.read().unwrap_err();
    assert_eq!(err.code, ErrorCode::LedgerCorrupt, "{err}");
}

#[test]
fn the_first_baseline_wins_and_only_a3s_test_records_one() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Claimed);
    let lease_before = fx
        .ledger
        .read()
        .unwrap()
        .finding(&fid("f1"))
        .unwrap()
        .lease
        .clone();
    for actor in [Actor::Agent, Actor::Human] {
        let before = fx.bytes();
        let err = fx.act("f1", actor, baseline().1).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidTransition, "{actor}");
        assert_eq!(fx.bytes(), before);
    }
    let first = fx.act("f1", Actor::A3sTest, baseline().1).unwrap();
    assert_eq!(
        (first.from, first.to, first.replayed),
        (Claimed, Claimed, false)
    );
    let state = fx.ledger.read().unwrap();
    let f = state.finding(&fid("f1")).unwrap();
    assert_eq!(f.lease, lease_before, "a baseline leaves the lease alone");
    assert_eq!(state.baseline(f).unwrap().console_errors, 1);
    // A second capture is a no-op: the stored baseline stands.
    let before = fx.bytes();
    let Action::Baseline {
        baseline: mut later,
    } = baseline().1
    else {
        unreachable!()
    };
    later.console_errors = 9;
    let again = fx
        .act("f1", Actor::A3sTest, Action::Baseline { baseline: later })
        .unwrap();
    assert!(again.replayed);
    assert_eq!(again.seq, first.seq);
    assert_eq!(fx.bytes(), before);
    // A finished finding takes no baseline.
    let fx = Fixture::new();
    fx.import(&[finding("f2", "")]).unwrap();
    fx.drive("f2", Cancelled);
    let err = fx.act("f2", Actor::A3sTest, baseline().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidTransition);
}

#[test]
fn promotion_needs_a_human_and_a_proven_candidate_on_the_latest_attempt() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", ""), finding("f3", "")])
        .unwrap();
    fx.drive("f1", ReviewReady);
    // Not the agent, not A3S Test.
    for actor in [Actor::Agent, Actor::A3sTest] {
        let err = fx.act("f1", actor, promote().1).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidTransition, "{actor}");
    }
    // Not other bytes than the proven ones.
    let err = fx
        .act(
            "f1",
            Actor::Human,
            Action::Promote {
                path: "suites/f1.acl".into(),
                sha256: digest("ee"),
            },
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotProven);
    let before_status = fx.status("f1");
    let applied = fx.act("f1", Actor::Human, promote().1).unwrap();
    assert_eq!((applied.from, applied.to), (ReviewReady, ReviewReady));
    assert_eq!(fx.status("f1"), before_status);

    // A verification whose candidate failed its proof cannot be promoted.
    fx.drive("f2", Verifying);
    let mut r = record(false);
    r.candidate.as_mut().unwrap().proof.passed = false;
    r.failure.as_mut().unwrap().step = VerifyStep::Candidate;
    fx.act("f2", Actor::A3sTest, verify_with(r)).unwrap();
    let before = fx.bytes();
    let err = fx.act("f2", Actor::Human, promote().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::NotProven, "{err}");
    assert_eq!(fx.bytes(), before);

    // Proven on an earlier attempt is not enough: the latest attempt decides.
    fx.drive("f3", Reopened);
    fx.act("f3", Actor::Human, answer().1).unwrap();
    fx.act("f3", Actor::Agent, claim().1).unwrap();
    let err = fx.act("f3", Actor::Human, promote().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::NotProven, "{err}");
}

#[test]
fn a_failed_check_sends_the_agent_back_to_fix_and_complete() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", "")]).unwrap();
    fx.drive("f1", VerificationFailed);
    assert_eq!(next_kind(&fx, "f1"), NextActionKind::Fix);
    // Claiming it requeues first (the state machine's way back), then starts a new attempt.
    let applied = fx.act("f1", Actor::Agent, claim().1).unwrap();
    assert_eq!(applied.to, Claimed);
    let state = fx.ledger.read().unwrap();
    let f = state.finding(&fid("f1")).unwrap();
    assert_eq!(f.attempts.len(), 2);
    let ops: Vec<Op> = f.history.iter().map(|&i| state.events[i].op()).collect();
    assert_eq!(ops[ops.len() - 2..], [Op::Requeue, Op::Claim]);
    drop(state);
    fx.act("f1", Actor::Agent, progress().1).unwrap();
    fx.act("f1", Actor::Agent, complete().1).unwrap();
    assert_eq!(fx.status("f1"), Verifying);
    // A refused claim (an approval is no different, but a human cannot claim) appends nothing,
    // not even the requeue.
    fx.drive("f2", VerificationFailed);
    let before = fx.bytes();
    let err = fx.act("f2", Actor::Human, claim().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidTransition);
    assert_eq!(fx.bytes(), before);
    // A3S Test's own requeue cannot be requested.
    let err = fx
        .act("f2", Actor::A3sTest, Action::Requeue {})
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    // A revision that never arrived is not the agent's to fix by editing: a reviewer answers.
    let fx = Fixture::new();
    fx.import(&[finding("f3", "")]).unwrap();
    fx.drive("f3", Verifying);
    let mut r = record(false);
    r.failure.as_mut().unwrap().step = VerifyStep::Revision;
    fx.act("f3", Actor::A3sTest, verify_with(r)).unwrap();
    assert_eq!(next_kind(&fx, "f3"), NextActionKind::Answer);
}

#[test]
fn review_ready_offers_promotion_until_promoted() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", "")]).unwrap();
    fx.drive("f1", ReviewReady);
    assert_eq!(next_kind(&fx, "f1"), NextActionKind::Promote);
    fx.act("f1", Actor::Human, promote().1).unwrap();
    assert_eq!(next_kind(&fx, "f1"), NextActionKind::Accept);
    // Without a candidate there is nothing to promote.
    fx.drive("f2", Verifying);
    let mut r = record(true);
    r.candidate = None;
    fx.act("f2", Actor::A3sTest, verify_with(r)).unwrap();
    assert_eq!(next_kind(&fx, "f2"), NextActionKind::Accept);
}

#[test]
fn an_expired_mutation_lease_asks_to_reconcile() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", "")]).unwrap();
    fx.drive("f1", Repairing);
    fx.drive("f2", Claimed);
    fx.clock.advance(24 * 60 * 60 * 1000);
    assert_eq!(next_kind(&fx, "f1"), NextActionKind::ReconcileLease);
    // Before any edit, an expired lease just goes back to the queue.
    assert_eq!(next_kind(&fx, "f2"), NextActionKind::Claim);
}

#[test]
fn the_prior_acl_proof_is_the_latest_one() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Claimed);
    let prior = |fx: &Fixture| {
        let state = fx.ledger.read().unwrap();
        state.prior_acl_proof_passed(state.finding(&fid("f1")).unwrap())
    };
    assert_eq!(prior(&fx), None);
    fx.act("f1", Actor::Agent, progress().1).unwrap();
    fx.act("f1", Actor::Agent, complete().1).unwrap();
    let mut r = record(false);
    r.candidate.as_mut().unwrap().proof.passed = false;
    fx.act("f1", Actor::A3sTest, verify_with(r)).unwrap();
    assert_eq!(prior(&fx), Some(false));
    fx.act("f1", Actor::Agent, claim().1).unwrap();
    fx.act("f1", Actor::Agent, progress().1).unwrap();
    fx.act("f1", Actor::Agent, complete().1).unwrap();
    // An attempt without a candidate keeps the earlier proof as the prior one.
    let mut r = record(false);
    r.candidate = None;
    fx.act("f1", Actor::A3sTest, verify_with(r)).unwrap();
    assert_eq!(prior(&fx), Some(false));
}

/// The whole loop as `repair-inspect` shows it: baseline, the verification's slice, checks,
/// evidence paths and digests, the candidate and its proof, the promotion, and the next action.
#[test]
fn inspect_shows_baseline_verification_candidate_and_promotion() {
    let fx = Fixture::new();
    let item = r#"{"id":"f1","createdAt":"2026-01-01T00:00:00Z","target":{"kind":"node","nodeIds":["n-f1"]},"instruction":"Rename the button to Pay","successCriteria":["the button reads calmly",{"kind":"target_text","equals":"Pay"}],"intent":"fix","severity":"important","status":"queued","context":{"untrusted":true,"route":"/checkout","sourceHints":[{"span":{"file":"src/App.tsx","line":10},"confidence":0.9,"origin":"boundary_hint","relation":"ancestor","registrationId":"app"},{"span":{"file":"/abs/x.tsx"},"confidence":1,"origin":"source_map","relation":"exact","registrationId":"x"}]}}"#.to_owned();
    fx.import(&[item]).unwrap();
    fx.act("f1", Actor::A3sTest, baseline().1).unwrap();
    fx.drive("f1", Verifying);
    fx.act("f1", Actor::A3sTest, verify_start().1).unwrap();
    fx.act("f1", Actor::A3sTest, verify(true).1).unwrap();
    fx.act("f1", Actor::Human, promote().1).unwrap();
    let rec = fx.inspect("f1").unwrap();
    let state = fx.ledger.read().unwrap();
    let f = state.finding(&fid("f1")).unwrap();
    assert_eq!(source_files(&state.record(f).unwrap()), vec!["src/App.tsx"]);
    // Through `serde_json` so that the raw page JSON (`source_hints`) renders as JSON.
    insta::assert_json_snapshot!("inspect_verified_loop", serde_json::to_value(&rec).unwrap());
}
