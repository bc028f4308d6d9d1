//! The executor: runs a [`Plan`] against one driver, a fresh context per scenario.
//!
//! - **Capability gate first.** A scenario on a surface the driver does not drive, or with a step
//!   it cannot execute, fails as a specification failure before anything is launched; when no
//!   scenario is runnable, no browser starts at all.
//! - **One driver per run**, launched lazily (bounded by the launch timeout, racing Ctrl+C) and
//!   shared by every scenario; **one fresh context per scenario**; at most `jobs` at once.
//! - **One deadline per scenario** (`timeout_ms`, from the moment it gets a slot) covers opening
//!   its context and every step; each step also receives it in [`StepEnv`] so the driver can fail
//!   with its own, more precise code. A step still running [`DRIVER_GRACE`] after the deadline is
//!   cut off as `test.run.timeout` (exit 124).
//! - **No implicit retries.** A step is dispatched once. (Only the driver knows whether a command
//!   provably never reached the browser, so that single bounded retry lives in the driver.)
//! - **Explicit scenario retries** (`--retries N`, [`ExecutorConfig::retries`]): a scenario whose
//!   attempt failed on the product (a `test.assert.*` or target failure) or ran out of time
//!   (`test.run.timeout`) runs again from its first step in a fresh context, with a fresh deadline
//!   and its own artifact folder, up to N more times. One that then passes is
//!   [`ScenarioStatus::Flaky`]. Specification failures are deterministic and never retried;
//!   infrastructure failures (a crashed browser, a failed evidence write) and an attempt whose
//!   context could not be closed are not retried either: they put the run in doubt, and a retry
//!   would hide that behind a "flaky" pass — except a lost Grid session
//!   (`test.driver.web.grid_session_lost`), whose retry runs on another session ([`crate::pool`]).
//!   Cancellation stops retrying.
//! - After a failure the driver captures screenshot, accessibility tree, console and page errors
//!   into `<scenario>/failure/`; capture and close each get [`ExecutorConfig::cleanup_bound`], so a
//!   wedged browser can delay a scenario by a known amount but never hang the run.
//! - **Cancel** (first Ctrl+C): no new scenario starts, running steps are abandoned, contexts are
//!   closed (bounded), the browser is shut down (bounded), and every unfinished scenario reports
//!   `test.run.cancelled`.
//! - A browser that crashed is not relaunched: scenarios that had not opened yet fail at once with
//!   the crash, instead of each waiting for its own timeout.
//!
//! - **Dependencies** (`depends_on`, [`dependencies`]): a dependant waits, before taking a slot,
//!   until its dependencies finished; it runs when they passed and is skipped with the reason
//!   (`dependency auth-setup failed`) otherwise. **Annotations**: a `skip`/`fixme` scenario is
//!   reported skipped without opening anything; a `slow` one gets every deadline ×3.
//! - **Storage state** ([`storage_state`]): a scenario with one loads it into its fresh context
//!   before the first step, under the scenario deadline.
//!
//! The executor never prints; it emits [`RunEventKind`]s and returns the scenario results.

mod dependencies;
pub(crate) mod storage_state;

use crate::cancel::CancelToken;
use crate::event::{CancelReason, EventSender, RunEventKind};
use crate::evidence::{ArtifactRoot, EvidenceError};
use crate::plan::{Plan, PlannedScenario};
use crate::result::{
    AttemptResult, EvidenceRecord, FailureRecord, ScenarioResult, ScenarioStatus, StepResult,
    StepStatus,
};
use crate::skip::SkipRecord;
use crate::step::{self, StepFailed};
use crate::verdict::{self, Failures};
use a3s_test_driver::{
    Capabilities, ContextOptions, DriverError, FailureClass, FailureCode, FailureEvidence,
    MissingEvidence, ProcessVars, StepEnv, SurfaceContext, SurfaceDriver,
};
use a3s_test_lang::ir::{Action, Hook, Scenario};
use dependencies::Outcomes;
use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio::time::Instant;

pub use crate::step::DRIVER_GRACE;

