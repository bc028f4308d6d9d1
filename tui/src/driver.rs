//! The terminal surface behind the driver contract: [`TuiDriver`] implements `SurfaceDriver` and
//! [`TuiContext`] `SurfaceContext`, so the runner runs `surface = "tui"` scenarios exactly as it
//! runs web ones — dispatch, deadlines, failure evidence, close — without naming this type.
//!
//! - **One fresh program per scenario**: `new_context` starts the program on its own
//!   pseudoterminal (own session and process group, parent-death signal); `close` stops the
//!   group and reaps it. Nothing is shared between scenarios.
//! - **Waits are the engine's**: `wait` and `expect` are [`Terminal::wait_for`] (woken by output
//!   and exit events, the deadline the only timer). Terminal steps are [`Action::Terminal`], so
//!   the runner hands them to `execute` with the step's deadline instead of reading them through
//!   `check` — the engine already waits event-driven, and a retry loop over it would only add
//!   latency.
//! - **Deadlines say who ran out**: a `wait` holds until the scenario deadline, and running into
//!   it is `test.run.timeout` (exit 124, as on the web); an `expect` waits for its expect timeout
//!   and fails with the `test.assert.*` code of its condition — unless the scenario deadline came
//!   first, which is again `test.run.timeout`.
//! - **Evidence** after a failure: the screen as styled text, an SVG screenshot, the asciicast
//!   recording and the program's exit status, each a file in the failure folder.

use crate::error::{TuiCode, TuiError};
use crate::screen::Screen;
use crate::size::TerminalSize;
use crate::terminal::{Terminal, TerminalOptions};
use crate::wait::Condition;
use crate::ProgramSpec;
use a3s_test_driver::save_evidence;
use a3s_test_driver::{
    Capabilities, ConditionSample, ContextOptions, DriverError, EvidenceKind, FailureCode,
    FailureEvidence, MissingEvidence, StepEnv, StepFailure, StepOutput, SurfaceContext,
    SurfaceDriver, Waited,
};
use a3s_test_lang::ir::{
    Action, ExpectCondition, ScreenMatch, Step, Surface, TerminalCondition, TerminalStep,
    TERMINAL_STEPS,
};
use std::sync::Arc;
use tokio::time::Instant;

/// Most characters of a screen a failure message or `last_seen` quotes.
const MAX_SEEN_CHARS: usize = 2_000;

impl From<TuiCode> for FailureCode {
    fn from(code: TuiCode) -> FailureCode {
        match code {
            TuiCode::ProgramNotFound => FailureCode::TuiProgramNotFound,
            TuiCode::WorkingDirectory => FailureCode::TuiWorkingDirectory,
            TuiCode::SpawnFailed => FailureCode::TuiSpawnFailed,
            TuiCode::ExitedEarly => FailureCode::TuiExitedEarly,
            TuiCode::OutputBudget => FailureCode::TuiOutputBudget,
            TuiCode::WaitTimeout => FailureCode::TuiWaitTimeout,
            TuiCode::BadKey => FailureCode::TuiBadKey,
            TuiCode::BadSize => FailureCode::TuiBadSize,
            TuiCode::NotRunning => FailureCode::TuiNotRunning,
            TuiCode::InputBlocked => FailureCode::TuiInputBlocked,
            TuiCode::Io => FailureCode::TuiIo,
        }
    }
}

/// An engine error as a step failure with its `test.driver.tui.*` code; a wait's last screen
/// goes into `waited`.
fn failure(error: TuiError, started: Instant) -> StepFailure {
    let seen = match &error {
        TuiError::ExitedEarly { screen, .. } | TuiError::WaitTimeout { screen, .. } => {
            Some(last_seen(screen))
        }
        _ => None,
    };
    let mut f = StepFailure::new(error.code().into(), error.to_string());
    f.waited = seen.map(|last_seen| Waited {
        waited_ms: started.elapsed().as_millis() as u64,
        last_seen,
    });
    f
}

fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(MAX_SEEN_CHARS).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// Runs terminal scenarios: the program every scenario starts, and how its terminal is set up.
#[derive(Debug, Clone)]
pub struct TuiDriver {
    program: ProgramSpec,
    options: TerminalOptions,
    capabilities: Capabilities,
}

impl TuiDriver {
    /// A driver that starts `program` on a terminal set up by `options` for each scenario.
    pub fn new(program: ProgramSpec, options: TerminalOptions) -> TuiDriver {
        TuiDriver {
            program,
            options,
            capabilities: capabilities(),
        }
    }
}

