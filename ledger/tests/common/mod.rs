//! Helpers shared by the ledger's integration tests: a ledger in a temporary folder on a manual
//! clock, finding documents, and a driver that walks a finding into any status.
#![allow(dead_code)]

mod findings;

pub use findings::*;

use a3s_test_ledger::*;
use std::sync::Arc;

pub const T0: u64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub clock: Arc<ManualClock>,
    pub ledger: Ledger,
    pub session: SessionId,
    counter: std::cell::Cell<u32>,
}

impl Fixture {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::new(T0));
        let session = SessionId::parse("s1").unwrap();
        let ledger = Ledger::open(dir.path(), &session, clock.clone());
        Fixture {
            dir,
            clock,
            ledger,
            session,
            counter: std::cell::Cell::new(0),
        }
    }

    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(self.ledger.path()).unwrap_or_default()
    }

    pub fn rid(&self) -> RequestId {
        let n = self.counter.get() + 1;
        self.counter.set(n);
        RequestId::parse(&format!("req-{n}")).unwrap()
    }

    pub fn import(&self, items: &[String]) -> Result<IntakeReport, LedgerError> {
        let findings = parse_document(doc(items).as_bytes())?;
        self.ledger.intake(findings, Actor::Human)
    }

    pub fn status(&self, id: &str) -> RepairStatus {
        let state = self.ledger.read().unwrap();
        state.finding(&fid(id)).unwrap().status
    }

    pub fn active_attempt(&self, id: &str) -> Option<AttemptId> {
        let state = self.ledger.read().unwrap();
        let f = state.finding(&fid(id)).unwrap();
        f.lease.as_ref().map(|l| l.attempt_id.clone())
    }

    pub fn op(
        &self,
        id: &str,
        actor: Actor,
        attempt: Option<AttemptId>,
        action: Action,
    ) -> Result<Applied, LedgerError> {
        self.ledger.apply(Request {
            finding_id: fid(id),
            actor,
            request_id: Some(self.rid()),
            attempt_id: attempt,
            action,
        })
    }

    /// Run `op` on `id` with the active attempt (when the op needs one).
    pub fn act(&self, id: &str, actor: Actor, action: Action) -> Result<Applied, LedgerError> {
        let attempt = if action.op().needs_attempt(actor) {
            self.active_attempt(id)
        } else {
            None
        };
        self.op(id, actor, attempt, action)
    }

    /// `repair-inspect` of `id` now, with [`FixedIds`] so generated commands are predictable.
    pub fn inspect(&self, id: &str) -> Result<LoopRecord, LedgerError> {
        let state = self.ledger.read().unwrap();
        inspect(
            &self.session,
            &state,
            &fid(id),
            self.clock.now_ms(),
            &FixedIds,
        )
    }

    /// Walk finding `id` (already queued) into `target`.
    pub fn drive(&self, id: &str, target: RepairStatus) {
        use RepairStatus::*;
        let path: &[(Actor, Action)] = match target {
            Queued => &[],
            Claimed => &[claim()],
            Repairing => &[claim(), progress()],
            Verifying => &[claim(), progress(), complete()],
            ReviewReady => &[
                claim(),
                progress(),
                complete(),
                verify_start(),
                verify(true),
            ],
            Resolved => &[
                claim(),
                progress(),
                complete(),
                verify_start(),
                verify(true),
                accept(),
            ],
            Dismissed => &[
                claim(),
                progress(),
                complete(),
                verify_start(),
                verify(true),
                reject(),
            ],
            Cancelled => &[reject()],
            NeedsInput => &[claim(), progress(), reply()],
            Failed => &[claim(), progress(), fail()],
            VerificationFailed => &[
                claim(),
                progress(),
                complete(),
                verify_start(),
                verify(false),
            ],
            Reopened => &[
                claim(),
                progress(),
                complete(),
                verify_start(),
                verify(true),
                accept(),
                reopen(),
            ],
            Draft => panic!("drafts never enter the ledger"),
        };
        for (actor, action) in path {
            self.act(id, *actor, action.clone())
                .unwrap_or_else(|e| panic!("driving {id} to {target}: {e}"));
        }
        assert_eq!(self.status(id), target);
    }
}