/// Starts the driver. Capabilities are known before launching, so the capability gate can run
/// without a browser.
pub trait DriverLauncher: Send + 'static {
    /// The driver it starts.
    type Driver: SurfaceDriver;

    /// What the driver will be able to do.
    fn capabilities(&self) -> Capabilities;

    /// What it will be able to do on each surface it drives (one, unless it combines several:
    /// [`crate::surfaces::Surfaces`]).
    fn surfaces(&self) -> Vec<Capabilities> {
        vec![self.capabilities()]
    }

    /// Launch (or attach to) the browser within `timeout`.
    fn launch(
        self,
        timeout: Duration,
    ) -> impl Future<Output = Result<Self::Driver, DriverError>> + Send;
}

/// Everything the executor needs besides the plan and the driver.
#[derive(Debug, Clone)]
pub struct ExecutorConfig {
    /// Scenarios at once (≥ 1).
    pub jobs: usize,
    /// Where scenario folders go.
    pub artifacts: ArtifactRoot,
    /// Upload paths are relative to it.
    pub working_dir: PathBuf,
    /// Overrides every suite's `base_url` (`--base-url`).
    pub base_url: Option<String>,
    /// Bound on the browser launch.
    pub launch_timeout: Duration,
    /// Bound on each of: failure-evidence capture, context close, driver shutdown.
    pub cleanup_bound: Duration,
    /// How many more times a failed scenario may run (`--retries`; 0 = once only).
    pub retries: u32,
    /// How long an `expect` waits when neither its step nor its scenario (or suite) says:
    /// `--expect-timeout-ms`, else the project's `expect_timeout_ms`, else 5,000 ms.
    pub expect_timeout: Duration,
    /// The project's context options (`docs/acl.md` §2.4): what every scenario's own (its
    /// suite's, then its own) are written over.
    pub context: a3s_test_lang::ir::ContextSettings,
    /// Which snapshot baselines the run writes (`--update-snapshots`).
    pub update_snapshots: a3s_test_driver::snapshot::UpdateSnapshots,
    /// Step traces: which attempts, which are kept, the last-green store (`run --trace`).
    pub trace: crate::trace::TraceConfig,
}

/// What the executor hands back: scenario results in plan order and run-level cleanup failures.
#[derive(Debug, Clone, Default)]
pub struct Execution {
    /// One result per planned scenario, in plan order.
    pub scenarios: Vec<ScenarioResult>,
    /// Driver shutdown failures.
    pub cleanup_failures: Vec<FailureRecord>,
}

/// Shared state of the running scenarios.
struct Shared<D> {
    driver: Arc<D>,
    config: ExecutorConfig,
    events: EventSender,
    cancel: CancelToken,
    running: AtomicUsize,
    finished: AtomicUsize,
    total: usize,
    browser_lost: AtomicBool,
    lost_reason: std::sync::Mutex<Option<(FailureCode, String)>>,
    /// Runnable scenarios still waiting for a slot (decremented once per scenario when its permit
    /// is obtained or refused).
    waiting: AtomicUsize,
    /// The `aria_snapshot` rewrites of this run's suite files (`--update-snapshots`).
    suite_edits: Arc<a3s_test_driver::snapshot::SuiteEdits>,
    /// The ids of the plan's scenarios: the last-green store never removes their records.
    in_run: Arc<std::collections::HashSet<String>>,
}

