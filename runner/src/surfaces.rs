//! A run over several surfaces: the executor runs against ONE [`SurfaceDriver`]; [`Surfaces`]
//! combines a web, a terminal and a desktop launcher into one, so a plan whose scenarios drive
//! web, tui, gui or any mix runs through the same executor, and each scenario's context opens on its own surface
//! ([`ContextOptions::surface`]).
//!
//! Why generic (not an enum of concrete drivers): the runner must not name a driver type. The
//! binary decides which drivers a plan needs and passes `None` for a surface no planned scenario
//! uses — so a terminal-only plan never starts Chromium, and a web-only plan never looks for a
//! terminal program. A slot is keyed by the IR's [`Surface`], the one thing the runner knows.
//!
//! A surface whose driver fails to launch fails only its own scenarios: the launch error is kept
//! in that surface's [`Slot`] and answered to each of its contexts (so a web scenario reports
//! `test.driver.web.browser_launch` as before), while the other surface's scenarios run. Only a
//! run where every needed driver failed fails the launch as a whole.

use crate::executor::{capability_failure, DriverLauncher};
use crate::result::FailureRecord;
use a3s_test_driver::snapshot::{CaptureRequest, Captured};
use a3s_test_driver::storage_state::StorageState;
use a3s_test_driver::trace::{StepCapture, TraceMark, TraceWant};
use a3s_test_driver::{
    Capabilities, ConditionSample, ContextOptions, DriverError, FailureCode, FailureEvidence,
    StepEnv, StepFailure, StepOutput, SurfaceContext, SurfaceDriver,
};
use a3s_test_lang::ir::{ExpectCondition, Scenario, Step, Surface};
use std::time::Duration;
use tokio::time::Instant;

/// The capability gate over every surface a run drives: the scenario's surface must have a
/// driver, and that driver must execute each of its steps.
pub fn gate(surfaces: &[Capabilities], scenario: &Scenario) -> Option<FailureRecord> {
    match surfaces.iter().find(|c| c.surface == scenario.surface) {
        Some(capabilities) => capability_failure(capabilities, scenario),
        None => {
            let driven: Vec<&str> = surfaces.iter().map(|c| c.surface.name()).collect();
            let mut f = FailureRecord::new(
                FailureCode::UnsupportedSurface,
                format!(
                    "no driver for surface `{}` in this run; it drives {}",
                    scenario.surface.name(),
                    if driven.is_empty() {
                        "nothing".to_string()
                    } else {
                        driven.join(", ")
                    }
                ),
            );
            f.step_path = Some(scenario.path.clone());
            Some(f)
        }
    }
}

/// A web, a terminal and a desktop launcher, each absent when the plan does not need it.
#[derive(Debug)]
pub struct Surfaces<W, T, G> {
    /// Starts the driver of `surface = "web"` scenarios.
    pub web: Option<W>,
    /// Starts the driver of `surface = "tui"` scenarios.
    pub tui: Option<T>,
    /// Starts the driver of `surface = "gui"` scenarios.
    pub gui: Option<G>,
}

impl<W: DriverLauncher, T: DriverLauncher, G: DriverLauncher> DriverLauncher for Surfaces<W, T, G> {
    type Driver = Drivers<W::Driver, T::Driver, G::Driver>;

    fn capabilities(&self) -> Capabilities {
        self.surfaces()
            .into_iter()
            .next()
            .unwrap_or_else(|| Capabilities {
                surface: Surface::Web,
                steps: Default::default(),
            })
    }

    fn surfaces(&self) -> Vec<Capabilities> {
        let web = self.web.as_ref().map(DriverLauncher::capabilities);
        let tui = self.tui.as_ref().map(DriverLauncher::capabilities);
        let gui = self.gui.as_ref().map(DriverLauncher::capabilities);
        web.into_iter().chain(tui).chain(gui).collect()
    }

    async fn launch(self, timeout: Duration) -> Result<Self::Driver, DriverError> {
        // All at once: terminal and desktop drivers start nothing yet, a browser takes its time.
        let (web, tui, gui) = tokio::join!(
            Slot::launch(self.web, timeout),
            Slot::launch(self.tui, timeout),
            Slot::launch(self.gui, timeout)
        );
        let launched = [web.is_launched(), tui.is_launched(), gui.is_launched()];
        if !launched.contains(&true) {
            // Nothing to run on: the launch fails as a whole, as a one-surface run's does.
            if let Some(e) = [web.error(), tui.error(), gui.error()]
                .into_iter()
                .flatten()
                .next()
            {
                return Err(e.clone());
            }
        }
        Ok(Drivers { web, tui, gui })
    }
}

/// One surface's driver in a run: not needed, launched, or failed to launch (kept, so each of
/// that surface's scenarios reports the launch error while the other surface runs).
#[derive(Debug)]
pub enum Slot<D> {
    /// No planned scenario uses the surface.
    Absent,
    /// The driver runs.
    Launched(D),
    /// The driver did not start; the error each of its scenarios gets.
    Failed(DriverError),
}

