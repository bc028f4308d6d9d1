//! The session engine inside the supervisor: one browser, one isolated context, one tab, driven
//! one statement at a time through the same step runner as suites ([`crate::step`]: the deadline
//! cut-off and the failure evidence). It is generic over the driver contract
//! ([`AgentDriver`], [`AgentContext`]); the concrete driver comes from the launcher the
//! supervisor process was started with. It owns the
//! session record, runs the gates in order, binds refs to observations and resolves each ref to a
//! durable target that provably names the *same* backend node before dispatch.

use super::code::{SessionCode, SessionError};
use super::event::{SessionEvent, TurnOutcome, TurnRecord};
use super::file::{
    append_event, now_ms, write_json_atomic, ObservationRecord, Ownership, SessionFile,
    SessionState, StepRecord,
};
use super::gates;
use super::next;
use super::observation::RefEntry;
use super::page_context::fingerprint::fingerprint;
use super::page_context::handshake::Bridge;
use super::page_context::inspect::InspectRequest;
use super::page_context::refs::{apply_delta, crefs_of, PageContextState, PageContextView};
use super::page_context::{diff, live, repair_queue, repair_watch};
use super::private_input;
use super::protocol::{
    self, Call, Envelope, Exec, Finish, FinishStatus, Inspect, Replied, Request,
};
use super::repair_page;
use super::reply::{Closed, ClosedReport, Closing, Executed, Resolved, SessionReport};
use super::statement::replace_refs;
use super::trace::{SessionTrace, SessionTraceSummary};
use super::view::{Observation, ViewRequest, ViewState};
use crate::cancel::CancelToken;
use crate::executor::DriverLauncher;
use crate::step::{self, StepFailed};
use a3s_test_driver::{
    live_group_members, AgentContext, AgentDriver, BrowserProcess, ContextOptions, FailureCode,
    NetworkFilter, PageContextMethod, PageSnapshot, ProcessVars, RefProof, StepEnv, StepFailure,
    StepOutput, SurfaceContext,
};
use a3s_test_fsroot::Dir;
use a3s_test_lang::ir::{Action, Step, Target};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;
use tokio::time::Instant;

mod grounding;
mod page_ops;
mod repair_prove;

/// The most one turn may take.
pub const TURN_BOUND: Duration = Duration::from_secs(60);
/// How long an action waits for its target.
pub const ACTION_TIMEOUT: Duration = Duration::from_secs(5);
/// How long an `expect` waits for its condition unless the statement says (`timeout_ms`,
/// `agent expect --timeout-ms`): shorter than a suite's, because an agent observes between
/// turns and a turn that waits is a turn the agent cannot use.
pub const EXPECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long the browser may take to start.
pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);
/// Bound on capturing failure evidence after a failed step (as the executor's cleanup bound).
pub const EVIDENCE_BOUND: Duration = Duration::from_secs(5);

/// The least time the observation that follows an action gets (`then_observe`), even after a
/// step that waited out the turn: with [`TURN_BOUND`] it stays well inside the client's
/// [`super::client::TURN_TIMEOUT`].
pub const AFTER_ACTION_OBSERVE: Duration = Duration::from_secs(15);

/// The target a `@eN` ref is dispatched through, or the true reason it cannot be: its node left
/// the page, or nothing names it alone (or the browser could not be asked).
fn proof_target(
    r: &str,
    observation: u64,
    proof: Option<RefProof>,
) -> Result<Target, SessionError> {
    let why = match proof {
        Some(RefProof::Named(target)) => return Ok(target),
        Some(RefProof::Gone) => format!(
            "{r} of observation {observation} is gone: its element is no longer in the page \
             (removed, or re-rendered as a new element)"
        ),
        Some(RefProof::Unnamed) | None => format!(
            "{r} of observation {observation} could not be proven: no locator names its element \
             alone now"
        ),
    };
    Err(SessionError::new(
        SessionCode::StaleRef,
        format!("{why}; observe again"),
    ))
}

/// A running session, generic over the driver that owns its browser.
pub struct Engine<D: AgentDriver> {
    /// The session folder, opened without following links and held open.
    dir: Dir,
    /// Its `artifacts/` folder, where steps write evidence.
    artifacts: Dir,
    root: PathBuf,
    /// The session record (saved after every turn).
    pub file: SessionFile,
    driver: std::sync::Arc<D>,
    ctx: Option<D::Context>,
    /// Never fired: a turn is bounded by its deadline, and a signal closes the session between
    /// turns (the supervisor), so a step is never abandoned half way.
    cancel: CancelToken,
    blocked_reported: usize,
    /// Fingerprint → private Page Context node id of the latest observation. Held in the
    /// supervisor's memory only (never written to the session folder), to prove at dispatch
    /// that a `@cN` locator names the very element the node is.
    node_ids: BTreeMap<String, String>,
    /// Ref numbering and the observations `--since` diffs against (memory only).
    views: ViewState,
    /// The statement of the turn being served as the session records it, when that differs
    /// from what the agent sent: a value typed into a private field written as `env("NAME")`
    /// ([`private_input`]). Set by `exec`, taken by `handle` for the log and the answer.
    recorded: Option<String>,
    /// The `NAME` of that `env("NAME")`.
    recorded_var: Option<String>,
    /// The trace of the statements dispatched (pages captured with `agent start --trace`),
    /// written by `finish --trace`.
    trace: SessionTrace,
    /// The last screenshot grounding took, to prove after the provider's answer that the page
    /// still shows it (memory only: its unmasked digest never leaves the supervisor).
    ground_frame: Option<grounding::GroundFrame>,
}

