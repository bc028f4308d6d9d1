//! One scenario's isolated browser context: its tabs, the current tab and frame, and the facts
//! its listeners collected. `execute` dispatches each admitted step to its module under `steps/`.

use super::cdp::{Cdp, Event, COMMAND_BOUND};
use super::clock::ClockOp;
use super::input::Button;
use super::stats::ContextStats;
use super::steps;
use super::tab::{ContextShared, Tab};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::vars;
use a3s_test_driver::{
    ConditionSample, DriverError, EvidenceFile, StepDetail, StepEnv, StepFailure, StepOutput,
    SurfaceContext,
};
use a3s_test_lang::ir::{Action, ExpectCondition, Step, WaitCondition};
use futures_util::FutureExt;
use serde_json::json;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Instant;

/// Browser-level target events a context watches to adopt popups and forget closed tabs.
pub(crate) const TARGET_EVENTS: &[&str] = &["Target.targetCreated", "Target.targetDestroyed"];

/// A fresh, isolated browser context (one per scenario).
pub struct WebContext {
    pub(crate) cdp: Cdp,
    pub(crate) browser_context_id: String,
    pub(crate) tabs: Vec<Tab>,
    pub(crate) current: usize,
    pub(crate) shared: Arc<ContextShared>,
    pub(crate) viewport: (u32, u32),
    pub(crate) targets: UnboundedReceiver<Event>,
    pub(crate) download_dir: Option<tempfile::TempDir>,
    pub(crate) tracing: bool,
    pub(crate) opened_in: Duration,
    pub(crate) cold_open: Duration,
    pub(crate) stats: Arc<ContextStats>,
    pub(crate) disposals: Arc<Disposals>,
}

/// Dispose of one browser context (and every tab in it), bounded by `deadline`.
pub(crate) async fn dispose_context(
    cdp: &Cdp,
    id: &str,
    deadline: Instant,
) -> Result<serde_json::Value, a3s_test_driver::StepFailure> {
    let dispose = json!({ "browserContextId": id });
    cdp.call(
        None,
        "Target.disposeBrowserContext",
        dispose,
        COMMAND_BOUND,
        deadline,
    )
    .await
}

/// The contexts a driver handed out and their disposals still running in the background. A
/// scenario does not wait for the browser to tear its context down; the driver's shutdown does,
/// reports any that failed, and (attached to someone else's browser) disposes of the contexts
/// never closed.
///
/// Each disposal records its own failure in `failed` when it ends, so a handle that finished
/// can be dropped (the list of running ones stays short) without losing what it reported.
#[derive(Debug, Default)]
pub(crate) struct Disposals {
    open: std::sync::Mutex<std::collections::HashSet<String>>,
    running: std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>,
    failed: Arc<std::sync::Mutex<Vec<String>>>,
}

impl Disposals {
    /// Remember a context handed to a scenario.
    pub(crate) fn opened(&self, browser_context_id: &str) {
        let mut open = self.open.lock().expect("open contexts lock");
        open.insert(browser_context_id.to_string());
    }

    /// The contexts handed out and never closed (forgotten by this call).
    pub(crate) fn still_open(&self) -> Vec<String> {
        let mut open = self.open.lock().expect("open contexts lock");
        open.drain().collect()
    }

    /// Dispose of `browser_context_id` in the background, recording how long it took.
    pub(crate) fn start(&self, cdp: Cdp, browser_context_id: String, stats: Arc<ContextStats>) {
        self.open
            .lock()
            .expect("open contexts lock")
            .remove(&browser_context_id);
        self.spawn(async move {
            let started = Instant::now();
            let deadline = started + COMMAND_BOUND;
            let result = dispose_context(&cdp, &browser_context_id, deadline)
                .await
                .map(|_| ());
            stats.record_dispose(started.elapsed());
            result
        });
    }