/// Run every planned scenario; emits every event except `RunStarted` and `RunFinished`.
pub async fn execute<L: DriverLauncher>(
    plan: &Plan,
    launcher: L,
    config: ExecutorConfig,
    events: EventSender,
    cancel: CancelToken,
) -> Execution {
    let total = plan.scenarios.len();
    let surfaces = launcher.surfaces();
    let mut results: Vec<Option<ScenarioResult>> = vec![None; total];
    let finished = AtomicUsize::new(0);
    let finish = |result: ScenarioResult, slot: &mut Option<ScenarioResult>, running: usize| {
        let done = finished.fetch_add(1, Ordering::SeqCst) + 1;
        events.send(RunEventKind::ScenarioFinished {
            result: Arc::new(result.clone()),
            running,
            finished: done,
            total,
        });
        *slot = Some(result);
    };

    // 1. Annotations and the capability gate: no browser for a scenario that is skipped or
    //    cannot run.
    let outcomes = Arc::new(Outcomes::new(plan));
    let mut runnable = Vec::new();
    for (index, planned) in plan.scenarios.iter().enumerate() {
        if let Some(annotation) = &planned.scenario.organisation.annotations.skip {
            outcomes.finished(index, ScenarioStatus::Skipped);
            let result = skipped(planned, SkipRecord::annotated(annotation));
            finish(result, &mut results[index], 0);
            continue;
        }
        match crate::surfaces::gate(&surfaces, &planned.scenario) {
            Some(failure) => {
                outcomes.finished(index, ScenarioStatus::Failed);
                finish(
                    not_run(planned, ScenarioStatus::Failed, failure),
                    &mut results[index],
                    0,
                )
            }
            None => runnable.push(index),
        }
    }

    // 2. Cancel watcher: announce the cancellation once, with how many scenarios were running.
    let running = Arc::new(AtomicUsize::new(0));
    let watcher = {
        let (cancel, events, running) = (cancel.clone(), events.clone(), running.clone());
        tokio::spawn(async move {
            cancel.cancelled().await;
            events.send(RunEventKind::RunBeginCancel {
                reason: CancelReason::Interrupt,
                running: running.load(Ordering::SeqCst),
            });
        })
    };

    // 3. Launch the driver lazily, only when something can run.
    let mut cleanup_failures = Vec::new();
    let driver = if runnable.is_empty() {
        None
    } else {
        let started = Instant::now();
        let launch = tokio::select! {
            biased;
            _ = cancel.cancelled() => Err(None),
            r = launcher.launch(config.launch_timeout) => r.map_err(Some),
        };
        match launch {
            Ok(driver) => {
                events.send(RunEventKind::DriverStarted {
                    launch: started.elapsed(),
                });
                Some(Arc::new(driver))
            }
            Err(error) => {
                let (status, failure) = match error {
                    None => (
                        ScenarioStatus::Cancelled,
                        cancelled_failure("before the browser started"),
                    ),
                    Some(e) => (
                        status_for(e.code),
                        FailureRecord::new(e.code, format!("not run: {}", e.message)),
                    ),
                };
                for index in runnable.drain(..) {
                    outcomes.finished(index, status);
                    finish(
                        not_run(&plan.scenarios[index], status, failure.clone()),
                        &mut results[index],
                        0,
                    );
                }
                None
            }
        }
    };

    // 4. Run the runnable scenarios, `jobs` at once.
    if let Some(driver) = &driver {
        let shared = Arc::new(Shared {
            driver: driver.clone(),
            config: config.clone(),
            events: events.clone(),
            cancel: cancel.clone(),
            running: AtomicUsize::new(0),
            finished: AtomicUsize::new(finished.load(Ordering::SeqCst)),
            total,
            browser_lost: AtomicBool::new(false),
            lost_reason: std::sync::Mutex::new(None),
            waiting: AtomicUsize::new(runnable.len()),
            suite_edits: Arc::default(),
            in_run: Arc::new(plan.scenarios.iter().map(|p| p.id.to_string()).collect()),
        });
        let slots = Arc::new(Semaphore::new(config.jobs.max(1)));
        let mut tasks = tokio::task::JoinSet::new();
        let mut task_index = std::collections::HashMap::new();
        for index in runnable {
            let (shared, slots, planned, running, outcomes) = (
                shared.clone(),
                slots.clone(),
                plan.scenarios[index].clone(),
                running.clone(),
                outcomes.clone(),
            );
            let handle = tasks.spawn(async move {
                // Dependencies first, without holding a slot.
                let blocked = if outcomes.independent(index) {
                    None
                } else {
                    tokio::select! {
                        biased;
                        _ = shared.cancel.cancelled() => None,
                        skip = outcomes.wait(index) => skip,
                    }
                };
                let permit = match blocked {
                    Some(_) => None,
                    None => tokio::select! {
                        biased;
                        _ = shared.cancel.cancelled() => None,
                        p = slots.acquire_owned() => p.ok(),
                    },
                };
                // This scenario no longer waits for a slot, whether it runs or not: count it out
                // exactly once, whichever path it takes next.
                shared.waiting.fetch_sub(1, Ordering::SeqCst);
                let result = match (blocked, permit) {
                    (Some(skip), _) => skipped(&planned, skip),
                    (None, None) => not_run(
                        &planned,
                        ScenarioStatus::Cancelled,
                        cancelled_failure("before it started"),
                    ),
                    (None, Some(_permit)) => {
                        running.fetch_add(1, Ordering::SeqCst);
                        let now = shared.running.fetch_add(1, Ordering::SeqCst) + 1;
                        shared.events.send(RunEventKind::ScenarioStarted {
                            id: planned.id.clone(),
                            running: now,
                        });
                        let r = run_attempts(&shared, &planned).await;
                        shared.running.fetch_sub(1, Ordering::SeqCst);
                        running.fetch_sub(1, Ordering::SeqCst);
                        r
                    }
                };
                outcomes.finished(index, result.status);
                let done = shared.finished.fetch_add(1, Ordering::SeqCst) + 1;
                shared.events.send(RunEventKind::ScenarioFinished {
                    result: Arc::new(result.clone()),
                    running: shared.running.load(Ordering::SeqCst),
                    finished: done,
                    total: shared.total,
                });
                (index, result)
            });
            task_index.insert(handle.id(), index);
        }
        while let Some(joined) = tasks.join_next_with_id().await {
            match joined {
                Ok((_, (index, result))) => results[index] = Some(result),
                // A panicking scenario task is a runner bug: its scenario fails with the panic
                // text (the executor never prints; the reporters show the result).
                Err(e) => {
                    if let Some(&index) = task_index.get(&e.id()) {
                        let failure = FailureRecord::new(
                            FailureCode::Protocol,
                            format!("internal error: the scenario task failed: {e}"),
                        );
                        let result =
                            not_run(&plan.scenarios[index], ScenarioStatus::Failed, failure);
                        outcomes.finished(index, ScenarioStatus::Failed);
                        finish_internal(&shared.events, result.clone(), total, &shared.finished);
                        results[index] = Some(result);
                    }
                }
            }
        }
        drop(shared);
        match tokio::time::timeout(config.cleanup_bound, driver.shutdown()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => cleanup_failures.push(FailureRecord::new(
                FailureCode::CleanupFailed,
                format!("failed to shut the browser down: {}", e.message),
            )),
            Err(_) => cleanup_failures.push(FailureRecord::new(
                FailureCode::CleanupFailed,
                format!(
                    "failed to shut the browser down within {} ms",
                    config.cleanup_bound.as_millis()
                ),
            )),
        }
        for failure in &cleanup_failures {
            events.send(RunEventKind::CleanupFailed {
                failure: failure.clone(),
            });
        }
    }
    drop(driver);
    if cancel.is_cancelled() {
        // The announcement is part of the record of a cancelled run: let it land.
        let _ = watcher.await;
    } else {
        watcher.abort();
    }

    let scenarios = results
        .into_iter()
        .zip(&plan.scenarios)
        .map(|(r, planned)| {
            r.unwrap_or_else(|| {
                not_run(
                    planned,
                    ScenarioStatus::Failed,
                    FailureRecord::new(FailureCode::Protocol, "the scenario task failed"),
                )
            })
        })
        .collect();
    Execution {
        scenarios,
        cleanup_failures,
    }
}

