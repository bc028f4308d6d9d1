//! The desktop surface behind the driver contract: [`GuiDriver`] implements `SurfaceDriver` and
//! [`GuiContext`] `SurfaceContext`, so the runner runs `surface = "gui"` scenarios as it runs web
//! and terminal ones — dispatch, deadlines, the retry loop of `expect`/`wait`, failure evidence,
//! close — without naming this type.
//!
//! - **One fresh desktop and program per scenario** (`crate::host` says why); with
//!   `--gui-display` the desktop is someone else's and only the program is started and stopped.
//! - **Steps are real input**: XTest events at the element's visible centre after the hit test,
//!   keys into its window, wheel clicks for `wheel` (the desktop's scroll, `crate::scroll`); the
//!   step detail says the path (`xtest`). `fill` clicks into the
//!   control, selects all (`ctrl+a`) and types; `check`/`uncheck` click only when the state
//!   differs and then wait, event-woken, for the new state; `select` clicks a combo box open and
//!   its option, or a list's rows (Control+click after the first), and reads the choice back
//!   (`crate::select`). Only a `click { via = "action" }` performs the element's accessibility
//!   action instead (`crate::action`), and its detail says so (`accessibility_action`).
//! - **A click that ends the program succeeds** (an OK that closes the last window) and records
//!   how it ended; a program or window already gone *before* a step is `window_gone`.
//! - **Readings, not loops**: `check` reads a condition once; when it does not hold and the runner
//!   asks to watch, it answers at the program's next AT-SPI object event (subscribed before the
//!   reading) or when the watch passes.
//! - **Evidence** after a failure: a PNG of the program's window (`GetImage`), the accessibility
//!   tree as text and the program's exit status.

use crate::ancestry::Ancestry;
use crate::app::App;
use crate::element::Element;
use crate::error::{GuiCode, GuiError};
use crate::focus::{Focused, Focusing};
use crate::host::Host;
use crate::input::{Acted, Clicks, Input};
use crate::keys::Chord;
use crate::locate;
use crate::program::{Program, ProgramSpec};
use crate::reads::{self, Changes};
use crate::tree::Node;
use a3s_test_driver::detail::StepDetail;
use a3s_test_driver::{
    save_evidence, Capabilities, ConditionSample, ContextOptions, DriverError, EvidenceKind,
    FailureCode, FailureEvidence, MissingEvidence, StepEnv, StepFailure, StepOutput,
    SurfaceContext, SurfaceDriver,
};
use a3s_test_lang::ir::{
    Action, ExpectCondition, InputVia, KeyChord, Modifier, PageCondition, Step, Surface, Target,
    GUI_STEPS,
};
use atspi::State;
use serde_json::json;
use std::time::Duration;
use tokio::time::Instant;

impl From<GuiCode> for FailureCode {
    fn from(code: GuiCode) -> FailureCode {
        match code {
            GuiCode::DesktopMissing => FailureCode::GuiDesktopMissing,
            GuiCode::DesktopFailed => FailureCode::GuiDesktopFailed,
            GuiCode::ProgramNotFound => FailureCode::GuiProgramNotFound,
            GuiCode::WorkingDirectory => FailureCode::GuiWorkingDirectory,
            GuiCode::SpawnFailed => FailureCode::GuiSpawnFailed,
            GuiCode::ExitedEarly => FailureCode::GuiExitedEarly,
            GuiCode::NotAccessible => FailureCode::GuiNotAccessible,
            GuiCode::Bus => FailureCode::GuiBus,
            GuiCode::UnknownRole => FailureCode::GuiUnknownRole,
            GuiCode::TargetNotFound => FailureCode::GuiTargetNotFound,
            GuiCode::TargetAmbiguous => FailureCode::GuiTargetAmbiguous,
            GuiCode::TargetNotVisible => FailureCode::GuiTargetNotVisible,
            GuiCode::TargetCovered => FailureCode::GuiTargetCovered,
            GuiCode::WindowGone => FailureCode::GuiWindowGone,
            GuiCode::OptionNotFound => FailureCode::GuiOptionNotFound,
            GuiCode::NotSelectable => FailureCode::GuiNotSelectable,
            GuiCode::SelectionUnchanged => FailureCode::GuiSelectionUnchanged,
            GuiCode::ActionMissing => FailureCode::GuiActionMissing,
            GuiCode::BadKey => FailureCode::GuiBadKey,
            GuiCode::KeyUnmapped => FailureCode::GuiKeyUnmapped,
            GuiCode::WaitTimeout => FailureCode::GuiWaitTimeout,
            GuiCode::NotFocusable => FailureCode::GuiNotFocusable,
            GuiCode::X11 => FailureCode::GuiX11,
            GuiCode::BadTarget => FailureCode::GuiBadTarget,
        }
    }
}

