//! The desktop session engine inside the supervisor: one program on a desktop the supervisor
//! owns, driven one statement at a time through the same step runner as suites
//! ([`crate::step`]), generic over the desktop agent contract ([`DesktopAgentDriver`]) — the
//! concrete driver comes from the launcher the supervisor process was started with.
//!
//! An observation is the page's view ([`crate::session::view::ViewState`]: outline, stable
//! `@eN` numbering, `--since` diffs, budgets) over the program's windows and dialogs, whose
//! "document" is the binding (program and top-level window). A statement passes the gates in
//! order — schema (admitted as one `surface = "gui"` step) → capability → ref binding (the
//! latest open observation, [`gates::ref_binding`]) → the binding now equals the observation's
//! → each ref's locator proven to name its node alone → budgets — and only then is sent.
//! Requests that need a page (inspect, repair reads) are refused with `test.session.capability`.

use super::promote;
use crate::cancel::CancelToken;
use crate::executor::DriverLauncher;
use crate::session::code::{SessionCode, SessionError};
use crate::session::file::{now_ms, ObservationRecord, SessionFile, SessionState, StepRecord};
use crate::session::protocol::{Envelope, Exec, Replied, Request};
use crate::session::reply::{Closing, Executed, Resolved};
use crate::session::supervisor::Served;
use crate::session::turn::ProgramTurns;
use crate::session::view::{Observation, ViewRequest, ViewState};
use crate::session::{answer, gates, statement};
use a3s_test_driver::{
    DesktopAgentContext, DesktopAgentDriver, StepDetail, StepFailure, StepOutput,
};
use a3s_test_fsroot::Dir;
use a3s_test_lang::ir::{Action, ActionKind, Step, Surface, Target};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;
use tokio::time::Instant;

/// The most one turn may take.
pub const TURN_BOUND: Duration = Duration::from_secs(60);
/// How long an `expect` waits unless the statement says.
pub const EXPECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long the desktop and the program may take to start.
pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(45);
/// Bound on capturing failure evidence after a failed step.
pub const EVIDENCE_BOUND: Duration = Duration::from_secs(5);
/// How long the program must send no accessibility event before the observation that follows
/// an input is read (unless `--settle-ms` says): GTK answers a click within a few ms.
pub const DEFAULT_QUIET: Duration = Duration::from_millis(40);
/// The most that wait may take in all.
pub const SETTLE_CAP: Duration = Duration::from_secs(2);
/// How long a click at a visual point may look for a capture of the window with the
/// screenshot's digest: longer than one blink of a text caret (GTK: 1.2 s a cycle).
pub const SHOT_MATCH: Duration = Duration::from_millis(1500);
/// How long the window must look the same for a screenshot to be bound (see `bind_shot`).
const SHOT_HOLD: Duration = Duration::from_millis(120);
/// The pause between those captures (a capture costs a few ms).
const SHOT_RETRY: Duration = Duration::from_millis(40);
/// The most a binding check may take.
pub const BINDING_BOUND: Duration = Duration::from_secs(5);

/// The view options a desktop observation can honour: all of the page's but the Test Kit's
/// UI facts (a desktop program has no Test Kit).
fn admit_view(request: &ViewRequest) -> Result<(), SessionError> {
    request
        .validate()
        .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?;
    if request.ui.is_some() {
        return Err(SessionError::new(
            SessionCode::InvalidInput,
            "a desktop program has no Test Kit UI understanding: leave out ui",
        ));
    }
    Ok(())
}

/// True for a step that sends input to the program.
fn is_input(step: &Step) -> bool {
    matches!(
        step.action,
        Action::Click { .. }
            | Action::DoubleClick { .. }
            | Action::Fill { .. }
            | Action::Type { .. }
            | Action::Press { .. }
            | Action::Check { .. }
            | Action::Uncheck { .. }
            | Action::Select { .. }
            | Action::Wheel { .. }
    )
}

fn stale(message: String) -> SessionError {
    SessionError::new(SessionCode::StaleRef, message)
}

