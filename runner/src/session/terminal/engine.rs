//! The terminal session engine inside the supervisor: one program on its own pseudoterminal,
//! driven one statement at a time through the same step runner as suites ([`crate::step`]),
//! generic over the terminal agent contract ([`TerminalAgentDriver`]) — the concrete driver comes
//! from the launcher the supervisor process was started with.
//!
//! A turn is an observation (the screen, numbered, [`super::view`]) or one statement admitted by
//! `lang` as a terminal step (`admit_statement_on(…, Surface::Tui)`), passed through the gates
//! in order — schema → capability → the screen binding ([`super::gate`]) → budgets — and only
//! then sent. Requests that need a page (inspect, repair reads) are refused with
//! `test.session.capability`.

use super::gate;
use super::view::ScreenHistory;
use crate::cancel::CancelToken;
use crate::executor::DriverLauncher;
use crate::session::code::{SessionCode, SessionError};
use crate::session::file::{now_ms, ObservationRecord, SessionFile, SessionState, StepRecord};
use crate::session::protocol::{Envelope, Exec, Replied, Request};
use crate::session::reply::{Closing, Executed};
use crate::session::supervisor::Served;
use crate::session::turn::ProgramTurns;
use crate::session::view::{Observation, ViewRequest};
use crate::session::{answer, gates};
use a3s_test_driver::{StepFailure, StepOutput, TerminalAgentContext, TerminalAgentDriver};
use a3s_test_fsroot::Dir;
use a3s_test_lang::ir::{Step, Surface};
use std::path::PathBuf;
use std::time::Duration;
use tokio::time::Instant;

/// The most one turn may take.
pub const TURN_BOUND: Duration = Duration::from_secs(60);
/// How long an `expect` waits unless the statement says (as on the Web).
pub const EXPECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long the program may take to start.
pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);
/// Bound on capturing failure evidence after a failed step.
pub const EVIDENCE_BOUND: Duration = Duration::from_secs(5);
/// The quiet period an observation waits for unless `--settle-ms` says: long enough for a
/// program's answer to a key to arrive in one piece, short enough for a turn to stay quick.
pub const DEFAULT_QUIET: Duration = Duration::from_millis(15);
/// The least an observation's settle wait may take in all (four quiet periods, at least this).
pub const MIN_SETTLE_CAP: Duration = Duration::from_millis(250);
/// The most an observation's settle wait may take in all.
pub const MAX_SETTLE_CAP: Duration = Duration::from_secs(10);
/// The most an observation waits for every byte already written to reach the screen.
pub const DRAIN_BOUND: Duration = Duration::from_secs(2);

/// The view options a terminal observation can honour: the bounds every view has, and no
/// `scope` (a screen has no refs or outline lines to start at).
fn admit_view(request: &ViewRequest) -> Result<(), SessionError> {
    request
        .validate()
        .map_err(|m| SessionError::new(SessionCode::InvalidInput, m))?;
    if request.scope.is_some() {
        return Err(SessionError::new(
            SessionCode::InvalidInput,
            "a terminal observation has no refs or outline lines to start at: leave out scope \
             (since N for the rows that changed, max_bytes or full for more)",
        ));
    }
    Ok(())
}

/// A running terminal session.
pub struct TerminalEngine<D: TerminalAgentDriver> {
    dir: Dir,
    artifacts: Dir,
    root: PathBuf,
    /// The session record (saved after every turn).
    pub file: SessionFile,
    driver: D,
    ctx: Option<D::Context>,
    /// Never fired: a turn is bounded by its deadline.
    cancel: CancelToken,
    history: ScreenHistory,
}

