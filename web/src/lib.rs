//! The Web driver: Chromium over CDP.
//!
//! [`WebDriver::launch`] starts a browser the driver owns (own process group, fresh profile,
//! reaped on shutdown and on drop); [`WebDriver::attach`] connects to a browser someone else
//! started and never kills it. Each scenario gets a [`WebContext`]: a fresh browser context with
//! one tab whose listeners are attached before the first navigation.

mod agent;
mod agent_repair;
mod ax;
mod cdp;
mod clock;
mod context;
mod element_query;
mod emulation;
mod evaluate;
mod ground_capture;
mod ground_hits;
mod har;
mod har_replay;
mod indexed_db;
mod input;
mod keys;
mod large_page;
mod network_log;
mod operable;
mod page_facts;
mod private;
mod process;
mod profile;
pub mod review_overlay;
mod route;
mod screencast;
mod script;
mod settle;
mod stats;
mod steps;
mod storage_state;
mod tab;
mod target;
mod trace;
mod trace_bodies;
mod trace_candidates;

// The agent surface's types live in the driver contract (`a3s_test_driver::api`); re-exported here for
// callers that name them through the Web driver.
pub use a3s_test_driver::api::{
    BrowserProcess, ControlNode, NetworkFilter, PageContextMethod, PageContextReply, PageSnapshot,
    MAX_CONTROLS, OPERABLE_ROLES,
};
pub use context::WebContext;
pub use large_page::LARGE_PAGE_ELEMENTS;
pub use process::{
    live_group_members, BASE_FLAGS, BROWSER_ENV, DEFAULT_BROWSER, UNLIMITED_FRAME_RATE_FLAG,
};
pub use stats::{ContextStats, Totals};

use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::{Capabilities, ContextOptions, DriverError, SurfaceDriver};
use a3s_test_lang::ir::{ActionKind, Surface};
use cdp::{Cdp, Liveness, LivenessSetter, COMMAND_BOUND};
use context::{dispose_context, Disposals};
use process::OwnedBrowser;
use serde_json::json;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tab::{ContextShared, Tab};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Every ACL step kind; the driver executes all of `docs/acl.md` §5 (the terminal-only kinds of
/// §5.1 are left out of [`capabilities`]).
pub const WEB_STEPS: &[ActionKind] = ActionKind::ALL;

/// Default viewport of a new context, in CSS px.
pub const DEFAULT_VIEWPORT: (u32, u32) = (1280, 720);

/// How to launch a browser.
#[derive(Debug, Clone)]
pub struct LaunchOptions {
    /// The browser binary (`--browser`); else `A3S_TEST_BROWSER`; else [`DEFAULT_BROWSER`].
    pub executable: Option<PathBuf>,
    /// Show a window instead of running headless.
    pub headed: bool,
    /// Draw frames back to back ([`UNLIMITED_FRAME_RATE_FLAG`]): for one interactive session,
    /// where each turn waits on frames; off for suite runs, where it costs more than it saves.
    pub unlimited_frame_rate: bool,
    /// More command-line flags (each a full `--flag=value`).
    pub extra_args: Vec<String>,
    /// How long the browser may take to report its DevTools address and accept the connection.
    pub launch_timeout: Duration,
    /// Prepare the next scenario's context in the background while the current one runs.
    pub prewarm: bool,
    /// Kill the browser's group when this process exits even if the driver was never dropped
    /// (`std::process::exit`, a driver in a `static`). Off only for browsers meant to outlive
    /// the process (agent sessions).
    pub reap_at_exit: bool,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            executable: None,
            headed: false,
            unlimited_frame_rate: false,
            extra_args: Vec::new(),
            launch_timeout: Duration::from_secs(30),
            prewarm: true,
            reap_at_exit: true,
        }
    }
}

struct DriverInner {
    cdp: Cdp,
    router: Mutex<Option<JoinHandle<()>>>,
    process: Option<OwnedBrowser>,
    capabilities: Capabilities,
    shut_down: AtomicBool,
    setter: LivenessSetter,
    stats: Arc<ContextStats>,
    prewarm: bool,
    spares: Mutex<VecDeque<SpareContext>>,
    disposals: Arc<Disposals>,
    endpoint: String,
}

/// A context being prepared in the background, with the viewport it was made for.
type SpareContext = ((u32, u32), JoinHandle<Result<WebContext, DriverError>>);

impl Drop for DriverInner {
    fn drop(&mut self) {
        if let Some(router) = self.router.lock().expect("router lock").take() {
            router.abort();
        }
        for (_, spare) in self.spares.lock().expect("spares lock").drain(..) {
            spare.abort();
        }
        // `OwnedBrowser`'s own drop kills and reaps the process group.
    }
}