/// A running desktop session.
pub struct DesktopEngine<D: DesktopAgentDriver> {
    dir: Dir,
    artifacts: Dir,
    root: PathBuf,
    /// The session record (saved after every turn).
    pub file: SessionFile,
    driver: D,
    ctx: Option<D::Context>,
    /// Never fired: a turn is bounded by its deadline.
    cancel: CancelToken,
    view: ViewState,
    /// The latest window screenshot a `screenshot` turn bound (`@vN`): the one a
    /// `visual_point` may name.
    shot: Option<BoundShot>,
    /// The number the next bound screenshot gets.
    next_shot: u32,
}

/// A window screenshot a `visual_point` may name: its id, the PNG's digest and size, and the
/// binding (program and top-level window) it was taken of.
#[derive(Debug, Clone)]
struct BoundShot {
    n: u32,
    sha256: String,
    width: u32,
    height: u32,
    left: i32,
    top: i32,
    binding: String,
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn stale_shot(message: String) -> SessionError {
    SessionError::new(SessionCode::StaleScreenshot, message)
}

impl<D: DesktopAgentDriver> DesktopEngine<D> {
    /// Launch the driver through `launcher` (its context starts the desktop and the program)
    /// and mark the session active. The record in `dir` is the one the CLI wrote.
    pub async fn start<L: DriverLauncher<Driver = D>>(
        launcher: L,
        dir: Dir,
        root: PathBuf,
        token: String,
    ) -> Result<Self, SessionError> {
        let started = crate::session::turn::start_program(
            launcher,
            &dir,
            token,
            crate::session::turn::ProgramStart {
                surface: Surface::Gui,
                host: "desktop",
                launch_timeout: LAUNCH_TIMEOUT,
            },
            |file| {
                file.desktop
                    .as_ref()
                    .map(|p| p.display())
                    .unwrap_or_default()
            },
            |ctx| ctx.program_process(),
        )
        .await?;
        Ok(DesktopEngine {
            dir,
            artifacts: started.artifacts,
            root,
            file: started.file,
            driver: started.driver,
            ctx: Some(started.ctx),
            cancel: CancelToken::new(),
            view: ViewState::default(),
            shot: None,
            next_shot: 1,
        })
    }

    fn turn_deadline(&self) -> Instant {
        let left = self.file.deadline_at_ms().saturating_sub(now_ms());
        Instant::now() + TURN_BOUND.min(Duration::from_millis(left.max(1)))
    }

    fn ctx(&self) -> Result<&D::Context, SessionError> {
        self.ctx
            .as_ref()
            .ok_or_else(|| SessionError::new(SessionCode::NotRunning, "the session is closed"))
    }

    /// End the latest observation (after any action or a failed observation).
    fn end_observation(&mut self) {
        if let Some(latest) = self.file.latest.as_mut() {
            latest.open = false;
        }
    }

    /// Observe the program's windows (after input, first until it went quiet), number the
    /// controls and shape the view.
    async fn observe(
        &mut self,
        request: &ViewRequest,
        after_input: bool,
        deadline: Instant,
    ) -> Result<Observation, SessionError> {
        admit_view(request)?;
        let ctx = self.ctx()?;
        if after_input || request.settle_ms.is_some() {
            let quiet = request
                .settle_ms
                .map_or(DEFAULT_QUIET, Duration::from_millis);
            ctx.settle(quiet, SETTLE_CAP.max(quiet * 4), deadline).await;
        }
        let snapshot = ctx.observe(deadline).await.map_err(|e| {
            SessionError::new(
                SessionCode::StepFailed,
                format!("observing the program failed: {}: {}", e.code, e.message),
            )
        })?;
        let id = self.file.next_observation;
        self.file.next_observation += 1;
        let refs = self.view.numbering.refs(&snapshot);
        let mut observation = self.view.view(id, &snapshot, &refs, request);
        self.file.latest = Some(ObservationRecord {
            id,
            url: snapshot.url.clone(),
            loader_id: snapshot.loader_id.clone(),
            open: true,
        });
        self.file.refs = refs;
        observation.next = Some(format!(
            "a3s-test agent click @eN --session {} --observation {id}",
            self.file.id
        ));
        Ok(observation)
    }