/// The project's context options and signed-in state, put into the session's fresh context
/// before the start URL opens, the way `run` prepares a web scenario's: options first (an
/// `env("NAME")` in a header or credential is read from the supervisor's environment, inherited
/// from `agent start`), then the state file. Loading the state comes before the network filter:
/// the driver answers its per-origin page itself, so nothing reaches the network either way.
async fn prepare_context<C: SurfaceContext>(
    ctx: &mut C,
    file: &SessionFile,
    root: &std::path::Path,
) -> Result<(), SessionError> {
    let failed = |what: &str, code: FailureCode, message: &str| {
        SessionError::new(
            SessionCode::Supervisor,
            format!("failed to {what}: {code}: {message}"),
        )
    };
    let deadline = Instant::now() + TURN_BOUND;
    if !file.context.is_empty() {
        ctx.apply_context(&file.context, &ProcessVars::SESSION, deadline)
            .await
            .map_err(|f| failed("apply the project's context options", f.code, &f.message))?;
    }
    if let Some(path) = &file.storage_state {
        crate::executor::storage_state::load(ctx, root, path, deadline)
            .await
            .map_err(|f| failed("load the project's storage state", f.code, &f.message))?;
    }
    Ok(())
}

impl<D: AgentDriver> Engine<D> {
    /// Launch the browser through `launcher`, open the context, navigate to the start URL and
    /// mark the session active. The record in `dir` is the one the CLI wrote (state `starting`).
    pub async fn start<L: DriverLauncher<Driver = D>>(
        launcher: L,
        dir: Dir,
        root: PathBuf,
        token: String,
    ) -> Result<Self, SessionError> {
        let mut file = SessionFile::load(&dir)?;
        let artifacts = dir
            .create_dir_all("artifacts")
            .map_err(|e| SessionError::fs(&e))?;
        let driver = launcher.launch(LAUNCH_TIMEOUT).await.map_err(|e| {
            SessionError::new(
                SessionCode::Supervisor,
                format!("failed to launch the browser: {e}"),
            )
        })?;
        let ctx = driver
            .new_context(ContextOptions::default())
            .await
            .map_err(|e| {
                SessionError::new(
                    SessionCode::Supervisor,
                    format!("failed to open a context: {e}"),
                )
            })?;
        let mut ctx = ctx;
        if let Err(e) = prepare_context(&mut ctx, &file, &root).await {
            let _ = driver.shutdown().await;
            return Err(e);
        }
        let policy = file.policy.clone();
        let filter = NetworkFilter(std::sync::Arc::new(move |url: &str| {
            super::policy::network_allowed(&policy, url)
        }));
        if let Err(f) = ctx
            .set_network_filter(filter, Instant::now() + TURN_BOUND)
            .await
        {
            let _ = driver.shutdown().await;
            return Err(SessionError::new(
                SessionCode::Supervisor,
                format!(
                    "failed to enforce the network policy: {}: {}",
                    f.code, f.message
                ),
            ));
        }
        let browser = driver
            .browser_process()
            .unwrap_or(BrowserProcess { pid: 0, pgid: 0 });
        let pgid = a3s_test_driver::process::own_pgid();
        file.cdp_endpoint = Some(driver.endpoint().to_string());
        let start_of = |pid: u32| a3s_test_driver::process::start_time(pid).unwrap_or(0);
        file.ownership = Ownership {
            supervisor_pid: std::process::id(),
            supervisor_pgid: pgid,
            browser_pid: browser.pid,
            browser_pgid: browser.pgid,
            supervisor_start: start_of(std::process::id()),
            browser_start: start_of(browser.pid),
            token,
        };
        let mut trace = SessionTrace::new(&file);
        trace.begin(&mut ctx);
        let mut engine = Engine {
            dir,
            artifacts,
            root,
            file,
            driver: std::sync::Arc::new(driver),
            ctx: Some(ctx),
            cancel: CancelToken::new(),
            blocked_reported: 0,
            node_ids: BTreeMap::new(),
            views: ViewState::default(),
            recorded: None,
            recorded_var: None,
            trace,
            ground_frame: None,
        };
        let start = format!(
            "navigate {{ url = {} }}",
            super::statement::acl_string(&engine.file.start_url)
        );
        let step = gates::schema(&start)?;
        let deadline = engine.turn_deadline();
        if let Err(f) = engine.run_traced(0, &start, &step, None, deadline).await {
            let _ = engine.shutdown().await;
            return Err(SessionError::new(
                SessionCode::Supervisor,
                format!(
                    "failed to open {}: {}: {}",
                    engine.file.start_url, f.code, f.message
                ),
            ));
        }
        engine.file.state = SessionState::Active;
        engine.file.last_turn_at_ms = now_ms();
        engine.file.save(&engine.dir)?;
        append_event(
            &engine.dir,
            &SessionEvent::Started {
                url: engine.file.start_url.clone(),
            },
        )?;
        Ok(engine)
    }

    /// A repair verification's bound: its revision wait plus its steps, within the session's
    /// deadline (the CLI waits [`super::client::TURN_TIMEOUT`], longer than both).
    fn repair_deadline(&self) -> Instant {
        let left = self.file.deadline_at_ms().saturating_sub(now_ms());
        let most =
            Duration::from_millis(repair_page::MAX_REVISION_TIMEOUT_MS) + repair_page::STEPS_BOUND;
        Instant::now() + most.min(Duration::from_millis(left.max(1)))
    }

    fn turn_deadline(&self) -> Instant {
        let left = self.file.deadline_at_ms().saturating_sub(now_ms());
        Instant::now() + TURN_BOUND.min(Duration::from_millis(left.max(1)))
    }