/// What the terminal driver executes, known before any program starts (the runner's capability
/// gate runs first).
pub fn capabilities() -> Capabilities {
    Capabilities {
        surface: Surface::Tui,
        steps: TERMINAL_STEPS.iter().copied().collect(),
    }
}

impl SurfaceDriver for TuiDriver {
    type Context = TuiContext;

    fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    async fn new_context(&self, _options: ContextOptions) -> Result<TuiContext, DriverError> {
        let (program, options) = (self.program.clone(), self.options.clone());
        let spawned = tokio::task::spawn_blocking(move || Terminal::spawn(&program, options))
            .await
            .map_err(|e| {
                DriverError::new(
                    FailureCode::TuiSpawnFailed,
                    format!("the program's start failed: {e}"),
                )
            })?;
        let terminal = spawned.map_err(|e| DriverError::new(e.code().into(), e.to_string()))?;
        Ok(TuiContext {
            terminal: Arc::new(terminal),
        })
    }

    /// Every program belongs to its context, which stops it on close (or drop).
    async fn shutdown(&self) -> Result<(), DriverError> {
        Ok(())
    }
}

/// One scenario's program on its own terminal.
#[derive(Debug)]
pub struct TuiContext {
    terminal: Arc<Terminal>,
}

impl TuiContext {
    /// The terminal (for tests and an agent session).
    pub fn terminal(&self) -> &Terminal {
        &self.terminal
    }

    /// Run blocking input (a write may wait for a program that does not read) off the runtime.
    async fn input(
        &self,
        send: impl FnOnce(&Terminal) -> Result<(), TuiError> + Send + 'static,
    ) -> Result<StepOutput, StepFailure> {
        let started = Instant::now();
        let terminal = self.terminal.clone();
        match tokio::task::spawn_blocking(move || send(&terminal)).await {
            Ok(Ok(())) => Ok(StepOutput::default()),
            Ok(Err(e)) => Err(failure(e, started)),
            Err(e) => Err(StepFailure::new(
                FailureCode::TuiIo,
                format!("the input task failed: {e}"),
            )),
        }
    }

    async fn step(
        &mut self,
        step: &TerminalStep,
        label: &str,
        env: &StepEnv<'_>,
    ) -> Result<StepOutput, StepFailure> {
        match step {
            TerminalStep::Wait { condition } => self.wait(condition, env).await,
            TerminalStep::Expect {
                condition,
                timeout_ms,
            } => self.expect(condition, *timeout_ms, env).await,
            TerminalStep::Press { key } => {
                let key = *key;
                self.input(move |t| t.press(key)).await
            }
            TerminalStep::Type { value } => {
                let text = a3s_test_driver::vars::resolve(value, env.vars)?
                    .as_str()
                    .to_string();
                self.input(move |t| t.type_text(&text)).await
            }
            TerminalStep::Paste { text } => {
                let text = text.clone();
                self.input(move |t| t.paste(&text)).await
            }
            TerminalStep::Resize { columns, rows } => {
                let size = TerminalSize::new(u32::from(*columns), u32::from(*rows))
                    .map_err(|e| failure(TuiError::from(e), Instant::now()))?;
                self.input(move |t| t.resize(size)).await
            }
            TerminalStep::Recording { path } => {
                let cast = self.terminal.recording();
                self.save(env, path.as_str(), EvidenceKind::Recording, &cast)
            }
            TerminalStep::Snapshot { path } => {
                let name = path
                    .as_ref()
                    .map(|p| p.as_str().to_string())
                    .unwrap_or(format!("{label}.txt"));
                let text = self.terminal.screen().styled_text();
                self.save(env, &name, EvidenceKind::Screen, &text)
            }
            TerminalStep::Screenshot { path } => {
                let name = path
                    .as_ref()
                    .map(|p| p.as_str().to_string())
                    .unwrap_or(format!("{label}.svg"));
                let svg = self.terminal.svg();
                self.save(env, &name, EvidenceKind::Screenshot, &svg)
            }
        }
    }

    fn save(
        &self,
        env: &StepEnv<'_>,
        relative: &str,
        kind: EvidenceKind,
        text: &str,
    ) -> Result<StepOutput, StepFailure> {
        let file = save_evidence(env.artifact_dir, relative, kind, text.as_bytes())?;
        Ok(StepOutput {
            evidence: vec![file],
            detail: None,
        })
    }

