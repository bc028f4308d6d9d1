//! The pipeline's order with a fake page and a fake ledger: every step in order, a failing step
//! stops the run and is recorded, a refusal records nothing, and the verdict is always the tool's.

use super::*;
use a3s_test_lang::ir::CheckTier;
use a3s_test_ledger::verification::{CheckOutcome, TargetResolution};
use a3s_test_ledger::{NextActionKind, Op, RepairStatus};
use std::cell::RefCell;
use std::rc::Rc;

/// What the fakes were asked, in order.
type Calls = Rc<RefCell<Vec<&'static str>>>;

struct FakePage {
    calls: Calls,
    answer: Result<PageVerification, SessionError>,
}

impl VerifyPage for FakePage {
    fn observe(&mut self, request: ObserveRequest) -> Result<PageVerification, SessionError> {
        self.calls.borrow_mut().push("observe");
        assert!(request.dir.ends_with("/a1/verify"), "{}", request.dir);
        self.answer.clone()
    }

    fn prove(&mut self, _request: RepairProve) -> Result<CandidateRecord, SessionError> {
        self.calls.borrow_mut().push("prove");
        panic!("no candidate is due in these findings");
    }
}

struct FakeLedger {
    calls: Calls,
    refuse_start: bool,
    pinned: Option<PinnedChecks>,
    verdicts: Vec<Request>,
}

impl VerifyLedger for FakeLedger {
    fn prior(&self, _request_id: &RequestId) -> Result<Option<Prior>, LedgerError> {
        self.calls.borrow_mut().push("prior");
        Ok(None)
    }

    fn start(&mut self, request: Request) -> Result<(), LedgerError> {
        self.calls.borrow_mut().push("start");
        assert_eq!(request.actor, Actor::A3sTest);
        assert!(matches!(request.action, Action::VerifyStart { .. }));
        if self.refuse_start {
            return Err(LedgerError::new(
                ErrorCode::ChangeMismatch,
                "not as completed",
            ));
        }
        Ok(())
    }

    fn claim(&self, _finding: &FindingId, _attempt: &AttemptId) -> Result<Claim, LedgerError> {
        self.calls.borrow_mut().push("claim");
        Ok(Claim {
            finding: finding(),
            facts: Facts::default(),
            pinned: self.pinned.clone(),
        })
    }

    fn record(&mut self, request: Request) -> Result<Recorded, LedgerError> {
        self.calls.borrow_mut().push("record");
        let passed =
            matches!(&request.action, Action::VerifyResult { record, .. } if record.passed);
        self.verdicts.push(request);
        Ok(Recorded {
            result: Applied {
                finding_id: FindingId::parse("f1").unwrap(),
                seq: 9,
                op: if passed {
                    Op::VerifyPass
                } else {
                    Op::VerifyFail
                },
                from: RepairStatus::Verifying,
                to: if passed {
                    RepairStatus::ReviewReady
                } else {
                    RepairStatus::VerificationFailed
                },
                attempt_id: None,
                lease: None,
                replayed: false,
                expired: Vec::new(),
                recovered_tail: None,
            },
            resolution: None,
            next_action: NextAction {
                kind: NextActionKind::Inspect,
                actor: Actor::Human,
                command: String::new(),
                argv: Vec::new(),
                add_arguments: Vec::new(),
                hint: "",
            },
        })
    }
}

fn finding() -> Finding {
    let doc = r#"{"protocol":"a3s.test.repair/1","repairs":[{"id":"f1","createdAt":"2026-01-01T00:00:00Z",
        "target":{"kind":"node","nodeIds":["n1"]},"instruction":"Make it blue","intent":"fix",
        "severity":"important","status":"queued","context":{"untrusted":true}}]}"#;
    a3s_test_ledger::parse_document(doc.as_bytes())
        .unwrap()
        .remove(0)
}

fn unit_check() -> VerificationCheck {
    VerificationCheck {
        id: "unit".into(),
        tier: CheckTier::Focused,
        command: vec!["true".into()],
        file_prefixes: vec!["src/".into()],
        timeout_ms: 1_000,
    }
}

/// A page that passed steps 1–5 (a target by test id, no new errors).
fn page_passed() -> PageVerification {
    PageVerification {
        revision: Some(5),
        page: PageResult {
            target: Some(TargetResolution {
                locator: a3s_test_ledger::verification::LocatorKind::TestId,
                acl_target: "test_id \"pay\"".into(),
                stable: true,
            }),
            errors: Some(ErrorDelta {
                new_console_errors: 0,
                new_page_errors: 0,
                baseline: false,
            }),
            ..PageResult::default()
        },
        failure: None,
    }
}

struct Setup {
    calls: Calls,
    page: FakePage,
    ledger: FakeLedger,
    ask: Ask,
    _dir: tempfile::TempDir,
}

/// A verification of `src/App.tsx` whose orchestrator reports the `unit` check as `passed`.
fn setup(page: Result<PageVerification, SessionError>, unit_passed: bool) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.json");
    std::fs::write(
        &results,
        format!(
            r#"{{"protocol":"a3s.test.repair-check-results/1","checks":[{{"id":"unit","passed":{unit_passed}}}]}}"#
        ),
    )
    .unwrap();
    let calls = Calls::default();
    let current = PinnedChecks {
        project_sha256: Some(format!("sha256:{}", "a".repeat(64))),
        checks: vec![unit_check()],
    };
    let ask = Ask {
        finding: FindingId::parse("f1").unwrap(),
        request_id: RequestId::parse("r1").unwrap(),
        attempt_id: AttemptId::parse("a1").unwrap(),
        changed_files: vec!["src/App.tsx".into()],
        reported: Some(
            crate::repair::checks::read_caller_results(&results, &current.checks).unwrap(),
        ),
        current: current.clone(),
        checks_json: Some(results),
        revision_timeout_ms: 1_000,
        auto_resolve: None,
        root: dir.path().to_path_buf(),
        session_dir: ConfinedPath::new(dir.path(), "session"),
    };
    Setup {
        page: FakePage {
            calls: calls.clone(),
            answer: page,
        },
        ledger: FakeLedger {
            calls: calls.clone(),
            refuse_start: false,
            pinned: Some(current),
            verdicts: Vec::new(),
        },
        calls,
        ask,
        _dir: dir,
    }
}