/// Report a scenario whose task died (a runner bug) as finished, so every output still lists it.
fn finish_internal(
    events: &EventSender,
    result: ScenarioResult,
    total: usize,
    finished: &AtomicUsize,
) {
    let done = finished.fetch_add(1, Ordering::SeqCst) + 1;
    events.send(RunEventKind::ScenarioFinished {
        result: Arc::new(result),
        running: 0,
        finished: done,
        total,
    });
}

/// The specification failure of a scenario the driver cannot run, if any.
pub fn capability_failure(
    capabilities: &Capabilities,
    scenario: &Scenario,
) -> Option<FailureRecord> {
    if scenario.surface != capabilities.surface {
        let mut f = FailureRecord::new(
            FailureCode::UnsupportedSurface,
            format!(
                "no driver for surface `{}`; only `{}` scenarios run",
                scenario.surface.name(),
                capabilities.surface.name()
            ),
        );
        f.step_path = Some(scenario.path.clone());
        return Some(f);
    }
    let step = scenario.steps.iter().find(|s| !capabilities.supports(s))?;
    let mut f = FailureRecord::new(
        FailureCode::Unsupported,
        format!("the driver cannot execute `{}` steps", step.action.kind()),
    );
    f.step_path = Some(step.path.clone());
    Some(f)
}

fn status_for(code: FailureCode) -> ScenarioStatus {
    match code {
        FailureCode::Timeout => ScenarioStatus::TimedOut,
        FailureCode::Cancelled => ScenarioStatus::Cancelled,
        _ => ScenarioStatus::Failed,
    }
}

fn cancelled_failure(when: &str) -> FailureRecord {
    FailureRecord::new(FailureCode::Cancelled, format!("cancelled {when}"))
}