    /// The binding now must be the one observation `latest` saw: else the program or its
    /// window changed, every ref is invalid and nothing is sent.
    async fn check_binding(&self) -> Result<(), SessionError> {
        let Some(latest) = &self.file.latest else {
            return Ok(());
        };
        let deadline = Instant::now() + BINDING_BOUND;
        let now = self.ctx()?.binding(deadline).await.map_err(|e| {
            stale(format!(
                "the program or its window is gone since observation {} ({}: {}); nothing was \
                 sent",
                latest.id, e.code, e.message
            ))
        })?;
        if now != latest.loader_id {
            return Err(stale(format!(
                "the program's window changed since observation {} (another top-level window \
                 or program now); its refs are invalid and nothing was sent: observe again",
                latest.id
            )));
        }
        Ok(())
    }

    /// The target each ref is dispatched through: the first of its durable targets proven to
    /// name its node alone now. A control with neither a name nor a label (mousepad's editor)
    /// has no durable target of its own: its role alone is tried, which a program with one
    /// such control names alone.
    async fn prove_refs(&self, refs: &[String]) -> Result<BTreeMap<String, Target>, SessionError> {
        let ctx = self.ctx()?;
        let mut durable = BTreeMap::new();
        for r in refs {
            let Some(entry) = self.file.refs.iter().find(|e| &e.reference == r) else {
                return Err(stale(format!("{r} is not in the latest observation")));
            };
            let role_alone = entry.durable.is_empty().then(|| Target::Role {
                role: entry.role.clone(),
                name: None,
            });
            let mut proven = None;
            for target in entry.durable.iter().chain(role_alone.as_ref()) {
                let deadline = Instant::now() + BINDING_BOUND;
                let alone = ctx
                    .names_alone(target, entry.backend_node_id, deadline)
                    .await
                    .map_err(|e| {
                        stale(format!(
                            "{r} could not be found again ({}: {}); nothing was sent",
                            e.code, e.message
                        ))
                    })?;
                if alone {
                    proven = Some(target.clone());
                    break;
                }
            }
            match proven {
                Some(target) => {
                    durable.insert(r.clone(), target);
                }
                None => {
                    return Err(stale(format!(
                        "{r} ({} {:?}) is no longer named alone by any locator (it changed, went \
                         or has a twin now); nothing was sent: observe again",
                        entry.role, entry.name
                    )))
                }
            }
        }
        Ok(durable)
    }

    /// Run one admitted step through the shared step runner ([`crate::session::turn::run_step`]).
    async fn run_step(
        &mut self,
        turn: u64,
        step: &Step,
        deadline: Instant,
    ) -> Result<StepOutput, StepFailure> {
        let place = crate::session::turn::StepPlace {
            artifacts: &self.artifacts,
            root: &self.root,
            cancel: &self.cancel,
            expect_timeout: EXPECT_TIMEOUT,
            evidence_bound: EVIDENCE_BOUND,
        };
        let ctx = self.ctx.as_mut().expect("context is open");
        crate::session::turn::run_step(ctx, place, turn, step, deadline).await
    }

