//! The pipeline's order with a fake page and a fake ledger: every step in order, a failing step
//! stops the run and is recorded, a refusal records nothing, and the verdict is always the tool's.

use super::*;
use a3s_test_lang::ir::CheckTier;
use a3s_test_ledger::verification::{CheckOutcome, EvidenceKind, EvidenceRef, TargetResolution};
use a3s_test_ledger::{NextActionKind, Op, RepairStatus};
use std::cell::RefCell;
use std::rc::Rc;

/// What the fakes were asked, in order.
type Calls = Rc<RefCell<Vec<&'static str>>>;

/// A page whose readings are set by the test; every read is logged in `calls`.
struct FakePage {
    calls: Calls,
    revision: Result<u64, NoRevision>,
    located: Located,
    text: Option<String>,
    page_errors: u32,
    capture_fails: bool,
    gone: bool,
}

impl FakePage {
    fn read(&self, what: &'static str) -> Result<(), SessionError> {
        self.calls.borrow_mut().push(what);
        if self.gone {
            return Err(SessionError::new(
                SessionCode::NotRunning,
                "the supervisor is gone",
            ));
        }
        Ok(())
    }
}

impl ObservePage for FakePage {
    async fn wait_revision(
        &mut self,
        after: Option<u64>,
        _until: Instant,
    ) -> Result<RevisionSeen, SessionError> {
        self.read("wait_revision")?;
        assert_eq!(after, None, "no mark and no baseline: any ready revision");
        Ok(RevisionSeen {
            accepted: self.revision.clone(),
        })
    }

    async fn locate(
        &mut self,
        candidates: &[(LocatorKind, Target)],
        _deadline: Instant,
    ) -> Result<Located, SessionError> {
        self.read("locate")?;
        assert_eq!(candidates[0].0, LocatorKind::TestId);
        Ok(self.located.clone())
    }

    async fn page_text(&mut self, _deadline: Instant) -> Result<PageText, SessionError> {
        self.read("page_text")?;
        Ok(PageText {
            text: self.text.clone(),
        })
    }

    async fn measure_layout(
        &mut self,
        _want: &LayoutRequest,
        _node: Option<&Target>,
        _deadline: Instant,
    ) -> Result<LayoutReading, SessionError> {
        self.read("measure_layout")?;
        panic!("no layout finding here");
    }

    async fn capture(&mut self, dir: &str, _deadline: Instant) -> Result<Captured, SessionError> {
        self.read("capture")?;
        assert!(dir.ends_with("/a1/verify"), "{dir}");
        let evidence = vec![EvidenceRef {
            kind: EvidenceKind::Screenshot,
            path: format!("{dir}/screenshot.png"),
            bytes: 3,
            sha256: format!("sha256:{}", "c".repeat(64)),
        }];
        let failed = self
            .capture_fails
            .then(|| SessionError::new(SessionCode::Io, "the screenshot failed"));
        Ok(Captured {
            console_errors: 1,
            page_errors: self.page_errors,
            last_page_error: (self.page_errors > 0).then(|| "checkout broke".into()),
            evidence: if failed.is_some() {
                Vec::new()
            } else {
                evidence
            },
            ui_facts: if failed.is_some() {
                Vec::new()
            } else {
                vec!["@u1 overlap status \"Saved\" over button \"Pay\" (800 px²)".into()]
            },
            failed,
        })
    }
}

impl VerifyPage for FakePage {
    async fn prove(&mut self, _request: RepairProve) -> Result<CandidateRecord, SessionError> {
        self.read("prove")?;
        panic!("no candidate is due in these findings (no baseline URL)");
    }
}

/// Run the pipeline to its end on a runtime of the test's own.
fn run(s: &mut Setup) -> Result<Verdict, VerifyError> {
    let ask = s.ask.take().expect("one run per setup");
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(verify(&mut s.page, &mut s.ledger, ask))
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
        "severity":"important","status":"queued",
        "successCriteria":["Reads calmly",{"kind":"page_text","contains":"Card saved"}],
        "context":{"untrusted":true,"locators":[{"nodeId":"n1","locators":[{"kind":"testId","value":"pay"}]}]}}]}"#;
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

