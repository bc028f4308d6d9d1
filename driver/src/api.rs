//! The driver contract the runner executes against.
//!
//! Why a trait with associated types and `impl Future` (not `dyn`): the runner is generic over
//! the driver, so unit tests can run the scheduler against a fake driver while end-to-end tests run
//! the real Web driver, without boxing every CDP call.

pub use crate::detail::{DialogStatus, OpenDialog, StepDetail, TabEntry};
use crate::failure::FailureCode;
use crate::trace::{StepCapture, TraceMark, TraceWant};
use a3s_test_lang::ir::{ActionKind, ExpectCondition, Step, Surface, Target};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
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
    /// The surface the scenario drives, so a driver of several surfaces (the runner's
    /// `surfaces::Drivers`) opens the context on the right one; `None` = the driver's own.
    pub surface: Option<Surface>,
}

/// Everything a step needs from its scenario, passed on every call (no hidden state).
#[derive(Debug, Clone)]
pub struct StepEnv<'a> {
    /// Relative `navigate` URLs resolve against it.
    pub base_url: Option<&'a str>,
    /// How long an action waits for an actionable target.
    pub action_timeout: std::time::Duration,
    /// How long an `expect` waits for its condition to hold when the step does not say
    /// (`timeout_ms`); always capped by `deadline`.
    pub expect_timeout: std::time::Duration,
    /// The scenario deadline; nothing may outlive it.
    pub deadline: Instant,
    /// What `deadline` is, as messages name it: `scenario` in a run, `turn` in an agent session.
    pub deadline_name: &'static str,
    /// The scenario's artifact folder (`.a3s-test/runs/<run>/<scenario>/`), already created and
    /// opened by the runner without following links from the project folder down; evidence is
    /// written relative to this open folder, never through a link below it.
    pub artifact_dir: &'a a3s_test_fsroot::Dir,
    /// Upload paths are relative to it.
    pub working_dir: &'a Path,
    /// Where snapshot expectations find their baselines (`None` where there is no suite file,
    /// as in an agent session: a snapshot expectation is then refused).
    pub snapshots: Option<&'a crate::snapshot::SnapshotSettings>,
    /// Where `env("NAME")` texts are read from when the step runs ([`crate::vars`]): the
    /// process environment in a run and an agent session, a map in tests.
    pub vars: &'a dyn crate::vars::VarSource,
}

/// What an evidence file holds. Serialized (and displayed) in snake case: `page_errors`, …
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// A terminal's screen as text with styles (`docs/tui.md`).
    Screen,
    /// A terminal session's asciicast v2 recording.
    Recording,
    /// How a terminal program ended (its exit status), as text.
    ExitStatus,
    /// The baseline image of a failed visual comparison.
    SnapshotExpected,
    /// The image a failed visual comparison captured.
    SnapshotActual,
    /// The difference of the two: changed pixels red, anti-aliasing yellow.
    SnapshotDiff,
    /// What a desktop program wrote to its standard output, kept when a step's input ended it
    /// (`yad --form` prints the fields on OK).
    ProgramOutput,
    /// A `check_contract` step's reconciliation (`a3s.test.contract-report/1`).
    ContractReport,
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
            EvidenceKind::Screen => "screen",
            EvidenceKind::Recording => "recording",
            EvidenceKind::ExitStatus => "exit_status",
            EvidenceKind::SnapshotExpected => "snapshot_expected",
            EvidenceKind::SnapshotActual => "snapshot_actual",
            EvidenceKind::SnapshotDiff => "snapshot_diff",
            EvidenceKind::ProgramOutput => "program_output",
            EvidenceKind::ContractReport => "contract_report",
        }
    }
}

impl std::fmt::Display for EvidenceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A file written as evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Step-specific facts worth reporting (tab list, dialog status, sample count …), typed per
    /// kind of fact; recorded as JSON by the runner.
    pub detail: Option<StepDetail>,
}

/// Failure evidence that could not be captured, and why: a report lists it, so less evidence is
/// never shown as if it were all there was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissingEvidence {
    /// What is missing.
    pub kind: EvidenceKind,
    /// Why (the browser did not answer in time, a dialog blocks the page, a write failed …).
    pub reason: String,
}