/// The one verdict the fake ledger was given: always the tool's own `verify_result`.
fn the_verdict(ledger: &FakeLedger) -> &VerificationRecord {
    assert_eq!(ledger.verdicts.len(), 1, "exactly one verdict");
    let request = &ledger.verdicts[0];
    assert_eq!(
        request.actor,
        Actor::A3sTest,
        "only A3S Test records a verdict"
    );
    assert_eq!(request.request_id.as_ref().map(|r| r.as_str()), Some("r1"));
    match &request.action {
        Action::VerifyResult {
            record,
            changed_files,
            ..
        } => {
            assert_eq!(changed_files, &["src/App.tsx"]);
            record
        }
        other => panic!("not a verdict: {other:?}"),
    }
}

#[test]
fn every_step_runs_in_order_and_the_verdict_is_recorded_by_the_tool_last() {
    let mut s = setup(Ok(page_passed()), true);
    let verdict = verify(&mut s.page, &mut s.ledger, s.ask).unwrap();
    // prior (a repeat?) → step 0 start + claim → steps 1–5 on the page → 6, 7 here → 8 not due
    // (no baseline URL) → the verdict.
    assert_eq!(
        *s.calls.borrow(),
        ["prior", "start", "claim", "observe", "record"]
    );
    let record = the_verdict(&s.ledger);
    assert!(record.passed && verdict.record.passed);
    assert_eq!(record.revision_after, Some(5));
    let slice = record.slice.as_ref().expect("step 6 planned a slice");
    assert_eq!(slice.selected_checks, ["unit"]);
    assert_eq!(record.checks.len(), 1);
    assert_eq!(record.checks[0].outcome, CheckOutcome::Passed);
    assert!(record.failure.is_none() && record.candidate.is_none());
}

#[test]
fn a_failing_page_step_stops_the_run_and_is_recorded() {
    let mut page = page_passed();
    page.page.target = None;
    page.failure = Some(VerificationFailure {
        step: VerifyStep::Target,
        code: SessionCode::RepairTargetMissing.as_str().into(),
        message: "none of the locators names an element".into(),
    });
    let mut s = setup(Ok(page), true);
    let verdict = verify(&mut s.page, &mut s.ledger, s.ask).unwrap();
    assert_eq!(
        *s.calls.borrow(),
        ["prior", "start", "claim", "observe", "record"]
    );
    let record = the_verdict(&s.ledger);
    assert!(!record.passed && !verdict.record.passed);
    let failure = record.failure.as_ref().unwrap();
    assert_eq!(failure.step, VerifyStep::Target);
    assert_eq!(failure.code, "test.session.repair_target_missing");
    // Steps 6–8 never ran.
    assert!(record.slice.is_none() && record.checks.is_empty() && record.candidate.is_none());
}

#[test]
fn a_failing_check_fails_step_seven_with_its_code() {
    let mut s = setup(Ok(page_passed()), false);
    verify(&mut s.page, &mut s.ledger, s.ask).unwrap();
    let record = the_verdict(&s.ledger);
    assert!(!record.passed);
    let failure = record.failure.as_ref().unwrap();
    assert_eq!(failure.step, VerifyStep::Checks);
    assert!(record.slice.is_some());
}

#[test]
fn a_refused_start_contacts_no_page_and_records_nothing() {
    let mut s = setup(Ok(page_passed()), true);
    s.ledger.refuse_start = true;
    let err = verify(&mut s.page, &mut s.ledger, s.ask).unwrap_err();
    assert!(
        matches!(&err, VerifyError::Ledger(e) if e.code == ErrorCode::ChangeMismatch),
        "{err:?}"
    );
    assert_eq!(*s.calls.borrow(), ["prior", "start"]);
    assert!(s.ledger.verdicts.is_empty());
}

#[test]
fn a_page_that_fails_mid_way_leaves_the_verdict_unrecorded() {
    let gone = SessionError::new(SessionCode::NotRunning, "the supervisor is gone");
    let mut s = setup(Err(gone), true);
    let err = verify(&mut s.page, &mut s.ledger, s.ask).unwrap_err();
    assert!(matches!(err, VerifyError::Session(_)), "{err:?}");
    assert_eq!(*s.calls.borrow(), ["prior", "start", "claim", "observe"]);
    assert!(s.ledger.verdicts.is_empty(), "the finding stays verifying");
}

#[test]
fn checks_changed_since_the_claim_and_not_declared_fail_before_the_page() {
    let mut s = setup(Ok(page_passed()), true);
    s.ledger.pinned = Some(PinnedChecks {
        project_sha256: Some(format!("sha256:{}", "b".repeat(64))),
        checks: Vec::new(),
    });
    verify(&mut s.page, &mut s.ledger, s.ask).unwrap();
    assert_eq!(*s.calls.borrow(), ["prior", "start", "claim", "record"]);
    let record = the_verdict(&s.ledger);
    let failure = record.failure.as_ref().unwrap();
    assert_eq!(
        (failure.step, failure.code.as_str()),
        (VerifyStep::Slice, "test.session.repair_checks_changed")
    );
    assert!(record.pinned_checks.as_ref().is_some_and(|p| !p.declared));
}