/// A result for a scenario that never opened a context (`failure` explains why).
pub fn not_run(
    planned: &PlannedScenario,
    status: ScenarioStatus,
    mut failure: FailureRecord,
) -> ScenarioResult {
    if failure.location.is_none() {
        failure.location = Some(planned.suite.source.location(planned.scenario.span.start));
    }
    ScenarioResult {
        id: planned.id.to_string(),
        suite: planned.id.suite.clone(),
        scenario: planned.id.scenario.clone(),
        name: planned.scenario.name.clone(),
        file: planned.suite.source.display(),
        tags: planned.scenario.tags.clone(),
        status,
        failure: Some(failure),
        cleanup_failure: None,
        hook_failure: None,
        soft_failures: Vec::new(),
        groups: Vec::new(),
        steps: Vec::new(),
        duration_ms: 0,
        context_open_us: None,
        context_close_us: None,
        artifact_dir: None,
        earlier_attempts: Vec::new(),
        skip: None,
        dependency_only: planned.dependency_only,
        trace: None,
        last_green_not_written: None,
    }
}

/// The result of a selected scenario that is not run: annotated `skip`/`fixme`, or a dependency
/// did not pass.
pub fn skipped(planned: &PlannedScenario, skip: SkipRecord) -> ScenarioResult {
    let mut result = not_run(
        planned,
        ScenarioStatus::Skipped,
        FailureRecord::new(FailureCode::Protocol, ""),
    );
    result.failure = None;
    result.skip = Some(skip);
    result
}

fn evidence_failure(e: EvidenceError) -> FailureRecord {
    FailureRecord::new(e.code(), e.to_string())
}

/// Run a scenario, and again after a retryable failure while `--retries` allow; the result is the
/// last attempt's, with the earlier ones attached (and `Flaky` when a retry passed).
async fn run_attempts<D: SurfaceDriver>(
    shared: &Shared<D>,
    planned: &PlannedScenario,
) -> ScenarioResult {
    let max_attempts = shared.config.retries.saturating_add(1);
    let mut earlier = Vec::new();
    let mut attempt = 1;
    loop {
        let mut result = run_scenario(shared, planned, attempt).await;
        let again = attempt < max_attempts
            && retryable(&result)
            && !shared.cancel.is_cancelled()
            && !shared.browser_lost.load(Ordering::SeqCst);
        if !again {
            if result.status == ScenarioStatus::Passed && !earlier.is_empty() {
                result.status = ScenarioStatus::Flaky;
            }
            result.earlier_attempts = earlier;
            return result;
        }
        let failed = AttemptResult::of(attempt, result);
        shared.events.send(RunEventKind::ScenarioRetrying {
            id: planned.id.clone(),
            failed: Arc::new(failed.clone()),
            max_attempts,
        });
        earlier.push(failed);
        attempt += 1;
    }
}

/// Whether a finished attempt may be run again: it failed on the product, ran out of time, or
/// lost its Grid session (the retry opens on another; `crate::pool`), and its context was closed
/// cleanly (see the module doc for why nothing else is).
pub fn retryable(result: &ScenarioResult) -> bool {
    result.cleanup_failure.is_none()
        && result.failure.as_ref().is_some_and(|f| {
            f.failure_class == FailureClass::Product
                || f.code == FailureCode::Timeout
                || f.code == FailureCode::GridSessionLost
        })
}