/// What a failure capture produced: the files written and the evidence it could not get.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FailureEvidence {
    /// Files written into the failure folder.
    pub files: Vec<EvidenceFile>,
    /// Evidence not captured, each with its reason.
    pub missing: Vec<MissingEvidence>,
    /// The address of the page the failure happened on (a browser surface; absent when the
    /// page could not be read). Why: a run's failures are offered to a reviewer on that page
    /// later (`docs/overlay.md`, "Candidates from the latest run"), and only the URL says which.
    pub page_url: Option<String>,
}

impl FailureEvidence {
    /// The kinds a failure capture takes, in the order files and missing entries are listed.
    pub const KINDS: [EvidenceKind; 4] = [
        EvidenceKind::Screenshot,
        EvidenceKind::Accessibility,
        EvidenceKind::Console,
        EvidenceKind::PageErrors,
    ];

    /// A capture that got nothing, every kind missing for one `reason` (the failure folder could
    /// not be made, the capture overran its bound).
    pub fn all_missing(reason: &str) -> FailureEvidence {
        FailureEvidence {
            files: Vec::new(),
            missing: Self::KINDS
                .into_iter()
                .map(|kind| MissingEvidence {
                    kind,
                    reason: reason.to_string(),
                })
                .collect(),
            page_url: None,
        }
    }
}

/// A step that failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepFailure {
    /// The stable code; its class says who is to blame.
    pub code: FailureCode,
    /// One plain sentence: what was expected, what was found.
    pub message: String,
    /// Evidence the step wrote before failing.
    #[serde(default)]
    pub evidence: Vec<EvidenceFile>,
    /// Failure evidence the capture after the step could not get, with the reasons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_evidence: Vec<MissingEvidence>,
    /// For a step that waited for a condition (`expect`, `wait`): how long, and what it saw
    /// last, so a report can show both apart from the message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waited: Option<Waited>,
}

impl StepFailure {
    /// A failure without evidence.
    pub fn new(code: FailureCode, message: impl Into<String>) -> Self {
        StepFailure {
            code,
            message: message.into(),
            evidence: Vec::new(),
            missing_evidence: Vec::new(),
            waited: None,
        }
    }
}

/// How long a step waited for its condition, and the last reading it got: what a failed
/// `expect` or `wait` reports besides its message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waited {
    /// From the step's start to its verdict, ms.
    pub waited_ms: u64,
    /// What the last reading saw instead (untrusted page data, already clipped by the driver).
    pub last_seen: String,
}

/// One reading of an `expect` or `wait` condition. The driver only reads; the runner's retry
/// loop (`runner/src/expect.rs`) decides whether to read again, for how long, and what a
/// reading that never held means — one rule for every surface.
#[derive(Debug, Clone, PartialEq)]
pub enum ConditionSample {
    /// The condition holds; what the surface showed (untrusted data, shaped by the condition).
    Holds(Value),
    /// It does not hold (yet): the code a failure would carry, and what was seen instead.
    Fails {
        /// The failure code if this were the last reading (`test.assert.*`, or a target that
        /// was not found or was ambiguous).
        code: FailureCode,
        /// What the surface showed instead, as one sentence.
        seen: String,
    },
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
    /// Execute one admitted step; the action is dispatched at most once. `expect` steps and the
    /// page conditions of `wait` never come here: the runner evaluates them through
    /// [`SurfaceContext::check`].
    fn execute(
        &mut self,
        step: &Step,
        env: &StepEnv<'_>,
    ) -> impl Future<Output = Result<StepOutput, StepFailure>> + Send;

    /// Read `condition` once. When it does not hold and `watch` is given, answer only once the
    /// surface may have changed since that reading, or when `watch` has passed: the watch starts
    /// with the reading, so a change between the two cannot be missed. An `Err` is a reading
    /// that could not be made (an invalid selector, a dialog in the way, a crash) and ends the
    /// step; a reading that does not hold is `Ok(ConditionSample::Fails)`.
    fn check(
        &mut self,
        condition: &ExpectCondition,
        watch: Option<std::time::Duration>,
        env: &StepEnv<'_>,
    ) -> impl Future<Output = Result<ConditionSample, StepFailure>> + Send;