    /// Run one admitted step through the shared step runner ([`crate::step`]): dispatched once,
    /// cut off after `deadline`, and on a failure in the page followed by the driver's failure
    /// evidence in `artifacts/turn-<turn>/failure/` (listed in the failure's evidence).
    async fn run_step(
        &mut self,
        turn: u64,
        step: &Step,
        base_url: Option<&str>,
        deadline: Instant,
    ) -> Result<StepOutput, StepFailure> {
        let env = StepEnv {
            base_url,
            action_timeout: ACTION_TIMEOUT,
            expect_timeout: EXPECT_TIMEOUT,
            deadline,
            deadline_name: "turn",
            artifact_dir: &self.artifacts,
            working_dir: &self.root,
            snapshots: None,
            vars: &ProcessVars::SESSION,
        };
        let length = deadline
            .saturating_duration_since(Instant::now())
            .as_millis() as u64;
        let ctx = self.ctx.as_mut().expect("context is open");
        let end = step::run_step(ctx, step, &env, &self.cancel).await;
        let StepFailed {
            mut failure,
            capture,
        } = match end.into_result("turn", length) {
            Ok(output) => return Ok(output),
            Err(failed) => failed,
        };
        if capture {
            let failure_dir = self
                .artifacts
                .create_dir_all(format!("turn-{turn}/failure"));
            if let Ok(dir) = failure_dir {
                let captured = step::capture_failure_evidence(ctx, &dir, EVIDENCE_BOUND).await;
                failure.evidence.extend(captured.files);
                failure.missing_evidence.extend(captured.missing);
            }
        }
        Err(failure)
    }

    /// [`Self::run_step`] for a statement of the session's own (the start URL's `navigate`, an
    /// agent's turn): one step of the session's trace, `statement` as the session records it,
    /// with the page after it when the session captures pages.
    async fn run_traced(
        &mut self,
        turn: u64,
        statement: &str,
        step: &Step,
        base_url: Option<&str>,
        deadline: Instant,
    ) -> Result<StepOutput, StepFailure> {
        let mark = match self.ctx.as_ref() {
            Some(ctx) => self.trace.mark(ctx),
            None => Default::default(),
        };
        let started = Instant::now();
        let outcome = self.run_step(turn, step, base_url, deadline).await;
        let took = started.elapsed().as_millis() as u64;
        if let Some(ctx) = self.ctx.as_mut() {
            // Set by `recorded_source` for this turn's statement.
            let private = self.recorded_var.as_deref();
            self.trace
                .record(ctx, mark, (turn, statement), step, private, &outcome, took)
                .await;
        }
        outcome
    }

    fn ctx(&self) -> Result<&D::Context, SessionError> {
        self.ctx
            .as_ref()
            .ok_or_else(|| SessionError::new(SessionCode::NotRunning, "the session is closed"))
    }

