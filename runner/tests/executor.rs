//! The executor against a scripted in-memory driver: scheduling, deadlines, evidence capture,
//! cancellation, crash handling and the capability gate, without a browser.
//!
//! Each step's label scripts the fake: `ok`, `fail` (a product failure), `hang` (never answers),
//! `crash` (the browser died), `slow<N>` (answers after N ms), `flaky<N>` (a product failure the
//! first N times the step runs in the test, then a pass), `hang<N>` (never answers the first N
//! times, then a pass). The real Web driver is exercised by
//! the end-to-end tests of the binary.

use a3s_test_driver::{
    Capabilities, ConditionSample, ContextOptions, DriverError, EvidenceFile, FailureClass,
    FailureCode, StepEnv, StepFailure, StepOutput, SurfaceContext, SurfaceDriver,
};
use a3s_test_lang::ir::{Action, ActionKind, ExpectCondition, Scenario, Step, Surface};
use a3s_test_lang::Span;
use a3s_test_runner::admit::{AdmittedFile, SourceFile};
use a3s_test_runner::cancel::CancelToken;
use a3s_test_runner::event::{EventSender, RunEvent, RunEventKind};
use a3s_test_runner::evidence::ArtifactRoot;
use a3s_test_runner::executor::{execute, DriverLauncher, Execution, ExecutorConfig};
use a3s_test_runner::plan::{plan, PlanOptions};
use a3s_test_runner::result::ScenarioStatus;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Default)]
struct Counters {
    launched: AtomicBool,
    open: AtomicUsize,
    max_open: AtomicUsize,
    opened: AtomicUsize,
    closed: AtomicUsize,
    captured: AtomicUsize,
    shut_down: AtomicBool,
    crashed: AtomicBool,
    /// How often each step path has run (`flaky<N>` / `hang<N>`).
    runs: std::sync::Mutex<std::collections::HashMap<String, usize>>,
}

impl Counters {
    /// Count one run of `step`; true while it is within its first `n` runs.
    fn early_run(&self, step: &Step, n: usize) -> bool {
        let mut runs = self.runs.lock().unwrap();
        let count = runs.entry(step.path.clone()).or_default();
        *count += 1;
        *count <= n
    }
}

struct FakeLauncher {
    counters: Arc<Counters>,
    fail_launch: bool,
}

struct FakeDriver {
    counters: Arc<Counters>,
    capabilities: Capabilities,
}

struct FakeContext {
    counters: Arc<Counters>,
}

fn capabilities() -> Capabilities {
    Capabilities {
        surface: Surface::Web,
        steps: [ActionKind::Navigate, ActionKind::Click, ActionKind::Expect]
            .into_iter()
            .collect(),
    }
}

impl DriverLauncher for FakeLauncher {
    type Driver = FakeDriver;
    fn capabilities(&self) -> Capabilities {
        capabilities()
    }
    async fn launch(self, _timeout: Duration) -> Result<FakeDriver, DriverError> {
        self.counters.launched.store(true, Ordering::SeqCst);
        if self.fail_launch {
            return Err(DriverError::new(
                FailureCode::BrowserLaunch,
                "no such browser",
            ));
        }
        Ok(FakeDriver {
            counters: self.counters,
            capabilities: capabilities(),
        })
    }
}

impl SurfaceDriver for FakeDriver {
    type Context = FakeContext;
    fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }
    async fn new_context(&self, _options: ContextOptions) -> Result<FakeContext, DriverError> {
        if self.counters.crashed.load(Ordering::SeqCst) {
            return Err(DriverError::new(
                FailureCode::BrowserCrashed,
                "the browser is gone",
            ));
        }
        let now = self.counters.open.fetch_add(1, Ordering::SeqCst) + 1;
        self.counters.max_open.fetch_max(now, Ordering::SeqCst);
        self.counters.opened.fetch_add(1, Ordering::SeqCst);
        Ok(FakeContext {
            counters: self.counters.clone(),
        })
    }
    async fn shutdown(&self) -> Result<(), DriverError> {
        self.counters.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }
}