async fn run_scenario<D: SurfaceDriver>(
    shared: &Shared<D>,
    planned: &PlannedScenario,
    attempt: u32,
) -> ScenarioResult {
    let scenario = &planned.scenario;
    let source = &planned.suite.source;
    let started = Instant::now();
    let annotations = &scenario.organisation.annotations;
    let timeout_ms = annotations.stretch(scenario.timeout_ms);
    let deadline = started + Duration::from_millis(timeout_ms);
    let mut result = not_run(
        planned,
        ScenarioStatus::Passed,
        FailureRecord::new(FailureCode::Protocol, ""),
    );
    result.failure = None;
    let finish = |mut result: ScenarioResult| {
        result.duration_ms = started.elapsed().as_millis() as u64;
        result
    };

    if let Some((code, message)) = shared.lost_reason.lock().ok().and_then(|r| r.clone()) {
        result.status = ScenarioStatus::Failed;
        result.failure = Some(FailureRecord::new(code, format!("not run: {message}")));
        return finish(result);
    }

    let dir = match shared.config.artifacts.attempt_dir(&planned.id, attempt) {
        Ok(dir) => dir,
        Err(e) => {
            result.status = ScenarioStatus::Failed;
            result.failure = Some(evidence_failure(e));
            return finish(result);
        }
    };
    result.artifact_dir = Some(dir.path().to_path_buf());

    // Open the context under the scenario deadline.
    let driver = &shared.driver;
    let open_started = Instant::now();
    let opened = tokio::select! {
        biased;
        _ = shared.cancel.cancelled() => Err((ScenarioStatus::Cancelled, cancelled_failure("while opening its context"))),
        r = tokio::time::timeout_at(deadline, driver.new_context(context_options(shared, scenario.surface))) => match r {
            Ok(Ok(ctx)) => Ok(ctx),
            Ok(Err(e)) => {
                note_browser_loss(shared, e.code, &e.message);
                Err((status_for(e.code), FailureRecord::new(e.code, format!("failed to open a browser context: {}", e.message))))
            }
            Err(_) => Err((ScenarioStatus::TimedOut, FailureRecord::new(
                FailureCode::Timeout,
                format!("the scenario deadline ({timeout_ms} ms) passed while opening its browser context"),
            ))),
        },
    };
    let mut ctx = match opened {
        Ok(ctx) => {
            result.context_open_us = Some(open_started.elapsed().as_micros() as u64);
            ctx
        }
        Err((status, mut failure)) => {
            failure.location = Some(source.location(scenario.span.start));
            result.status = status;
            result.failure = Some(failure);
            return finish(result);
        }
    };

    let mut recorder = crate::trace::Recorder::new(planned, attempt, shared.config.trace.mode);
    if let Some(recorder) = &mut recorder {
        recorder.begin(&mut ctx, shared.config.trace.last_green.as_ref());
    }
    let base_url = shared
        .config
        .base_url
        .as_deref()
        .or(planned.suite.base_url.as_deref());
    let mut failures = Failures::default();
    result.groups = scenario.groups.clone();
    // The context options (project, then suite and scenario), applied before anything loads a
    // page; options that cannot be applied are the scenario's failure and its steps do not run.
    // A terminal or a desktop has no browser context: the project's options are for web scenarios.
    let settings = match scenario.surface {
        a3s_test_lang::ir::Surface::Web => shared.config.context.then(&scenario.context),
        _ => scenario.context.clone(),
    };
    if !settings.is_empty() {
        if let Err(f) = ctx
            .apply_context(&settings, &ProcessVars::RUN, deadline)
            .await
        {
            note_browser_loss(shared, f.code, &f.message);
            let mut failure = FailureRecord::new(
                f.code,
                format!("failed to apply the context options: {}", f.message),
            );
            failure.location = Some(source.location(scenario.span.start));
            failures.own = Some((status_for(f.code), failure));
        }
    }
    // The signed-in state the scenario starts from, loaded before its first step; a state that
    // cannot be loaded is the scenario's failure and its own steps do not run.
    if let Some(path) = &planned
        .storage_state
        .as_ref()
        .filter(|_| failures.own.is_none())
    {
        let project = &shared.config.working_dir;
        if let Err(mut failure) = storage_state::load(&mut ctx, project, path, deadline).await {
            note_browser_loss(shared, failure.code, &failure.message);
            failure.location = Some(source.location(scenario.span.start));
            failures.own = Some((status_for(failure.code), failure));
        }
    }
    let expect_timeout = scenario
        .expect_timeout_ms
        .map(Duration::from_millis)
        .unwrap_or(shared.config.expect_timeout);
    let expect_timeout = if annotations.slow {
        expect_timeout.saturating_mul(a3s_test_lang::ir::SLOW_FACTOR as u32)
    } else {
        expect_timeout
    };
    let action_timeout_ms = annotations.stretch(scenario.action_timeout_ms);
    let snapshots = a3s_test_driver::snapshot::SnapshotSettings::for_suite(
        shared.config.working_dir.join(&source.path),
        shared.config.update_snapshots,
        shared.suite_edits.clone(),
    );
    for (index, step) in scenario.steps.iter().enumerate() {
        let after_each = step.hook == Some(Hook::AfterEach);
        // After a hard failure only `after_each` runs; it stops at its own first failure, and
        // not at all once the run is cancelled or the browser is gone.
        let skip = if after_each {
            failures.hook.is_some()
                || shared.cancel.is_cancelled()
                || shared.browser_lost.load(Ordering::SeqCst)
        } else {
            failures.own.is_some()
        };
        if skip {
            continue;
        }
        // `after_each` has its own bound: each of its steps gets the action timeout from when
        // it starts, whether or not the scenario deadline has passed.
        let (step_deadline, deadline_name, deadline_ms) = if after_each {
            (
                Instant::now() + Duration::from_millis(action_timeout_ms),
                "after_each step",
                action_timeout_ms,
            )
        } else {
            (deadline, "scenario", timeout_ms)
        };
        let env = StepEnv {
            base_url,
            action_timeout: Duration::from_millis(action_timeout_ms),
            expect_timeout,
            deadline: step_deadline,
            deadline_name,
            artifact_dir: &dir,
            working_dir: &shared.config.working_dir,
            vars: &ProcessVars::RUN,
            snapshots: Some(&snapshots),
        };
        let mark = recorder.as_ref().map(|r| r.mark(&ctx));
        let step_started = Instant::now();
        let end = step::run_step(&mut ctx, step, &env, &shared.cancel).await;
        let location = source.location(step.span.start);
        let soft = is_soft(step);
        let mut record = StepResult {
            index,
            label: step.label.clone(),
            kind: step.action.kind().name().to_string(),
            path: step.path.clone(),
            location: location.clone(),
            status: StepStatus::Passed,
            duration_ms: step_started.elapsed().as_millis() as u64,
            evidence: Vec::new(),
            detail: None,
            failure: None,
            group: step.group,
            soft,
        };
        let failed = match end.into_result(deadline_name, deadline_ms) {
            Ok(output) => {
                record.evidence = output.evidence.iter().map(EvidenceRecord::from).collect();
                record.detail = output.detail;
                None
            }
            Err(StepFailed {
                failure: f,
                capture,
            }) => {
                note_browser_loss(shared, f.code, &f.message);
                let evidence: Vec<EvidenceRecord> =
                    f.evidence.iter().map(EvidenceRecord::from).collect();
                record.evidence = evidence.clone();
                let failure = FailureRecord {
                    code: f.code,
                    failure_class: f.code.class(),
                    message: f.message,
                    step_path: Some(step.path.clone()),
                    location: Some(location.clone()),
                    evidence,
                    missing_evidence: f.missing_evidence,
                    waited: f.waited,
                    target: crate::candidates::step_target(&step.action).cloned(),
                    page_url: None,
                };
                Some((status_for(f.code), failure, capture))
            }
        };
        if let Some((status, mut failure, capture)) = failed {
            // The step keeps its own evidence; the automatic capture goes with the verdict's
            // copy, taken now, before `after_each` (or the next step) changes the page.
            record.status = StepStatus::Failed;
            record.failure = Some(failure.clone());
            if capture {
                let name = if after_each {
                    FailureDir::Hook
                } else if soft && failure.failure_class == FailureClass::Product {
                    FailureDir::Soft(failures.soft.len() + 1)
                } else {
                    FailureDir::Own
                };
                let (files, missing, page_url) =
                    capture_evidence(shared, &mut ctx, &dir, name).await;
                failure.evidence.extend(files);
                failure.missing_evidence.extend(missing);
                failure.page_url = page_url;
            }
            if after_each {
                failures.hook = Some(failure);
            } else if soft && failure.failure_class == FailureClass::Product {
                failures.soft.push(failure);
            } else {
                failures.own = Some((status, failure));
            }
        }
        if let (Some(recorder), Some(mark)) = (&mut recorder, mark) {
            let capturable =
                !shared.cancel.is_cancelled() && !shared.browser_lost.load(Ordering::SeqCst);
            let line = a3s_test_lang::span::line_col(&source.text, step.span.start).0;
            if capturable {
                recorder
                    .step(&mut ctx, mark, (step, line), &record, env.vars)
                    .await;
            } else {
                recorder.step_without_page((step, line), &record);
            }
        }
        shared.events.send(RunEventKind::StepFinished {
            id: planned.id.clone(),
            step: Arc::new(record.clone()),
        });
        result.steps.push(record);
    }
    let (status, failure) = verdict::decide(&failures);
    result.status = status;
    result.failure = failure;
    result.soft_failures = failures.soft;
    result.hook_failure = failures.hook;
    // The trace's files are written on a blocking thread while the context closes: writes and
    // `fsync`s neither hold an async worker (the other jobs' steps) nor add to the scenario.
    let written = recorder.map(|recorder| {
        let (dir, status) = (dir.clone(), result.status);
        let (store, in_run) = (
            shared.config.trace.last_green.clone(),
            shared.in_run.clone(),
        );
        tokio::task::spawn_blocking(move || recorder.finish(&dir, status, store.as_ref(), &in_run))
    });

    let bound = shared.config.cleanup_bound;
    let close_started = Instant::now();
    let closed = tokio::time::timeout(bound, ctx.close()).await;
    result.context_close_us = Some(close_started.elapsed().as_micros() as u64);
    if let Some(written) = written {
        let finished = written.await.unwrap_or_else(|e| crate::trace::Finished {
            summary: Some(crate::trace::TraceSummary {
                path: dir.path().join(crate::trace::TRACE_FILE),
                steps: 0,
                screenshot_bytes: 0,
                since_last_green: None,
                not_written: Some(format!("the trace writer stopped: {e}")),
            }),
            last_green_not_written: None,
        });
        result.trace = finished.summary;
        result.last_green_not_written = finished.last_green_not_written;
    }
    result.cleanup_failure = match closed {
        Ok(Ok(())) => None,
        // A context of a browser that is already gone cannot be closed; that is the crash, not a
        // second (cleanup) failure.
        Ok(Err(_)) | Err(_) if shared.browser_lost.load(Ordering::SeqCst) => None,
        Ok(Err(e)) => Some(FailureRecord::new(
            FailureCode::CleanupFailed,
            format!("failed to close the browser context: {}", e.message),
        )),
        Err(_) => Some(FailureRecord::new(
            FailureCode::CleanupFailed,
            format!(
                "failed to close the browser context within {} ms",
                bound.as_millis()
            ),
        )),
    };
    finish(result)
}

