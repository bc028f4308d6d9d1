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
    SessionState, StepRecord, FORMAT_VERSION,
};
use super::gates;
use super::next;
use super::observation::RefEntry;
use super::page_context::fingerprint::fingerprint;
use super::page_context::handshake::Bridge;
use super::page_context::inspect::InspectRequest;
use super::page_context::refs::{apply_delta, crefs_of, to_json as crefs_json, PageContextState};
use super::page_context::{diff, live, repair_queue, repair_watch};
use super::private_input;
use super::protocol::{FinishStatus, Request, Response};
use super::repair_page;
use super::reply::{CleanupReport, Executed, Resolved, SessionReport};
use super::statement::replace_refs;
use super::view::{ViewRequest, ViewState};
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
        };
        let start = format!(
            "navigate {{ url = {} }}",
            super::statement::acl_string(&engine.file.start_url)
        );
        let step = gates::schema(&start)?;
        let deadline = engine.turn_deadline();
        if let Err(f) = engine.run_step(0, &step, None, deadline).await {
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
                failure
                    .evidence
                    .extend(step::capture_failure_evidence(ctx, &dir, EVIDENCE_BOUND).await);
            }
        }
        Err(failure)
    }

    fn ctx(&self) -> Result<&D::Context, SessionError> {
        self.ctx
            .as_ref()
            .ok_or_else(|| SessionError::new(SessionCode::NotRunning, "the session is closed"))
    }

    /// Serve one request; returns the answer (with `closing` set when the session ended).
    pub async fn handle(&mut self, request: Request) -> Response {
        let turn = self.file.next_turn;
        self.file.next_turn += 1;
        self.file.last_turn_at_ms = now_ms();
        let closing = matches!(request, Request::Finish { .. } | Request::Abort { .. });
        let result = match request.clone() {
            Request::Observe { view } => self.observe(&view).await,
            Request::Inspect { request } => self.inspect(request).await,
            Request::RepairPeek { max } => {
                let deadline = self.turn_deadline();
                async { repair_queue::peek(self.ctx()?, max, deadline).await }.await
            }
            Request::RepairTake { ids } => {
                let deadline = self.turn_deadline();
                async { repair_queue::take(self.ctx()?, &ids, deadline).await }.await
            }
            Request::RepairActionsPeek { max } => {
                let deadline = self.turn_deadline();
                async { repair_queue::peek_actions(self.ctx()?, max, deadline).await }.await
            }
            Request::RepairActionsTake { answers } => {
                let deadline = self.turn_deadline();
                async { repair_queue::take_actions(self.ctx()?, &answers, deadline).await }.await
            }
            Request::RepairBaseline { finding, dir } => {
                let deadline = self.turn_deadline();
                async {
                    repair_page::baseline(self.ctx()?, &self.dir, &finding, &dir, deadline)
                        .await
                        .map(|baseline| json!({ "baseline": baseline }))
                }
                .await
            }
            Request::RepairWait { since, timeout_ms } => {
                let deadline = self.turn_deadline();
                async {
                    repair_watch::wait(self.ctx()?, since.as_ref(), timeout_ms, deadline).await
                }
                .await
            }
            Request::RepairApply { events } => {
                let deadline = self.turn_deadline();
                async { repair_watch::apply(self.ctx()?, &events, deadline).await }.await
            }
            Request::RepairObserve(observe) => {
                let deadline = self.repair_deadline();
                async {
                    repair_page::observe(self.ctx()?, &self.dir, &observe, deadline)
                        .await
                        .map(|verification| json!({ "verification": verification }))
                }
                .await
            }
            Request::Exec {
                observation,
                statement,
            } => {
                let result = self.exec(turn, observation, &statement).await;
                let recorded = self.recorded.clone().unwrap_or(statement);
                result.map_err(|e| super::answer::refused(e, &recorded))
            }
            Request::RepairProve { candidate, dir } => self.repair_prove(&candidate, &dir).await,
            Request::Finish { status, summary } => {
                let status = match status {
                    FinishStatus::Passed => "passed",
                    FinishStatus::Failed => "failed",
                };
                self.close(SessionState::Finished, status, Some(summary))
                    .await
            }
            Request::Abort { reason } => self.close(SessionState::Aborted, "aborted", reason).await,
        };
        let outcome = match &result {
            Ok(v) => TurnOutcome::passed(v.get("observation").and_then(Value::as_u64)),
            Err(e) => TurnOutcome::failed(e),
        };
        // A private value the agent typed is logged as `env("NAME")`, never as itself.
        let request = match (request, self.recorded.take()) {
            (Request::Exec { observation, .. }, Some(statement)) => Request::Exec {
                observation,
                statement,
            },
            (request, _) => request,
        };
        self.recorded_var = None;
        let event = SessionEvent::turn(TurnRecord {
            turn,
            request,
            outcome,
        });
        if !closing {
            if let Err(e) = self.file.save(&self.dir) {
                return Response::error(&e);
            }
        }
        let _ = append_event(&self.dir, &event);
        let mut response = match result {
            Ok(mut v) => {
                let blocked = self.new_blocked();
                if !blocked.is_empty() && v.is_object() {
                    v["blocked_requests"] = json!(blocked);
                    v["untrusted"] = json!(true);
                }
                Response::ok(v)
            }
            Err(e) => {
                let mut r = Response::error(&e);
                if let Some(n) = next::after_error(&self.file, e.code) {
                    r.body["next"] = json!(n);
                }
                r
            }
        };
        response.closing = closing || self.file.state.is_closed();
        response
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
            let snapshot = ctx
                .snapshot_controls(deadline)
                .await
                .map_err(accessibility)?;
            return Ok((snapshot, None));
        };
        let request = json!({ "detail": "summary", "scope": { "kind": "page" }, "ui": false });
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

    async fn observe(&mut self, request: &ViewRequest) -> Result<Value, SessionError> {
        self.observe_with(request, None).await
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
    ) -> Result<Value, SessionError> {
        request
            .validate()
            .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?;
        match self.observe_admitted(request, detected).await {
            Ok(view) => Ok(view),
            Err(e) => Err(self.observation_failed(e)),
        }
    }

    /// [`Self::observe_with`] once the request is admitted.
    async fn observe_admitted(
        &mut self,
        request: &ViewRequest,
        detected: Option<Bridge>,
    ) -> Result<Value, SessionError> {
        let deadline = self.turn_deadline();
        let settled = match request.settle_ms {
            Some(ms) => Some(super::view::settle(self.ctx()?, ms, deadline).await?),
            None => None,
        };
        let (snapshot, page_context) = self.atomic_snapshot(deadline, detected).await?;
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
        let mut view = serde_json::to_value(&observation).expect("views serialize");
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
        self.file.page_context =
            page_context.map(|(sdk_version, revision, response)| PageContextState {
                sdk_version,
                baseline: revision,
                crefs: crefs_of(&response, &self.file.ownership.token),
            });
        if let Some(pc) = &self.file.page_context {
            view["page_context"] = json!({
                "sdk_version": pc.sdk_version,
                "revision": pc.baseline,
                "refs": crefs_json(&pc.crefs),
                "ref_count": pc.crefs.len(),
            });
        }
        if let Some(n) = next::after_observe(&self.file) {
            view["next"] = json!(n);
        }
        Ok(view)
    }

    /// Read the Page Context as asked (a `diff` is validated like any delta), then take a new
    /// observation so the answer comes with fresh `@eN`/`@cN` refs.
    async fn inspect(&mut self, request: InspectRequest) -> Result<Value, SessionError> {
        request
            .validate()
            .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?;
        match self.inspect_admitted(request).await {
            Ok(view) => Ok(view),
            Err(e) => Err(self.observation_failed(e)),
        }
    }

    /// [`Self::inspect`] once the request is admitted.
    async fn inspect_admitted(&mut self, request: InspectRequest) -> Result<Value, SessionError> {
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
                .with_detail(json!({ "page_context_code": e.rule.as_str() }))
            })?;
        }
        // One handshake per inspect: the observation reuses the bridge found above.
        let mut view = self
            .observe_admitted(&ViewRequest::default(), Some(bridge))
            .await?;
        view["inspection"] = response;
        view["untrusted"] = json!(true);
        Ok(view)
    }

    async fn exec(
        &mut self,
        turn: u64,
        observation: Option<u64>,
        source: &str,
    ) -> Result<Value, SessionError> {
        // Gates 1–4 need no browser.
        let step = gates::schema(source)?;
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
        let outcome = self.run_step(turn, &dispatched, Some(&url), deadline).await;
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
            detail: output.detail.map(Into::into),
            url: now_url,
            untrusted: true,
            next: Some(next::after_exec(&self.file)),
            blocked_requests: Vec::new(),
        };
        Ok(serde_json::to_value(executed).expect("answers serialize"))
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
        let pgid = self.file.ownership.browser_pgid;
        if pgid > 1 {
            let alive = live_group_members(pgid);
            if !alive.is_empty() {
                problems.push(format!(
                    "browser processes {alive:?} of group {pgid} survived"
                ));
            }
        }
        problems
    }

    /// Close the browser, verify its group is gone, write `report.json`.
    pub async fn close(
        &mut self,
        state: SessionState,
        status: &str,
        summary: Option<String>,
    ) -> Result<Value, SessionError> {
        let problems = self.shutdown().await;
        // A cleanup that could not be verified keeps the session in cleanup (turns refused) for
        // a later finish/abort to retry.
        self.file.state = if problems.is_empty() {
            state
        } else {
            SessionState::CleanupFailed
        };
        self.file.closed_reason = Some(status.to_string());
        self.end_observation();
        let report = SessionReport {
            format_version: FORMAT_VERSION,
            session: self.file.id.to_string(),
            status: status.to_string(),
            summary,
            summary_untrusted: true,
            goal: self.file.goal.clone(),
            success: self.file.success.clone(),
            start_url: self.file.start_url.clone(),
            actions: self.file.actions,
            steps_passed: self.file.steps.len(),
            started_at_ms: self.file.started_at_ms,
            closed_at_ms: now_ms(),
            cleanup: CleanupReport {
                browser_pgid: self.file.ownership.browser_pgid,
                problems,
            },
        };
        write_json_atomic(&self.dir, "report.json", &report)?;
        self.file.save(&self.dir)?;
        if !report.cleanup.problems.is_empty() {
            let message = report.cleanup.problems.join("; ");
            return Err(SessionError::new(SessionCode::Cleanup, message).with_detail(&report));
        }
        Ok(json!({ "report": report, "next": next::after_close(&self.file) }))
    }

    /// The folder of this session (open, verified).
    pub fn dir(&self) -> &Dir {
        &self.dir
    }
}