    /// Bind the window as it is now to the next `@vN` (after a `screenshot` turn): the detail
    /// the answer carries.
    async fn bind_shot(&mut self) -> Result<StepDetail, SessionError> {
        let deadline = Instant::now() + BINDING_BOUND;
        let ctx = self.ctx()?;
        let failed = |e: a3s_test_driver::DriverError| {
            SessionError::new(
                SessionCode::StepFailed,
                format!("capturing the window failed: {}: {}", e.code, e.message),
            )
        };
        let binding = ctx.binding(deadline).await.map_err(failed)?;
        // Bind an image the window rests in, not a frame of a fading caret (GTK4 fades it):
        // captures alike for SHOT_HOLD, within SHOT_MATCH. A resting frame comes back every
        // blink and lasts, so the click's check meets it again; a frame of the fade (two
        // captures alike only because a loaded machine drew slowly) might never recur.
        let until = Instant::now() + SHOT_MATCH;
        let mut shot = ctx.window_shot(deadline).await.map_err(failed)?;
        let mut sha256 = sha256_hex(&shot.png);
        let mut since = Instant::now();
        while Instant::now() < until {
            tokio::time::sleep(SHOT_RETRY).await;
            let next = ctx.window_shot(deadline).await.map_err(failed)?;
            let next_sha = sha256_hex(&next.png);
            if next_sha != sha256 {
                since = Instant::now();
            } else if since.elapsed() >= SHOT_HOLD {
                break;
            }
            (shot, sha256) = (next, next_sha);
        }
        let bound = BoundShot {
            n: self.next_shot,
            sha256,
            width: shot.width,
            height: shot.height,
            left: shot.left,
            top: shot.top,
            binding,
        };
        self.next_shot += 1;
        let detail = StepDetail::VisualPoint {
            screenshot: format!("@v{}", bound.n),
            sha256: bound.sha256.clone(),
            width: bound.width,
            height: bound.height,
            left: bound.left,
            top: bound.top,
            x: None,
            y: None,
            element: None,
        };
        self.shot = Some(bound);
        Ok(detail)
    }

    /// Gate a click at a point of screenshot `@v{n}`: it is the session's latest, the binding
    /// is the one it was taken of, the point is inside its image and a fresh capture of the
    /// window has its digest. Nothing is sent when any of these fails.
    async fn check_shot(&self, n: u32, x: u32, y: u32) -> Result<BoundShot, SessionError> {
        let latest = match &self.shot {
            Some(latest) if latest.n == n => latest.clone(),
            Some(latest) => {
                return Err(stale_shot(format!(
                    "@v{n} is not the session's latest screenshot (@v{} is); nothing was sent: \
                     take a screenshot and name its id",
                    latest.n
                )))
            }
            None => {
                return Err(stale_shot(format!(
                    "the session has no screenshot @v{n}; nothing was sent: take a screenshot \
                     first (its answer names its id)"
                )))
            }
        };
        if x >= latest.width || y >= latest.height {
            return Err(stale_shot(format!(
                "({x}, {y}) lies outside @v{n}'s {}×{} image; nothing was sent",
                latest.width, latest.height
            )));
        }
        let deadline = Instant::now() + BINDING_BOUND;
        let ctx = self.ctx()?;
        let gone = |e: a3s_test_driver::DriverError| {
            stale_shot(format!(
                "the program or its window is gone since @v{n} ({}: {}); nothing was sent",
                e.code, e.message
            ))
        };
        if ctx.binding(deadline).await.map_err(gone)? != latest.binding {
            return Err(stale_shot(format!(
                "the program's window changed since @v{n} (another top-level window or \
                 program now); nothing was sent: take a screenshot again"
            )));
        }
        // A blinking caret changes the window twice a second: capture again (bounded by
        // SHOT_MATCH) until one capture has the digest, so only a real change refuses.
        let until = Instant::now() + SHOT_MATCH;
        let mut same = false;
        while !same {
            let now = ctx.window_shot(deadline).await.map_err(gone)?;
            same = sha256_hex(&now.png) == latest.sha256;
            if same || Instant::now() >= until {
                break;
            }
            tokio::time::sleep(SHOT_RETRY).await;
        }
        if !same {
            return Err(stale_shot(format!(
                "the window no longer looks like @v{n} (a fresh capture's digest differs); \
                 nothing was sent: take a screenshot again"
            )));
        }
        Ok(latest)
    }