impl SurfaceContext for FakeContext {
    async fn execute(
        &mut self,
        step: &Step,
        _env: &StepEnv<'_>,
    ) -> Result<StepOutput, StepFailure> {
        let label = step.label.as_deref().unwrap_or("ok");
        match label {
            "fail" => Err(StepFailure::new(
                FailureCode::TextMismatch,
                "expected \"Welcome\", found \"Goodbye\"",
            )),
            "hang" => std::future::pending().await,
            l if l.starts_with("flaky") => {
                if self.counters.early_run(step, l[5..].parse().unwrap()) {
                    Err(StepFailure::new(
                        FailureCode::TextMismatch,
                        "not yet: the counter is still low",
                    ))
                } else {
                    Ok(StepOutput::default())
                }
            }
            l if l.starts_with("hang") => {
                if self.counters.early_run(step, l[4..].parse().unwrap()) {
                    std::future::pending::<()>().await;
                }
                Ok(StepOutput::default())
            }
            "crash" => {
                self.counters.crashed.store(true, Ordering::SeqCst);
                Err(StepFailure::new(
                    FailureCode::BrowserCrashed,
                    "the browser process exited",
                ))
            }
            l if l.starts_with("slow") => {
                tokio::time::sleep(Duration::from_millis(l[4..].parse().unwrap())).await;
                Ok(StepOutput::default())
            }
            _ => Ok(StepOutput::default()),
        }
    }
    async fn check(
        &mut self,
        _condition: &ExpectCondition,
        _watch: Option<Duration>,
        _env: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        Ok(ConditionSample::Holds(serde_json::Value::Null))
    }
    async fn capture(
        &mut self,
        _request: a3s_test_driver::snapshot::CaptureRequest<'_>,
        _env: &StepEnv<'_>,
    ) -> Result<a3s_test_driver::snapshot::Captured, StepFailure> {
        Err(StepFailure::new(
            FailureCode::Unsupported,
            "no captures here",
        ))
    }
    async fn capture_failure_evidence(
        &mut self,
        dir: &a3s_test_fsroot::Dir,
        _: tokio::time::Instant,
    ) -> a3s_test_driver::FailureEvidence {
        self.counters.captured.fetch_add(1, Ordering::SeqCst);
        let path = dir.path().join("screenshot.png");
        dir.write_atomic("screenshot.png", b"png", 0o644).unwrap();
        a3s_test_driver::FailureEvidence {
            files: vec![EvidenceFile {
                kind: a3s_test_driver::EvidenceKind::Screenshot,
                path,
            }],
            missing: Vec::new(),
            page_url: Some("http://127.0.0.1:9/shop?step=pay".into()),
        }
    }
    async fn apply_context(
        &mut self,
        _: &a3s_test_lang::ir::ContextSettings,
        _: &dyn a3s_test_driver::vars::VarSource,
        _: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            a3s_test_driver::FailureCode::Unsupported,
            "the fake has no browser context",
        ))
    }
    async fn load_storage_state(
        &mut self,
        _: &a3s_test_driver::storage_state::StorageState,
        _: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            a3s_test_driver::FailureCode::Unsupported,
            "the fake has no storage",
        ))
    }
    async fn close(self) -> Result<(), DriverError> {
        self.counters.open.fetch_sub(1, Ordering::SeqCst);
        self.counters.closed.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

/// A web scenario (the surface every test but one runs on).
fn web(id: &str, timeout_ms: u64, steps: &[(&str, Action)]) -> Scenario {
    scenario(id, Surface::Web, timeout_ms, steps)
}

fn scenario(id: &str, surface: Surface, timeout_ms: u64, steps: &[(&str, Action)]) -> Scenario {
    Scenario {
        id: id.into(),
        name: id.into(),
        surface,
        timeout_ms,
        action_timeout_ms: 100,
        expect_timeout_ms: None,
        tags: vec![],
        steps: steps
            .iter()
            .enumerate()
            .map(|(i, (label, action))| Step {
                label: Some(label.to_string()),
                path: format!("suite.s.scenario.{id}.step{i}.{label}"),
                span: Span::new(0, 0),
                action: action.clone(),
                group: None,
                hook: None,
            })
            .collect(),
        groups: vec![],
        context: Default::default(),
        path: format!("suite.s.scenario.{id}"),
        span: Span::new(0, 0),
        organisation: Default::default(),
    }
}

fn nav() -> Action {
    Action::Navigate { url: "/".into() }
}

struct Outcome {
    execution: Execution,
    events: Vec<RunEvent>,
    counters: Arc<Counters>,
    _out: tempfile::TempDir,
}

impl Outcome {
    /// The failure code of every scenario, in order (each must have failed).
    fn failure_codes(&self) -> Vec<FailureCode> {
        self.execution
            .scenarios
            .iter()
            .map(|s| s.failure.as_ref().expect("a failed scenario").code)
            .collect()
    }
}

async fn run(
    scenarios: Vec<Scenario>,
    jobs: usize,
    fail_launch: bool,
    cancel: CancelToken,
) -> Outcome {
    run_with(
        scenarios,
        jobs,
        fail_launch,
        cancel,
        Arc::new(Counters::default()),
    )
    .await
}

async fn run_with(
    scenarios: Vec<Scenario>,
    jobs: usize,
    fail_launch: bool,
    cancel: CancelToken,
    counters: Arc<Counters>,
) -> Outcome {
    run_full(scenarios, jobs, fail_launch, cancel, counters, 0).await
}

async fn run_retrying(scenarios: Vec<Scenario>, retries: u32) -> Outcome {
    let counters = Arc::new(Counters::default());
    run_full(scenarios, 1, false, CancelToken::new(), counters, retries).await
}

async fn run_full(
    scenarios: Vec<Scenario>,
    jobs: usize,
    fail_launch: bool,
    cancel: CancelToken,
    counters: Arc<Counters>,
    retries: u32,
) -> Outcome {
    let out = tempfile::tempdir().unwrap();
    let file = AdmittedFile {
        source: Arc::new(SourceFile {
            path: "s.acl".into(),
            text: Arc::from("suite"),
        }),
        suite: a3s_test_lang::ir::Suite {
            id: "s".into(),
            version: 1,
            base_url: None,
            scenarios,
            span: Span::new(0, 0),
            storage_state: None,
            context: Default::default(),
        },
        warnings: vec![],
    };
    let plan = plan(&[file], &PlanOptions::default()).unwrap();
    let config = ExecutorConfig {
        jobs,
        artifacts: ArtifactRoot::create(
            &a3s_test_fsroot::ConfinedPath::anchor_only(out.path()),
            "run",
        )
        .unwrap(),
        working_dir: out.path().to_path_buf(),
        base_url: None,
        launch_timeout: Duration::from_secs(5),
        cleanup_bound: Duration::from_secs(2),
        retries,
        expect_timeout: Duration::from_millis(100),
        context: Default::default(),
        update_snapshots: a3s_test_driver::snapshot::UpdateSnapshots::None,
        trace: a3s_test_runner::trace::TraceConfig::default(),
    };
    let (events, mut rx) = EventSender::channel();
    let launcher = FakeLauncher {
        counters: counters.clone(),
        fail_launch,
    };
    let execution = tokio::time::timeout(
        Duration::from_secs(20),
        execute(&plan, launcher, config, events, cancel),
    )
    .await
    .expect("the executor never hangs");
    let mut seen = Vec::new();
    while let Ok(e) = rx.try_recv() {
        seen.push(e);
    }
    Outcome {
        execution,
        events: seen,
        counters,
        _out: out,
    }
}

fn statuses(o: &Outcome) -> Vec<ScenarioStatus> {
    o.execution.scenarios.iter().map(|s| s.status).collect()
}

#[tokio::test]
async fn passing_scenarios_emit_ordered_events_and_close_every_context() {
    let scenarios = (0..4)
        .map(|i| web(&format!("p{i}"), 5000, &[("ok", nav()), ("slow20", nav())]))
        .collect();
    let o = run(scenarios, 2, false, CancelToken::new()).await;
    assert_eq!(statuses(&o), vec![ScenarioStatus::Passed; 4]);
    assert_eq!(o.counters.opened.load(Ordering::SeqCst), 4);
    assert_eq!(o.counters.closed.load(Ordering::SeqCst), 4);
    assert_eq!(
        o.counters.max_open.load(Ordering::SeqCst),
        2,
        "jobs bounds parallelism and is reached"
    );
    assert!(o.counters.shut_down.load(Ordering::SeqCst));
    for id in ["s/p0", "s/p3"] {
        let pos = |pred: &dyn Fn(&RunEventKind) -> bool| {
            o.events.iter().position(|e| pred(&e.kind)).unwrap()
        };
        let started = pos(
            &|k| matches!(k, RunEventKind::ScenarioStarted { id: i, .. } if i.to_string() == id),
        );
        let step =
            pos(&|k| matches!(k, RunEventKind::StepFinished { id: i, .. } if i.to_string() == id));
        let done =
            pos(&|k| matches!(k, RunEventKind::ScenarioFinished { result, .. } if result.id == id));
        assert!(
            started < step && step < done,
            "{id}: {started} {step} {done}"
        );
    }
    let steps = &o.execution.scenarios[0].steps;
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0].location, "s.acl:1:1");
}