    /// Run one disposal in the background; its failure (a panic included) is recorded in
    /// `failed` by the task itself.
    fn spawn(&self, disposal: impl Future<Output = Result<(), StepFailure>> + Send + 'static) {
        let failed = self.failed.clone();
        let task = tokio::spawn(async move {
            let outcome = std::panic::AssertUnwindSafe(disposal).catch_unwind().await;
            let problem = match outcome {
                Ok(Ok(())) => return,
                // The browser went away and took its contexts with it.
                Ok(Err(f)) if f.code == FailureCode::BrowserCrashed => return,
                Ok(Err(f)) => format!("failed to dispose a browser context: {}", f.message),
                Err(_) => "a context disposal task panicked".to_string(),
            };
            failed.lock().expect("failed disposals lock").push(problem);
        });
        let mut running = self.running.lock().expect("disposals lock");
        running.retain(|t| !t.is_finished());
        running.push(task);
    }

    /// Wait (until `deadline`) for every disposal; the messages of those that failed (finished
    /// long ago or just now) and of those that did not finish in time.
    pub(crate) async fn finish(&self, deadline: Instant) -> Vec<String> {
        let running = std::mem::take(&mut *self.running.lock().expect("disposals lock"));
        let mut late = Vec::new();
        for task in running {
            match tokio::time::timeout_at(deadline, task).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => late.push(format!("a context disposal task failed: {e}")),
                Err(_) => late.push("a browser context disposal did not finish".to_string()),
            }
        }
        let mut problems = std::mem::take(&mut *self.failed.lock().expect("failed disposals lock"));
        problems.extend(late);
        problems
    }
}

impl std::fmt::Debug for WebContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebContext")
            .field("browser_context_id", &self.browser_context_id)
            .field("tabs", &self.tabs.len())
            .finish()
    }
}

impl WebContext {
    /// How long the scenario waited for this context (near zero when it was prepared ahead).
    pub fn opened_in(&self) -> Duration {
        self.opened_in
    }

    /// How long creating it took (browser context + first tab with listeners, renderer started).
    pub fn cold_open(&self) -> Duration {
        self.cold_open
    }

    /// Dispose a context that never served a scenario (a prepared spare), without statistics.
    pub(crate) async fn discard(mut self) {
        self.tabs.clear();
        let deadline = Instant::now() + COMMAND_BOUND;
        let _ = dispose_context(&self.cdp, &self.browser_context_id, deadline).await;
    }

    /// The browser context id (for diagnostics).
    pub fn browser_context_id(&self) -> &str {
        &self.browser_context_id
    }

    /// The current tab, or `TabNotFound` when every tab was closed.
    pub(crate) fn tab(&self) -> Result<&Tab, StepFailure> {
        self.tabs.get(self.current).ok_or_else(|| {
            StepFailure::new(FailureCode::TabNotFound, "no tab is open in this scenario")
        })
    }

    /// The current tab, mutably.
    pub(crate) fn tab_mut(&mut self) -> Result<&mut Tab, StepFailure> {
        let current = self.current;
        self.tabs.get_mut(current).ok_or_else(|| {
            StepFailure::new(FailureCode::TabNotFound, "no tab is open in this scenario")
        })
    }

    /// Adopt tabs the page opened (popups) and forget tabs that closed, in event order.
    pub(crate) async fn sync_tabs(&mut self, deadline: Instant) -> Result<(), StepFailure> {
        while let Ok(event) = self.targets.try_recv() {
            self.on_target_event(&event, deadline).await?;
        }
        Ok(())
    }

    /// Wait (until `limit`) for the browser's next target event and apply it; false when none
    /// came in time (or the connection is gone).
    pub(crate) async fn next_target_event(
        &mut self,
        limit: Instant,
        deadline: Instant,
    ) -> Result<bool, StepFailure> {
        match tokio::time::timeout_at(limit, self.targets.recv()).await {
            Ok(Some(event)) => self.on_target_event(&event, deadline).await.map(|()| true),
            Ok(None) | Err(_) => Ok(false),
        }
    }

    /// Apply one target event: adopt a page this context's tabs opened, forget a closed one.
    async fn on_target_event(
        &mut self,
        event: &Event,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        let info = &event.params["targetInfo"];
        match event.method.as_ref() {
            "Target.targetCreated" => {
                let ours =
                    info["browserContextId"].as_str() == Some(self.browser_context_id.as_str());
                let id = info["targetId"].as_str().unwrap_or("");
                let known = self.tabs.iter().any(|t| t.target_id == id);
                if ours && info["type"] == "page" && !known {
                    match Tab::attach(&self.cdp, id, &self.shared, deadline).await {
                        Ok(tab) => self.tabs.push(tab),
                        // It closed before we could attach: nothing to adopt.
                        Err(f) if f.code == FailureCode::Protocol => {}
                        Err(f) => return Err(f),
                    }
                }
            }
            "Target.targetDestroyed" => {
                let id = event.params["targetId"].as_str().unwrap_or("");
                self.forget_tab(id);
            }
            _ => {}
        }
        Ok(())
    }