    /// A `click` at `visual_point("@vN", x, y)`: gated by [`Self::check_shot`], then a real
    /// click at the window point; the control found there is written as a locator when exactly
    /// one names it (recorded for promotion, which never writes the point itself).
    async fn exec_visual(
        &mut self,
        turn: u64,
        exec: &Exec,
        (n, x, y): (u32, u32, u32),
    ) -> Result<Executed, SessionError> {
        let source = exec.statement.as_str();
        gates::budgets(&self.file, &self.artifacts)?;
        let shot = self.check_shot(n, x, y).await?;
        self.end_observation();
        self.file.actions += 1;
        let deadline = self.turn_deadline();
        let clicked = self.ctx()?.click_point(x, y, deadline).await;
        let view = exec.then_observe.as_ref();
        let clicked = match clicked {
            Ok(clicked) => clicked,
            Err(e) => {
                let failure = StepFailure::new(e.code, e.message);
                let e = answer::step_failed(failure, source, &[]);
                let seen = self.observe_after(view, true).await;
                return Err(e.with_observation(seen));
            }
        };
        // The locator promotion writes: the control's role and name, when they name it alone.
        let mut durable = None;
        if let Some(element) = &clicked.element {
            let target = Target::role_named(element.role.clone(), element.name.clone());
            let deadline = Instant::now() + BINDING_BOUND;
            if !element.name.is_empty()
                && self
                    .ctx()?
                    .names_alone(&target, element.node, deadline)
                    .await
                    .unwrap_or(false)
            {
                durable = Some(target);
            }
        }
        let point = Target::VisualPoint { shot: n, x, y }.to_string();
        let resolved: Vec<(String, Target)> =
            durable.iter().map(|t| (point.clone(), t.clone())).collect();
        self.file.steps.push(StepRecord {
            turn,
            statement: source.to_string(),
            resolved: resolved.clone(),
            navigated: None,
            private: None,
        });
        let element = match (&durable, &clicked.element) {
            (Some(t), _) => Some(statement::print_target(t)),
            (None, Some(e)) => Some(format!(
                "{} {:?} (no single locator names it)",
                e.role, e.name
            )),
            (None, None) => None,
        };
        let executed = Executed {
            turn,
            step: ActionKind::Click,
            status: "passed".into(),
            resolved: resolved
                .iter()
                .map(|(r, t)| Resolved {
                    reference: r.clone(),
                    target: statement::print_target(t),
                })
                .collect(),
            evidence: Vec::new(),
            detail: Some(StepDetail::VisualPoint {
                screenshot: format!("@v{n}"),
                sha256: shot.sha256,
                width: shot.width,
                height: shot.height,
                left: shot.left,
                top: shot.top,
                x: Some(x),
                y: Some(y),
                element,
            }),
            url: String::new(),
            untrusted: true,
            next: Some(format!("a3s-test agent observe --session {}", self.file.id)),
            blocked_requests: Vec::new(),
            observation: None,
            observation_error: None,
        };
        Ok(executed.with_observation(self.observe_after(view, true).await))
    }