    /// Capture what a snapshot expectation compares (`expect { screenshot }` /
    /// `expect { aria_snapshot }`): the runner compares it with the baseline and decides. A
    /// surface that cannot capture it refuses with its `unsupported` code.
    fn capture(
        &mut self,
        request: crate::snapshot::CaptureRequest<'_>,
        env: &StepEnv<'_>,
    ) -> impl Future<Output = Result<crate::snapshot::Captured, StepFailure>> + Send;

    /// After a failure: screenshot, accessibility tree, console and page errors into `dir` (an
    /// open, verified folder the runner created fresh), each finished by `deadline`; what could
    /// not be captured by then (or at all) is listed as missing with the reason.
    fn capture_failure_evidence(
        &mut self,
        dir: &a3s_test_fsroot::Dir,
        deadline: tokio::time::Instant,
    ) -> impl Future<Output = FailureEvidence> + Send;

    /// Load a saved sign-in state (`storage_state`) into this fresh context, before its first
    /// step. A driver without cookies or storage refuses it (`test.driver.web.unsupported`).
    /// Required, not defaulted: a context that wraps others (one per surface) must pass it on,
    /// and a default would let it refuse silently instead.
    fn load_storage_state(
        &mut self,
        state: &crate::storage_state::StorageState,
        deadline: Instant,
    ) -> impl Future<Output = Result<(), StepFailure>> + Send;

    /// Apply the scenario's context options (`docs/acl.md` §2.4: locale, time zone, media
    /// features, geolocation, permissions, network, headers, credentials, user agent, viewport,
    /// device, clock) to this fresh context before its first step; variables in headers and
    /// credentials are read from `vars` now and never kept beyond the context. A surface without
    /// a browser refuses options that are set (`test.driver.web.unsupported`). Required for the
    /// reason [`SurfaceContext::load_storage_state`] is.
    fn apply_context(
        &mut self,
        settings: &a3s_test_lang::ir::ContextSettings,
        vars: &dyn crate::vars::VarSource,
        deadline: Instant,
    ) -> impl Future<Output = Result<(), StepFailure>> + Send;

    /// Close the context.
    fn close(self) -> impl Future<Output = Result<(), DriverError>> + Send;

    /// Answer a Surface Contract's read-only questions about the current page in one call
    /// (`check_contract`, `contract check`; [`crate::page_facts`]). Never acts on the page. A
    /// surface without a page to read refuses with [`FailureCode::Unsupported`]; a context that
    /// wraps others must pass it on.
    fn page_facts(
        &mut self,
        request: &crate::page_facts::PageFactsRequest,
        deadline: Instant,
    ) -> impl Future<Output = Result<crate::page_facts::PageFacts, StepFailure>> + Send {
        let _ = (request, deadline);
        async {
            Err(StepFailure::new(
                FailureCode::Unsupported,
                "this surface has no page to reconcile a contract against; `check_contract` runs in web scenarios",
            ))
        }
    }

    /// Start recording what a step trace needs (`run --trace`): the page's requests from now
    /// on, and, when `frames` names the widest screenshot the captures will ask for, the
    /// drawing of the page (a surface may encode what it draws ahead of the captures, off the
    /// steps' path). `false` when this surface records no traces; its captures are then
    /// [`StepCapture::not_traced`].
    fn trace_start(&mut self, frames: Option<u32>) -> bool {
        let _ = frames;
        false
    }

    /// Where the page's logs stand now; the next [`SurfaceContext::trace_capture`] reports what
    /// came after.
    fn trace_mark(&self) -> TraceMark {
        TraceMark::default()
    }

    /// The page after a step and what it did since `since` (see [`crate::trace`]), finished by
    /// `deadline`; what could not be captured is listed in [`StepCapture::missing`].
    fn trace_capture(
        &mut self,
        since: TraceMark,
        want: TraceWant,
        deadline: Instant,
    ) -> impl Future<Output = StepCapture> + Send {
        let _ = (since, want, deadline);
        async { StepCapture::not_traced() }
    }