#[tokio::test]
async fn a_product_failure_names_the_step_and_captures_evidence() {
    let o = run(
        vec![web(
            "f",
            5000,
            &[("ok", nav()), ("fail", nav()), ("ok", nav())],
        )],
        1,
        false,
        CancelToken::new(),
    )
    .await;
    let s = &o.execution.scenarios[0];
    assert_eq!(s.status, ScenarioStatus::Failed);
    let f = s.failure.as_ref().unwrap();
    assert_eq!(
        (f.code, f.failure_class),
        (FailureCode::TextMismatch, FailureClass::Product)
    );
    assert_eq!(
        f.step_path.as_deref(),
        Some("suite.s.scenario.f.step1.fail")
    );
    assert_eq!(s.steps.len(), 2, "steps after the failure do not run");
    // The page the capture saw is the failure's page; a `navigate` names no element.
    assert_eq!(
        f.page_url.as_deref(),
        Some("http://127.0.0.1:9/shop?step=pay")
    );
    assert_eq!(f.target, None);
    assert_eq!(f.evidence.len(), 1);
    let shot = &f.evidence[0].path;
    assert!(
        shot.ends_with("s/f/failure/screenshot.png") && shot.is_file(),
        "{}",
        shot.display()
    );
    assert_eq!(o.counters.closed.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn the_scenario_deadline_cuts_a_hanging_step_and_still_cleans_up() {
    let started = std::time::Instant::now();
    let o = run(
        vec![web("t", 300, &[("ok", nav()), ("hang", nav())])],
        1,
        false,
        CancelToken::new(),
    )
    .await;
    // A bound on a hang: the 300 ms scenario deadline cuts the hanging step.
    assert!(started.elapsed() < Duration::from_secs(5));
    let s = &o.execution.scenarios[0];
    assert_eq!(s.status, ScenarioStatus::TimedOut);
    assert_eq!(s.failure.as_ref().unwrap().code, FailureCode::Timeout);
    assert_eq!(
        o.counters.captured.load(Ordering::SeqCst),
        1,
        "a timeout still gets its screenshot"
    );
    assert_eq!(o.counters.closed.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn unsupported_surfaces_and_steps_fail_as_specification_without_a_browser() {
    let o = run(
        vec![
            scenario("gui", Surface::Gui, 5000, &[("ok", nav())]),
            web(
                "trace",
                5000,
                &[("ok", nav()), ("t", Action::Snapshot { interactive: true })],
            ),
        ],
        1,
        false,
        CancelToken::new(),
    )
    .await;
    let codes = o.failure_codes();
    assert_eq!(
        codes,
        [FailureCode::UnsupportedSurface, FailureCode::Unsupported]
    );
    assert!(o
        .execution
        .scenarios
        .iter()
        .all(|s| s.failure_class() == Some(FailureClass::Specification)));
    assert!(
        !o.counters.launched.load(Ordering::SeqCst),
        "no browser for scenarios that cannot run"
    );
}

#[tokio::test]
async fn a_launch_failure_fails_every_runnable_scenario_as_infrastructure() {
    let o = run(
        vec![
            web("a", 5000, &[("ok", nav())]),
            web("b", 5000, &[("ok", nav())]),
        ],
        1,
        true,
        CancelToken::new(),
    )
    .await;
    for s in &o.execution.scenarios {
        let f = s.failure.as_ref().unwrap();
        assert_eq!(
            (f.code, f.failure_class),
            (FailureCode::BrowserLaunch, FailureClass::Infrastructure)
        );
    }
}

#[tokio::test]
async fn a_crash_fails_the_rest_at_once() {
    let o = run(
        vec![
            web("a", 5000, &[("crash", nav())]),
            web("b", 60_000, &[("hang", nav())]),
            web("c", 60_000, &[("hang", nav())]),
        ],
        1,
        false,
        CancelToken::new(),
    )
    .await;
    let codes = o.failure_codes();
    assert_eq!(codes, [FailureCode::BrowserCrashed; 3]);
    assert_eq!(
        o.counters.captured.load(Ordering::SeqCst),
        0,
        "no capture from a dead browser"
    );
}

#[tokio::test]
async fn cancel_stops_running_and_waiting_scenarios_and_closes_contexts() {
    let cancel = CancelToken::new();
    let trigger = cancel.clone();
    let scenarios = vec![
        web("a", 60_000, &[("hang", nav())]),
        web("b", 60_000, &[("hang", nav())]),
        web("c", 60_000, &[("ok", nav())]),
    ];
    let counters = Arc::new(Counters::default());
    let runner = tokio::spawn(run_with(scenarios, 2, false, cancel, counters.clone()));
    // Cancel once both slots are busy: wait on the condition, with a deadline.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while counters.open.load(Ordering::SeqCst) < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "scenarios never started"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    trigger.cancel();
    let o = tokio::time::timeout(Duration::from_secs(10), runner)
        .await
        .unwrap()
        .unwrap();
    assert!(
        statuses(&o).iter().all(|s| *s == ScenarioStatus::Cancelled),
        "{:?}",
        statuses(&o)
    );
    assert_eq!(
        o.counters.open.load(Ordering::SeqCst),
        0,
        "every opened context was closed"
    );
    assert_eq!(
        o.counters.opened.load(Ordering::SeqCst),
        2,
        "the waiting scenario never opened"
    );
    assert!(o
        .events
        .iter()
        .any(|e| matches!(e.kind, RunEventKind::RunBeginCancel { .. })));
}

#[tokio::test]
async fn a_scenario_that_passes_on_a_retry_is_flaky_and_keeps_each_attempt() {
    let o = run_retrying(vec![web("f", 5000, &[("ok", nav()), ("flaky1", nav())])], 2).await;
    let s = &o.execution.scenarios[0];
    assert_eq!(s.status, ScenarioStatus::Flaky);
    assert!(s.failure.is_none());
    assert_eq!(s.earlier_attempts.len(), 1);
    let first = &s.earlier_attempts[0];
    assert_eq!((first.attempt, first.status), (1, ScenarioStatus::Failed));
    assert_eq!(
        first.failure.as_ref().unwrap().code,
        FailureCode::TextMismatch
    );
    let (first_dir, last_dir) = (
        first.artifact_dir.clone().unwrap(),
        s.artifact_dir.clone().unwrap(),
    );
    assert!(first_dir.ends_with("s/f"), "{}", first_dir.display());
    assert!(last_dir.ends_with("s/f.retry-1"), "{}", last_dir.display());
    assert!(
        first_dir.join("failure/screenshot.png").is_file(),
        "the failed attempt keeps its own evidence"
    );
    assert_eq!(
        (
            o.counters.opened.load(Ordering::SeqCst),
            o.counters.closed.load(Ordering::SeqCst)
        ),
        (2, 2),
        "a fresh context per attempt, each closed"
    );
    let retrying: Vec<_> = o
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            RunEventKind::ScenarioRetrying {
                failed,
                max_attempts,
                ..
            } => Some((failed.attempt, *max_attempts)),
            _ => None,
        })
        .collect();
    assert_eq!(retrying, [(1, 3)]);
    let finished = o
        .events
        .iter()
        .filter(|e| matches!(e.kind, RunEventKind::ScenarioFinished { .. }))
        .count();
    assert_eq!(finished, 1, "one verdict per scenario");
}

#[tokio::test]
async fn retries_stop_at_the_limit_and_skip_what_a_retry_cannot_fix() {
    let o = run_retrying(
        vec![
            web("always", 5000, &[("fail", nav())]),
            web("slow", 200, &[("hang1", nav())]),
            web(
                "spec",
                5000,
                &[("t", Action::Snapshot { interactive: true })],
            ),
            web("crash", 5000, &[("crash", nav())]),
        ],
        2,
    )
    .await;
    let got: Vec<_> = o
        .execution
        .scenarios
        .iter()
        .map(|s| (s.id.as_str(), s.status, s.attempt_count()))
        .collect();
    assert_eq!(
        got,
        [
            ("s/always", ScenarioStatus::Failed, 3),
            ("s/slow", ScenarioStatus::Flaky, 2),
            ("s/spec", ScenarioStatus::Failed, 1),
            ("s/crash", ScenarioStatus::Failed, 1),
        ],
        "product failures and timeouts are retried; specification and crashes are not"
    );
    assert_eq!(
        o.execution.scenarios[1].earlier_attempts[0].status,
        ScenarioStatus::TimedOut
    );
}

#[tokio::test]
async fn without_retries_a_failure_is_final() {
    let o = run_retrying(vec![web("f", 5000, &[("flaky1", nav())])], 0).await;
    let s = &o.execution.scenarios[0];
    assert_eq!((s.status, s.attempt_count()), (ScenarioStatus::Failed, 1));
    assert!(!o
        .events
        .iter()
        .any(|e| matches!(e.kind, RunEventKind::ScenarioRetrying { .. })));
}

// ---------------------------------------------------------------------------------------------
// Dependencies and annotations (issue 41).
// ---------------------------------------------------------------------------------------------

/// `scenario` depending on `deps` (same suite).
fn needing(mut scenario: Scenario, deps: &[&str]) -> Scenario {
    scenario.organisation.depends_on = deps
        .iter()
        .map(|d| a3s_test_lang::ir::Dependency {
            suite: None,
            scenario: d.to_string(),
        })
        .collect();
    scenario
}

/// The position of `id`'s first event matching `kind` (`started` or `finished`).
fn event_at(o: &Outcome, id: &str, started: bool) -> usize {
    o.events
        .iter()
        .position(|e| match &e.kind {
            RunEventKind::ScenarioStarted { id: i, .. } => started && i.to_string() == id,
            RunEventKind::ScenarioFinished { result, .. } => !started && result.id == id,
            _ => false,
        })
        .unwrap_or_else(|| panic!("no event for {id}"))
}

#[tokio::test]
async fn a_dependency_runs_once_and_finishes_before_its_dependants_start_at_any_jobs() {
    for jobs in [1, 4] {
        // The dependants come first in the plan: they must still wait, without holding the
        // only slot (jobs = 1) their dependency needs.
        let mut scenarios: Vec<Scenario> = (0..6)
            .map(|i| needing(web(&format!("d{i}"), 5000, &[("ok", nav())]), &["setup"]))
            .collect();
        scenarios.push(web("setup", 5000, &[("slow50", nav())]));
        let o = run(scenarios, jobs, false, CancelToken::new()).await;
        assert_eq!(statuses(&o), vec![ScenarioStatus::Passed; 7], "jobs {jobs}");
        assert_eq!(
            o.counters.opened.load(Ordering::SeqCst),
            7,
            "setup ran once"
        );
        let setup_done = event_at(&o, "s/setup", false);
        for i in 0..6 {
            assert!(
                event_at(&o, &format!("s/d{i}"), true) > setup_done,
                "jobs {jobs}: d{i} started before its dependency finished"
            );
        }
    }
}

#[tokio::test]
async fn a_failed_dependency_skips_its_dependants_with_the_reason_and_fails_nothing_else() {
    let scenarios = vec![
        web("setup", 5000, &[("fail", nav())]),
        needing(web("first", 5000, &[("ok", nav())]), &["setup"]),
        needing(web("second", 5000, &[("ok", nav())]), &["first"]),
        web("free", 5000, &[("ok", nav())]),
    ];
    let o = run(scenarios, 2, false, CancelToken::new()).await;
    assert_eq!(
        statuses(&o),
        vec![
            ScenarioStatus::Failed,
            ScenarioStatus::Skipped,
            ScenarioStatus::Skipped,
            ScenarioStatus::Passed
        ]
    );
    let reasons: Vec<Option<String>> = o
        .execution
        .scenarios
        .iter()
        .map(|s| s.skip.as_ref().map(|k| k.line()))
        .collect();
    assert_eq!(
        reasons,
        vec![
            None,
            Some("dependency setup failed".to_string()),
            Some("dependency first was skipped".to_string()),
            None
        ]
    );
    for s in &o.execution.scenarios[1..3] {
        assert!(s.failure.is_none(), "a skipped dependant has no failure");
    }
    assert_eq!(
        o.counters.opened.load(Ordering::SeqCst),
        2,
        "no context for a skip"
    );
}

#[tokio::test]
async fn skip_and_fixme_are_reported_without_a_browser_and_slow_triples_the_deadline() {
    use a3s_test_lang::ir::SkipAnnotation;
    let mut skipped = web("skipped", 5000, &[("ok", nav())]);
    skipped.organisation.annotations.skip = Some(SkipAnnotation::Skip("not on CI".into()));
    let mut fixme = web("fixme", 5000, &[("ok", nav())]);
    fixme.organisation.annotations.skip = Some(SkipAnnotation::Fixme("bug 12".into()));
    let o = run(
        vec![skipped.clone(), fixme.clone()],
        1,
        false,
        CancelToken::new(),
    )
    .await;
    assert_eq!(statuses(&o), vec![ScenarioStatus::Skipped; 2]);
    assert!(
        !o.counters.shut_down.load(Ordering::SeqCst),
        "nothing to run: no browser was launched"
    );
    let lines: Vec<String> = o
        .execution
        .scenarios
        .iter()
        .map(|s| s.skip.as_ref().unwrap().line())
        .collect();
    assert_eq!(lines, ["skip: not on CI", "fixme: bug 12"]);

    // A second of work in a 400 ms deadline (cut off 250 ms later): times out, unless the
    // scenario is slow (1,200 ms).
    let quick = web("quick", 400, &[("slow1000", nav())]);
    let mut slow = web("slow", 400, &[("slow1000", nav())]);
    slow.organisation.annotations.slow = true;
    let o = run(vec![quick, slow], 2, false, CancelToken::new()).await;
    assert_eq!(
        statuses(&o),
        vec![ScenarioStatus::TimedOut, ScenarioStatus::Passed]
    );
}