/// Options for the next scenario's context: the driver may prepare one context ahead for each
/// job, but never more than the scenarios still waiting.
fn context_options<D>(shared: &Shared<D>, surface: a3s_test_lang::ir::Surface) -> ContextOptions {
    let waiting = shared.waiting.load(Ordering::SeqCst);
    ContextOptions {
        ready_ahead: waiting.min(shared.config.jobs.max(1)),
        surface: Some(surface),
        ..ContextOptions::default()
    }
}

/// Remember that the browser is gone, so later scenarios fail at once instead of timing out.
fn note_browser_loss<D>(shared: &Shared<D>, code: FailureCode, message: &str) {
    if code == FailureCode::BrowserCrashed {
        shared.browser_lost.store(true, Ordering::SeqCst);
        if let Ok(mut reason) = shared.lost_reason.lock() {
            reason.get_or_insert_with(|| (code, message.to_string()));
        }
    }
}

/// Which failure an automatic capture is for: each gets its own folder.
enum FailureDir {
    /// The scenario's own failure: `failure/`.
    Own,
    /// The n-th failed soft expect: `soft-failure-<n>/`.
    Soft(usize),
    /// The `after_each` failure: `after-each-failure/`.
    Hook,
}

/// True for a `soft = true` expect (its product failure does not stop the scenario).
fn is_soft(step: &a3s_test_lang::ir::Step) -> bool {
    matches!(&step.action, Action::Expect { expectation } if expectation.soft)
}

async fn capture_evidence<D: SurfaceDriver>(
    shared: &Shared<D>,
    ctx: &mut D::Context,
    dir: &a3s_test_fsroot::Dir,
    which: FailureDir,
) -> (Vec<EvidenceRecord>, Vec<MissingEvidence>, Option<String>) {
    let artifacts = &shared.config.artifacts;
    let made = match which {
        FailureDir::Own => artifacts.failure_dir(dir),
        FailureDir::Soft(n) => artifacts.named_failure_dir(dir, &format!("soft-failure-{n}")),
        FailureDir::Hook => artifacts.named_failure_dir(dir, "after-each-failure"),
    };
    let captured = match made {
        Ok(dir) => step::capture_failure_evidence(ctx, &dir, shared.config.cleanup_bound).await,
        Err(e) => {
            FailureEvidence::all_missing(&format!("the failure folder could not be created: {e}"))
        }
    };
    let files = captured.files.iter().map(EvidenceRecord::from).collect();
    (files, captured.missing, captured.page_url)
}