    /// For the trace of a step that failed on its target (not found, ambiguous, not
    /// actionable): the candidates the resolver sees now for each target of `action`, and why
    /// each is not actionable. Empty for a step without a target and for a surface that has no
    /// resolver (the default).
    fn trace_candidates(
        &mut self,
        action: &a3s_test_lang::ir::Action,
        deadline: Instant,
    ) -> impl Future<Output = Vec<crate::trace::TargetCandidates>> + Send {
        let _ = (action, deadline);
        async { Vec::new() }
    }
}

// ---------------------------------------------------------------------------------------------
// The agent surface: what an agent session needs from a live context beyond `execute`.
//
// Why in the contract (not on the Web driver's concrete types): the session engine in
// `runner/src/session` drives statements through the same `SurfaceContext::execute` as suites,
// and observes the page through these traits only, so the concrete driver is chosen where the
// supervisor process starts and the session stays generic (docs/agent.md).
// ---------------------------------------------------------------------------------------------

/// What proving an observation's ref against the live page found ([`AgentContext::target_naming`]).
/// Why a ref is refused is said truthfully from it: the node is gone, or nothing names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefProof {
    /// This locator names exactly the node, and nothing else, now.
    Named(Target),
    /// The node is no longer in the document (removed, or the document was replaced).
    Gone,
    /// Nothing names it alone (no candidate did, and there was no node to write one for).
    Unnamed,
}

/// Decides whether the page may request a URL (agent sessions' network policy). A closure, so the
/// policy stays in the runner and the driver only enforces it.
#[derive(Clone)]
pub struct NetworkFilter(pub std::sync::Arc<dyn Fn(&str) -> bool + Send + Sync>);

impl NetworkFilter {
    /// True when the page may request `url`.
    pub fn allows(&self, url: &str) -> bool {
        (self.0)(url)
    }
}

impl std::fmt::Debug for NetworkFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NetworkFilter")
    }
}

/// Roles an agent can operate (observations list these first). Shared by the driver, which
/// collects them, and the session, which binds refs to them, so both agree on what is a control.
pub const OPERABLE_ROLES: &[&str] = &[
    "button",
    "link",
    "textbox",
    "searchbox",
    "checkbox",
    "radio",
    "combobox",
    "listbox",
    "option",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tab",
    "switch",
    "slider",
    "spinbutton",
    "treeitem",
];

/// Most controls one snapshot returns: the refs of an observation, and what the session keeps of
/// it, stay bounded whatever the page.
pub const MAX_CONTROLS: usize = 500;

/// One operable control of the current document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ControlNode {
    /// The backend DOM node id (stable for the node's lifetime in this document).
    pub backend_node_id: i64,
    /// Accessible role.
    pub role: String,
    /// Accessible name (untrusted page text).
    pub name: String,
    /// Current value (never for password fields).
    pub value: Option<String>,
    /// Accessibility states (`checked`, `disabled`, …).
    pub states: BTreeMap<String, Value>,
    /// Lower-case tag name.
    pub tag: String,
    /// Selected DOM attributes (`id`, `data-testid`, `placeholder`, `name`, `type`, `aria-label`).
    pub attributes: BTreeMap<String, String>,
    /// True when the accessible name comes from a `<label>` (so `label(name)` can find it).
    pub named_by_label: bool,
}

/// A snapshot of the current tab's top document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageSnapshot {
    /// The document URL.
    pub url: String,
    /// The main frame's loader id: a new document gets a new one.
    pub loader_id: String,
    /// Operable controls in tree order.
    pub controls: Vec<ControlNode>,
    /// Page text (headings, paragraphs, alerts, …) in tree order — untrusted page text. Text
    /// inside a listed control or heading is not repeated: the control's name or value says it.
    pub texts: Vec<PageText>,
    /// True when the page had more controls (or text) than one snapshot returns
    /// ([`MAX_CONTROLS`], or a bounded query of a very large page).
    pub truncated: bool,
    /// Why it is truncated (empty when it is not): the cut marker names the true reason.
    pub cut: Vec<Cut>,
}