    /// Drop a closed tab, keeping the current tab when it survives.
    pub(crate) fn forget_tab(&mut self, target_id: &str) {
        if let Some(i) = self.tabs.iter().position(|t| t.target_id == target_id) {
            self.tabs.remove(i);
            if self.current > i || (self.current == i && self.current >= self.tabs.len()) {
                self.current = self.current.saturating_sub(1);
            }
        }
    }

    async fn run(&mut self, step: &Step, env: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        self.sync_tabs(env.deadline).await?;
        match &step.action {
            Action::Navigate { url } => steps::navigate::navigate(self, url, env).await,
            Action::Click {
                target, pointer, ..
            } => steps::pointer::click_with(self, target, pointer, Button::Left, 1, env).await,
            Action::Hover { target, pointer } => {
                steps::pointer::hover(self, target, pointer, env).await
            }
            Action::Focus { target } => steps::pointer::focus(self, target, env).await,
            Action::DoubleClick { target, pointer } => {
                steps::pointer::click_with(self, target, pointer, Button::Left, 2, env).await
            }
            Action::ContextClick { target, pointer } => {
                steps::pointer::click_with(self, target, pointer, Button::Right, 1, env).await
            }
            Action::Check { target } => steps::pointer::set_checked(self, target, true, env).await,
            Action::Uncheck { target } => {
                steps::pointer::set_checked(self, target, false, env).await
            }
            Action::Drag {
                source,
                target,
                edge,
            } => steps::drag::drag(self, source, target, *edge, env).await,
            Action::Wheel {
                delta_x,
                delta_y,
                modifiers,
                target,
            } => {
                steps::pointer::wheel(self, *delta_x, *delta_y, modifiers, target.as_ref(), env)
                    .await
            }
            // A text is resolved here, as its step runs (an `env("NAME")` is read now, never
            // kept), and before anything is sent to the page.
            Action::Fill { target, value } => {
                let text = vars::resolve(value, env.vars)?;
                steps::keyboard::fill(self, target, &text, env).await
            }
            Action::Type { target, value } => {
                let text = vars::resolve(value, env.vars)?;
                steps::keyboard::type_into(self, target, &text, env).await
            }
            Action::InsertText { value } => {
                let text = vars::resolve(value, env.vars)?;
                steps::keyboard::insert_text(self, &text, env).await
            }
            Action::Select { target, values } => {
                steps::keyboard::select(self, target, values, env).await
            }
            Action::Press { key, target } => {
                steps::keyboard::press(self, key, target.as_ref(), env).await
            }
            Action::Viewport {
                width,
                height,
                scale,
            } => steps::tabs::viewport(self, *width, *height, *scale, env).await,
            Action::Snapshot { interactive } => {
                steps::evidence::snapshot(self, *interactive, env).await
            }
            Action::Wait {
                condition: WaitCondition::Load { state },
            } => steps::observe::wait_load(self, *state, env).await,
            Action::Wait {
                condition: WaitCondition::Network { wait },
            } => steps::network::wait_network(self, wait, env).await,
            // Conditions are read through `check`; the runner's retry loop owns these steps.
            Action::Wait { .. } | Action::Expect { .. } => Err(StepFailure::new(
                FailureCode::Unsupported,
                "expect and wait conditions are evaluated by the runner through check()",
            )),
            // The runner reconciles a contract through `page_facts`.
            Action::CheckContract { .. } => Err(StepFailure::new(
                FailureCode::Unsupported,
                "check_contract is reconciled by the runner through page_facts()",
            )),
            // Admission keeps terminal steps out of web scenarios; the capability gate too.
            Action::Terminal(_) => Err(StepFailure::new(
                FailureCode::Unsupported,
                "a terminal step cannot run in a browser",
            )),
            Action::Screenshot { path } => steps::evidence::screenshot(self, path, env).await,
            Action::Accessibility { path, interactive } => {
                steps::evidence::accessibility(self, path, *interactive, env).await
            }
            Action::Console { path, clear } => {
                steps::evidence::CONSOLE
                    .write(self, path, *clear, env)
                    .await
            }
            Action::PageErrors { path, clear } => {
                steps::evidence::PAGE_ERRORS
                    .write(self, path, *clear, env)
                    .await
            }
            Action::Tab { operation } => steps::tabs::tab(self, operation, env).await,
            Action::Frame { target } => steps::tabs::frame(self, target, env).await,
            Action::Dialog { operation } => steps::tabs::dialog(self, operation, env).await,
            Action::Upload { target, paths } => {
                steps::files::upload(self, target, paths, env).await
            }
            Action::Download { target, path } => {
                steps::files::download(self, target, path, env).await
            }
            Action::NetworkRoute {
                pattern,
                response,
                times,
            } => steps::network::route(self, pattern, response, *times, env).await,
            Action::Request { request } => steps::request::request(self, request, env).await,
            Action::RouteFromHar { replay } => {
                steps::network::route_from_har(self, replay, env).await
            }
            Action::NetworkUnroute { pattern } => {
                steps::network::unroute(self, pattern.as_ref(), env).await
            }
            Action::Har { operation } => steps::network::har(self, operation, env).await,
            Action::Trace { operation } => steps::network::trace(self, operation, env).await,
            Action::SaveStorageState { path, indexed_db } => {
                super::storage_state::save(self, path, *indexed_db, env).await
            }
            Action::Context { settings } => {
                self.change_settings(settings, env.vars, env.deadline).await
            }
            Action::ClockFastForward { ms } => {
                super::clock::operate(self, ClockOp::FastForward(*ms), env.deadline).await
            }
            Action::ClockPauseAt { time } => {
                super::clock::operate(self, ClockOp::PauseAt(time.unix_ms), env.deadline).await
            }
            Action::ClockResume => super::clock::operate(self, ClockOp::Resume, env.deadline).await,
            Action::ClockSetFixedTime { time } => {
                let op = ClockOp::SetFixedTime(time.unix_ms);
                super::clock::operate(self, op, env.deadline).await
            }
        }
    }
}