/// The Chromium driver. Cheap to clone; one per run.
#[derive(Clone)]
pub struct WebDriver {
    inner: Arc<DriverInner>,
}

impl std::fmt::Debug for WebDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebDriver")
            .field("process", &self.browser_process())
            .finish()
    }
}

/// What the Web driver can execute, known without a browser (the runner's capability gate runs
/// before anything is launched).
pub fn capabilities() -> Capabilities {
    Capabilities {
        surface: Surface::Web,
        steps: WEB_STEPS
            .iter()
            .copied()
            .filter(|k| !a3s_test_lang::ir::TERMINAL_ONLY_STEPS.contains(k))
            .collect(),
    }
}

impl WebDriver {
    /// Launch a browser this driver owns.
    pub async fn launch(options: LaunchOptions) -> Result<WebDriver, DriverError> {
        let executable = process::browser_executable(options.executable.as_deref());
        let started = Instant::now();
        let (owned, ws_url) = OwnedBrowser::spawn(
            &executable,
            options.headed,
            options.unlimited_frame_rate,
            &options.extra_args,
            options.launch_timeout,
            options.reap_at_exit,
        )
        .await?;
        let (live, setter) = Liveness::new();
        let exited = owned.exited.clone();
        let on_exit = setter.clone();
        tokio::spawn(async move {
            if let Some(status) = exited.exited().await {
                let code = status.code().unwrap_or(-1);
                on_exit.mark_dead(format!("the browser process exited (code {code})"));
            }
        });
        let remaining = options.launch_timeout.saturating_sub(started.elapsed());
        let connected = Cdp::connect(&ws_url, live, setter.clone(), remaining).await;
        let (cdp, router) = match connected {
            Ok(c) => c,
            Err(e) => {
                owned.kill_and_reap(Duration::from_secs(2)).await;
                return Err(e);
            }
        };
        WebDriver::finish(cdp, router, Some(owned), setter, options.prewarm, ws_url).await
    }

    /// Connect to a browser started by someone else (`--browser-endpoint ws://…` or `http://…`).
    /// Shutdown closes this driver's contexts only; the browser keeps running.
    pub async fn attach(endpoint: &str, prewarm: bool) -> Result<WebDriver, DriverError> {
        let ws_url = if endpoint.starts_with("http://") {
            version_endpoint(endpoint).await?
        } else {
            endpoint.to_string()
        };
        let (live, setter) = Liveness::new();
        let (cdp, router) =
            Cdp::connect(&ws_url, live, setter.clone(), Duration::from_secs(10)).await?;
        WebDriver::finish(cdp, router, None, setter, prewarm, ws_url).await
    }

    async fn finish(
        cdp: Cdp,
        router: JoinHandle<()>,
        process: Option<OwnedBrowser>,
        setter: LivenessSetter,
        prewarm: bool,
        endpoint: String,
    ) -> Result<WebDriver, DriverError> {
        let driver = WebDriver {
            inner: Arc::new(DriverInner {
                cdp,
                router: Mutex::new(Some(router)),
                process,
                capabilities: capabilities(),
                shut_down: AtomicBool::new(false),
                setter,
                stats: Arc::new(ContextStats::default()),
                prewarm,
                spares: Mutex::new(VecDeque::new()),
                disposals: Arc::new(Disposals::default()),
                endpoint,
            }),
        };
        // Target discovery lets contexts adopt tabs the page opens (popups).
        let deadline = Instant::now() + COMMAND_BOUND;
        if let Err(f) = driver
            .inner
            .cdp
            .call(
                None,
                "Target.setDiscoverTargets",
                json!({ "discover": true }),
                COMMAND_BOUND,
                deadline,
            )
            .await
        {
            let _ = driver.shutdown().await;
            return Err(DriverError::new(FailureCode::BrowserLaunch, f.message));
        }
        Ok(driver)
    }

    /// The browser's DevTools WebSocket endpoint.
    pub fn endpoint(&self) -> &str {
        &self.inner.endpoint
    }

    /// The launched browser's pid and process group (`None` when attached).
    pub fn browser_process(&self) -> Option<BrowserProcess> {
        self.inner.process.as_ref().map(|p| p.ids)
    }

    /// Open + close timings of the contexts this driver served.
    pub fn context_stats(&self) -> Totals {
        self.inner.stats.totals()
    }

    /// How many contexts are prepared (or being prepared) ahead of the next scenarios.
    pub fn prepared(&self) -> usize {
        self.inner.spares.lock().expect("spares lock").len()
    }