/// Why a snapshot holds less than the page has. Why a type: a view of 327 refs once blamed the
/// 500-ref cap for controls that had in fact missed a command bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum Cut {
    /// The page has more controls than [`MAX_CONTROLS`] (or more text than a snapshot keeps).
    Cap,
    /// `unread` controls were found but could not be read within the command bound.
    TimeBound {
        /// How many.
        unread: usize,
    },
}

/// One run of page text, placed among the controls so a view can show the page in document
/// order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageText {
    /// Accessible role (`heading`, `StaticText`, `alert`, `status`, `img`, …).
    pub role: String,
    /// The text (untrusted).
    pub text: String,
    /// How many of the snapshot's controls come before it in the document; `None` when the
    /// bounded query of a very large page could not place it (it is listed after the controls).
    pub controls_before: Option<usize>,
}

/// What waiting for a quiet page found (`observe --settle-ms`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Settled {
    /// True when the page made no DOM change and had no request in flight for the quiet period;
    /// false when the cap came first.
    pub settled: bool,
    /// How long the wait took, in ms.
    pub waited_ms: u64,
    /// DOM mutation records seen while waiting.
    pub mutations: u64,
    /// Requests still in flight when the wait ended.
    pub in_flight: usize,
}

/// A Test Kit bridge method an agent session may call (nothing else of the bridge is reachable:
/// no submitting findings, no actions, no subscriptions). The two repair-queue methods only move
/// what a person already sent in the page into the session's ledger (`agent repair-drain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageContextMethod {
    /// `handshake()`.
    Handshake,
    /// `probe()`: the current revision.
    Probe,
    /// `snapshot(request)`.
    Snapshot,
    /// `waitForDiff(request)`.
    WaitForDiff,
    /// `peekRepairBatch({max})`: the pending sent findings, not removed.
    PeekRepairBatch,
    /// `takeRepairBatch({ids})`: remove exactly these pending findings from the page queue.
    TakeRepairBatch,
    /// `applyRepairEvent(event)`: mirror one ledger status change in the page (the overlay shows
    /// it); `a3s-test dev` pushes the ledger's changes this way.
    ApplyRepairEvent,
    /// `peekRepairActions({max})`: the reviewer's queued actions, not removed.
    PeekRepairActions,
    /// `takeRepairActions({answers})`: remove exactly the actions the ledger answered finally,
    /// keeping their outcomes in the page (a drain's equivalent of the endpoint's answer).
    TakeRepairActions,
    /// Wait for the page's repair queue to change (`subscribeRepairs`), with `{since, timeoutMs}`:
    /// answers `{epoch, count}` of a change counter the wait keeps on the page, at once when it
    /// moved past `since` (or the page was reloaded), so `a3s-test dev` drains as soon as the page
    /// announces a finding without polling the queue and without missing a change between waits.
    WaitForRepairChange,
    /// `showAdvice(advice)`: hand a design review's advice (`a3s.test.design-advice/1`) to the
    /// Review Overlay, which shows it while the page stays at its revision; answers `{shown}`.
    ShowAdvice,
}

impl PageContextMethod {
    /// The bridge's method name.
    pub fn name(self) -> &'static str {
        match self {
            PageContextMethod::Handshake => "handshake",
            PageContextMethod::Probe => "probe",
            PageContextMethod::Snapshot => "snapshot",
            PageContextMethod::WaitForDiff => "waitForDiff",
            PageContextMethod::PeekRepairBatch => "peekRepairBatch",
            PageContextMethod::TakeRepairBatch => "takeRepairBatch",
            PageContextMethod::ApplyRepairEvent => "applyRepairEvent",
            PageContextMethod::PeekRepairActions => "peekRepairActions",
            PageContextMethod::TakeRepairActions => "takeRepairActions",
            PageContextMethod::WaitForRepairChange => "subscribeRepairs",
            PageContextMethod::ShowAdvice => "showAdvice",
        }
    }
}