/// Request ids that are always the same, so generated commands can be compared as text.
pub struct FixedIds;

impl RequestIdSource for FixedIds {
    fn fresh(&self) -> RequestId {
        RequestId::parse("r0000000000000001").unwrap()
    }
}

/// The wire names of values that serialize as strings (enum variants), for comparing an enum
/// with the `enum` list of a JSON schema.
pub fn wire_names<T: serde::Serialize>(
    values: impl IntoIterator<Item = T>,
) -> std::collections::BTreeSet<String> {
    values
        .into_iter()
        .map(|v| match serde_json::to_value(v).unwrap() {
            serde_json::Value::String(s) => s,
            other => panic!("not a string: {other}"),
        })
        .collect()
}

pub fn fid(id: &str) -> FindingId {
    FindingId::parse(id).unwrap()
}

pub const FILES: [&str; 2] = ["src/b.tsx", "src/a.css"];

pub fn files() -> Vec<String> {
    FILES.iter().map(|s| s.to_string()).collect()
}

fn agent(action: Action) -> (Actor, Action) {
    (Actor::Agent, action)
}
fn human(action: Action) -> (Actor, Action) {
    (Actor::Human, action)
}
fn a3s_test(action: Action) -> (Actor, Action) {
    (Actor::A3sTest, action)
}

pub fn claim() -> (Actor, Action) {
    agent(Action::Claim {
        lease_ms: None,
        pinned: None,
    })
}
pub fn progress() -> (Actor, Action) {
    agent(Action::Progress {
        message: Some("editing".into()),
        lease_ms: None,
    })
}
pub fn reply() -> (Actor, Action) {
    agent(Action::Reply {
        message: "which blue?".into(),
    })
}
pub fn complete() -> (Actor, Action) {
    agent(Action::Complete {
        summary: Some("done".into()),
        changed_files: files(),
        lease_ms: None,
        replacement: None,
    })
}
pub fn fail() -> (Actor, Action) {
    agent(Action::Fail {
        summary: Some("cannot".into()),
    })
}
pub fn verify_start() -> (Actor, Action) {
    a3s_test(Action::VerifyStart {
        changed_files: files(),
        lease_ms: None,
    })
}
pub fn verify(passed: bool) -> (Actor, Action) {
    a3s_test(Action::VerifyResult {
        record: Box::new(record(passed)),
        changed_files: files(),
        auto_resolve: None,
    })
}

/// [`verify`] as asked with `--auto-resolve-repairs`.
pub fn verify_auto_resolved(passed: bool) -> (Actor, Action) {
    a3s_test(Action::VerifyResult {
        record: Box::new(record(passed)),
        changed_files: files(),
        auto_resolve: Some(AutoResolveReason::CommandLine),
    })
}

pub fn digest(byte: &str) -> String {
    format!("sha256:{}", byte.repeat(32))
}

pub fn evidence(kind: EvidenceKind, path: &str) -> EvidenceRef {
    EvidenceRef {
        kind,
        path: path.into(),
        sha256: digest("ab"),
        bytes: 10,
    }
}