    /// Declare the browser gone (`reason` says why): every command waiting on it fails at once
    /// with `test.driver.web.browser_crashed`, as when its connection drops. For a remote browser
    /// whose connection stays open after the browser went away — a Selenium Grid keeps the CDP
    /// proxy of a session whose node died — the owner of the session finds out by other means.
    pub fn mark_lost(&self, reason: impl Into<String>) {
        self.inner.setter.mark_dead(reason);
    }

    /// Why the browser is unusable, if it is (crashed, killed, connection lost, shut down).
    pub fn dead_reason(&self) -> Option<String> {
        self.inner.cdp.live().dead_reason()
    }

    async fn open_context(&self, options: ContextOptions) -> Result<WebContext, DriverError> {
        let started = Instant::now();
        let viewport = options.viewport.unwrap_or(DEFAULT_VIEWPORT);
        let spare = self.take_spare(viewport);
        let ready = match spare {
            Some(handle) => match handle.await {
                Ok(Ok(ctx)) => Some(ctx),
                _ => None,
            },
            None => None,
        };
        let mut ctx = match ready {
            Some(ctx) => ctx,
            None => self.prepare(viewport).await?,
        };
        ctx.opened_in = started.elapsed();
        self.inner.disposals.opened(&ctx.browser_context_id);
        self.refill_spares(viewport, options.ready_ahead);
        Ok(ctx)
    }

    /// The oldest prepared context for `viewport`, if any. Spares made for another viewport
    /// are discarded: the runner asks for one viewport per run.
    fn take_spare(
        &self,
        viewport: (u32, u32),
    ) -> Option<JoinHandle<Result<WebContext, DriverError>>> {
        let mut spares = self.inner.spares.lock().expect("spares lock");
        let mut found = None;
        for (size, handle) in std::mem::take(&mut *spares) {
            if found.is_none() && size == viewport {
                found = Some(handle);
            } else if size == viewport {
                spares.push_back((size, handle));
            } else {
                tokio::spawn(async move {
                    if let Ok(Ok(ctx)) = handle.await {
                        ctx.discard().await;
                    }
                });
            }
        }
        found
    }

    /// Keep `ready_ahead` contexts being prepared in the background, so the next scenarios do
    /// not wait for a renderer process to start (the dominant cost of a fresh context).
    fn refill_spares(&self, viewport: (u32, u32), ready_ahead: usize) {
        if !self.inner.prewarm || self.inner.shut_down.load(Ordering::SeqCst) {
            return;
        }
        let mut spares = self.inner.spares.lock().expect("spares lock");
        while spares.len() < ready_ahead {
            let task = tokio::spawn(prepare(
                self.inner.cdp.clone(),
                self.inner.stats.clone(),
                self.inner.disposals.clone(),
                viewport,
            ));
            spares.push_back((viewport, task));
        }
    }

    /// Create a context now.
    async fn prepare(&self, viewport: (u32, u32)) -> Result<WebContext, DriverError> {
        prepare(
            self.inner.cdp.clone(),
            self.inner.stats.clone(),
            self.inner.disposals.clone(),
            viewport,
        )
        .await
    }

    async fn close_all(&self) -> Result<(), DriverError> {
        if self.inner.shut_down.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        let cdp = &self.inner.cdp;
        let mut problems = Vec::new();
        let spares: Vec<_> = self
            .inner
            .spares
            .lock()
            .expect("spares lock")
            .drain(..)
            .collect();
        for (_, handle) in spares {
            if let Ok(Ok(Ok(ctx))) = tokio::time::timeout_at(deadline, handle).await {
                ctx.discard().await;
            }
        }
        problems.extend(self.inner.disposals.finish(deadline).await);
        match &self.inner.process {
            Some(owned) => {
                if !owned.has_exited() {
                    let _ = cdp
                        .call(
                            None,
                            "Browser.close",
                            json!({}),
                            Duration::from_secs(2),
                            deadline,
                        )
                        .await;
                    let grace = Instant::now() + Duration::from_millis(500);
                    let _ = tokio::time::timeout_at(grace, owned.exited.exited()).await;
                }
                self.inner
                    .setter
                    .mark_dead("the driver shut the browser down");
                problems.extend(owned.kill_and_reap(Duration::from_secs(5)).await);
            }
            None => {
                let ids = self.inner.disposals.still_open();
                for id in ids {
                    if let Err(f) = dispose_context(cdp, &id, deadline).await {
                        // Already closed by its scenario (the protocol says the id is unknown),
                        // or the browser is gone and took its contexts with it.
                        if !matches!(f.code, FailureCode::Protocol | FailureCode::BrowserCrashed) {
                            problems.push(f.message);
                        }
                    }
                }
                self.inner
                    .setter
                    .mark_dead("the driver detached from the browser");
            }
        }
        if let Some(router) = self.inner.router.lock().expect("router lock").take() {
            router.abort();
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(DriverError::new(
                FailureCode::CleanupFailed,
                problems.join("; "),
            ))
        }
    }
}