    /// Serve one request; returns the answer (with `closing` set when the session ended).
    pub async fn handle(&mut self, request: Request) -> Envelope<Replied> {
        let turn = self.file.next_turn;
        self.file.next_turn += 1;
        self.file.last_turn_at_ms = now_ms();
        let closing = matches!(request, Request::Finish(_) | Request::Abort(_));
        let served = std::time::Instant::now();
        let op = super::ground::timing_enabled().then(|| request.op());
        let result = match request.clone() {
            Request::Observe(view) => ViewRequest::answered(self.observe(&view).await),
            Request::Inspect(Inspect { request }) => Inspect::answered(self.inspect(request).await),
            Request::RepairPeek(peek) => {
                let deadline = self.turn_deadline();
                let ctx = self.ctx();
                protocol::RepairPeek::answered(
                    async { repair_queue::peek(ctx?, peek.max, deadline).await }.await,
                )
            }
            Request::RepairTake(take) => {
                let deadline = self.turn_deadline();
                let ctx = self.ctx();
                protocol::RepairTake::answered(
                    async { repair_queue::take(ctx?, &take.ids, deadline).await }.await,
                )
            }
            Request::RepairActionsPeek(peek) => {
                let deadline = self.turn_deadline();
                let ctx = self.ctx();
                protocol::RepairActionsPeek::answered(
                    async { repair_queue::peek_actions(ctx?, peek.max, deadline).await }.await,
                )
            }
            Request::RepairActionsTake(take) => {
                let deadline = self.turn_deadline();
                let ctx = self.ctx();
                protocol::RepairActionsTake::answered(
                    async { repair_queue::take_actions(ctx?, &take.answers, deadline).await }.await,
                )
            }
            Request::RepairBaseline(baseline) => {
                let deadline = self.turn_deadline();
                let (ctx, dir) = (self.ctx(), &self.dir);
                protocol::RepairBaseline::answered(
                    async {
                        let (finding, folder) = (&baseline.finding, &baseline.dir);
                        repair_page::baseline(ctx?, dir, finding, folder, deadline).await
                    }
                    .await,
                )
            }
            Request::RepairWait(wait) => {
                let deadline = self.turn_deadline();
                let ctx = self.ctx();
                protocol::RepairWait::answered(
                    async {
                        repair_watch::wait(ctx?, wait.since.as_ref(), wait.timeout_ms, deadline)
                            .await
                            .map(repair_watch::Waited::Mark)
                    }
                    .await,
                )
            }
            Request::RepairApply(apply) => {
                let deadline = self.turn_deadline();
                let ctx = self.ctx();
                protocol::RepairApply::answered(
                    async { repair_watch::apply(ctx?, &apply.events, deadline).await }.await,
                )
            }
            Request::RepairObserve(observe) => {
                let deadline = self.repair_deadline();
                let (ctx, dir) = (self.ctx(), &self.dir);
                repair_page::ObserveRequest::answered(
                    async { repair_page::observe(ctx?, dir, &observe, deadline).await }.await,
                )
            }
            Request::Exec(exec) => {
                let result = self
                    .exec_then_observe(
                        turn,
                        exec.observation,
                        &exec.statement,
                        exec.then_observe.as_ref(),
                    )
                    .await;
                let recorded = self.recorded.clone().unwrap_or(exec.statement);
                Exec::answered(
                    result
                        .map(Into::into)
                        .map_err(|e| super::answer::refused(e, &recorded)),
                )
            }
            Request::WaitRevision(w) => {
                protocol::WaitRevision::answered(self.wait_revision(&w).await)
            }
            Request::LocateTarget(l) => {
                protocol::LocateTarget::answered(self.locate_target(&l).await)
            }
            Request::ReadPageText(r) => {
                protocol::ReadPageText::answered(self.read_page_text(&r).await)
            }
            Request::MeasureLayout(m) => {
                protocol::MeasureLayout::answered(self.measure_layout(&m).await)
            }
            Request::CaptureEvidence(c) => {
                protocol::CaptureEvidence::answered(self.capture_evidence(&c).await)
            }
            Request::AuditCapture(_) => {
                let deadline = self.turn_deadline();
                let ctx = self.ctx();
                super::design_audit::AuditCapture::answered(
                    async { super::design_audit::capture(ctx?, deadline).await }.await,
                )
            }
            Request::ShowAdvice(show) => {
                let deadline = self.turn_deadline();
                let ctx = self.ctx();
                super::design_audit::ShowAdvice::answered(
                    async { super::design_audit::show(ctx?, &show.advice, deadline).await }.await,
                )
            }
            Request::RepairProve(prove) => protocol::RepairProve::answered(
                self.repair_prove(&prove.candidate, &prove.dir).await,
            ),
            Request::GroundCapture(capture) => {
                super::ground::GroundCapture::answered(self.ground_capture(&capture).await)
            }
            Request::GroundMap(map) => {
                super::ground::GroundMap::answered(self.ground_map(&map).await)
            }
            Request::Finish(Finish {
                status,
                summary,
                trace,
            }) => {
                let status = match status {
                    FinishStatus::Passed => "passed",
                    FinishStatus::Failed => "failed",
                };
                // Written before the browser closes: what it holds is in memory already, and a
                // cleanup that fails does not lose it.
                let traced = trace
                    .then(|| {
                        let title = format!("session {} ({status})", self.file.id);
                        self.trace.write(&self.dir, status == "passed", &title)
                    })
                    .flatten();
                Finish::answered(
                    self.close_traced(SessionState::Finished, status, Some(summary), traced)
                        .await,
                )
            }
            Request::Abort(abort) => protocol::Abort::answered(
                self.close(SessionState::Aborted, "aborted", abort.reason)
                    .await,
            ),
        };
        let outcome = TurnOutcome::of(&result);
        // A private value the agent typed is logged as `env("NAME")`, never as itself.
        let request = match (request, self.recorded.take()) {
            (Request::Exec(exec), Some(statement)) => Request::Exec(Exec { statement, ..exec }),
            (request, _) => request,
        };
        self.recorded_var = None;
        let event = SessionEvent::turn(TurnRecord {
            turn,
            request,
            outcome,
        });
        let recording = std::time::Instant::now();
        if !closing {
            if let Err(e) = self.file.save(&self.dir) {
                return Envelope::error(e, None);
            }
        }
        let _ = append_event(&self.dir, &event);
        if let Some(op) = op {
            eprintln!(
                "turn {turn} {op}: served in {:.2} ms, recorded (session.json, events.jsonl) in \
                 {:.2} ms",
                (recording - served).as_secs_f64() * 1000.0,
                recording.elapsed().as_secs_f64() * 1000.0
            );
        }
        let mut answer = match result {
            Ok(reply) => {
                let mut answer = Envelope::reply(reply);
                answer.blocked_requests = self.new_blocked();
                answer
            }
            Err(e) => {
                // A failed step answered with the page after it needs no "observe" hint: what
                // follows an observation is the agent's choice.
                let observed = e.detail.as_ref().is_some_and(|d| d.observation.is_some());
                let next = if observed {
                    next::after_observe(&self.file)
                } else {
                    next::after_error(&self.file, e.code)
                };
                Envelope::error(e, next)
            }
        };
        answer.closing = closing || self.file.state.is_closed();
        answer
    }

    /// Requests the network policy blocked since the last answer.
    fn new_blocked(&mut self) -> Vec<String> {
        let Some(ctx) = self.ctx.as_ref() else {
            return Vec::new();
        };
        let all = ctx.blocked_requests();
        let fresh = all
            .get(self.blocked_reported..)
            .unwrap_or_default()
            .to_vec();
        self.blocked_reported = all.len();
        fresh
    }

    /// End the latest observation (after any action or a failed observation).
    fn end_observation(&mut self) {
        if let Some(latest) = self.file.latest.as_mut() {
            latest.open = false;
        }
    }

