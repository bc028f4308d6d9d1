//! The driver contract the runner executes against.
//!
//! Why a trait with associated types and `impl Future` (not `dyn`): the runner is generic over
//! the driver, so unit tests can run the scheduler against a fake driver while end-to-end tests run
//! the real Web driver, without boxing every CDP call.

use crate::failure::FailureCode;
use a3s_test_lang::ir::{ActionKind, Step, Surface};
use serde::Serialize;
use std::collections::BTreeSet;
use std::future::Future;
use std::path::{Path, PathBuf};
use tokio::time::Instant;

/// What a driver can do: the surface it drives and the step kinds (ACL block names) it executes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    /// The surface this driver drives.
    pub surface: Surface,
    /// The step kinds it can execute.
    pub steps: BTreeSet<ActionKind>,
}

impl Capabilities {
    /// True when the driver can execute this step.
    pub fn supports(&self, step: &Step) -> bool {
        self.steps.contains(&step.action.kind())
    }
}

/// Settings for one fresh, isolated context (one per scenario).
#[derive(Debug, Clone, Default)]
pub struct ContextOptions {
    /// Initial viewport in CSS px, if not the driver default.
    pub viewport: Option<(u32, u32)>,
    /// How many more contexts the caller will ask for soon (the runner: scenarios still waiting,
    /// at most one per job). A driver that can prepare contexts ahead keeps this many ready, so
    /// no scenario waits for a browser process to start; 0 prepares nothing.
    pub ready_ahead: usize,
}

/// Everything a step needs from its scenario, passed on every call (no hidden state).
#[derive(Debug, Clone)]
pub struct StepEnv<'a> {
    /// Relative `navigate` URLs resolve against it.
    pub base_url: Option<&'a str>,
    /// How long an action waits for an actionable target.
    pub action_timeout: std::time::Duration,
    /// The scenario deadline; nothing may outlive it.
    pub deadline: Instant,
    /// The scenario's artifact folder (`.a3s-test/runs/<run>/<scenario>/`), already created.
    pub artifact_dir: &'a Path,
    /// Upload paths are relative to it.
    pub working_dir: &'a Path,
}

/// What an evidence file holds. Serialized (and displayed) in snake case: `page_errors`, …
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// A PNG of the viewport.
    Screenshot,
    /// The accessibility tree as JSON.
    Accessibility,
    /// Console messages as JSON.
    Console,
    /// Uncaught page errors as JSON.
    PageErrors,
    /// A file the page downloaded.
    Download,
    /// A HAR network log.
    Har,
    /// A performance trace.
    Trace,
}

impl EvidenceKind {
    /// The stable name used in every report.
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::Screenshot => "screenshot",
            EvidenceKind::Accessibility => "accessibility",
            EvidenceKind::Console => "console",
            EvidenceKind::PageErrors => "page_errors",
            EvidenceKind::Download => "download",
            EvidenceKind::Har => "har",
            EvidenceKind::Trace => "trace",
        }
    }
}

impl std::fmt::Display for EvidenceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A file written as evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EvidenceFile {
    /// What it is.
    pub kind: EvidenceKind,
    /// Where it was written.
    pub path: PathBuf,
}

/// A step that ran to completion.
#[derive(Debug, Clone, Default, Serialize)]
pub struct StepOutput {
    /// Evidence the step wrote.
    pub evidence: Vec<EvidenceFile>,
    /// Step-specific facts worth reporting (tab list, dialog status, sample count …).
    pub detail: Option<serde_json::Value>,
}

/// A step that failed.
#[derive(Debug, Clone, Serialize)]
pub struct StepFailure {
    /// The stable code; its class says who is to blame.
    pub code: FailureCode,
    /// One plain sentence: what was expected, what was found.
    pub message: String,
    /// Evidence the step wrote before failing.
    pub evidence: Vec<EvidenceFile>,
}

impl StepFailure {
    /// A failure without evidence.
    pub fn new(code: FailureCode, message: impl Into<String>) -> Self {
        StepFailure {
            code,
            message: message.into(),
            evidence: Vec::new(),
        }
    }
}

/// A driver-level error (launch, crash, close).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{code}: {message}")]
pub struct DriverError {
    /// The stable code.
    pub code: FailureCode,
    /// What happened.
    pub message: String,
}

impl DriverError {
    /// Build an error.
    pub fn new(code: FailureCode, message: impl Into<String>) -> Self {
        DriverError {
            code,
            message: message.into(),
        }
    }
}

/// One driver per run: owns the browser process (or the connection to a remote one).
pub trait SurfaceDriver: Send + Sync + 'static {
    /// The per-scenario context type.
    type Context: SurfaceContext;

    /// What this driver can execute.
    fn capabilities(&self) -> &Capabilities;

    /// Open a fresh, isolated context (a new browser context + page).
    fn new_context(
        &self,
        options: ContextOptions,
    ) -> impl Future<Output = Result<Self::Context, DriverError>> + Send;

    /// Close the browser and reap every process the driver started.
    fn shutdown(&self) -> impl Future<Output = Result<(), DriverError>> + Send;
}

/// One isolated scenario context.
pub trait SurfaceContext: Send + 'static {
    /// Execute one admitted step; the action is dispatched at most once.
    fn execute(
        &mut self,
        step: &Step,
        env: &StepEnv<'_>,
    ) -> impl Future<Output = Result<StepOutput, StepFailure>> + Send;

    /// After a failure: screenshot, accessibility tree, console and page errors into `dir`.
    fn capture_failure_evidence(
        &mut self,
        dir: &Path,
    ) -> impl Future<Output = Vec<EvidenceFile>> + Send;

    /// Close the context.
    fn close(self) -> impl Future<Output = Result<(), DriverError>> + Send;
}