    /// `wait`: until the screen shows it, within the step's deadline (the scenario's).
    async fn wait(
        &self,
        condition: &ScreenMatch,
        env: &StepEnv<'_>,
    ) -> Result<StepOutput, StepFailure> {
        let started = Instant::now();
        let condition = engine_condition(condition)?;
        match self
            .terminal
            .wait_for(&condition, env.deadline.into_std())
            .await
        {
            Ok(_) => Ok(StepOutput::default()),
            Err(TuiError::WaitTimeout {
                awaited, screen, ..
            }) => Err(deadline_failure(env, &awaited, &screen, started)),
            Err(e) => Err(failure(e, started)),
        }
    }

    /// `expect`: until the condition holds, within its expect timeout (capped by the deadline).
    async fn expect(
        &self,
        condition: &TerminalCondition,
        timeout_ms: Option<u64>,
        env: &StepEnv<'_>,
    ) -> Result<StepOutput, StepFailure> {
        let started = Instant::now();
        let timeout = timeout_ms
            .map(std::time::Duration::from_millis)
            .unwrap_or(env.expect_timeout);
        let own = started + timeout;
        let cut = env.deadline < own;
        let until = if cut { env.deadline } else { own };
        let (code, held) = match condition {
            TerminalCondition::Shows(m) => (
                FailureCode::TextMismatch,
                self.terminal
                    .wait_for(&engine_condition(m)?, until.into_std())
                    .await
                    .map(|_| ()),
            ),
            TerminalCondition::NotText { text } => (
                FailureCode::TextMismatch,
                self.terminal
                    .wait_for(&Condition::NotText(text.clone()), until.into_std())
                    .await
                    .map(|_| ()),
            ),
            TerminalCondition::CursorAt { row, column } => {
                let awaited = format!("the cursor at row {row}, column {column}");
                let at = |s: &Screen| {
                    u32::from(s.cursor.row) + 1 == u32::from(*row)
                        && u32::from(s.cursor.column) + 1 == u32::from(*column)
                };
                (
                    FailureCode::CursorMismatch,
                    self.terminal
                        .wait_until(at, &awaited, until.into_std())
                        .await
                        .map(|_| ()),
                )
            }
            TerminalCondition::ExitCode { code } => {
                match self.terminal.wait_exit(until.into_std()).await {
                    Ok(crate::ProgramExit::Code(c)) if c == *code => {
                        (FailureCode::ExitCodeMismatch, Ok(()))
                    }
                    Ok(other) => {
                        return Err(StepFailure::new(
                            FailureCode::ExitCodeMismatch,
                            format!(
                            "expected the program to exit with code {code}; it ended with {other}"
                        ),
                        ))
                    }
                    Err(e) => (FailureCode::ExitCodeMismatch, Err(e)),
                }
            }
        };
        match held {
            Ok(()) => Ok(StepOutput::default()),
            Err(TuiError::WaitTimeout {
                awaited, screen, ..
            }) if cut => Err(deadline_failure(env, &awaited, &screen, started)),
            Err(TuiError::WaitTimeout {
                awaited, screen, ..
            }) => {
                let mut f = StepFailure::new(
                    code,
                    format!(
                        "expected {awaited} within {} ms; it did not happen",
                        timeout.as_millis()
                    ),
                );
                f.waited = Some(Waited {
                    waited_ms: started.elapsed().as_millis() as u64,
                    last_seen: last_seen(&screen),
                });
                Err(f)
            }
            // The screen of an ended program no longer changes: the expectation failed.
            Err(TuiError::ExitedEarly {
                exit,
                awaited,
                screen,
            }) => {
                let mut f = StepFailure::new(
                    code,
                    format!("expected {awaited}; the program ended ({exit}) without it"),
                );
                f.waited = Some(Waited {
                    waited_ms: started.elapsed().as_millis() as u64,
                    last_seen: last_seen(&screen),
                });
                Err(f)
            }
            Err(e) => Err(failure(e, started)),
        }
    }
}

/// What the last screen showed, for a failure's `last_seen`: its text and the cursor.
fn last_seen(screen: &Screen) -> String {
    clip(&format!(
        "{}\n(cursor at row {}, column {})",
        screen.text().trim_end_matches('\n'),
        screen.cursor.row + 1,
        screen.cursor.column + 1
    ))
}

