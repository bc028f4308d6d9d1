//! One whole run, from a fixed plan to `RunFinished`: dev server, executor, leftover sweep, result.
//!
//! Order matters and is the same every time: announce the run → start the project's dev server
//! (if any; a server that never answers fails every scenario as `test.run.dev_server`, and no
//! browser starts) → execute → stop the dev server (its whole process group) → sweep this
//! process's subtree for anything still alive (the run owns it all; a survivor is killed and
//! reported as a cleanup failure) → finalize the result and emit `RunFinished`.

use crate::cancel::CancelToken;
use crate::devserver::{self, DevServerUse};
use crate::event::{EventSender, RunEventKind};
use crate::evidence::ArtifactRoot;
use crate::executor::{execute, DriverLauncher, Execution, ExecutorConfig};
use crate::plan::Plan;
use crate::result::{FailureRecord, RunOutcome, RunResult, ScenarioStatus, RESULT_FORMAT_VERSION};
use a3s_test_driver::FailureCode;
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;

/// Name of the dev server's log file in the run's artifact root.
pub const DEV_SERVER_LOG: &str = "dev-server.log";

/// How long the subtree gets to empty on its own after everything was shut down.
pub const SWEEP_GRACE: Duration = Duration::from_secs(3);

/// Settings of one run besides the plan and the driver.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The run id.
    pub run_id: String,
    /// When it started.
    pub started_at: OffsetDateTime,
    /// Executor settings (jobs, artifact root, deadlines).
    pub executor: ExecutorConfig,
    /// The project's dev server, if it has one.
    pub dev_server: Option<a3s_test_lang::ir::DevServer>,
    /// The run is in CI (`CI` set): a dev server already answering is not reused unless the
    /// project says `reuse_existing = true`.
    pub in_ci: bool,
    /// Sweep this process's subtree at the end (the CLI: yes; in-process tests: no, the test
    /// harness's own children live in the same subtree).
    pub sweep_processes: bool,
    /// `--fail-on-flaky`: a scenario that passed only on a retry fails the run.
    pub fail_on_flaky: bool,
    /// Which shard of a sharded run this is (`--shard i/n`), copied into the result.
    pub shard: Option<crate::result::ShardRecord>,
}

impl RunConfig {
    /// The artifact root.
    pub fn artifacts(&self) -> &ArtifactRoot {
        &self.executor.artifacts
    }
}

/// Execute `plan` and return the final result (also sent as `RunFinished`).
pub async fn run<L: DriverLauncher>(
    plan: &Plan,
    launcher: L,
    config: RunConfig,
    events: EventSender,
    cancel: CancelToken,
) -> RunResult {
    events.send(RunEventKind::RunStarted {
        run_id: config.run_id.clone(),
        scenario_count: plan.scenarios.len(),
        skipped: plan.skipped(),
        jobs: config.executor.jobs,
        artifact_root: config.artifacts().path().to_path_buf(),
    });

    let mut server = None;
    let mut execution = None;
    if let (Some(settings), false) = (&config.dev_server, plan.scenarios.is_empty()) {
        let log = (config.artifacts().dir(), DEV_SERVER_LOG);
        let why = match settings.reuse_existing {
            Some(false) => "`reuse_existing = false`",
            _ => "`CI` is set",
        };
        let reuse = settings.reuses(config.in_ci);
        match devserver::prepare(settings, reuse, why, log, cancel.cancelled()).await {
            Ok(DevServerUse::Started(s)) => server = Some(s),
            Ok(DevServerUse::Reused) => events.send(RunEventKind::DevServerReused {
                url: settings.url.clone(),
            }),
            Err(e) => {
                let (status, code) = match e {
                    crate::devserver::DevServerError::Cancelled => {
                        (ScenarioStatus::Cancelled, FailureCode::Cancelled)
                    }
                    _ => (ScenarioStatus::Failed, FailureCode::DevServer),
                };
                let failure = FailureRecord::new(code, format!("not run: {e}"));
                execution = Some(not_run_all(plan, status, failure, &events));
            }
        }
    }
    let execution = match execution {
        Some(e) => e,
        None => {
            execute(
                plan,
                launcher,
                config.executor.clone(),
                events.clone(),
                cancel.clone(),
            )
            .await
        }
    };

    let mut cleanup_failures = execution.cleanup_failures;
    if let Some(mut server) = server {
        server.stop().await;
    }
    if config.sweep_processes {
        let killed = tokio::task::spawn_blocking(|| crate::process_tree::sweep(SWEEP_GRACE))
            .await
            .unwrap_or_default();
        if !killed.is_empty() {
            let pids: Vec<String> = killed.iter().map(|p| p.pid.to_string()).collect();
            let failure = FailureRecord::new(
                FailureCode::CleanupFailed,
                format!(
                    "killed {} process(es) the run left behind: pid {}",
                    killed.len(),
                    pids.join(", ")
                ),
            );
            events.send(RunEventKind::CleanupFailed {
                failure: failure.clone(),
            });
            cleanup_failures.push(failure);
        }
    }

    let mut result = RunResult {
        format_version: RESULT_FORMAT_VERSION,
        run_id: config.run_id.clone(),
        started_at: crate::run_id::rfc3339(config.started_at),
        duration_ms: events.start().elapsed().as_millis() as u64,
        outcome: RunOutcome::Passed,
        exit_code: crate::exit::Exit::Success,
        artifact_root: config.artifacts().path().to_path_buf(),
        skipped: plan.skipped(),
        counts: Default::default(),
        scenarios: execution.scenarios,
        cleanup_failures,
        fail_on_flaky: config.fail_on_flaky,
        shard: config.shard.clone(),
        merge: None,
    };
    result.finalize();
    events.send(RunEventKind::RunFinished {
        result: Arc::new(result.clone()),
    });
    result
}

/// Fail every planned scenario without running it (the dev server never came up).
fn not_run_all(
    plan: &Plan,
    status: ScenarioStatus,
    failure: FailureRecord,
    events: &EventSender,
) -> Execution {
    let total = plan.scenarios.len();
    let scenarios: Vec<_> = plan
        .scenarios
        .iter()
        .map(|planned| crate::executor::not_run(planned, status, failure.clone()))
        .collect();
    for (i, result) in scenarios.iter().enumerate() {
        events.send(RunEventKind::ScenarioFinished {
            result: Arc::new(result.clone()),
            running: 0,
            finished: i + 1,
            total,
        });
    }
    Execution {
        scenarios,
        cleanup_failures: Vec::new(),
    }
}