impl<D: TerminalAgentDriver> TerminalEngine<D> {
    /// Launch the driver through `launcher`, start the program on its terminal and mark the
    /// session active. The record in `dir` is the one the CLI wrote (state `starting`).
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
                surface: Surface::Tui,
                host: "terminal",
                launch_timeout: LAUNCH_TIMEOUT,
            },
            |file| {
                file.terminal
                    .as_ref()
                    .map(|p| p.display())
                    .unwrap_or_default()
            },
            |ctx| ctx.program_process(),
        )
        .await?;
        Ok(TerminalEngine {
            dir,
            artifacts: started.artifacts,
            root,
            file: started.file,
            driver: started.driver,
            ctx: Some(started.ctx),
            cancel: CancelToken::new(),
            history: ScreenHistory::default(),
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

    /// Observe the screen: wait for it to go quiet (after input: first for the program to
    /// react to `after`, the revision before it), read it with every byte already written on
    /// it, number the observation and shape the view.
    async fn observe(
        &mut self,
        request: &ViewRequest,
        after: Option<u64>,
        deadline: Instant,
    ) -> Result<Observation, SessionError> {
        admit_view(request)?;
        let quiet = request
            .settle_ms
            .map_or(DEFAULT_QUIET, Duration::from_millis);
        let cap = (quiet * 4).clamp(MIN_SETTLE_CAP, MAX_SETTLE_CAP);
        let ctx = self.ctx()?;
        let settled = ctx.settle(after, quiet, cap, deadline).await;
        let screen = ctx.screen(deadline.min(Instant::now() + DRAIN_BOUND)).await;
        let id = self.file.next_observation;
        self.file.next_observation += 1;
        let mut observation = Observation {
            observation: id,
            url: String::new(),
            untrusted: true,
            ref_count: 0,
            since: None,
            cannot_diff: None,
            scope: None,
            lines: Vec::new(),
            changes: Vec::new(),
            truncated: false,
            truncation: None,
            settle: None,
            page_context: None,
            ui: None,
            inspection: None,
            blocked_requests: Vec::new(),
            screen: None,
            next: None,
        };
        let shown = request.settle_ms.is_some() || !settled.settled;
        let view = self.history.view(
            id,
            &screen,
            shown.then_some(settled),
            request,
            &mut observation,
        );
        observation.screen = Some(view);
        self.file.latest = Some(ObservationRecord {
            id,
            url: String::new(),
            loader_id: String::new(),
            open: true,
        });
        self.file.screen_revision = Some(screen.revision);
        observation.next = Some(match screen.exit {
            Some(_) => format!(
                "a3s-test agent finish --session {} --status passed --summary '…'",
                self.file.id
            ),
            None => format!(
                "a3s-test agent type --session {} --observation {id} TEXT",
                self.file.id
            ),
        });
        Ok(observation)
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

    /// Admit, gate and run one statement; with `then_observe`, answer with the screen after it
    /// (taken once the program reacted and went quiet).
    async fn exec(&mut self, turn: u64, exec: &Exec) -> Result<Executed, SessionError> {
        // A view the session cannot give refuses the statement before it runs.
        if let Some(view) = &exec.then_observe {
            admit_view(view)?;
        }
        let source = exec.statement.as_str();
        let step = a3s_test_lang::admit_statement_on(source, Surface::Tui)
            .map_err(gates::refused_statement)?;
        gates::capability(&step, self.driver.capabilities())?;
        let deadline = self.turn_deadline();
        let input = gate::is_input(&step);
        // The screen now, with every byte already written on it: the binding compares it with
        // the observation the statement names, before anything is sent.
        let before = self
            .ctx()?
            .screen(deadline.min(Instant::now() + DRAIN_BOUND))
            .await;
        gate::screen_binding(&self.file, exec.observation, input, before.revision)?;
        gates::budgets(&self.file, &self.artifacts)?;
        self.end_observation();
        self.file.actions += 1;
        let outcome = self.run_step(turn, &step, deadline).await;
        let view = exec.then_observe.as_ref();
        let after = input.then_some(before.revision);
        let output = match outcome {
            Ok(output) => output,
            Err(f) => {
                let e = answer::step_failed(f, source, &[]);
                let seen = self.observe_after(view, after).await;
                return Err(e.with_observation(seen));
            }
        };
        self.file.steps.push(StepRecord {
            turn,
            statement: source.to_string(),
            resolved: Vec::new(),
            navigated: None,
            private: None,
        });
        let executed = Executed {
            turn,
            step: step.action.kind(),
            status: "passed".into(),
            resolved: Vec::new(),
            evidence: output.evidence,
            detail: output.detail,
            url: String::new(),
            untrusted: true,
            next: Some(format!("a3s-test agent observe --session {}", self.file.id)),
            blocked_requests: Vec::new(),
            observation: None,
            observation_error: None,
        };
        Ok(executed.with_observation(self.observe_after(view, after).await))
    }

    /// The observation an action answers with, when asked (`after`: the revision before the
    /// input, so the program's reaction is waited for).
    async fn observe_after(
        &mut self,
        view: Option<&ViewRequest>,
        after: Option<u64>,
    ) -> Option<Result<Observation, SessionError>> {
        let view = view?;
        let deadline = self.turn_deadline();
        Some(self.observe(view, after, deadline).await)
    }

    /// Stop the program's group and verify it is gone.
    async fn shutdown(&mut self) -> Vec<String> {
        let pgid = self.file.ownership.browser_pgid;
        crate::session::turn::shutdown(self.ctx.take(), &self.driver, pgid).await
    }
}

impl<D: TerminalAgentDriver> Served for TerminalEngine<D> {
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

impl<D: TerminalAgentDriver> ProgramTurns for TerminalEngine<D> {
    const DRIVES: &'static str =
        "a terminal program (observe, exec and the terminal verbs type, press, paste and resize)";

    fn parts(&mut self) -> (&mut SessionFile, &Dir) {
        (&mut self.file, &self.dir)
    }

    async fn turn_observe(&mut self, view: &ViewRequest) -> Result<Observation, SessionError> {
        let deadline = self.turn_deadline();
        self.observe(view, None, deadline).await
    }

    fn admit_view(view: &ViewRequest) -> Result<(), SessionError> {
        admit_view(view)
    }

    fn end_observation(&mut self) {
        TerminalEngine::end_observation(self)
    }

    async fn turn_exec(&mut self, turn: u64, exec: &Exec) -> Result<Executed, SessionError> {
        self.exec(turn, exec).await
    }

    async fn turn_shutdown(&mut self) -> Vec<String> {
        self.shutdown().await
    }
}

#[cfg(test)]
mod tests;
