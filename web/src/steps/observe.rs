//! Reading `expect` and `wait` conditions (`docs/acl.md` §8, §9), and `wait { load = … }`.
//!
//! A condition is read by the resolver's `check` (one reading, and on request a watch for the
//! next change of the page), so a `wait` and an `expect` on the same condition can never
//! disagree. Whether to read again, for how long, and what a reading that never held means is
//! not decided here: the runner's retry loop (`runner/src/expect.rs`) owns that for every
//! surface. Only the load states, which are not page conditions, are waited for here.
//!
//! A load wait has no bound of its own: when it never completes it runs into the scenario
//! deadline, and that is a scenario timeout (`test.run.timeout`, exit 124) whose message names
//! what was awaited and the last observation — not a product assertion.

use super::Outcome;
use crate::cdp::COMMAND_BOUND;
use crate::context::{detail, WebContext};
use crate::script;
use crate::steps::navigate::resolve_url;
use crate::tab::{Tab, NETWORK_IDLE};
use crate::target::{describe, refuse_ref};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::vars;
use a3s_test_driver::{ConditionSample, StepDetail, StepEnv, StepFailure};
use a3s_test_lang::ir::{ExpectCondition, LoadState, Target};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// The longest one watch for a page change may run inside a `load` wait before the document's
/// state is read again.
const LOAD_WATCH: Duration = Duration::from_millis(100);

/// The least time between two readings of the document's state in a `load` wait: a parsing
/// document changes all the time, and each change would otherwise wake the next reading at once.
const LOAD_GAP: Duration = Duration::from_millis(10);

/// The targets a condition names, for ref refusal and message prefixes.
fn condition_targets(c: &ExpectCondition) -> Vec<&Target> {
    use ExpectCondition::*;
    match c {
        Page(page) => page.target().into_iter().collect(),
        InViewport { target }
        | PointerReachable { target }
        | RenderedText { target, .. }
        | RenderedTexts { target, .. }
        | VisibleCount { target, .. }
        | Value { target, .. }
        | SelectedValues { target, .. }
        | ViewportCoverage { target, .. }
        | State { target, .. } => vec![target],
        Layout {
            target,
            relative_to,
            ..
        } => vec![target, relative_to],
        Screenshot(visual) => visual.mask.iter().collect(),
        AriaSnapshot(aria) => aria.target.iter().collect(),
    }
}

/// The condition as the resolver reads it: relative URLs resolved, and an `env("NAME")` value
/// read now (this reading only) and marked `conceal`, so the resolver quotes neither side.
fn condition_json(condition: &ExpectCondition, env: &StepEnv<'_>) -> Result<Value, StepFailure> {
    let mut value = serde_json::to_value(condition).expect("conditions serialize");
    if value["condition"] == "url" {
        let url = value["url"].as_str().unwrap_or("").to_string();
        value["url"] = json!(resolve_url(&url, env.base_url).unwrap_or(url));
    }
    if let ExpectCondition::Value { value: text, .. } = condition {
        let text = vars::resolve(text, env.vars)?;
        value["value"] = json!(text.as_str());
        value["conceal"] = json!(text.is_concealed());
    }
    Ok(value)
}

/// One reading of `condition`; with `watch`, answered once the page may have changed (or when
/// `watch` passed) if it does not hold.
pub(crate) async fn check(
    ctx: &WebContext,
    condition: &ExpectCondition,
    watch: Option<Duration>,
    env: &StepEnv<'_>,
) -> Result<ConditionSample, StepFailure> {
    if matches!(
        condition,
        ExpectCondition::Screenshot(_) | ExpectCondition::AriaSnapshot(_)
    ) {
        // The runner decides snapshot expectations from `capture`; a reading means nothing.
        return Err(StepFailure::new(
            FailureCode::Unsupported,
            "a snapshot expectation is compared by the runner, not read as a condition",
        ));
    }
    let targets = condition_targets(condition);
    for t in &targets {
        refuse_ref(t)?;
    }
    let prefix = targets.first().map(|t| describe(t)).unwrap_or_default();
    let watch = watch.unwrap_or_default();
    let args = json!({
        "condition": condition_json(condition, env)?,
        "watch_ms": watch.as_millis() as u64,
    });
    let tab = ctx.tab()?;
    let r = script::call(tab, "check", args, watch + COMMAND_BOUND, env.deadline).await?;
    sample(&r, &prefix)
}