impl<D> Slot<D> {
    async fn launch<L: DriverLauncher<Driver = D>>(launcher: Option<L>, timeout: Duration) -> Self {
        match launcher {
            None => Slot::Absent,
            Some(l) => match l.launch(timeout).await {
                Ok(driver) => Slot::Launched(driver),
                Err(e) => Slot::Failed(e),
            },
        }
    }

    /// The driver, or why this surface has none.
    fn driver(&self, surface: Surface) -> Result<&D, DriverError> {
        match self {
            Slot::Launched(d) => Ok(d),
            Slot::Failed(e) => Err(e.clone()),
            Slot::Absent => Err(absent(surface)),
        }
    }

    fn launched(&self) -> Option<&D> {
        match self {
            Slot::Launched(d) => Some(d),
            _ => None,
        }
    }

    fn is_launched(&self) -> bool {
        matches!(self, Slot::Launched(_))
    }

    fn error(&self) -> Option<&DriverError> {
        match self {
            Slot::Failed(e) => Some(e),
            _ => None,
        }
    }
}

/// The launched drivers of a run, one per surface it drives.
#[derive(Debug)]
pub struct Drivers<W, T, G> {
    web: Slot<W>,
    tui: Slot<T>,
    gui: Slot<G>,
}

fn absent(surface: Surface) -> DriverError {
    DriverError::new(
        FailureCode::UnsupportedSurface,
        format!("no driver for surface `{}` in this run", surface.name()),
    )
}

impl<W: SurfaceDriver, T: SurfaceDriver, G: SurfaceDriver> SurfaceDriver for Drivers<W, T, G> {
    type Context = Contexts<W::Context, T::Context, G::Context>;

    fn capabilities(&self) -> &Capabilities {
        match (
            self.web.launched(),
            self.tui.launched(),
            self.gui.launched(),
        ) {
            (Some(w), _, _) => w.capabilities(),
            (None, Some(t), _) => t.capabilities(),
            (None, None, Some(g)) => g.capabilities(),
            (None, None, None) => unreachable_capabilities(),
        }
    }

    async fn new_context(&self, options: ContextOptions) -> Result<Self::Context, DriverError> {
        match options.surface {
            Some(Surface::Tui) => {
                let t = self.tui.driver(Surface::Tui)?;
                Ok(Contexts::Tui(t.new_context(options).await?))
            }
            Some(Surface::Gui) => {
                let g = self.gui.driver(Surface::Gui)?;
                Ok(Contexts::Gui(g.new_context(options).await?))
            }
            Some(Surface::Web) | None => {
                let w = self.web.driver(Surface::Web)?;
                Ok(Contexts::Web(w.new_context(options).await?))
            }
        }
    }

    async fn shutdown(&self) -> Result<(), DriverError> {
        let web = match self.web.launched() {
            Some(w) => w.shutdown().await,
            None => Ok(()),
        };
        let tui = match self.tui.launched() {
            Some(t) => t.shutdown().await,
            None => Ok(()),
        };
        let gui = match self.gui.launched() {
            Some(g) => g.shutdown().await,
            None => Ok(()),
        };
        web.and(tui).and(gui)
    }
}

/// Capabilities of a run with no driver at all (never launched: the gate refuses every scenario
/// first).
fn unreachable_capabilities() -> &'static Capabilities {
    static NONE: std::sync::OnceLock<Capabilities> = std::sync::OnceLock::new();
    NONE.get_or_init(|| Capabilities {
        surface: Surface::Web,
        steps: Default::default(),
    })
}

/// One scenario's context, on its surface.
#[derive(Debug)]
pub enum Contexts<W, T, G> {
    /// A browser context.
    Web(W),
    /// A program on a terminal.
    Tui(T),
    /// A program on a desktop.
    Gui(G),
}

impl<W: SurfaceContext, T: SurfaceContext, G: SurfaceContext> SurfaceContext for Contexts<W, T, G> {
    async fn execute(&mut self, step: &Step, env: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        match self {
            Contexts::Web(c) => c.execute(step, env).await,
            Contexts::Tui(c) => c.execute(step, env).await,
            Contexts::Gui(c) => c.execute(step, env).await,
        }
    }

    async fn check(
        &mut self,
        condition: &ExpectCondition,
        watch: Option<Duration>,
        env: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        match self {
            Contexts::Web(c) => c.check(condition, watch, env).await,
            Contexts::Tui(c) => c.check(condition, watch, env).await,
            Contexts::Gui(c) => c.check(condition, watch, env).await,
        }
    }

    async fn capture(
        &mut self,
        request: CaptureRequest<'_>,
        env: &StepEnv<'_>,
    ) -> Result<Captured, StepFailure> {
        match self {
            Contexts::Web(c) => c.capture(request, env).await,
            Contexts::Tui(c) => c.capture(request, env).await,
            Contexts::Gui(c) => c.capture(request, env).await,
        }
    }