/// A desktop error as a step failure with its `test.driver.gui.*` code.
fn failure(error: GuiError) -> StepFailure {
    StepFailure::new(error.code().into(), error.to_string())
}

/// A desktop error as a step failure; an element that never became ready for its input names
/// the step's action timeout it waited for, so the fix is clear.
fn not_actionable(error: GuiError, timeout: Duration) -> StepFailure {
    match error {
        GuiError::NotActionable {
            ref target,
            condition,
            ..
        } => StepFailure::new(
            error.code().into(),
            format!(
                "{target} was not {condition} within the step's action timeout ({} ms), so \
                 nothing was sent; hint: {}",
                timeout.as_millis(),
                crate::error::NOT_ACTIONABLE_HINT
            ),
        ),
        error => failure(error),
    }
}

/// Record in a press's detail the default button it waited for (`crate::default_button`).
fn with_default_button(detail: &mut StepDetail, button: Option<String>) {
    if let StepDetail::Desktop { default_button, .. } = detail {
        *default_button = button;
    }
}

/// What every scenario starts: the program, the screen, and whose desktop.
#[derive(Debug, Clone)]
pub struct GuiOptions {
    /// The program (argument vector, folder, variables).
    pub program: ProgramSpec,
    /// Screen width of an owned desktop (default 1280).
    pub width: u16,
    /// Screen height of an owned desktop (default 800).
    pub height: u16,
    /// `:N` to attach to an existing X server and accessibility bus instead of owning one.
    pub display: Option<String>,
}

/// Runs desktop scenarios (see the module doc).
#[derive(Debug, Clone)]
pub struct GuiDriver {
    options: GuiOptions,
    capabilities: Capabilities,
}

impl GuiDriver {
    /// A driver that starts `options.program` on a desktop for each scenario.
    pub fn new(options: GuiOptions) -> GuiDriver {
        GuiDriver {
            options,
            capabilities: capabilities(),
        }
    }
}

/// What the desktop driver executes, known before any desktop starts.
pub fn capabilities() -> Capabilities {
    Capabilities {
        surface: Surface::Gui,
        steps: GUI_STEPS.iter().copied().collect(),
    }
}

impl SurfaceDriver for GuiDriver {
    type Context = GuiContext;

    fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    async fn new_context(&self, _options: ContextOptions) -> Result<GuiContext, DriverError> {
        let o = self.options.clone();
        let error = |e: GuiError| DriverError::new(e.code().into(), e.to_string());
        // The start-up's readiness polls are not `Send` futures (async closures), so they run
        // on a blocking thread driven by this runtime; the context they build is `Send`.
        let runtime = tokio::runtime::Handle::current();
        let started = tokio::task::spawn_blocking(move || {
            runtime.block_on(async move {
                let host = Host::open(o.display.as_deref(), o.width, o.height).await?;
                let program = match host.start_program(&o.program).await {
                    Ok(program) => program,
                    Err(e) => {
                        host.shutdown();
                        return Err(e);
                    }
                };
                let input = host.input()?;
                Ok::<_, GuiError>(GuiContext {
                    host: Some(host),
                    program: Some(program),
                    input,
                })
            })
        })
        .await
        .map_err(|e| {
            DriverError::new(
                FailureCode::GuiSpawnFailed,
                format!("the desktop's start failed: {e}"),
            )
        })?;
        started.map_err(error)
    }

    /// Every desktop and program belongs to its context, which stops them on close (or drop).
    async fn shutdown(&self) -> Result<(), DriverError> {
        Ok(())
    }
}

/// One scenario's program on its desktop.
#[derive(Debug)]
pub struct GuiContext {
    // Options so `close` can move them to a blocking stop; always `Some` until then.
    program: Option<Program>,
    host: Option<Host>,
    input: Input,
}

impl GuiContext {
    fn program(&self) -> &Program {
        self.program
            .as_ref()
            .expect("the program lives until close")
    }

    fn a11y(&self) -> &zbus::Connection {
        self.host
            .as_ref()
            .expect("the host lives until close")
            .a11y()
    }

