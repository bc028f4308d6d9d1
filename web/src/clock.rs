//! The page clock (`docs/acl.md` §2.4 `clock = { install_at }` and §5 "The clock"):
//! `clock_fast_forward`, `clock_pause_at`, `clock_resume`, `clock_set_fixed_time`.
//!
//! Why an injected clock (`clock.js` through `Page.addScriptToEvaluateOnNewDocument`) and not CDP
//! virtual time (`Emulation.setVirtualTimePolicy`): virtual time moves every clock of the
//! renderer at once — the driver's own waits, the network stack's timeouts and the compositor
//! — so a paused policy stalls loading and our actionability waits, and its budget-based
//! advance interacts badly with pending fetches (requests complete in real time while the page's
//! time is frozen or jumps). Playwright injects a script for the same reason. The script replaces
//! only what the page sees: `Date`, `setTimeout`/`setInterval`, `requestAnimationFrame` and
//! `performance.now`; the driver's resolver keeps the real timers (`resolver.js`).
//!
//! The clock's state lives in the page; after each step the driver reads it back and registers
//! the script for new documents again with that state, so a navigation continues from where the
//! clock is (paused stays paused, a fixed time stays fixed).

use super::cdp::{Session, COMMAND_BOUND};
use super::context::WebContext;
use super::steps::Outcome;
use super::tab::ContextShared;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::{StepFailure, StepOutput};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::time::Instant;

/// The clock script, evaluated as `(SOURCE)(CONFIG)`.
const CLOCK_JS: &str = include_str!("clock.js");

/// Where the page's clock is: what a new document starts from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(crate) struct ClockConfig {
    /// The page's time, ms since the epoch, at `anchor`.
    pub now: f64,
    /// Stopped (`clock_pause_at`) rather than flowing with real time.
    pub paused: bool,
    /// What `Date` answers whatever the time (`clock_set_fixed_time`).
    pub fixed: Option<f64>,
    /// The real wall time (ms since the epoch) when `now` was the page's time.
    pub anchor: f64,
}

/// The context's clock: its last known state and the script registered in each tab.
#[derive(Debug, Clone)]
pub(crate) struct ClockState {
    /// Where the clock was after the last step.
    pub config: ClockConfig,
    /// Tab target id → the identifier of its new-document script.
    pub scripts: HashMap<String, String>,
}

/// The real wall time in ms.
fn wall_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64)
}

fn source(config: &ClockConfig) -> String {
    let config = serde_json::to_string(config).unwrap_or_else(|_| "{}".into());
    format!("({})({config})", CLOCK_JS.trim_end().trim_end_matches(';'))
}

/// Register the clock script for the next documents of one tab (replacing its earlier one).
async fn register(
    session: &Session,
    previous: Option<&str>,
    config: &ClockConfig,
    deadline: Instant,
) -> Result<String, StepFailure> {
    if let Some(id) = previous {
        session
            .call(
                "Page.removeScriptToEvaluateOnNewDocument",
                json!({ "identifier": id }),
                COMMAND_BOUND,
                deadline,
            )
            .await?;
    }
    let added = session
        .call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": source(config) }),
            COMMAND_BOUND,
            deadline,
        )
        .await?;
    Ok(added["identifier"].as_str().unwrap_or_default().to_string())
}

/// Register the context's clock in a tab it adopts (a popup).
pub(crate) async fn register_remembered(
    session: &Session,
    shared: &Arc<ContextShared>,
    deadline: Instant,
) -> Result<(), StepFailure> {
    let config = shared
        .clock
        .lock()
        .expect("clock lock")
        .as_ref()
        .map(|c| c.config);
    if let Some(config) = config {
        register(session, None, &config, deadline).await?;
    }
    Ok(())
}

/// The clock at `at_ms`, flowing from now on.
pub(crate) fn starting_at(at_ms: i64) -> ClockConfig {
    ClockConfig {
        now: at_ms as f64,
        paused: false,
        fixed: None,
        anchor: wall_ms(),
    }
}