impl SurfaceContext for WebContext {
    async fn execute(&mut self, step: &Step, env: &StepEnv<'_>) -> Result<StepOutput, StepFailure> {
        if Instant::now() >= env.deadline {
            return Err(StepFailure::new(
                FailureCode::Timeout,
                "the scenario deadline passed before the step started",
            ));
        }
        let network_wait = matches!(
            step.action,
            Action::Wait {
                condition: WaitCondition::Network { .. }
            }
        );
        if !network_wait {
            // Network waits look from where the action before them began (`network_log.rs`).
            self.shared
                .network_log
                .lock()
                .expect("network log lock")
                .arm();
        }
        self.run(step, env).await
    }

    async fn check(
        &mut self,
        condition: &ExpectCondition,
        watch: Option<Duration>,
        env: &StepEnv<'_>,
    ) -> Result<ConditionSample, StepFailure> {
        self.sync_tabs(env.deadline).await?;
        steps::observe::check(self, condition, watch, env).await
    }

    async fn capture(
        &mut self,
        request: a3s_test_driver::snapshot::CaptureRequest<'_>,
        env: &StepEnv<'_>,
    ) -> Result<a3s_test_driver::snapshot::Captured, StepFailure> {
        self.sync_tabs(env.deadline).await?;
        steps::snapshot::capture(self, request, env).await
    }

    async fn capture_failure_evidence(
        &mut self,
        dir: &a3s_test_fsroot::Dir,
        deadline: Instant,
    ) -> a3s_test_driver::FailureEvidence {
        steps::evidence::failure_evidence(self, dir, deadline).await
    }

    async fn load_storage_state(
        &mut self,
        state: &a3s_test_driver::storage_state::StorageState,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        self.load_state(state, deadline).await
    }