    /// The program as finds and reads reach it (its toolkit asked once, on the first call;
    /// finds answered from the reads the host keeps).
    async fn app(&self) -> App<'_> {
        self.host
            .as_ref()
            .expect("the host lives until close")
            .app(self.program())
            .await
            .with_x11(self.input.x11(), self.program().pgid())
    }

    /// The program's top-level windows (the application root's children).
    async fn windows(&self) -> Result<Vec<Element>, GuiError> {
        let program = self.program();
        let nodes = crate::tree::top_levels(self.a11y(), program.bus_name()).await?;
        Ok(nodes
            .iter()
            .filter(|n| n.depth == 1)
            .map(|n: &Node| Element {
                bus_name: program.bus_name().to_owned(),
                path: n.path.clone(),
                role: n.role,
                name: n.name.clone(),
            })
            .collect())
    }

    /// The program's first window (where keys without a target go, and a wheel without one).
    async fn first_window(&self) -> Result<Element, StepFailure> {
        self.windows()
            .await
            .map_err(failure)?
            .into_iter()
            .next()
            .ok_or_else(|| {
                StepFailure::new(FailureCode::GuiWindowGone, "the program has no window")
            })
    }

    /// Before a step acts: the program runs and shows a window, else `window_gone`.
    async fn alive(&self, what: &str) -> Result<(), StepFailure> {
        let gone = |why: String| {
            StepFailure::new(
                FailureCode::GuiWindowGone,
                format!("{why} before this step ({what}) acted; hint: did a step before close it?"),
            )
        };
        if let Some(exit) = self.program().exit() {
            return Err(gone(format!("the program ended ({exit})")));
        }
        match self.windows().await {
            Ok(windows) if windows.is_empty() => Err(gone("the program has no window".into())),
            Ok(_) => Ok(()),
            // The program left the bus between the two reads: it is ending.
            Err(_) if self.program().exit().is_some() => Err(gone(format!(
                "the program ended ({})",
                self.program()
                    .exit()
                    .map(|e| e.to_string())
                    .unwrap_or_default()
            ))),
            Err(e) => Err(failure(e)),
        }
    }

    /// The one element `target` names, waiting (event-woken) up to the action timeout while
    /// there is none yet; several, or none at the end, are coded failures.
    async fn find(&self, target: &Target, env: &StepEnv<'_>) -> Result<Element, StepFailure> {
        Ok(self.find_in(target, env).await?.0)
    }

    /// [`GuiContext::find`], and the ancestry of the tree read that found it (a click on it
    /// proves its hit test from that read).
    async fn find_in(
        &self,
        target: &Target,
        env: &StepEnv<'_>,
    ) -> Result<(Element, Ancestry), StepFailure> {
        let (until, _) = Self::until(env);
        let bus = self.program().bus_name().to_owned();
        let mut changes = Changes::watch(self.a11y(), &bus).await.map_err(failure)?;
        loop {
            match locate::one_in(self.app().await, target).await {
                Ok(found) => return Ok(found),
                // Not there yet, the program busy past a call's bound, or an object removed
                // while the walk was between it and its parent: ask again.
                Err(e)
                    if matches!(e, GuiError::TargetNotFound { .. })
                        || e.is_call_timeout()
                        || (crate::modal::is_gone(&e) && self.program().exit().is_none()) =>
                {
                    let now = Instant::now();
                    if now >= until {
                        return Err(failure(e));
                    }
                    changes
                        .next((until - now).min(Duration::from_millis(200)))
                        .await;
                }
                Err(e) => return Err(failure(e)),
            }
        }
    }

    /// When a step's waits for its element end: its action timeout, within its deadline; and
    /// that timeout, for messages.
    fn until(env: &StepEnv<'_>) -> (Instant, Duration) {
        (
            (Instant::now() + env.action_timeout).min(env.deadline),
            env.action_timeout,
        )
    }

    /// Click `element` (found with `ancestry`) once it is actionable, waiting until `until`.
    async fn click(
        &self,
        element: &Element,
        ancestry: &Ancestry,
        clicks: Clicks,
        (until, timeout): (Instant, Duration),
    ) -> Result<Acted, StepFailure> {
        self.input
            .click_in(
                self.program(),
                element,
                ancestry,
                clicks,
                until.into_std(),
                &[],
            )
            .await
            .map_err(|e| not_actionable(e, timeout))
    }

    /// Give `element` (found with `ancestry`) the keyboard focus for a key step, once it is
    /// ready for keys (`crate::focus`), waiting until `until`.
    async fn focus(
        &self,
        element: &Element,
        ancestry: &Ancestry,
        focusing: Focusing,
        (until, timeout): (Instant, Duration),
    ) -> Result<Focused, StepFailure> {
        self.input
            .focus_for_keys(
                self.program(),
                element,
                ancestry,
                focusing,
                until.into_std(),
            )
            .await
            .map_err(|e| not_actionable(e, timeout))
    }

    /// Before a bare Enter: when it will press the window's default button (the focus is in a
    /// single-line field), wait until that button is enabled (`crate::default_button`); the
    /// button, described, for the step's detail.
    async fn enter_ready(
        &self,
        chord: &Chord,
        target: Option<&Element>,
        (until, timeout): (Instant, Duration),
    ) -> Result<Option<String>, StepFailure> {
        if !crate::default_button::is_enter(chord) {
            return Ok(None);
        }
        crate::default_button::wait_enabled(
            self.a11y(),
            self.program().bus_name(),
            target,
            until.into_std(),
        )
        .await
        .map(|button| button.map(|b| b.describe()))
        .map_err(|e| not_actionable(e, timeout))
    }

    /// The detail of an input, with the program's exit when the input ended it.
    fn detail(&self, element: &Element, acted: &Acted, keys: Option<usize>) -> StepDetail {
        StepDetail::Desktop {
            element: element.describe(),
            input: "xtest".into(),
            action: None,
            x: acted.hit.as_ref().map(|h| h.x),
            y: acted.hit.as_ref().map(|h| h.y),
            hit: acted.hit.as_ref().map(|h| h.deepest.describe()),
            keys,
            focus: None,
            default_button: None,
            program_exit: self.program().exit().map(|e| e.to_string()),
        }
    }

    /// The detail of a key step: the keys' input, how the target got the focus and, when a
    /// click gave it, that click's point and hit.
    fn key_detail(
        &self,
        element: &Element,
        keys: &Acted,
        count: Option<usize>,
        focused: &Focused,
    ) -> StepDetail {
        let mut detail = self.detail(element, keys, count);
        if let StepDetail::Desktop {
            x, y, hit, focus, ..
        } = &mut detail
        {
            *focus = Some(focused.word().to_owned());
            if let Focused::Click(click) = focused {
                *x = click.hit.as_ref().map(|h| h.x);
                *y = click.hit.as_ref().map(|h| h.y);
                *hit = click.hit.as_ref().map(|h| h.deepest.describe());
            }
        }
        detail
    }

    fn output(detail: StepDetail) -> StepOutput {
        StepOutput {
            evidence: Vec::new(),
            detail: Some(detail),
        }
    }

    /// After an input step: when its input ended the program, the detail says how and the
    /// program's standard output becomes the step's evidence (`program-stdout.txt`).
    async fn act_and_settle(
        &mut self,
        step: &Step,
        env: &StepEnv<'_>,
    ) -> Result<StepOutput, StepFailure> {
        let mut output = self.act(step, env).await?;
        let Some(StepDetail::Desktop { program_exit, .. }) = output.detail.as_mut() else {
            return Ok(output);
        };
        let Some(exit) = crate::ended::after_input(self.a11y(), self.program()).await else {
            return Ok(output);
        };
        *program_exit = Some(exit.to_string());
        let stdout = std::fs::read(self.program().output_dir().join("stdout")).map_err(|e| {
            StepFailure::new(
                FailureCode::EvidenceWrite,
                format!("reading the program's standard output failed: {e}"),
            )
        })?;
        let name = format!("{}-stdout.txt", step.label.as_deref().unwrap_or("program"));
        output.evidence.push(save_evidence(
            env.artifact_dir,
            &name,
            EvidenceKind::ProgramOutput,
            &stdout,
        )?);
        Ok(output)
    }

    async fn act(&mut self, step: &Step, env: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        let kind = step.action.kind();
        self.alive(kind.name()).await?;
        match &step.action {
            Action::Click {
                target,
                via: InputVia::Action,
                action,
                ..
            } => {
                let element = self.find(target, env).await?;
                let performed = crate::action::perform(
                    self.a11y(),
                    self.program(),
                    &element,
                    action.as_deref(),
                )
                .await
                .map_err(failure)?;
                Ok(Self::output(StepDetail::Desktop {
                    element: element.describe(),
                    input: "accessibility_action".into(),
                    action: Some(performed.name),
                    x: None,
                    y: None,
                    hit: None,
                    keys: None,
                    focus: None,
                    default_button: None,
                    program_exit: self.program().exit().map(|e| e.to_string()),
                }))
            }
            Action::Select { target, values } => {
                let control = self.find(target, env).await?;
                let within = env
                    .action_timeout
                    .min(env.deadline.saturating_duration_since(Instant::now()));
                let selected =
                    crate::select::select(&self.input, self.program(), &control, values, within)
                        .await
                        .map_err(failure)?;
                let mut detail = self.detail(&selected.last, &selected.acted, selected.keys);
                if let StepDetail::Desktop { element, .. } = &mut detail {
                    let options: Vec<String> =
                        selected.options.iter().map(Element::describe).collect();
                    *element = format!("{} in {}", options.join(", "), control.describe());
                }
                Ok(Self::output(detail))
            }
            Action::Click { target, .. } | Action::DoubleClick { target, .. } => {
                let clicks = match step.action {
                    Action::Click { .. } => Clicks::Single,
                    _ => Clicks::Double,
                };
                let until = Self::until(env);
                let (element, ancestry) = self.find_in(target, env).await?;
                let acted = self.click(&element, &ancestry, clicks, until).await?;
                Ok(Self::output(self.detail(&element, &acted, None)))
            }
            Action::Fill { target, value } | Action::Type { target, value } => {
                let text = a3s_test_driver::vars::resolve(value, env.vars)?;
                let until = Self::until(env);
                let (element, ancestry) = self.find_in(target, env).await?;
                // A click gives a text field the focus (unless it has it, so `type` keeps its
                // caret).
                let focused = self
                    .focus(&element, &ancestry, Focusing::Click, until)
                    .await?;
                if matches!(step.action, Action::Fill { .. }) {
                    let all = Chord::parse("ctrl+a").map_err(failure)?;
                    self.input
                        .press(self.program(), &element, &all)
                        .await
                        .map_err(failure)?;
                }
                let acted = self
                    .input
                    .type_text(self.program(), &element, text.as_str())
                    .await
                    .map_err(failure)?;
                let keys = Some(text.as_str().chars().count());
                Ok(Self::output(
                    self.key_detail(&element, &acted, keys, &focused),
                ))
            }
            Action::Press { key, target } => {
                let chord = Chord::parse(&chord_text(key)).map_err(failure)?;
                let Some(target) = target else {
                    let window = self.first_window().await?;
                    let button = self.enter_ready(&chord, None, Self::until(env)).await?;
                    let acted = self
                        .input
                        .press(self.program(), &window, &chord)
                        .await
                        .map_err(failure)?;
                    let mut detail = self.detail(&window, &acted, Some(1));
                    with_default_button(&mut detail, button);
                    return Ok(Self::output(detail));
                };
                let until = Self::until(env);
                let (element, ancestry) = self.find_in(target, env).await?;
                // A click would activate a control: the toolkit is asked to focus it.
                let focused = self
                    .focus(&element, &ancestry, Focusing::Request, until)
                    .await?;
                let button = self.enter_ready(&chord, Some(&element), until).await?;
                let acted = self
                    .input
                    .press(self.program(), &element, &chord)
                    .await
                    .map_err(failure)?;
                let mut detail = self.key_detail(&element, &acted, Some(1), &focused);
                with_default_button(&mut detail, button);
                Ok(Self::output(detail))
            }
            Action::Check { target } | Action::Uncheck { target } => {
                let want = matches!(step.action, Action::Check { .. });
                let until = Self::until(env);
                let (element, ancestry) = self.find_in(target, env).await?;
                let states = element.read_states(self.a11y()).await.map_err(failure)?;
                if states.contains(State::Checked) == want {
                    return Ok(Self::output(StepDetail::Checked {
                        element: element.describe(),
                        changed: false,
                        verified: None,
                        hit: None,
                    }));
                }
                let acted = self
                    .click(&element, &ancestry, Clicks::Single, until)
                    .await?;
                let within = env
                    .action_timeout
                    .min(env.deadline.saturating_duration_since(Instant::now()));
                crate::wait::until(
                    self.a11y(),
                    &element,
                    &crate::wait::Condition::State(State::Checked, want),
                    within,
                )
                .await
                .map_err(failure)?;
                Ok(Self::output(self.detail(&element, &acted, None)))
            }
            Action::Wheel {
                delta_x,
                delta_y,
                target,
                ..
            } => {
                let (until, timeout) = Self::until(env);
                let (element, ancestry) = match target {
                    Some(target) => self.find_in(target, env).await?,
                    None => (self.first_window().await?, Ancestry::default()),
                };
                let acted = self
                    .input
                    .scroll(
                        self.program(),
                        &element,
                        &ancestry,
                        (*delta_x, *delta_y),
                        until.into_std(),
                    )
                    .await
                    .map_err(|e| not_actionable(e, timeout))?;
                Ok(Self::output(self.detail(&element, &acted, None)))
            }
            Action::Screenshot { path } => {
                let png = self.window_png().await.map_err(failure)?;
                let file = save_evidence(
                    env.artifact_dir,
                    path.as_str(),
                    EvidenceKind::Screenshot,
                    &png,
                )?;
                Ok(StepOutput {
                    evidence: vec![file],
                    detail: Some(StepDetail::Screenshot { bytes: png.len() }),
                })
            }
            Action::Snapshot { .. } => {
                let text = reads::tree_text(self.app().await).await.map_err(failure)?;
                let name = format!("{}.txt", step.label.as_deref().unwrap_or("snapshot"));
                let file = save_evidence(
                    env.artifact_dir,
                    &name,
                    EvidenceKind::Accessibility,
                    text.as_bytes(),
                )?;
                Ok(StepOutput {
                    evidence: vec![file],
                    detail: None,
                })
            }
            other => Err(StepFailure::new(
                FailureCode::Unsupported,
                format!("a desktop cannot run `{}`", other.kind()),
            )),
        }
    }

    /// A PNG of the program's first window (the whole screen when it shows none).
    async fn window_png(&self) -> Result<Vec<u8>, GuiError> {
        let windows = self.windows().await?;
        let x = self.input.x11();
        let shot = match windows.first() {
            Some(window) => {
                let placement = self.input.locate(self.program(), window).await?;
                crate::screenshot::window(x, placement.window.id)?
            }
            None => crate::screenshot::screen(x)?,
        };
        Ok(shot.png)
    }

    /// One reading of `condition`.
    async fn read(
        &self,
        condition: &ExpectCondition,
        env: &StepEnv<'_>,
    ) -> Result<ConditionSample, GuiError> {
        let a11y = self.a11y();
        let app = self.app().await;
        let fails = |code: FailureCode, seen: String| ConditionSample::Fails { code, seen };
        let one = |target: &Target| {
            let target = target.clone();
            async move { locate::one(app, &target).await }
        };
        Ok(match condition {
            ExpectCondition::Page(PageCondition::Text { text }) => {
                let shown = reads::shown_texts(app).await?;
                let want = locate::collapse(text);
                if shown.iter().any(|t| t.contains(&want)) {
                    ConditionSample::Holds(json!({ "text": want }))
                } else {
                    fails(
                        FailureCode::TextMismatch,
                        format!(
                            "the window does not show {want:?}; it shows {}",
                            clip(&shown.join(" | "))
                        ),
                    )
                }
            }
            ExpectCondition::Page(PageCondition::Visible { target }) => {
                let showing = reads::showing(app, target).await?;
                match showing.len() {
                    0 => fails(
                        FailureCode::NotVisible,
                        format!("no element {target} shows"),
                    ),
                    _ => ConditionSample::Holds(json!({ "visible": showing.len() })),
                }
            }
            ExpectCondition::Page(PageCondition::Hidden { target }) => {
                let showing = reads::showing(app, target).await?;
                match showing.first() {
                    None => ConditionSample::Holds(json!({ "hidden": true })),
                    Some(e) => fails(FailureCode::NotHidden, format!("{} shows", e.describe())),
                }
            }
            ExpectCondition::VisibleCount { target, count } => {
                let n = reads::showing(app, target).await?.len();
                if n == *count as usize {
                    ConditionSample::Holds(json!({ "count": n }))
                } else {
                    fails(
                        FailureCode::CountMismatch,
                        format!("{n} elements {target} show"),
                    )
                }
            }
            ExpectCondition::RenderedText { target, text } => {
                let element = match one(target).await {
                    Ok(e) => e,
                    Err(e) => return Ok(fails(e.code().into(), e.to_string())),
                };
                let shown = locate::collapse(&element.read_text(a11y).await?);
                if shown == locate::collapse(text) {
                    ConditionSample::Holds(json!({ "text": shown }))
                } else {
                    fails(
                        FailureCode::RenderedTextMismatch,
                        format!("{} shows {:?}", element.describe(), clip(&shown)),
                    )
                }
            }
            ExpectCondition::Value { target, value } => {
                let want = match a3s_test_driver::vars::resolve(value, env.vars) {
                    Ok(v) => v,
                    Err(f) => return Ok(fails(f.code, f.message)),
                };
                let element = match one(target).await {
                    Ok(e) => e,
                    Err(e) => return Ok(fails(e.code().into(), e.to_string())),
                };
                let value = element.read_text(a11y).await?;
                if locate::collapse(&value) == locate::collapse(want.as_str()) {
                    ConditionSample::Holds(
                        json!({ "value": if want.is_concealed() { "(not shown)".to_string() } else { value } }),
                    )
                } else if want.is_concealed() {
                    fails(
                        FailureCode::ValueMismatch,
                        format!(
                            "{} holds another value than {}",
                            element.describe(),
                            want.shown()
                        ),
                    )
                } else {
                    fails(
                        FailureCode::ValueMismatch,
                        format!("{} holds {:?}", element.describe(), clip(&value)),
                    )
                }
            }
            ExpectCondition::State { target, state } => {
                let Some((atspi_state, present)) = reads::state_of(*state) else {
                    return Err(GuiError::BadTarget {
                        target: target.to_string(),
                        why: format!("a desktop does not read `{}`", state.keyword()),
                    });
                };
                let element = match one(target).await {
                    Ok(e) => e,
                    Err(e) => return Ok(fails(e.code().into(), e.to_string())),
                };
                let has = element.read_states(a11y).await?.contains(atspi_state);
                if has == present {
                    ConditionSample::Holds(json!({ "state": state.keyword() }))
                } else {
                    fails(
                        FailureCode::StateMismatch,
                        format!("{} is not {}", element.describe(), state.keyword()),
                    )
                }
            }
            other => {
                return Err(GuiError::BadTarget {
                    target: other.to_string(),
                    why: "a desktop cannot read this condition".into(),
                })
            }
        })
    }
}