/// What a bridge call answered. Every value is untrusted page data; the runner validates it.
#[derive(Debug, Clone, PartialEq)]
pub enum PageContextReply {
    /// No bridge is installed on this page.
    Absent,
    /// The method returned (or resolved to) this value.
    Value(Value),
    /// The bridge exists but the method is missing or threw (message clipped to 500 chars).
    Threw(String),
}

/// Process ids of a browser a driver launched, so callers (and tests) can verify that nothing of
/// it survives shutdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BrowserProcess {
    /// The browser's own pid.
    pub pid: u32,
    /// The process group it leads; every helper process inherits it.
    pub pgid: u32,
}

/// The observation surface of a live context for agent sessions. Refs (`@eN`, `@cN`) are bound
/// to one observation; before anything is dispatched the session must prove that the durable
/// target it acts through still names the *same* backend node. Only the driver can talk to the
/// tab, so it answers those questions; gates and ref tables live in the runner.
pub trait AgentContext: SurfaceContext + Sync {
    /// The current tab's top document: URL and loader id.
    fn document_identity(
        &self,
        deadline: Instant,
    ) -> impl Future<Output = Result<(String, String), StepFailure>> + Send;

    /// Snapshot the operable controls of the current tab's top document (at most
    /// [`MAX_CONTROLS`]).
    fn snapshot_controls(
        &self,
        deadline: Instant,
    ) -> impl Future<Output = Result<PageSnapshot, StepFailure>> + Send;

    /// Wait until the top document made no DOM change and the tab had no request in flight for
    /// `quiet`, or until `cap` passed (whichever is first; never past `deadline`). Lets an agent
    /// observe a menu that opens on a timer or a list a fetch fills, instead of guessing a sleep.
    fn settle(
        &self,
        quiet: std::time::Duration,
        cap: std::time::Duration,
        deadline: Instant,
    ) -> impl Future<Output = Result<Settled, StepFailure>> + Send;

    /// Enforce a network policy in the browser: requests `allow` refuses fail in the page.
    fn set_network_filter(
        &mut self,
        allow: NetworkFilter,
        deadline: Instant,
    ) -> impl Future<Output = Result<(), StepFailure>> + Send;

    /// URLs the network filter blocked so far, oldest first (untrusted: the page chose them).
    fn blocked_requests(&self) -> Vec<String>;

    /// A locator that names exactly node `expected` (any one element when `None`): the first of
    /// `candidates` that does, else one the page writes for that node (within an anchoring
    /// ancestor, or by position) — proof by node identity, never by an ambiguous locator.
    fn target_naming(
        &self,
        expected: Option<i64>,
        candidates: &[Target],
        deadline: Instant,
    ) -> impl Future<Output = Result<RefProof, StepFailure>> + Send;

    /// Call one Test Kit bridge method in the current tab's top document.
    fn page_context_call(
        &self,
        method: PageContextMethod,
        arg: &Value,
        deadline: Instant,
    ) -> impl Future<Output = Result<PageContextReply, StepFailure>> + Send;

    /// The backend node id of the element the Test Kit bridge resolves `node_id` to (`None` when
    /// there is no bridge or the node is gone).
    fn page_context_backend_node(
        &self,
        node_id: &str,
        deadline: Instant,
    ) -> impl Future<Output = Result<Option<i64>, StepFailure>> + Send;

    /// Console messages of the current tab since its current document loaded, oldest first (at
    /// most [`MAX_LOG_ENTRIES`], the newest kept), plus how many there were in all. A repair's
    /// before baseline and its verification compare these, so the tool, not the agent, says
    /// whether a repair added errors.
    fn console_since_load(&self) -> (Vec<Value>, usize);

    /// Uncaught page errors of the current tab since its current document loaded, as
    /// [`Self::console_since_load`].
    fn page_errors_since_load(&self) -> (Vec<Value>, usize);

    /// A PNG of the current tab's viewport (repair evidence, captured outside any step).
    fn screenshot_png(
        &self,
        deadline: Instant,
    ) -> impl Future<Output = Result<Vec<u8>, StepFailure>> + Send;