    async fn apply_context(
        &mut self,
        settings: &a3s_test_lang::ir::ContextSettings,
        vars: &dyn vars::VarSource,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        self.apply_settings(settings, vars, deadline).await
    }

    async fn page_facts(
        &mut self,
        request: &a3s_test_driver::page_facts::PageFactsRequest,
        deadline: Instant,
    ) -> Result<a3s_test_driver::page_facts::PageFacts, StepFailure> {
        super::page_facts::read(self, request, deadline).await
    }

    fn trace_start(&mut self, frames: Option<u32>) -> bool {
        self.start_trace(frames)
    }

    fn trace_mark(&self) -> a3s_test_driver::trace::TraceMark {
        self.mark_trace()
    }

    async fn trace_capture(
        &mut self,
        since: a3s_test_driver::trace::TraceMark,
        want: a3s_test_driver::trace::TraceWant,
        deadline: Instant,
    ) -> a3s_test_driver::trace::StepCapture {
        self.capture_trace(since, want, deadline).await
    }

    async fn trace_candidates(
        &mut self,
        action: &a3s_test_lang::ir::Action,
        deadline: Instant,
    ) -> Vec<a3s_test_driver::trace::TargetCandidates> {
        self.candidates_of(action, deadline).await
    }

    async fn close(mut self) -> Result<(), DriverError> {
        let started = Instant::now();
        let deadline = started + Duration::from_secs(5);
        if self.tracing {
            if let Ok(tab) = self.tab() {
                let _ = tab
                    .session
                    .call("Tracing.end", json!({}), COMMAND_BOUND, deadline)
                    .await;
            }
        }
        self.tabs.clear();
        if let Some(reason) = self.cdp.live().dead_reason() {
            return Err(DriverError::new(
                FailureCode::BrowserCrashed,
                format!("the browser is gone: {reason}"),
            ));
        }
        self.disposals.start(
            self.cdp.clone(),
            std::mem::take(&mut self.browser_context_id),
            self.stats.clone(),
        );
        let removed = self.download_dir.take().map(|d| d.close()).transpose();
        self.stats
            .record(self.opened_in, self.cold_open, started.elapsed());
        removed.map(|_| ()).map_err(|e| {
            DriverError::new(
                FailureCode::CleanupFailed,
                format!("failed to remove the download folder: {e}"),
            )
        })
    }
}

/// Build a step output with only a detail.
pub(crate) fn detail(detail: StepDetail) -> StepOutput {
    StepOutput {
        evidence: Vec::new(),
        detail: Some(detail),
    }
}

/// A step's output when it wrote one evidence file (screenshot, HAR, trace, logs, download).
pub(crate) fn with_evidence(file: EvidenceFile, detail: StepDetail) -> StepOutput {
    StepOutput {
        evidence: vec![file],
        detail: Some(detail),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Let the runtime run every spawned disposal to its end (no timers involved).
    async fn settle(disposals: &Disposals) {
        while disposals
            .running
            .lock()
            .unwrap()
            .iter()
            .any(|t| !t.is_finished())
        {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_disposal_that_failed_before_the_next_close_is_still_reported() {
        let disposals = Disposals::default();
        disposals.spawn(async { Err(StepFailure::new(FailureCode::Protocol, "context is busy")) });
        disposals.spawn(async { panic!("disposal bug") });
        disposals.spawn(async { Err(StepFailure::new(FailureCode::BrowserCrashed, "gone")) });
        settle(&disposals).await;
        // The next close prunes the finished handles; their outcomes must survive that.
        disposals.spawn(async { Ok(()) });
        assert_eq!(disposals.running.lock().unwrap().len(), 1);
        let problems = disposals.finish(Instant::now() + COMMAND_BOUND).await;
        assert_eq!(
            problems,
            vec![
                "failed to dispose a browser context: context is busy".to_string(),
                "a context disposal task panicked".to_string(),
            ]
        );
        assert!(disposals.finish(Instant::now()).await.is_empty());
    }

    #[tokio::test]
    async fn a_disposal_still_running_at_the_deadline_is_reported() {
        let disposals = Disposals::default();
        disposals.spawn(std::future::pending());
        let problems = disposals.finish(Instant::now()).await;
        assert_eq!(problems, vec!["a browser context disposal did not finish"]);
    }
}