/// The deadline of the step (the scenario's) passed while waiting: `test.run.timeout`.
fn deadline_failure(
    env: &StepEnv<'_>,
    awaited: &str,
    screen: &Screen,
    started: Instant,
) -> StepFailure {
    let mut f = StepFailure::new(
        FailureCode::Timeout,
        format!(
            "the {} deadline passed while waiting for {awaited}",
            env.deadline_name
        ),
    );
    f.waited = Some(Waited {
        waited_ms: started.elapsed().as_millis() as u64,
        last_seen: last_seen(screen),
    });
    f
}

/// The engine's condition for an admitted screen match (its regex was compiled at admission).
fn engine_condition(m: &ScreenMatch) -> Result<Condition, StepFailure> {
    match m {
        ScreenMatch::Text { text } => Ok(Condition::Text(text.clone())),
        ScreenMatch::Regex { regex } => {
            regex::Regex::new(regex).map(Condition::Regex).map_err(|e| {
                StepFailure::new(
                    FailureCode::Unsupported,
                    format!("`{regex}` is not a regular expression: {e}"),
                )
            })
        }
    }
}

impl SurfaceContext for TuiContext {
    async fn execute(&mut self, step: &Step, env: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        match &step.action {
            Action::Terminal(terminal) => {
                let label = step.label.as_deref().unwrap_or("screen").to_string();
                self.step(terminal, &label, env).await
            }
            other => Err(StepFailure::new(
                FailureCode::Unsupported,
                format!("a terminal cannot run a browser `{}` step", other.kind()),
            )),
        }
    }

    /// Page conditions have no meaning on a terminal; terminal `expect`s run in `execute`.
    async fn check(
        &mut self,
        _condition: &ExpectCondition,
        _watch: Option<std::time::Duration>,
        _env: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        Err(StepFailure::new(
            FailureCode::Unsupported,
            "a terminal has no page conditions",
        ))
    }

    /// A terminal has no page to capture: snapshot expectations are web-only (admission refuses
    /// them in terminal scenarios; this answers any that reach a terminal anyway).
    async fn capture(
        &mut self,
        _request: a3s_test_driver::snapshot::CaptureRequest<'_>,
        _env: &StepEnv<'_>,
    ) -> Result<a3s_test_driver::snapshot::Captured, StepFailure> {
        Err(StepFailure::new(
            FailureCode::Unsupported,
            "a terminal has no page to capture for a snapshot expectation",
        ))
    }

    async fn capture_failure_evidence(
        &mut self,
        dir: &a3s_test_fsroot::Dir,
        _deadline: Instant,
    ) -> FailureEvidence {
        let screen = self.terminal.screen();
        let exit = match self.terminal.exit_status() {
            Some(exit) => format!("{exit}\n"),
            None => "running\n".to_string(),
        };
        let files = [
            (EvidenceKind::Screen, "screen.txt", screen.styled_text()),
            (
                EvidenceKind::Screenshot,
                "screenshot.svg",
                crate::svg::render(&screen),
            ),
            (
                EvidenceKind::Recording,
                "recording.cast",
                self.terminal.recording(),
            ),
            (EvidenceKind::ExitStatus, "exit-status.txt", exit),
        ];
        let mut evidence = FailureEvidence::default();
        for (kind, name, text) in files {
            match save_evidence(dir, name, kind, text.as_bytes()) {
                Ok(file) => evidence.files.push(file),
                Err(e) => evidence.missing.push(MissingEvidence {
                    kind,
                    reason: e.message,
                }),
            }
        }
        evidence
    }

    /// A terminal has no cookies or storage: a `storage_state` on a terminal scenario is
    /// refused, never ignored.
    async fn load_storage_state(
        &mut self,
        _state: &a3s_test_driver::storage_state::StorageState,
        _deadline: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            a3s_test_driver::FailureCode::Unsupported,
            "a terminal has no cookies or storage to load a storage state into",
        ))
    }

    /// A terminal has no browser context: context options on a terminal scenario are refused,
    /// never ignored.
    async fn apply_context(
        &mut self,
        _settings: &a3s_test_lang::ir::ContextSettings,
        _vars: &dyn a3s_test_driver::vars::VarSource,
        _deadline: tokio::time::Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            a3s_test_driver::FailureCode::Unsupported,
            "a terminal has no browser context to apply context options (locale, device, clock …) to",
        ))
    }

    async fn close(self) -> Result<(), DriverError> {
        let terminal = self.terminal;
        tokio::task::spawn_blocking(move || terminal.kill())
            .await
            .map_err(|e| {
                DriverError::new(
                    FailureCode::CleanupFailed,
                    format!("stopping the program failed: {e}"),
                )
            })
    }
}
