//! `wait` (poll until true or the scenario deadline, `docs/acl.md` §8) and `expect` (one
//! observation, or planned samples over a stability window, `docs/acl.md` §9, §7).
//!
//! A wait has no bound of its own: when its condition never holds it runs into the scenario
//! deadline, and that is a scenario timeout (`test.run.timeout`, exit 124) whose message names what
//! was awaited and the last observation — not a product assertion. The product was never judged
//! wrong; the scenario ran out of time.
//!
//! Both use the resolver's `observe`, so a wait and an expect on the same condition can never
//! disagree. An expectation is never retried: a failed observation is the verdict.

use super::Outcome;
use crate::failure::FailureCode;
use crate::web::cdp::COMMAND_BOUND;
use crate::web::context::{detail, WebContext};
use crate::web::script;
use crate::web::steps::navigate::resolve_url;
use crate::web::tab::{Tab, NETWORK_IDLE};
use crate::web::target::{describe, refuse_ref};
use crate::{StepDetail, StepEnv, StepFailure};
use a3s_test_lang::ir::{
    ExpectCondition, Expectation, LoadState, PageCondition, Target, WaitCondition,
};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// Longest single in-page poll of a `wait` before control returns to the driver.
const WAIT_SLICE: Duration = Duration::from_millis(1000);

/// The targets an expectation names, for ref refusal and message prefixes.
fn expect_targets(c: &ExpectCondition) -> Vec<&Target> {
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
    }
}

/// The condition as the resolver reads it (relative URLs resolved first).
fn condition_json(value: Value, base_url: Option<&str>) -> Result<Value, StepFailure> {
    let mut value = value;
    if value["condition"] == "url" {
        let url = value["url"].as_str().unwrap_or("").to_string();
        value["url"] = json!(resolve_url(&url, base_url).unwrap_or(url));
    }
    Ok(value)
}

/// One observation: `Ok(detail)` when it holds, the failure otherwise.
async fn observe_once(
    ctx: &WebContext,
    condition: &Value,
    prefix: &str,
    env: &StepEnv<'_>,
) -> Result<Value, StepFailure> {
    let tab = ctx.tab()?;
    let args = json!({ "condition": condition });
    let r = script::call(tab, "observe", args, COMMAND_BOUND, env.deadline).await?;
    verdict(&r, prefix)
}

fn verdict(r: &Value, prefix: &str) -> Result<Value, StepFailure> {
    if r.get("pass") == Some(&Value::Bool(true)) {
        return Ok(r.get("detail").cloned().unwrap_or(Value::Null));
    }
    let code = r
        .get("code")
        .and_then(Value::as_str)
        .and_then(FailureCode::from_name)
        .unwrap_or(FailureCode::Protocol);
    let message = r
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("the condition does not hold");
    let message = if prefix.is_empty() {
        message.to_string()
    } else {
        format!("{prefix}: {message}")
    };
    Err(StepFailure::new(code, message))
}

/// `expect`: one observation, or a sampled stability window.
pub(crate) async fn expect(
    ctx: &mut WebContext,
    expectation: &Expectation,
    env: &StepEnv<'_>,
) -> Outcome {
    let targets = expect_targets(&expectation.condition);
    for t in &targets {
        refuse_ref(t)?;
    }
    let prefix = targets.first().map(|t| describe(t)).unwrap_or_default();
    let raw = serde_json::to_value(&expectation.condition).expect("conditions serialize");
    let condition = condition_json(raw, env.base_url)?;
    let Some(stability) = expectation.stability else {
        let d = observe_once(ctx, &condition, &prefix, env).await?;
        return Ok(detail(StepDetail::Observed { observed: d }));
    };
    let samples = stability.planned_samples();
    let interval = Duration::from_millis(stability.sample_interval_ms.max(1) as u64);
    let start = Instant::now();
    for i in 0..samples {
        let at = start + interval * i;
        if at > env.deadline {
            return Err(StepFailure::new(
                FailureCode::Timeout,
                format!(
                    "the scenario deadline passes before sample {} of {samples}",
                    i + 1
                ),
            ));
        }
        // The sampling schedule itself (`docs/acl.md` §7), not a synchronisation sleep.
        tokio::time::sleep_until(at).await;
        match observe_once(ctx, &condition, &prefix, env).await {
            Ok(_) => {}
            Err(f) if i == 0 => return Err(f),
            Err(f) if f.code.class() != crate::FailureClass::Product => return Err(f),
            Err(f) => {
                return Err(StepFailure::new(
                    FailureCode::Unstable,
                    format!(
                        "sample {} of {samples} (at +{} ms) failed: {} [{}]",
                        i + 1,
                        start.elapsed().as_millis(),
                        f.message,
                        f.code
                    ),
                ))
            }
        }
    }
    Ok(detail(StepDetail::Stable {
        samples,
        window_ms: stability.stable_for_ms,
    }))
}