    /// Admit, gate and run one statement; with `then_observe`, answer with the windows after it.
    async fn exec(&mut self, turn: u64, exec: &Exec) -> Result<Executed, SessionError> {
        if let Some(view) = &exec.then_observe {
            admit_view(view)?;
        }
        let source = exec.statement.as_str();
        let step = a3s_test_lang::admit_statement_on(source, Surface::Gui)
            .map_err(gates::refused_statement)?;
        gates::capability(&step, self.driver.capabilities())?;
        if let Action::Click {
            target: Target::VisualPoint { shot, x, y },
            ..
        } = &step.action
        {
            return self.exec_visual(turn, exec, (*shot, *x, *y)).await;
        }
        gates::capability(&step, self.driver.capabilities())?;
        let refs = gates::target_type(&step)?;
        // Schema, as a desktop scenario would hold it (a browser-only target such as css is
        // refused here): each ref stands for a role target until it is proven below.
        let standing: BTreeMap<String, Target> = refs
            .iter()
            .map(|r| (r.clone(), Target::role_named("push button", r.as_str())))
            .collect();
        let label = format!("turn-{turn}");
        let probe = statement::replace_refs_in_source(source, &standing);
        promote::scenario_source(&self.file.id, &[statement::with_label(&probe, &label)])?;
        let numbering = &self.view.numbering;
        gates::ref_binding(&self.file, exec.observation, &refs, |n| numbering.issued(n))?;
        let input = is_input(&step);
        if input && refs.is_empty() && exec.observation.is_none() {
            return Err(stale(
                "input to a desktop program must name the observation it was decided on \
                 (--observation N, the latest) or act on its refs; nothing was sent: observe \
                 first"
                    .into(),
            ));
        }
        self.check_binding().await?;
        let durable = self.prove_refs(&refs).await?;
        let step = statement::replace_refs(&step, &durable)?;
        // The statement as a suite will hold it, admitted as a desktop step (a browser-only
        // target such as css is refused here, before anything is sent).
        let written = statement::replace_refs_in_source(source, &durable);
        let labelled = statement::with_label(&written, &label);
        promote::scenario_source(&self.file.id, &[labelled])?;
        gates::budgets(&self.file, &self.artifacts)?;
        self.end_observation();
        self.file.actions += 1;
        let deadline = self.turn_deadline();
        let outcome = self.run_step(turn, &step, deadline).await;
        let view = exec.then_observe.as_ref();
        let output = match outcome {
            Ok(output) => output,
            Err(f) => {
                let e = answer::step_failed(f, source, &[]);
                let seen = self.observe_after(view, input).await;
                return Err(e.with_observation(seen));
            }
        };
        let mut output = output;
        if matches!(step.action, Action::Screenshot { .. }) {
            output.detail = Some(self.bind_shot().await?);
        }
        let resolved: Vec<(String, Target)> = durable.into_iter().collect();
        self.file.steps.push(StepRecord {
            turn,
            statement: source.to_string(),
            resolved: resolved.clone(),
            navigated: None,
            private: None,
        });
        let executed = Executed {
            turn,
            step: step.action.kind(),
            status: "passed".into(),
            resolved: resolved
                .iter()
                .map(|(r, t)| Resolved {
                    reference: r.clone(),
                    target: statement::print_target(t),
                })
                .collect(),
            evidence: output.evidence,
            detail: output.detail,
            url: String::new(),
            untrusted: true,
            next: Some(format!("a3s-test agent observe --session {}", self.file.id)),
            blocked_requests: Vec::new(),
            observation: None,
            observation_error: None,
        };
        Ok(executed.with_observation(self.observe_after(view, input).await))
    }

    async fn observe_after(
        &mut self,
        view: Option<&ViewRequest>,
        after_input: bool,
    ) -> Option<Result<Observation, SessionError>> {
        let view = view?;
        let deadline = self.turn_deadline();
        Some(self.observe(view, after_input, deadline).await)
    }

    /// Stop the program and the desktop and verify the program's group is gone.
    async fn shutdown(&mut self) -> Vec<String> {
        let pgid = self.file.ownership.browser_pgid;
        crate::session::turn::shutdown(self.ctx.take(), &self.driver, pgid).await
    }
}

impl<D: DesktopAgentDriver> Served for DesktopEngine<D> {
    fn file(&self) -> &SessionFile {
        &self.file
    }

    fn dir(&self) -> &Dir {
        &self.dir
    }

    async fn handle(&mut self, request: Request) -> Envelope<Replied> {
        crate::session::turn::handle(self, request).await
    }

    async fn close(
        &mut self,
        state: SessionState,
        status: &str,
        summary: Option<String>,
    ) -> Result<Closing, SessionError> {
        crate::session::turn::close(self, state, status, summary).await
    }
}

impl<D: DesktopAgentDriver> ProgramTurns for DesktopEngine<D> {
    const DRIVES: &'static str = "a desktop program (observe, exec and the verbs click, fill, type, press, check, uncheck, screenshot)";

    fn parts(&mut self) -> (&mut SessionFile, &Dir) {
        (&mut self.file, &self.dir)
    }

    async fn turn_observe(&mut self, view: &ViewRequest) -> Result<Observation, SessionError> {
        let deadline = self.turn_deadline();
        self.observe(view, false, deadline).await
    }

    fn admit_view(view: &ViewRequest) -> Result<(), SessionError> {
        admit_view(view)
    }

    fn end_observation(&mut self) {
        DesktopEngine::end_observation(self)
    }

    async fn turn_exec(&mut self, turn: u64, exec: &Exec) -> Result<Executed, SessionError> {
        self.exec(turn, exec).await
    }

    async fn turn_shutdown(&mut self) -> Vec<String> {
        self.shutdown().await
    }
}