    /// The accessibility snapshot and, when the page has a compatible Test Kit bridge, its
    /// summary snapshot bound to the same revision: revision → accessibility → revision; a
    /// change in between retries once, then fails with `test.driver.web.page_context_changed`.
    /// `detected` is a bridge this turn's handshake already found (so it is not asked twice);
    /// `None` runs the handshake here.
    async fn atomic_snapshot(
        &self,
        deadline: Instant,
        detected: Option<Bridge>,
        ui: Option<&super::ui::UiBudget>,
    ) -> Result<(PageSnapshot, Option<(String, u64, Value)>), SessionError> {
        let ctx = self.ctx()?;
        let accessibility = |f: a3s_test_driver::StepFailure| {
            SessionError::new(
                SessionCode::StepFailed,
                format!("the observation failed: {}: {}", f.code, f.message),
            )
        };
        let bridge = match detected {
            Some(bridge) => Some(bridge),
            None => live::detect(ctx, deadline).await?,
        };
        let Some(bridge) = bridge else {
            if ui.is_some() {
                return Err(SessionError::new(
                    SessionCode::Capability,
                    "UI understanding needs the Test Kit bridge, which this page has not; \
                     observe without --ui (accessibility refs @eN)",
                ));
            }
            let snapshot = ctx
                .snapshot_controls(deadline)
                .await
                .map_err(accessibility)?;
            return Ok((snapshot, None));
        };
        let request = match ui {
            Some(budget) => budget.bridge_request(),
            None => json!({ "detail": "summary", "scope": { "kind": "page" }, "ui": false }),
        };
        for _attempt in 0..2 {
            let before = live::revision(ctx, deadline).await?;
            let snapshot = ctx
                .snapshot_controls(deadline)
                .await
                .map_err(accessibility)?;
            let (after, response) = live::snapshot(ctx, request.clone(), deadline).await?;
            if after == before {
                return Ok((snapshot, Some((bridge.sdk_version, after, response))));
            }
        }
        Err(live::driver_error(
            FailureCode::PageContextChanged,
            "the Page Context revision changed during the observation twice; observe again",
        ))
    }

    async fn observe(&mut self, request: &ViewRequest) -> Result<Observation, SessionError> {
        let deadline = self.turn_deadline();
        self.observe_with(request, None, deadline).await
    }

    /// A failed observation invalidates the refs of the one before it: the agent was about to
    /// replace them, and whatever it meant to look at is now unknown. Every failure of `observe`
    /// and `inspect` after their input was admitted comes through here.
    fn observation_failed(&mut self, e: SessionError) -> SessionError {
        self.end_observation();
        self.file.page_context = None;
        e
    }

    /// [`Self::observe`], reusing a bridge this turn already detected (see
    /// [`Self::atomic_snapshot`]).
    async fn observe_with(
        &mut self,
        request: &ViewRequest,
        detected: Option<Bridge>,
        deadline: Instant,
    ) -> Result<Observation, SessionError> {
        request
            .validate()
            .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?;
        match self.observe_admitted(request, detected, deadline).await {
            Ok(view) => Ok(view),
            Err(e) => Err(self.observation_failed(e)),
        }
    }