/// The element step 2 finds by its test id.
fn pay_button() -> Located {
    let target = locate::admit_replacement(r#"testid("pay")"#).unwrap();
    Located::One(
        TargetResolution {
            locator: LocatorKind::TestId,
            acl_target: target.to_string(),
            stable: true,
        },
        target,
        a3s_test_driver::TargetFacts {
            matches: 1,
            text: Some("Pay now".into()),
            visible: true,
            disabled: false,
            checked: None,
            expanded: None,
        },
    )
}

/// A page where every step passes: a newer revision, the target by test id, the page text the
/// criterion wants, no page error.
fn page_passes(calls: &Calls) -> FakePage {
    FakePage {
        calls: calls.clone(),
        revision: Ok(5),
        located: pay_button(),
        text: Some("Order · Card saved".into()),
        page_errors: 0,
        capture_fails: false,
        gone: false,
    }
}

struct Setup {
    calls: Calls,
    page: FakePage,
    ledger: FakeLedger,
    ask: Option<Ask>,
    _dir: tempfile::TempDir,
}

/// A verification of `src/App.tsx` whose orchestrator reports the `unit` check as passed (or
/// not), on a page where every step passes.
fn setup(unit_passed: bool) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.json");
    std::fs::write(
        &results,
        format!(
            r#"{{"protocol":"a3s.test.repair-check-results/1","checks":[{{"id":"unit","passed":{unit_passed}}}]}}"#
        ),
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("session")).unwrap();
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
        page: page_passes(&calls),
        ledger: FakeLedger {
            calls: calls.clone(),
            refuse_start: false,
            pinned: Some(current),
            verdicts: Vec::new(),
        },
        calls,
        ask: Some(ask),
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
    let mut s = setup(true);
    let verdict = run(&mut s).unwrap();
    // prior (a repeat?) → step 0 start + claim → step 1 wait → 2 locate → 3 page text → 4–5
    // capture → 6, 7 here → 8 not due (no baseline URL) → the verdict.
    assert_eq!(
        *s.calls.borrow(),
        [
            "prior",
            "start",
            "claim",
            "wait_revision",
            "locate",
            "page_text",
            "capture",
            "record"
        ]
    );
    let record = the_verdict(&s.ledger);
    assert!(record.passed && verdict.record.passed);
    assert_eq!(record.revision_after, Some(5));
    let target = record.page.target.as_ref().unwrap();
    assert_eq!(target.acl_target, r#"testid("pay")"#);
    let verifiable: Vec<Option<bool>> = record.page.criteria.iter().map(|c| c.passed).collect();
    assert_eq!(verifiable, [None, Some(true)], "prose is not verifiable");
    // Without a baseline every error is new; a console error only widens the slice.
    let errors = record.page.errors.as_ref().unwrap();
    assert_eq!((errors.new_console_errors, errors.baseline), (1, false));
    assert_eq!(record.page.evidence.len(), 1);
    // The capture's UI facts are cited beside the evidence that pins them.
    assert_eq!(
        record.page.ui_facts,
        ["@u1 overlap status \"Saved\" over button \"Pay\" (800 px²)"]
    );
    let slice = record.slice.as_ref().expect("step 6 planned a slice");
    assert_eq!(slice.selected_checks, ["unit"]);
    assert_eq!(record.checks.len(), 1);
    assert_eq!(record.checks[0].outcome, CheckOutcome::Passed);
    assert!(record.failure.is_none() && record.candidate.is_none());
}

/// The failing step and code of the one recorded verdict, which must not pass.
fn failed_at(s: &Setup) -> (VerifyStep, String) {
    let record = the_verdict(&s.ledger);
    assert!(!record.passed);
    let failure = record.failure.as_ref().expect("a failing step");
    (failure.step, failure.code.clone())
}

#[test]
fn no_newer_revision_fails_step_one_and_still_captures_the_page() {
    let mut s = setup(true);
    s.page.revision = Err(NoRevision::TimedOut {
        last: Some(3),
        ready: true,
    });
    run(&mut s).unwrap();
    assert_eq!(
        *s.calls.borrow(),
        [
            "prior",
            "start",
            "claim",
            "wait_revision",
            "capture",
            "record"
        ]
    );
    assert_eq!(
        failed_at(&s),
        (
            VerifyStep::Revision,
            "test.session.repair_no_new_revision".into()
        )
    );
    let record = the_verdict(&s.ledger);
    assert_eq!(record.revision_after, Some(3), "the last revision seen");
    assert_eq!(record.page.evidence.len(), 1, "the reviewer sees the page");
    assert!(
        record.slice.is_none() && record.checks.is_empty(),
        "steps 6–8 never ran"
    );
}

#[test]
fn a_missing_or_ambiguous_target_fails_step_two_with_its_own_code() {
    for (located, code) in [
        (Located::Missing, "test.session.repair_target_missing"),
        (
            Located::Ambiguous(2),
            "test.session.repair_target_ambiguous",
        ),
    ] {
        let mut s = setup(true);
        s.page.located = located;
        run(&mut s).unwrap();
        assert_eq!(failed_at(&s), (VerifyStep::Target, code.into()));
        let record = the_verdict(&s.ledger);
        assert!(record.page.target.is_none() && record.slice.is_none());
    }
}

#[test]
fn a_criterion_that_does_not_hold_fails_step_three() {
    let mut s = setup(true);
    s.page.text = Some("Card lost".into());
    run(&mut s).unwrap();
    assert_eq!(
        failed_at(&s),
        (
            VerifyStep::Criteria,
            "test.session.repair_criterion_failed".into()
        )
    );
}

#[test]
fn a_new_page_error_fails_step_four_naming_it() {
    let mut s = setup(true);
    s.page.page_errors = 1;
    run(&mut s).unwrap();
    assert_eq!(
        failed_at(&s),
        (
            VerifyStep::Errors,
            "test.session.repair_new_page_error".into()
        )
    );
    let message = &the_verdict(&s.ledger).failure.as_ref().unwrap().message;
    assert!(message.contains(r#"(last: "checkout broke")"#), "{message}");
}

#[test]
fn a_failed_capture_fails_step_five_unless_an_earlier_step_failed() {
    let mut s = setup(true);
    s.page.capture_fails = true;
    run(&mut s).unwrap();
    assert_eq!(
        failed_at(&s),
        (VerifyStep::Capture, "test.session.io".into())
    );
    let mut s = setup(true);
    s.page.capture_fails = true;
    s.page.page_errors = 2;
    run(&mut s).unwrap();
    assert_eq!(
        failed_at(&s).0,
        VerifyStep::Errors,
        "the first failing step is kept"
    );
}

#[test]
fn a_failing_check_fails_step_seven_with_its_code() {
    let mut s = setup(false);
    run(&mut s).unwrap();
    assert_eq!(failed_at(&s).0, VerifyStep::Checks);
    assert!(the_verdict(&s.ledger).slice.is_some());
}

#[test]
fn a_refused_start_contacts_no_page_and_records_nothing() {
    let mut s = setup(true);
    s.ledger.refuse_start = true;
    let err = run(&mut s).unwrap_err();
    assert!(
        matches!(&err, VerifyError::Ledger(e) if e.code == ErrorCode::ChangeMismatch),
        "{err:?}"
    );
    assert_eq!(*s.calls.borrow(), ["prior", "start"]);
    assert!(s.ledger.verdicts.is_empty());
}

#[test]
fn a_page_that_fails_mid_way_leaves_the_verdict_unrecorded() {
    let mut s = setup(true);
    s.page.gone = true;
    let err = run(&mut s).unwrap_err();
    assert!(matches!(err, VerifyError::Session(_)), "{err:?}");
    assert_eq!(
        *s.calls.borrow(),
        ["prior", "start", "claim", "wait_revision"]
    );
    assert!(s.ledger.verdicts.is_empty(), "the finding stays verifying");
}

#[test]
fn an_evidence_folder_through_a_link_is_refused_before_the_page_is_asked() {
    let mut s = setup(true);
    let outside = tempfile::tempdir().unwrap();
    let session = s._dir.path().join("session");
    std::os::unix::fs::symlink(outside.path(), session.join("artifacts")).unwrap();
    let err = run(&mut s).unwrap_err();
    assert!(matches!(err, VerifyError::Session(_)), "{err:?}");
    assert_eq!(*s.calls.borrow(), ["prior", "start", "claim"]);
    assert!(s.ledger.verdicts.is_empty());
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[test]
fn checks_changed_since_the_claim_and_not_declared_fail_before_the_page() {
    let mut s = setup(true);
    s.ledger.pinned = Some(PinnedChecks {
        project_sha256: Some(format!("sha256:{}", "b".repeat(64))),
        checks: Vec::new(),
    });
    run(&mut s).unwrap();
    assert_eq!(*s.calls.borrow(), ["prior", "start", "claim", "record"]);
    assert_eq!(
        failed_at(&s),
        (
            VerifyStep::Slice,
            "test.session.repair_checks_changed".into()
        )
    );
    let record = the_verdict(&s.ledger);
    assert!(record.pinned_checks.as_ref().is_some_and(|p| !p.declared));
}

#[test]
fn errors_are_new_only_beyond_the_baseline() {
    let baseline = Baseline {
        url: "http://127.0.0.1:1/".into(),
        revision: Some(3),
        console_errors: 2,
        page_errors: 1,
        evidence: Vec::new(),
    };
    let d = error_delta(3, 1, Some(&baseline));
    assert_eq!(
        (d.new_console_errors, d.new_page_errors, d.baseline),
        (1, 0, true)
    );
    let d = error_delta(0, 0, Some(&baseline));
    assert_eq!((d.new_console_errors, d.new_page_errors), (0, 0));
    let d = error_delta(2, 1, None);
    assert_eq!(
        (d.new_console_errors, d.new_page_errors, d.baseline),
        (2, 1, false)
    );
}