/// A failure while preparing a context. Preparation has its own bound ([`COMMAND_BOUND`] from
/// its start), so a command that overruns it is the browser being overloaded (too many contexts
/// at once for the machine), an infrastructure failure naming the command —
/// `test.driver.web.command_timeout` — never the scenario's `test.run.timeout`.
fn context_error(f: a3s_test_driver::StepFailure) -> DriverError {
    if f.code != FailureCode::Timeout {
        return DriverError::new(f.code, f.message);
    }
    let command = cdp::waited_for(&f).unwrap_or("a browser command");
    DriverError::new(
        FailureCode::CommandTimeout,
        format!(
            "the browser context was not ready within {} ms (still waiting for {command}): the \
             browser is overloaded; fewer --jobs give each context more of the machine",
            COMMAND_BOUND.as_millis()
        ),
    )
}

/// Create a browser context with one tab on `about:blank`, listeners attached.
async fn prepare(
    cdp: Cdp,
    stats: Arc<ContextStats>,
    disposals: Arc<Disposals>,
    viewport: (u32, u32),
) -> Result<WebContext, DriverError> {
    let started = Instant::now();
    let deadline = started + COMMAND_BOUND;
    let to_driver = context_error;
    let created = cdp
        .call(
            None,
            "Target.createBrowserContext",
            json!({ "disposeOnDetach": true }),
            COMMAND_BOUND,
            deadline,
        )
        .await
        .map_err(to_driver)?;
    let id = created["browserContextId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let targets = cdp.subscribe(None, context::TARGET_EVENTS);
    let shared = Arc::new(ContextShared::default());
    let tab = match Tab::create(&cdp, &id, viewport, &shared, deadline).await {
        Ok(tab) => tab,
        Err(f) => {
            // Its own bound, since the preparation's may be what just passed.
            let _ = dispose_context(&cdp, &id, Instant::now() + COMMAND_BOUND).await;
            return Err(to_driver(f));
        }
    };
    Ok(WebContext {
        cdp,
        browser_context_id: id,
        tabs: vec![tab],
        current: 0,
        shared,
        viewport,
        targets,
        download_dir: None,
        tracing: false,
        opened_in: started.elapsed(),
        cold_open: started.elapsed(),
        stats,
        disposals,
    })
}

impl SurfaceDriver for WebDriver {
    type Context = WebContext;

    fn capabilities(&self) -> &Capabilities {
        &self.inner.capabilities
    }

    async fn new_context(&self, options: ContextOptions) -> Result<WebContext, DriverError> {
        self.open_context(options).await
    }

    async fn shutdown(&self) -> Result<(), DriverError> {
        self.close_all().await
    }
}

/// Read `webSocketDebuggerUrl` from `http://host:port/json/version` (hyper, see [`http`]).
async fn version_endpoint(endpoint: &str) -> Result<String, DriverError> {
    let fail = |m: String| DriverError::new(FailureCode::BrowserLaunch, m);
    let url = url::Url::parse(endpoint)
        .and_then(|u| u.join("/json/version"))
        .map_err(|e| fail(format!("invalid endpoint {endpoint}: {e}")))?;
    let response = a3s_test_driver::http::get(&url, Duration::from_secs(10), 64 * 1024)
        .await
        .map_err(|e| fail(format!("failed to read {endpoint}/json/version: {e}")))?;
    let value: serde_json::Value = serde_json::from_slice(&response.body)
        .map_err(|e| fail(format!("{endpoint}/json/version is not JSON: {e}")))?;
    value["webSocketDebuggerUrl"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| {
            fail(format!(
                "{endpoint}/json/version has no webSocketDebuggerUrl"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_context_that_misses_its_own_bound_is_a_command_timeout_naming_the_command() {
        let overrun = a3s_test_driver::StepFailure::new(
            FailureCode::Timeout,
            "the scenario deadline passed while waiting for Fetch.disable",
        );
        let e = context_error(overrun);
        assert_eq!(e.code, FailureCode::CommandTimeout);
        assert!(
            e.message.contains("still waiting for Fetch.disable"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("scenario deadline"), "{}", e.message);
        let other =
            a3s_test_driver::StepFailure::new(FailureCode::Protocol, "Target.createTarget failed");
        assert_eq!(context_error(other).code, FailureCode::Protocol);
    }
}