    /// [`Self::observe_with`] once the request is admitted.
    async fn observe_admitted(
        &mut self,
        request: &ViewRequest,
        detected: Option<Bridge>,
        deadline: Instant,
    ) -> Result<Observation, SessionError> {
        let settled = match request.settle_ms {
            Some(ms) => Some(super::view::settle(self.ctx()?, ms, deadline).await?),
            None => None,
        };
        let (snapshot, page_context) = self
            .atomic_snapshot(deadline, detected, request.ui.as_ref())
            .await?;
        if let Err(e) = super::policy::check_origin(&self.file.policy, &snapshot.url) {
            return Err(SessionError::new(
                SessionCode::OriginLoss,
                format!(
                    "the page is at {}, outside this session's origins: {}",
                    snapshot.url, e.message
                ),
            ));
        }
        let id = self.file.next_observation;
        self.file.next_observation += 1;
        let refs = self.views.numbering.refs(&snapshot);
        let mut observation = self.views.view(id, &snapshot, &refs, request);
        observation.settle = settled;
        self.file.latest = Some(ObservationRecord {
            id,
            url: snapshot.url.clone(),
            loader_id: snapshot.loader_id.clone(),
            open: true,
        });
        self.file.refs = refs;
        self.node_ids.clear();
        if let Some((_, _, response)) = &page_context {
            let token = &self.file.ownership.token;
            for id in response
                .get("nodes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|n| n.get("id").and_then(Value::as_str))
            {
                self.node_ids.insert(fingerprint(token, id), id.to_string());
            }
        }
        self.file.page_context = page_context
            .as_ref()
            .map(|(sdk_version, revision, response)| PageContextState {
                sdk_version: sdk_version.clone(),
                baseline: *revision,
                crefs: crefs_of(response, &self.file.ownership.token),
            });
        observation.page_context = self.file.page_context.as_ref().map(PageContextView::from);
        observation.ui = match (&request.ui, &page_context) {
            (Some(budget), Some((_, _, response))) => Some(self.ui_facts(id, budget, response)?),
            _ => {
                self.views.ui.clear();
                None
            }
        };
        observation.next = next::after_observe(&self.file);
        Ok(observation)
    }

    /// The `@uN` facts of observation `id` from its Page Context `response` (asked for with
    /// `budget`), checked before any is shown and numbered after every earlier observation's.
    fn ui_facts(
        &mut self,
        id: u64,
        budget: &super::ui::UiBudget,
        response: &Value,
    ) -> Result<super::ui::facts::UiView, SessionError> {
        let token = &self.file.ownership.token;
        let crefs = self
            .file
            .page_context
            .as_ref()
            .map(|p| p.crefs.as_slice())
            .unwrap_or_default();
        let names = super::ui::names_of(response, |node| {
            let print = fingerprint(token, node);
            crefs
                .iter()
                .find(|c| c.fingerprint == print)
                .map(|c| c.reference.clone())
        });
        let (facts, mut view) = super::ui::read(response, budget, &names)?;
        view.refs = self.views.ui.bind(id, facts);
        Ok(view)
    }

    /// Read the Page Context as asked (a `diff` is validated like any delta), then take a new
    /// observation so the answer comes with fresh `@eN`/`@cN` refs.
    async fn inspect(&mut self, request: InspectRequest) -> Result<Observation, SessionError> {
        request
            .validate()
            .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?;
        match self.inspect_admitted(request).await {
            Ok(view) => Ok(view),
            Err(e) => Err(self.observation_failed(e)),
        }
    }

    /// [`Self::inspect`] once the request is admitted.
    async fn inspect_admitted(
        &mut self,
        request: InspectRequest,
    ) -> Result<Observation, SessionError> {
        let deadline = self.turn_deadline();
        let ctx = self.ctx()?;
        let Some(bridge) = live::detect(ctx, deadline).await? else {
            return Err(SessionError::new(
                SessionCode::Capability,
                "this page has no Test Kit bridge; use observe (accessibility refs @eN)",
            ));
        };
        let method = if request.wait_timeout_ms.is_some() {
            PageContextMethod::WaitForDiff
        } else {
            PageContextMethod::Snapshot
        };
        let reply = live::call(ctx, method, request.bridge_request(), deadline).await?;
        let response = live::reply_value(
            reply,
            || {
                SessionError::new(
                    SessionCode::Capability,
                    "the Test Kit bridge went away; observe again",
                )
            },
            |m| {
                SessionError::new(
                    SessionCode::InvalidInput,
                    format!("the Test Kit refused the request: {m}"),
                )
            },
        )?;
        if let Some(since) = request.since_revision {
            diff::validate(&response, since).map_err(|e| {
                SessionError::new(
                    SessionCode::StepFailed,
                    format!("the Page Context delta was rejected: {e}"),
                )
                .with(|d| d.page_context_code = Some(e.rule))
            })?;
        }
        // One handshake per inspect: the observation reuses the bridge found above.
        let deadline = self.turn_deadline();
        let asked = ViewRequest {
            ui: request.ui,
            ..ViewRequest::default()
        };
        let mut view = self
            .observe_admitted(&asked, Some(bridge), deadline)
            .await?;
        view.inspection = Some(response);
        view.untrusted = true;
        Ok(view)
    }

    async fn exec(
        &mut self,
        turn: u64,
        observation: Option<u64>,
        source: &str,
    ) -> Result<Executed, SessionError> {
        // Gates 1–4 need no browser. An `@uN` target is refused in gate 3's words for this
        // session's UI facts.
        let step = gates::schema(source).map_err(|e| {
            super::ui::gate::refine(e, self.file.latest.as_ref(), observation, &self.views.ui)
        })?;
        gates::capability(&step, self.driver.capabilities())?;
        let refs = gates::target_type_in(&step, Some(&self.file))?;
        let (c_refs, e_refs): (Vec<String>, Vec<String>) =
            refs.iter().cloned().partition(|r| r.starts_with("@c"));
        let numbering = &self.views.numbering;
        gates::ref_binding(&self.file, observation, &e_refs, |n| numbering.issued(n))?;
        gates::cref_binding(&self.file, &c_refs)?;
        let deadline = self.turn_deadline();
        // Gate 4, in the browser: the document is the observed one and each ref's node is still
        // named, uniquely, by one of its durable targets. The `@eN` proofs are read-only, so they
        // are sent together with the read of the document identity; on a different document
        // they are not waited for (the refs are refused below, whatever they would find).
        let e_entries: Vec<RefEntry> = e_refs
            .iter()
            .map(|r| {
                self.file
                    .refs
                    .iter()
                    .find(|e| &e.reference == r)
                    .cloned()
                    .expect("ref_binding checked it")
            })
            .collect();
        let (identity, e_targets) = {
            let ctx = self.ctx()?;
            let proofs = async {
                let mut found = Vec::with_capacity(e_entries.len());
                for entry in &e_entries {
                    let proof = ctx
                        .target_naming(Some(entry.backend_node_id), &entry.durable, deadline)
                        .await;
                    found.push(proof.ok());
                }
                found
            };
            tokio::pin!(proofs);
            let identity = ctx.document_identity(deadline);
            tokio::pin!(identity);
            let mut early = None;
            let identity = loop {
                tokio::select! {
                    biased;
                    id = &mut identity => break id,
                    found = &mut proofs, if early.is_none() => early = Some(found),
                }
            };
            let observed = matches!(
                (&identity, &self.file.latest),
                (Ok((_, loader)), Some(latest)) if *loader == latest.loader_id
            );
            let e_targets = match early {
                Some(found) => found,
                None if observed => proofs.await,
                None => Vec::new(),
            };
            (identity, e_targets)
        };
        let (url, loader) = identity.map_err(SessionError::from)?;
        let mut durable: BTreeMap<String, Target> = BTreeMap::new();
        if !refs.is_empty() {
            let latest = self.file.latest.clone().expect("ref_binding checked it");
            if latest.loader_id != loader {
                return Err(SessionError::new(
                    SessionCode::StaleRef,
                    format!(
                        "the page loaded a new document since observation {}; observe again",
                        latest.id
                    ),
                ));
            }
            if !c_refs.is_empty() {
                self.refresh_crefs(deadline).await?;
                gates::cref_binding(&self.file, &c_refs)?;
            }
            for r in &c_refs {
                let entry = self
                    .file
                    .page_context
                    .as_ref()
                    .and_then(|p| p.crefs.iter().find(|c| &c.reference == r))
                    .cloned()
                    .expect("cref_binding checked it");
                // The element the bridge itself resolves the node to, when it can say.
                let expected = match self.node_ids.get(&entry.fingerprint) {
                    Some(id) => self
                        .ctx()?
                        .page_context_backend_node(id, deadline)
                        .await
                        .ok()
                        .flatten(),
                    None => None,
                };
                let found = self
                    .ctx()?
                    .target_naming(expected, &entry.durable, deadline)
                    .await
                    .ok();
                let Some(RefProof::Named(target)) = found else {
                    return Err(SessionError::new(
                        SessionCode::StaleRef,
                        format!(
                            "{r} is unchanged in the Page Context but none of its locators names \
                             exactly that one element; observe again"
                        ),
                    ));
                };
                durable.insert(r.clone(), target);
            }
            for (i, r) in e_refs.iter().enumerate() {
                let proof = e_targets.get(i).cloned().flatten();
                let target = proof_target(r, latest.id, proof)?;
                durable.insert(r.clone(), target);
            }
        }
        gates::policy(&self.file, &step, &url)?;
        gates::budgets(&self.file, &self.artifacts)?;
        let mut dispatched = replace_refs(&step, &durable)?;
        // A relative URL resolves against the current page, and the step records where it went.
        let mut navigated = None;
        if let Action::Navigate { url: target } = &mut dispatched.action {
            let absolute = super::policy::resolve(target, &url)?;
            *target = absolute.clone();
            navigated = Some(absolute);
        }
        // Before anything reaches the page: a value going into a private field is recorded as
        // `env("NAME")` from here on.
        let source = self.recorded_source(source, &dispatched, deadline).await?;
        let source = source.as_str();
        // Any action ends the observation, whatever its outcome.
        self.end_observation();
        self.file.actions += 1;
        let outcome = self
            .run_traced(turn, source, &dispatched, Some(&url), deadline)
            .await;
        let resolved: Vec<(String, Target)> = durable.into_iter().collect();
        let output = match outcome {
            Ok(output) => output,
            Err(f) => return Err(super::answer::step_failed(f, source, &resolved)),
        };
        // A page that left the origin set is reported, not followed: one that navigated itself
        // away, and a `navigate` whose URL passed the policy gate but that a server redirected.
        let now_url = match self.ctx()?.document_identity(deadline).await {
            Ok((u, _)) => u,
            Err(_) => url.clone(),
        };
        if super::policy::check_origin(&self.file.policy, &now_url).is_err() {
            return Err(SessionError::new(
                SessionCode::OriginLoss,
                format!(
                    "the step ran, then the page left the session's origins (now at {now_url})"
                ),
            )
            .after_dispatch());
        }
        self.file.steps.push(StepRecord {
            turn,
            statement: source.to_string(),
            resolved: resolved.clone(),
            navigated,
            private: self.recorded_var.clone(),
        });
        let executed = Executed {
            turn,
            step: dispatched.action.kind(),
            status: "passed".into(),
            resolved: resolved
                .iter()
                .map(|(r, t)| Resolved {
                    reference: r.clone(),
                    target: super::statement::print_target(t),
                })
                .collect(),
            evidence: output.evidence,
            detail: output.detail,
            url: now_url,
            untrusted: true,
            next: Some(next::after_exec(&self.file)),
            blocked_requests: Vec::new(),
            observation: None,
            observation_error: None,
        };
        Ok(executed)
    }

    /// An exec turn, answered with the observation that follows the step when `then_observe`
    /// asks for one (an agent turn in one call): the step runs exactly as [`Self::exec`] runs
    /// it, then the page is observed through the code path an `Observe` turn takes, so the
    /// answer's observation is the latest one and its refs are the ones the next statement
    /// binds to.
    ///
    /// Which outcomes observe: a step that passed, and a step that was dispatched and failed
    /// in the page (the page may have changed, and the agent should see where it stands; the
    /// observation goes in the error's `detail.observation`). A refusal before dispatch does
    /// not: nothing happened, and the observation the statement was bound to is still the
    /// latest and still open. Nor does a page that left the session's origins (it cannot be
    /// observed). An observation that fails is reported beside the step's own outcome
    /// (`observation_error`), never in its place: the step stands as it ran.
    async fn exec_then_observe(
        &mut self,
        turn: u64,
        observation: Option<u64>,
        source: &str,
        then_observe: Option<&ViewRequest>,
    ) -> Result<Executed, SessionError> {
        let Some(view) = then_observe else {
            return self.exec(turn, observation, source).await;
        };
        // A view the session cannot give refuses the statement before it runs.
        view.validate()
            .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?;
        let result = self.exec(turn, observation, source).await;
        match result {
            Ok(executed) => {
                let deadline = self.after_action_deadline();
                let seen = self.observe_with(view, None, deadline).await;
                Ok(executed.with_observation(Some(seen)))
            }
            // The step ran (the step runner's failure, marked so by `answer::step_failed`), as
            // opposed to the same code raised before dispatch: answer with the page after it.
            Err(e)
                if e.code == SessionCode::StepFailed
                    && e.detail.as_ref().is_some_and(|d| d.dispatched) =>
            {
                let deadline = self.after_action_deadline();
                let seen = self.observe_with(view, None, deadline).await;
                Err(e.with_observation(Some(seen)))
            }
            Err(e) => Err(e),
        }
    }

    /// The deadline of the observation that follows an action: what is left of the turn, but
    /// never less than [`AFTER_ACTION_OBSERVE`] (a step that waited out the turn still gets its
    /// page seen), within the session's deadline.
    fn after_action_deadline(&self) -> Instant {
        let left = self.file.deadline_at_ms().saturating_sub(now_ms());
        let least = AFTER_ACTION_OBSERVE.min(Duration::from_millis(left.max(1)));
        self.turn_deadline().max(Instant::now() + least)
    }

    /// `source` as the session records it (see [`private_input`]): when `step` types a value
    /// the agent wrote into a field the page says is private, or compares one with it, the
    /// value becomes `env("NAME")` and [`Self::recorded`] holds the result. A private value
    /// that cannot be rewritten refuses the statement before it runs, rather than be recorded.
    async fn recorded_source(
        &mut self,
        source: &str,
        step: &Step,
        deadline: Instant,
    ) -> Result<String, SessionError> {
        let Some(typed) = private_input::typed_value(step) else {
            return Ok(source.to_string());
        };
        let field = match self.ctx()?.target_privacy(typed.target, deadline).await {
            Ok(field) if private_input::is_private(&field) => field,
            // Open, or a target that does not resolve (then nothing is typed either).
            _ => return Ok(source.to_string()),
        };
        let var = private_input::env_name(&field);
        let Some(recorded) = private_input::redact_source(source, typed.value, &var) else {
            return Err(SessionError::new(
                SessionCode::InvalidInput,
                format!(
                    "the value goes into a private field and could not be kept out of the \
                     session's records; write it as env(\"{var}\") and set {var} where the \
                     session was started"
                ),
            ));
        };
        self.recorded = Some(recorded.clone());
        self.recorded_var = Some(var);
        Ok(recorded)
    }

    /// Bring the `@cN` refs up to the page's current revision: a validated complete delta keeps
    /// the unaffected ones; a reset, a missing or invalid delta, or a regression clears them all.
    async fn refresh_crefs(&mut self, deadline: Instant) -> Result<(), SessionError> {
        let Some(baseline) = self.file.page_context.as_ref().map(|p| p.baseline) else {
            return Ok(());
        };
        let outcome = live::delta_since(self.ctx()?, baseline, deadline).await;
        let token = self.file.ownership.token.clone();
        let state = self.file.page_context.as_mut().expect("checked above");
        match outcome {
            Ok(delta) => {
                apply_delta(state, &delta, &token);
                Ok(())
            }
            Err(e) => {
                state.crefs.clear();
                Err(e)
            }
        }
    }

    async fn shutdown(&mut self) -> Vec<String> {
        let mut problems = Vec::new();
        if let Some(ctx) = self.ctx.take() {
            if let Err(e) = ctx.close().await {
                problems.push(e.to_string());
            }
        }
        if let Err(e) = self.driver.shutdown().await {
            problems.push(e.to_string());
        }
        problems.extend(group_survivors(self.file.ownership.browser_pgid, "browser"));
        problems
    }

    /// Close the browser, verify its group is gone, write `report.json`.
    pub async fn close(
        &mut self,
        state: SessionState,
        status: &str,
        summary: Option<String>,
    ) -> Result<Closing, SessionError> {
        self.close_traced(state, status, summary, None).await
    }

    /// [`Self::close`], the report naming the trace `finish --trace` wrote.
    async fn close_traced(
        &mut self,
        state: SessionState,
        status: &str,
        summary: Option<String>,
        trace: Option<SessionTraceSummary>,
    ) -> Result<Closing, SessionError> {
        let problems = self.shutdown().await;
        record_close(
            &mut self.file,
            &self.dir,
            state,
            status,
            summary,
            problems,
            trace,
        )
    }

    /// The folder of this session (open, verified).
    pub fn dir(&self) -> &Dir {
        &self.dir
    }
}

/// Record a session's end once its surface was shut down (`problems`: what the cleanup could not
/// verify): the state, the reason, the last observation closed, `report.json` and the session
/// file. A cleanup that could not be verified keeps the session in cleanup (turns refused) for a
/// later finish/abort to retry, and is answered as a `test.session.cleanup` error carrying the
/// report. One rule for browser and terminal sessions alike.
pub(crate) fn record_close(
    file: &mut SessionFile,
    dir: &Dir,
    state: SessionState,
    status: &str,
    summary: Option<String>,
    problems: Vec<String>,
    trace: Option<SessionTraceSummary>,
) -> Result<Closing, SessionError> {
    file.state = if problems.is_empty() {
        state
    } else {
        SessionState::CleanupFailed
    };
    file.closed_reason = Some(status.to_string());
    if let Some(latest) = file.latest.as_mut() {
        latest.open = false;
    }
    let mut report = SessionReport::of(file, status, summary, problems);
    report.trace = trace.map(Box::new);
    write_json_atomic(dir, "report.json", &report)?;
    file.save(dir)?;
    if !report.cleanup.problems.is_empty() {
        let message = report.cleanup.problems.join("; ");
        let closed = Closed {
            report: ClosedReport::Supervisor(report),
            next: None,
            cleanup_verified: false,
            survivors: Vec::new(),
            blocked_requests: Vec::new(),
        };
        return Err(SessionError::new(SessionCode::Cleanup, message)
            .with(|d| d.closed = Some(Box::new(closed))));
    }
    Ok(Closing {
        report,
        next: next::after_close(file),
        blocked_requests: Vec::new(),
    })
}

/// The problem a session's shutdown reports when members of the group it owned (`what`: the
/// browser, or a terminal's program) are still alive after the close — the one check both
/// engines make before they call a session closed.
pub(crate) fn group_survivors(pgid: u32, what: &str) -> Option<String> {
    if pgid <= 1 {
        return None;
    }
    let alive = live_group_members(pgid);
    (!alive.is_empty()).then(|| format!("{what} processes {alive:?} of group {pgid} survived"))
}