/// A verification record whose facts agree with `passed`: one focused check, a proven candidate;
/// a failed one fails its check.
pub fn record(passed: bool) -> VerificationRecord {
    let dir = "artifacts/repairs/f1/att1/verify";
    VerificationRecord {
        protocol: VERIFICATION_PROTOCOL.into(),
        revision_before: Some(42),
        revision_after: Some(43),
        page: PageResult {
            target: Some(TargetResolution {
                locator: LocatorKind::RoleName,
                acl_target: "button \"Pay\"".into(),
                stable: true,
            }),
            criteria: vec![
                CriterionOutcome {
                    index: 0,
                    criterion: SuccessCriterion::Prose("the button is blue".into()),
                    verifiable: false,
                    passed: None,
                    observed: None,
                },
                CriterionOutcome {
                    index: 1,
                    criterion: SuccessCriterion::Typed(TypedCriterion::TargetText {
                        equals: "Pay".into(),
                    }),
                    verifiable: true,
                    passed: Some(true),
                    observed: Some("Pay".into()),
                },
            ],
            errors: Some(ErrorDelta {
                new_console_errors: 0,
                new_page_errors: 0,
                baseline: true,
            }),
            layout: None,
            evidence: vec![
                evidence(EvidenceKind::Screenshot, &format!("{dir}/screenshot.png")),
                evidence(
                    EvidenceKind::PageContext,
                    &format!("{dir}/page-context.json"),
                ),
                evidence(EvidenceKind::UiUnderstanding, &format!("{dir}/ui.json")),
            ],
            ui_facts: vec!["@u1 clip @c1 50% visible, cut by region \"Card\"".into()],
        },
        slice: Some(SliceDecision {
            protocol: SLICE_PROTOCOL.into(),
            scope: Scope::Focused,
            source_files: vec!["src/App.tsx".into()],
            stable_locator: true,
            prior_acl_proof_passed: None,
            selected_checks: vec!["app".into()],
            expansion_reasons: vec![],
        }),
        checks: vec![CheckResult {
            id: "app".into(),
            mode: CheckMode::Executed,
            outcome: if passed {
                CheckOutcome::Passed
            } else {
                CheckOutcome::Failed
            },
            exit_code: Some(if passed { 0 } else { 1 }),
            duration_ms: 120,
            stdout: Some(evidence(
                EvidenceKind::CheckStdout,
                &format!("{dir}/checks/app.stdout"),
            )),
            stderr: None,
            message: None,
        }],
        candidate: Some(CandidateRecord {
            path: format!("{dir}/candidate.acl"),
            sha256: digest("cd"),
            proof: Proof {
                passed: true,
                code: None,
                message: None,
                duration_ms: 300,
            },
        }),
        passed,
        failure: (!passed).then(|| VerificationFailure {
            step: VerifyStep::Checks,
            code: "test.session.repair_check_failed".into(),
            message: "check app exited with status 1".into(),
        }),
        pinned_checks: Some(PinnedChecksChange {
            project_sha256_at_claim: Some(digest("ab")),
            project_sha256_now: Some(digest("ef")),
            changes: vec!["`app` changed".into()],
            declared: true,
        }),
    }
}

pub fn baseline() -> (Actor, Action) {
    let dir = "artifacts/repairs/f1/baseline";
    a3s_test(Action::Baseline {
        baseline: Box::new(Baseline {
            url: "http://127.0.0.1:4173/checkout".into(),
            revision: Some(42),
            console_errors: 1,
            page_errors: 0,
            evidence: vec![
                evidence(EvidenceKind::Screenshot, &format!("{dir}/screenshot.png")),
                evidence(
                    EvidenceKind::PageContext,
                    &format!("{dir}/page-context.json"),
                ),
                evidence(EvidenceKind::Console, &format!("{dir}/console.json")),
                evidence(EvidenceKind::PageErrors, &format!("{dir}/page-errors.json")),
            ],
        }),
    })
}
/// Promote the candidate of `record(true)`.
pub fn promote() -> (Actor, Action) {
    human(Action::Promote {
        path: "suites/regression/f1.acl".into(),
        sha256: digest("cd"),
    })
}
pub fn accept() -> (Actor, Action) {
    human(Action::Accept { message: None })
}
pub fn reject() -> (Actor, Action) {
    human(Action::Reject {
        message: Some("not needed".into()),
    })
}
pub fn reopen() -> (Actor, Action) {
    human(Action::Reopen {
        message: Some("still wrong".into()),
    })
}
pub fn answer() -> (Actor, Action) {
    human(Action::Answer {
        message: "the brand blue".into(),
    })
}