    async fn capture_failure_evidence(
        &mut self,
        dir: &a3s_test_fsroot::Dir,
        deadline: Instant,
    ) -> FailureEvidence {
        match self {
            Contexts::Web(c) => c.capture_failure_evidence(dir, deadline).await,
            Contexts::Tui(c) => c.capture_failure_evidence(dir, deadline).await,
            Contexts::Gui(c) => c.capture_failure_evidence(dir, deadline).await,
        }
    }

    async fn load_storage_state(
        &mut self,
        state: &StorageState,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        match self {
            Contexts::Web(c) => c.load_storage_state(state, deadline).await,
            Contexts::Tui(c) => c.load_storage_state(state, deadline).await,
            Contexts::Gui(c) => c.load_storage_state(state, deadline).await,
        }
    }

    async fn apply_context(
        &mut self,
        settings: &a3s_test_lang::ir::ContextSettings,
        vars: &dyn a3s_test_driver::vars::VarSource,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        match self {
            Contexts::Web(c) => c.apply_context(settings, vars, deadline).await,
            Contexts::Tui(c) => c.apply_context(settings, vars, deadline).await,
            Contexts::Gui(c) => c.apply_context(settings, vars, deadline).await,
        }
    }

    async fn page_facts(
        &mut self,
        request: &a3s_test_driver::page_facts::PageFactsRequest,
        deadline: Instant,
    ) -> Result<a3s_test_driver::page_facts::PageFacts, StepFailure> {
        match self {
            Contexts::Web(c) => c.page_facts(request, deadline).await,
            Contexts::Tui(c) => c.page_facts(request, deadline).await,
            Contexts::Gui(c) => c.page_facts(request, deadline).await,
        }
    }

    async fn close(self) -> Result<(), DriverError> {
        match self {
            Contexts::Web(c) => c.close().await,
            Contexts::Tui(c) => c.close().await,
            Contexts::Gui(c) => c.close().await,
        }
    }

    fn trace_start(&mut self, frames: Option<u32>) -> bool {
        match self {
            Contexts::Web(c) => c.trace_start(frames),
            Contexts::Tui(c) => c.trace_start(frames),
            Contexts::Gui(c) => c.trace_start(frames),
        }
    }

    fn trace_mark(&self) -> TraceMark {
        match self {
            Contexts::Web(c) => c.trace_mark(),
            Contexts::Tui(c) => c.trace_mark(),
            Contexts::Gui(c) => c.trace_mark(),
        }
    }

    async fn trace_capture(
        &mut self,
        since: TraceMark,
        want: TraceWant,
        deadline: Instant,
    ) -> StepCapture {
        match self {
            Contexts::Web(c) => c.trace_capture(since, want, deadline).await,
            Contexts::Tui(c) => c.trace_capture(since, want, deadline).await,
            Contexts::Gui(c) => c.trace_capture(since, want, deadline).await,
        }
    }

    async fn trace_candidates(
        &mut self,
        action: &a3s_test_lang::ir::Action,
        deadline: Instant,
    ) -> Vec<a3s_test_driver::trace::TargetCandidates> {
        match self {
            Contexts::Web(c) => c.trace_candidates(action, deadline).await,
            Contexts::Tui(c) => c.trace_candidates(action, deadline).await,
            Contexts::Gui(c) => c.trace_candidates(action, deadline).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::ir::{ActionKind, AdmittedDocument, TERMINAL_STEPS};

    fn scenario(surface: &str, step: &str) -> Scenario {
        let source = format!(
            "suite \"s\" {{\n scenario \"sc\" {{\n surface = \"{surface}\"\n {step}\n }}\n}}\n"
        );
        match a3s_test_lang::admit(&source).document {
            Some(AdmittedDocument::Suite(mut s)) => s.scenarios.remove(0),
            other => panic!("{other:?}"),
        }
    }

    fn caps(surface: Surface, steps: &[ActionKind]) -> Capabilities {
        Capabilities {
            surface,
            steps: steps.iter().copied().collect(),
        }
    }

    #[test]
    fn each_scenario_is_gated_by_the_driver_of_its_own_surface() {
        let web = caps(Surface::Web, &[ActionKind::Navigate, ActionKind::Wait]);
        let tui = caps(Surface::Tui, TERMINAL_STEPS);
        let terminal = scenario("tui", "wait \"w\" { text = \"ready\" }");
        let page = scenario("web", "navigate \"n\" { url = \"/\" }");
        assert_eq!(gate(&[web.clone(), tui.clone()], &terminal), None);
        assert_eq!(gate(&[web.clone(), tui.clone()], &page), None);
        let refused = gate(std::slice::from_ref(&web), &terminal).expect("no tui driver");
        assert_eq!(refused.code, FailureCode::UnsupportedSurface);
        assert!(
            refused.message.contains("it drives web"),
            "{}",
            refused.message
        );
        let refused = gate(&[], &page).expect("no driver at all");
        assert!(
            refused.message.contains("it drives nothing"),
            "{}",
            refused.message
        );
        let unsupported = gate(&[tui], &scenario("tui", "snapshot \"s\" {}"));
        assert_eq!(unsupported, None);
    }
}