/// What a `wait` waits for, in ACL syntax (`text = "Saved"`), for its timeout message.
fn awaited(condition: &WaitCondition) -> String {
    use a3s_test_lang::printer::string_literal as q;
    match condition {
        WaitCondition::Load { state } => {
            let state = match state {
                LoadState::Domcontentloaded => "domcontentloaded",
                LoadState::Networkidle => "networkidle",
            };
            format!("load = {}", q(state))
        }
        WaitCondition::Page(PageCondition::Text { text }) => format!("text = {}", q(text)),
        WaitCondition::Page(PageCondition::Url { url }) => format!("url = {}", q(url)),
        WaitCondition::Page(PageCondition::Visible { target }) => format!("visible = {target}"),
        WaitCondition::Page(PageCondition::Hidden { target }) => format!("hidden = {target}"),
    }
}

/// The scenario timeout of a wait whose condition never held.
fn deadline_passed(condition: &WaitCondition, start: Instant, last: &str) -> StepFailure {
    StepFailure::new(
        FailureCode::Timeout,
        format!(
            "the scenario deadline passed while waiting for {} (waited {} ms; last observation: {last})",
            awaited(condition),
            start.elapsed().as_millis()
        ),
    )
}

/// `wait`: poll until the condition holds or the scenario deadline passes.
pub(crate) async fn wait(
    ctx: &mut WebContext,
    condition: &WaitCondition,
    env: &StepEnv<'_>,
) -> Outcome {
    let start = Instant::now();
    if let WaitCondition::Load {
        state: LoadState::Networkidle,
    } = condition
    {
        return network_idle(ctx.tab()?, env, start).await;
    }
    let (condition_value, prefix) = match condition {
        WaitCondition::Load { .. } => (json!({ "condition": "ready" }), String::new()),
        WaitCondition::Page(page) => {
            let prefix = match page.target() {
                Some(target) => {
                    refuse_ref(target)?;
                    describe(target)
                }
                None => String::new(),
            };
            (
                serde_json::to_value(condition).expect("conditions serialize"),
                prefix,
            )
        }
    };
    let condition_value = condition_json(condition_value, env.base_url)?;
    let tab = ctx.tab()?;
    // Leave the last slice a little room so the wait reports its own verdict at the deadline.
    let limit = env
        .deadline
        .checked_sub(Duration::from_millis(50))
        .unwrap_or(env.deadline);
    let mut last = "none yet".to_string();
    loop {
        let remaining = limit.saturating_duration_since(Instant::now());
        let slice = remaining.min(WAIT_SLICE);
        let args = json!({ "condition": condition_value, "budget_ms": slice.as_millis() as u64 });
        let r = match script::call(tab, "wait_for", args, slice + COMMAND_BOUND, env.deadline).await
        {
            Ok(r) => r,
            // The deadline passed while the page was still being polled: say what was awaited.
            Err(f) if f.code == FailureCode::Timeout => {
                return Err(deadline_passed(condition, start, &last))
            }
            Err(f) => return Err(f),
        };
        match verdict(&r, &prefix) {
            Ok(d) => {
                return Ok(detail(StepDetail::Waited {
                    waited_ms: start.elapsed().as_millis() as u64,
                    observed: Some(d),
                }))
            }
            Err(f) if Instant::now() >= limit => {
                return Err(deadline_passed(condition, start, &f.message))
            }
            Err(f) => last = f.message,
        }
    }
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
            let condition = WaitCondition::Load {
                state: LoadState::Networkidle,
            };
            return Err(deadline_passed(&condition, start, &last));
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