    /// The viewport as visual grounding sends it to a provider: the PNG with every private
    /// element painted over, and the digest of the browser's own encoding of the same frame
    /// before masking ([`GroundingCapture::frame_sha256`]), which [`Self::frame_digest`]
    /// reproduces exactly while the page shows the same pixels. Never acts on the page.
    fn grounding_capture(
        &self,
        deadline: Instant,
    ) -> impl Future<Output = Result<GroundingCapture, StepFailure>> + Send;

    /// The SHA-256 (lowercase hex) of a fresh capture of the viewport encoded the way
    /// [`Self::grounding_capture`] encodes it: one capture, no page read, so proving after a
    /// provider's answer that the page still shows the pixels it was asked about costs a single
    /// frame. Never acts on the page.
    fn frame_digest(
        &self,
        deadline: Instant,
    ) -> impl Future<Output = Result<String, StepFailure>> + Send;

    /// A fresh capture of `region` of the viewport — image pixels of a
    /// [`Self::grounding_capture`] taken at `scale` image pixels per CSS pixel — encoded the way
    /// that capture encodes, unmasked: what proves after a provider's answer that the page still
    /// shows the pixels the answer's boxes are about, for the cost of reading back and encoding
    /// only those. The region is the viewport's at the moment of the capture (the page's scroll
    /// is read with it). `None` when the page is not drawn at `scale` device pixels per CSS
    /// pixel (a layout zoomed to fit the screen), where a region of the viewport is not a
    /// region of the image: the caller proves the whole frame ([`Self::frame_digest`]). Never
    /// acts on the page.
    fn frame_region(
        &self,
        region: PixelRegion,
        scale: f64,
        deadline: Instant,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, StepFailure>> + Send;

    /// How many elements `target` names in the current frame and, when exactly one, the facts a
    /// repair's success criteria are checked against. Never acts on the page.
    fn target_facts(
        &self,
        target: &Target,
        deadline: Instant,
    ) -> impl Future<Output = Result<TargetFacts, StepFailure>> + Send;

    /// The viewport and scroll of the current frame, the topmost element at `point` (viewport
    /// CSS px) other than the page root, and the box of the one element `target` names — what a
    /// Layout Mode repair is checked against. Never acts on the page.
    fn layout_facts(
        &self,
        point: Option<(f64, f64)>,
        target: Option<&Target>,
        deadline: Instant,
    ) -> impl Future<Output = Result<LayoutFacts, StepFailure>> + Send;

    /// The visible text of the current frame's document, whitespace collapsed (what `page_text`
    /// criteria are checked against); a redacted region reads as `crate::privacy::REDACTED`.
    fn page_text(
        &self,
        deadline: Instant,
    ) -> impl Future<Output = Result<String, StepFailure>> + Send;

    /// For each point (viewport CSS px), the index in `node_ids` of the innermost Test Kit node
    /// whose element (as the page's bridge resolves it) is the topmost element at that point or
    /// one of its ancestors; `None` where no listed node is there (or there is no bridge). What
    /// visual grounding maps a provider's box onto: only what the page itself shows at a point
    /// can turn advice into a ref. Never acts on the page.
    fn page_context_hits(
        &self,
        node_ids: &[String],
        points: &[(f64, f64)],
        deadline: Instant,
    ) -> impl Future<Output = Result<Vec<Option<usize>>, StepFailure>> + Send;

    /// [`Self::page_context_hits`] for DOM nodes named by backend node id (an observation's
    /// `@eN` controls): for each point, the index in `backend_node_ids` of the innermost listed
    /// element that is the topmost element there or one of its ancestors. What grounding maps a
    /// box onto on a page without a Test Kit bridge. Never acts on the page.
    fn backend_node_hits(
        &self,
        backend_node_ids: &[i64],
        points: &[(f64, f64)],
        deadline: Instant,
    ) -> impl Future<Output = Result<Vec<Option<usize>>, StepFailure>> + Send;

    /// Whether what goes into the one element `target` names — without a target, the focused
    /// element — is private (`crate::privacy`), so a session can keep a value typed there out
    /// of its files and answers. Never acts on the page.
    fn target_privacy(
        &self,
        target: Option<&Target>,
        deadline: Instant,
    ) -> impl Future<Output = Result<TargetPrivacy, StepFailure>> + Send;
}

/// One viewport capture for visual grounding ([`AgentContext::grounding_capture`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroundingCapture {
    /// The PNG a provider may be sent: private elements painted over.
    pub png: Vec<u8>,
    /// SHA-256 (lowercase hex) of the browser's encoding of the frame before masking: held by
    /// the supervisor only, compared with [`AgentContext::frame_digest`] after the answer. The
    /// encoding is deterministic, so equal digests mean equal pixels and any changed pixel
    /// changes it.
    pub frame_sha256: String,
    /// The browser's encoding of the same frame before masking (the bytes `frame_sha256` is
    /// of): held by the supervisor only, to compare a region of it with
    /// [`AgentContext::frame_region`] after the answer.
    pub frame_png: Vec<u8>,
}