/// Most characters of a reading a message quotes.
fn clip(text: &str) -> String {
    const MOST: usize = 500;
    let mut out: String = text.chars().take(MOST).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// An admitted key chord as the desktop's chord syntax (`Control+a` → `ctrl+a`; Web key names
/// such as `ArrowLeft` → `Left`).
fn chord_text(key: &KeyChord) -> String {
    let mut parts: Vec<&str> = key
        .modifiers
        .iter()
        .map(|m| match m {
            Modifier::Alt => "alt",
            Modifier::Control => "ctrl",
            Modifier::Meta => "super",
            Modifier::Shift => "shift",
        })
        .collect();
    let name = match key.key.as_str() {
        "ArrowLeft" => "Left",
        "ArrowRight" => "Right",
        "ArrowUp" => "Up",
        "ArrowDown" => "Down",
        " " => "space",
        other => other,
    };
    parts.push(name);
    parts.join("+")
}

impl SurfaceContext for GuiContext {
    async fn execute(&mut self, step: &Step, env: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        match tokio::time::timeout_at(env.deadline, self.act_and_settle(step, env)).await {
            Ok(result) => result,
            Err(_) => Err(StepFailure::new(
                FailureCode::Timeout,
                format!("the {} deadline passed during this step", env.deadline_name),
            )),
        }
    }

    async fn check(
        &mut self,
        condition: &ExpectCondition,
        watch: Option<Duration>,
        env: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        let bus = self.program().bus_name().to_owned();
        let mut changes = match watch {
            Some(_) => Some(Changes::watch(self.a11y(), &bus).await.map_err(failure)?),
            None => None,
        };
        let sample = match tokio::time::timeout_at(env.deadline, self.read(condition, env)).await {
            Ok(Ok(sample)) => sample,
            Ok(Err(e)) if self.program().exit().is_some() => ConditionSample::Fails {
                code: FailureCode::GuiWindowGone,
                seen: format!(
                    "the program ended ({}): {e}",
                    self.program()
                        .exit()
                        .map(|x| x.to_string())
                        .unwrap_or_default()
                ),
            },
            // A program busy past a call's bound is read again, until the condition's timeout;
            // so is a reading that met an object removed under it (a closing dialog's widgets go
            // while the walk is between them: the next reading sees the tree without them).
            Ok(Err(e)) if e.is_call_timeout() || crate::modal::is_gone(&e) => {
                ConditionSample::Fails {
                    code: FailureCode::GuiBus,
                    seen: e.to_string(),
                }
            }
            Ok(Err(e)) => return Err(failure(e)),
            Err(_) => ConditionSample::Fails {
                code: FailureCode::Timeout,
                seen: "the reading did not finish before the deadline".into(),
            },
        };
        if let (ConditionSample::Fails { .. }, Some(watch), Some(changes)) =
            (&sample, watch, changes.as_mut())
        {
            let left = env.deadline.saturating_duration_since(Instant::now());
            changes.next(watch.min(left)).await;
        }
        Ok(sample)
    }

    /// `expect { screenshot }`: the program's first window with its masks painted
    /// ([`crate::baseline`]), bounded by the step's deadline. `aria_snapshot` is a page's.
    async fn capture(
        &mut self,
        request: a3s_test_driver::snapshot::CaptureRequest<'_>,
        env: &StepEnv<'_>,
    ) -> Result<a3s_test_driver::snapshot::Captured, StepFailure> {
        use a3s_test_driver::snapshot::{CaptureRequest, Captured};
        let CaptureRequest::Screenshot(visual) = request else {
            return Err(StepFailure::new(
                FailureCode::Unsupported,
                "a desktop has no `aria_snapshot`; compare the window with `screenshot` or read \
                 the tree with `snapshot`",
            ));
        };
        self.alive("screenshot").await?;
        let capture = async {
            let window = self.first_window().await?;
            crate::baseline::capture(&self.input, self.program(), &window, &visual.mask)
                .await
                .map_err(failure)
        };
        match tokio::time::timeout_at(env.deadline, capture).await {
            Ok(png) => Ok(Captured::Png(png?)),
            Err(_) => Err(StepFailure::new(
                FailureCode::Timeout,
                "the window screenshot did not finish before the deadline",
            )),
        }
    }

    async fn capture_failure_evidence(
        &mut self,
        dir: &a3s_test_fsroot::Dir,
        deadline: Instant,
    ) -> FailureEvidence {
        let mut evidence = FailureEvidence::default();
        let mut keep = |kind: EvidenceKind, name: &str, got: Result<Vec<u8>, String>| match got
            .and_then(|bytes| save_evidence(dir, name, kind, &bytes).map_err(|e| e.message))
        {
            Ok(file) => evidence.files.push(file),
            Err(reason) => evidence.missing.push(MissingEvidence { kind, reason }),
        };
        let bounded =
            |what: &'static str| format!("the {what} did not finish before the capture's bound");
        let png = match tokio::time::timeout_at(deadline, self.window_png()).await {
            Ok(r) => r.map_err(|e| e.to_string()),
            Err(_) => Err(bounded("window screenshot")),
        };
        keep(EvidenceKind::Screenshot, "screenshot.png", png);
        let tree = match tokio::time::timeout_at(deadline, reads::tree_text(self.app().await)).await
        {
            Ok(r) => r.map(String::into_bytes).map_err(|e| e.to_string()),
            Err(_) => Err(bounded("accessibility tree read")),
        };
        keep(EvidenceKind::Accessibility, "accessibility.txt", tree);
        let exit = match self.program().exit() {
            Some(exit) => format!("{exit}\n"),
            None => "running\n".to_string(),
        };
        keep(
            EvidenceKind::ExitStatus,
            "exit-status.txt",
            Ok(exit.into_bytes()),
        );
        evidence
    }

    /// A desktop has no cookies or storage: refused, never ignored.
    async fn load_storage_state(
        &mut self,
        _state: &a3s_test_driver::storage_state::StorageState,
        _deadline: Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            FailureCode::Unsupported,
            "a desktop program has no cookies or storage to load a storage state into",
        ))
    }

    /// A desktop has no browser context: refused, never ignored.
    async fn apply_context(
        &mut self,
        _settings: &a3s_test_lang::ir::ContextSettings,
        _vars: &dyn a3s_test_driver::vars::VarSource,
        _deadline: Instant,
    ) -> Result<(), StepFailure> {
        Err(StepFailure::new(
            FailureCode::Unsupported,
            "a desktop has no browser context to apply context options (locale, device, clock …) to",
        ))
    }

    /// Stop the program's group, then the desktop's (an attached desktop is left running).
    async fn close(mut self) -> Result<(), DriverError> {
        let (program, host) = (self.program.take(), self.host.take());
        let stopped = tokio::task::spawn_blocking(move || {
            let program = program.map(Program::stop).unwrap_or(true);
            let host = host.map(Host::shutdown).unwrap_or(true);
            program && host
        })
        .await;
        match stopped {
            Ok(true) => Ok(()),
            Ok(false) => Err(DriverError::new(
                FailureCode::CleanupFailed,
                "a process of the program or its desktop outlived its stop",
            )),
            Err(e) => Err(DriverError::new(
                FailureCode::CleanupFailed,
                format!("stopping the program failed: {e}"),
            )),
        }
    }
}

