//! Typed run events: the only way the executor tells the world what happens.
//!
//! One [`RunEvent`] type with a timestamp, the time since the run started, and a [`RunEventKind`]
//! naming the lifecycle step (cargo-nextest's `TestEvent`). Reporters match every kind explicitly,
//! so adding a kind does not compile until each reporter decides what to do with it.

use crate::plan::ScenarioId;
use crate::result::{AttemptResult, FailureRecord, RunResult, ScenarioResult, StepResult};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// One thing that happened during a run.
#[derive(Debug, Clone)]
pub struct RunEvent {
    /// Wall-clock time of the event.
    pub timestamp: OffsetDateTime,
    /// Time since the run started.
    pub elapsed: Duration,
    /// What happened.
    pub kind: RunEventKind,
}

/// Why the run is being cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CancelReason {
    /// The first Ctrl+C (SIGINT) or SIGTERM.
    Interrupt,
}

/// The lifecycle of a run.
#[derive(Debug, Clone)]
pub enum RunEventKind {
    /// The plan is fixed; nothing has been opened yet.
    RunStarted {
        /// The run id.
        run_id: String,
        /// Scenarios that will be reported.
        scenario_count: usize,
        /// Scenarios left out by selection.
        skipped: usize,
        /// Scenarios run at once.
        jobs: usize,
        /// `.a3s-test/runs/<run-id>/`.
        artifact_root: PathBuf,
    },
    /// The project's dev server already answered at its URL, so the run uses it and started
    /// nothing (outside CI, or `reuse_existing = true`).
    DevServerReused {
        /// The URL that answered.
        url: String,
    },
    /// The driver (browser) is up.
    DriverStarted {
        /// How long the launch took.
        launch: Duration,
    },
    /// A scenario got a slot and starts opening its context.
    ScenarioStarted {
        /// Which.
        id: ScenarioId,
        /// Scenarios running now, this one included.
        running: usize,
    },
    /// A step ended (passed or failed).
    StepFinished {
        /// The scenario.
        id: ScenarioId,
        /// The step.
        step: Arc<StepResult>,
    },
    /// An attempt failed and the scenario runs again in a fresh context (`--retries`); its
    /// `ScenarioFinished` comes after the last attempt.
    ScenarioRetrying {
        /// Which.
        id: ScenarioId,
        /// The attempt that failed (its context is closed).
        failed: Arc<AttemptResult>,
        /// Attempts the scenario may take in all (`--retries` + 1).
        max_attempts: u32,
    },
    /// A scenario has its verdict and its context is closed.
    ScenarioFinished {
        /// The result.
        result: Arc<ScenarioResult>,
        /// Scenarios still running.
        running: usize,
        /// Scenarios finished so far, this one included.
        finished: usize,
        /// Scenarios in the run.
        total: usize,
    },
    /// Cancellation began: running scenarios are being stopped and cleaned up.
    RunBeginCancel {
        /// Why.
        reason: CancelReason,
        /// Scenarios running when it began.
        running: usize,
    },
    /// A run-level cleanup step failed (browser shutdown, dev server stop, leftover processes).
    CleanupFailed {
        /// The failure.
        failure: FailureRecord,
    },
    /// Everything is closed; the result is final.
    RunFinished {
        /// The result.
        result: Arc<RunResult>,
    },
}

/// Stamps and sends events; cheap to clone.
#[derive(Debug, Clone)]
pub struct EventSender {
    tx: mpsc::UnboundedSender<RunEvent>,
    start: Instant,
}

impl EventSender {
    /// A sender and the receiving end reporters read from.
    pub fn channel() -> (EventSender, mpsc::UnboundedReceiver<RunEvent>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (
            EventSender {
                tx,
                start: Instant::now(),
            },
            rx,
        )
    }

    /// When the run started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Emit an event. A closed receiver is ignored: reporting must never stop a run.
    pub fn send(&self, kind: RunEventKind) {
        let _ = self.tx.send(RunEvent {
            timestamp: OffsetDateTime::now_utc(),
            elapsed: self.start.elapsed(),
            kind,
        });
    }
}