/// A rectangle of an image, in whole image pixels: the part of a grounding screenshot an answer
/// is about ([`AgentContext::frame_region`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PixelRegion {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width, above zero.
    pub width: u32,
    /// Height, above zero.
    pub height: u32,
}

/// What may be reported of an element a value goes into, and the words to name it by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct TargetPrivacy {
    /// How much of it may be reported.
    pub level: crate::privacy::PrivacyLevel,
    /// Its accessible name (empty inside a redacted region).
    pub name: String,
    /// Its `autocomplete` attribute, whitespace collapsed.
    pub autocomplete: String,
}

/// What a repair verification needs to know about the element one target names, read in one
/// pass so the facts belong to the same moment. Every string is untrusted page text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct TargetFacts {
    /// How many elements the target names (0, 1 or more); the facts below are only read when
    /// exactly one does.
    pub matches: u32,
    /// The element's rendered text, whitespace collapsed and trimmed (clipped to 2,048 chars).
    pub text: Option<String>,
    /// Whether the element is rendered with a non-empty box.
    pub visible: bool,
    /// Whether the element is disabled (natively or `aria-disabled`).
    pub disabled: bool,
    /// Checked or not, for checkable elements; `None` otherwise.
    pub checked: Option<bool>,
    /// Expanded or not, for expandable elements; `None` otherwise.
    pub expanded: Option<bool>,
}

/// A box in viewport CSS px, as `getBoundingClientRect` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewportBox {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// Read-only geometry a repair's Layout Mode check needs: the viewport, the page scroll, the
/// element at a point and the box of the one element a target names. Gathered by the driver's
/// own resolver, so nothing the page controls decides it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LayoutFacts {
    /// The viewport's width in CSS px.
    pub viewport_width: f64,
    /// The viewport's height in CSS px.
    pub viewport_height: f64,
    /// The page's horizontal scroll offset.
    pub scroll_x: f64,
    /// The page's vertical scroll offset.
    pub scroll_y: f64,
    /// The topmost element at the asked point other than `html` and `body` (a short
    /// description); `None` when no point was asked or only the page root is there.
    pub occupant: Option<String>,
    /// The box of the one element the asked target names; `None` when none was asked or it
    /// does not name exactly one.
    pub rect: Option<ViewportBox>,
}

/// The most console messages or page errors [`AgentContext::console_since_load`] and
/// [`AgentContext::page_errors_since_load`] return (the newest are kept), so evidence stays
/// bounded whatever the page logs.
pub const MAX_LOG_ENTRIES: usize = 200;

/// A driver an agent session can own: its contexts have the agent surface, and the session
/// records where its browser is and which processes it owns (for cleanup and diagnostics).
pub trait AgentDriver: SurfaceDriver<Context: AgentContext> {
    /// The browser's DevTools endpoint (recorded for diagnostics).
    fn endpoint(&self) -> &str;

    /// The launched browser's pid and process group (`None` when attached).
    fn browser_process(&self) -> Option<BrowserProcess>;
}