mod agent;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_key_names_and_modifiers_become_desktop_chords() {
        let chord = |modifiers: Vec<Modifier>, key: &str| {
            chord_text(&KeyChord {
                modifiers,
                key: key.into(),
            })
        };
        assert_eq!(chord(vec![Modifier::Control], "a"), "ctrl+a");
        assert_eq!(chord(vec![], "ArrowLeft"), "Left");
        assert_eq!(chord(vec![], "Enter"), "Enter");
        for text in ["ctrl+a", "Left", "Enter", "shift+Tab"] {
            Chord::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        let unknown = Chord::parse(&chord(vec![], "MediaPlay")).unwrap_err();
        assert_eq!(unknown.code(), GuiCode::BadKey);
    }

    /// Admission is the one key check: every key name `press` admits, alone and in a chord,
    /// is one the desktop sends, so a desktop run never meets `bad_key` for an admitted step.
    #[test]
    fn every_key_admission_accepts_is_a_key_the_desktop_sends() {
        for name in a3s_test_lang::checker::NAMED_KEYS {
            for modifiers in [vec![], vec![Modifier::Control, Modifier::Shift]] {
                let text = chord_text(&KeyChord {
                    modifiers,
                    key: (*name).into(),
                });
                Chord::parse(&text).unwrap_or_else(|e| panic!("{name} ({text}): {e}"));
            }
        }
    }

    #[test]
    fn every_gui_code_has_a_failure_code_of_the_same_spelling_and_class() {
        for code in GuiCode::ALL {
            let failure: FailureCode = (*code).into();
            assert_eq!(failure.as_str(), code.as_str());
            assert_eq!(failure.class(), code.class());
        }
    }
}