/// The resolver's answer as a sample: `{pass, detail}` or `{pass: false, code, message}`.
fn sample(r: &Value, prefix: &str) -> Result<ConditionSample, StepFailure> {
    if r.get("pass") == Some(&Value::Bool(true)) {
        return Ok(ConditionSample::Holds(
            r.get("detail").cloned().unwrap_or(Value::Null),
        ));
    }
    let Some(code) = r
        .get("code")
        .and_then(Value::as_str)
        .and_then(FailureCode::from_name)
    else {
        return Err(StepFailure::new(
            FailureCode::Protocol,
            format!("the page resolver answered a condition with {r}"),
        ));
    };
    let message = r
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("the condition does not hold");
    let picks = crate::target::picks_hint(r.get("picks"));
    let seen = if prefix.is_empty() {
        format!("{message}{picks}")
    } else {
        format!("{prefix}: {message}{picks}")
    };
    Ok(ConditionSample::Fails { code, seen })
}

/// `wait { load = … }`: until the document is parsed, or the network of the tab is idle.
pub(crate) async fn wait_load(ctx: &WebContext, state: LoadState, env: &StepEnv<'_>) -> Outcome {
    let start = Instant::now();
    let tab = ctx.tab()?;
    if state == LoadState::Networkidle {
        return network_idle(tab, env, start).await;
    }
    let mut last = "none yet".to_string();
    loop {
        let began = Instant::now();
        let watch = env
            .deadline
            .saturating_duration_since(Instant::now())
            .min(LOAD_WATCH);
        let args =
            json!({ "condition": { "condition": "ready" }, "watch_ms": watch.as_millis() as u64 });
        let r = match script::call(tab, "check", args, watch + COMMAND_BOUND, env.deadline).await {
            Ok(r) => r,
            Err(f) if f.code == FailureCode::Timeout => {
                return Err(deadline_passed(env, state, start, &last))
            }
            Err(f) => return Err(f),
        };
        match sample(&r, "")? {
            ConditionSample::Holds(observed) => {
                return Ok(detail(StepDetail::Waited {
                    waited_ms: start.elapsed().as_millis() as u64,
                    observed: Some(observed),
                }))
            }
            ConditionSample::Fails { seen, .. } if Instant::now() >= env.deadline => {
                return Err(deadline_passed(env, state, start, &seen))
            }
            ConditionSample::Fails { seen, .. } => last = seen,
        }
        // A rate limit on readings, not a synchronisation sleep.
        tokio::time::sleep_until((began + LOAD_GAP).min(env.deadline)).await;
    }
}

/// The scenario timeout of a load wait that never completed.
fn deadline_passed(env: &StepEnv<'_>, state: LoadState, start: Instant, last: &str) -> StepFailure {
    let state = match state {
        LoadState::Domcontentloaded => "domcontentloaded",
        LoadState::Networkidle => "networkidle",
    };
    StepFailure::new(
        FailureCode::Timeout,
        format!(
            "the {} deadline passed while waiting for load = \"{state}\" (waited {} ms; last observation: {last})",
            env.deadline_name,
            start.elapsed().as_millis()
        ),
    )
}

/// `wait { load = "networkidle" }`: no request of the tab in flight for 500 ms (tracked from
/// `Network.*` events; the quiet period is the condition itself, not a synchronisation sleep).
async fn network_idle(tab: &Tab, env: &StepEnv<'_>, start: Instant) -> Outcome {
    let mut changes = tab.state.network_changed.subscribe();
    // Requests the previous action started may not have been reported yet: flushing delivers
    // every event the renderer sent before, and the quiet period is only counted from the start
    // of this wait, so an action's own request can never be missed.
    tab.flush_events(env.deadline).await?;
    loop {
        let (idle_since, inflight) = {
            let net = tab.state.network.lock().expect("network lock");
            (
                net.inflight
                    .is_empty()
                    .then_some(net.last_change.max(start)),
                net.inflight.len(),
            )
        };
        let now = Instant::now();
        if let Some(since) = idle_since {
            if now.duration_since(since) >= NETWORK_IDLE {
                return Ok(detail(StepDetail::Waited {
                    waited_ms: start.elapsed().as_millis() as u64,
                    observed: None,
                }));
            }
        }
        if now >= env.deadline {
            let last = format!("{inflight} request(s) in flight");
            return Err(deadline_passed(env, LoadState::Networkidle, start, &last));
        }
        let quiet_at = idle_since
            .map(|s| s + NETWORK_IDLE)
            .unwrap_or(env.deadline)
            .min(env.deadline);
        tokio::select! {
            _ = changes.changed() => {}
            _ = tokio::time::sleep_until(quiet_at) => {}
        }
    }
}