/// Install the clock at `at_ms` (flowing from there) in every tab: for the next documents, and
/// in the current one (a clock step in a scenario that set no `clock`).
async fn install(ctx: &mut WebContext, at_ms: i64, deadline: Instant) -> Result<(), StepFailure> {
    let config = starting_at(at_ms);
    save(&ctx.tabs, &ctx.shared, config, deadline).await?;
    for tab in &ctx.tabs {
        let params = json!({ "expression": source(&config), "returnByValue": true });
        tab.session
            .call("Runtime.evaluate", params, COMMAND_BOUND, deadline)
            .await?;
    }
    Ok(())
}

/// Remember `config` and register it in every tab of a context for the next documents.
pub(crate) async fn save(
    tabs: &[super::tab::Tab],
    shared: &ContextShared,
    config: ClockConfig,
    deadline: Instant,
) -> Result<(), StepFailure> {
    let mut scripts = shared
        .clock
        .lock()
        .expect("clock lock")
        .take()
        .map(|c| c.scripts)
        .unwrap_or_default();
    for tab in tabs {
        let previous = scripts.get(&tab.target_id).cloned();
        let id = register(&tab.session, previous.as_deref(), &config, deadline).await?;
        scripts.insert(tab.target_id.clone(), id);
    }
    *shared.clock.lock().expect("clock lock") = Some(ClockState { config, scripts });
    Ok(())
}

/// One clock operation on the current tab's page.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ClockOp {
    /// `clock_fast_forward { ms }`.
    FastForward(u64),
    /// `clock_pause_at { time }` (ms since the epoch).
    PauseAt(i64),
    /// `clock_resume`.
    Resume,
    /// `clock_set_fixed_time { time }` (ms since the epoch).
    SetFixedTime(i64),
}

impl ClockOp {
    fn call(self) -> String {
        match self {
            ClockOp::FastForward(ms) => format!("fastForward({ms})"),
            ClockOp::PauseAt(at) => format!("pauseAt({at})"),
            ClockOp::Resume => "resume()".to_string(),
            ClockOp::SetFixedTime(at) => format!("setFixedTime({at})"),
        }
    }
}

/// Run `op` on the current tab's clock (installing one at the real time first when the scenario
/// set no `clock`), then carry the clock's new state to the next documents.
pub(crate) async fn operate(ctx: &mut WebContext, op: ClockOp, deadline: Instant) -> Outcome {
    let installed = ctx.shared.clock.lock().expect("clock lock").is_some();
    if !installed {
        install(ctx, wall_ms() as i64, deadline).await?;
    }
    let tab = ctx.tab()?;
    tab.fail_if_dialog()?;
    let expression = format!(
        "(() => {{ const c = globalThis[Symbol.for('a3s-test.clock')]; \
         if (!c) {{ {install} }} return globalThis[Symbol.for('a3s-test.clock')].{call}; }})()",
        install = install_expression(ctx),
        call = op.call(),
    );
    let params = json!({ "expression": expression, "returnByValue": true });
    let answer = tab
        .session
        .call("Runtime.evaluate", params, COMMAND_BOUND, deadline)
        .await?;
    if let Some(e) = answer.get("exceptionDetails") {
        let text = e
            .pointer("/exception/description")
            .and_then(|v| v.as_str())
            .unwrap_or("the page's clock failed");
        return Err(StepFailure::new(
            FailureCode::Protocol,
            format!("the page's clock failed: {}", clip(text)),
        ));
    }
    let config: ClockConfig =
        serde_json::from_value(answer["result"]["value"].clone()).map_err(|e| {
            StepFailure::new(
                FailureCode::Protocol,
                format!("the page's clock answered something else: {e}"),
            )
        })?;
    save(&ctx.tabs, &ctx.shared, config, deadline).await?;
    Ok(StepOutput::default())
}

/// The statement that installs the clock where it is now, for a document that has none (one
/// loaded before a clock step installed it late, in a frame the new-document script missed).
fn install_expression(ctx: &WebContext) -> String {
    let config = ctx
        .shared
        .clock
        .lock()
        .expect("clock lock")
        .as_ref()
        .map(|c| c.config)
        .unwrap_or(ClockConfig {
            now: wall_ms(),
            paused: false,
            fixed: None,
            anchor: wall_ms(),
        });
    format!("{};", source(&config))
}

/// A page message cut to 300 characters.
fn clip(text: &str) -> String {
    text.chars().take(300).collect()
}
