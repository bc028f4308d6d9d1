//! Pointer steps: click, hover, focus, double/context click, check/uncheck, drag, wheel. Each
//! waits for an actionable target, then dispatches real input exactly once.

use super::Outcome;
use crate::failure::FailureCode;
use crate::web::context::{detail, WebContext};
use crate::web::input::{self, Button, Point};
use crate::web::target::{self, describe, Needs};
use crate::{StepDetail, StepEnv, StepFailure};
use a3s_test_lang::ir::{DragEdge, Modifier, Target};
use serde_json::{json, Value};

/// `click`, `double_click` (`count` 2) and `context_click` (the right button).
pub(crate) async fn click_with(
    ctx: &mut WebContext,
    target: &Target,
    button: Button,
    count: i64,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let (point, element) = target::point_at(tab, target, Needs::ENABLED, env).await?;
    input::press_release(tab, point, button, count, env.deadline).await?;
    Ok(detail(StepDetail::Clicked {
        element,
        x: point.x,
        y: point.y,
    }))
}

/// `hover`.
pub(crate) async fn hover(ctx: &mut WebContext, target: &Target, env: &StepEnv<'_>) -> Outcome {
    let tab = ctx.tab()?;
    let (point, element) = target::wait_actionable(tab, target, Needs::default(), env).await?;
    input::mouse_move(tab, point, 0, env.deadline).await?;
    Ok(detail(StepDetail::element(element)))
}

/// `focus`.
pub(crate) async fn focus(ctx: &mut WebContext, target: &Target, env: &StepEnv<'_>) -> Outcome {
    let element = focus_element(ctx, target, env).await?;
    Ok(detail(StepDetail::element(element)))
}

/// Wait until `target` is actionable and give it focus, as `focus` does; the element, described.
pub(crate) async fn focus_element(
    ctx: &WebContext,
    target: &Target,
    env: &StepEnv<'_>,
) -> Result<String, StepFailure> {
    let tab = ctx.tab()?;
    let (_, element) = target::wait_actionable(tab, target, Needs::default(), env).await?;
    let r = target::call_on(tab, "focus", target, json!({}), env.deadline).await?;
    if r.get("focused") != Some(&Value::Bool(true)) {
        return Err(StepFailure::new(
            FailureCode::TargetNotActionable,
            format!("{}: {element} did not take focus", describe(target)),
        ));
    }
    Ok(element)
}

/// `check` / `uncheck`: click only when the state differs, then verify it changed.
pub(crate) async fn set_checked(
    ctx: &mut WebContext,
    target: &Target,
    want: bool,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let (point, element) = target::wait_actionable(tab, target, Needs::ENABLED, env).await?;
    let checked_state = || target::call_on(tab, "checked_state", target, json!({}), env.deadline);
    let state = checked_state().await?;
    if state.get("checkable") != Some(&Value::Bool(true)) {
        return Err(StepFailure::new(
            FailureCode::TargetNotActionable,
            format!(
                "{}: {element} is not a checkbox, radio button or switch",
                describe(target)
            ),
        ));
    }
    if state.get("checked") == Some(&Value::Bool(want)) {
        return Ok(detail(StepDetail::Checked {
            element,
            changed: false,
            verified: None,
        }));
    }
    input::mouse_move(tab, point, 0, env.deadline).await?;
    input::press_release(tab, point, Button::Left, 1, env.deadline).await?;
    if tab.dialog().is_some() {
        return Ok(detail(StepDetail::Checked {
            element,
            changed: true,
            verified: Some(false),
        }));
    }
    let after = checked_state().await?;
    if after.get("checked") != Some(&Value::Bool(want)) {
        let word = if want { "checked" } else { "unchecked" };
        return Err(StepFailure::new(
            FailureCode::StateMismatch,
            format!(
                "{}: {element} was clicked but is not {word}",
                describe(target)
            ),
        ));
    }
    Ok(detail(StepDetail::Checked {
        element,
        changed: true,
        verified: None,
    }))
}

/// `drag { source target edge }` with real pointer events: released at the target's centre, or
/// just inside `edge` of it.
pub(crate) async fn drag(
    ctx: &mut WebContext,
    source: &Target,
    destination: &Target,
    edge: Option<DragEdge>,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let (from, source_el) = target::wait_actionable(tab, source, Needs::default(), env).await?;
    let (to, target_el) =
        target::wait_actionable_at(tab, destination, Needs::default(), edge, env).await?;
    input::drag(tab, from, to, env.deadline).await?;
    Ok(detail(StepDetail::Dragged {
        source: source_el,
        target: target_el,
    }))
}

/// `wheel`: at the target's centre, or the viewport's centre without a target.
pub(crate) async fn wheel(
    ctx: &mut WebContext,
    delta_x: i64,
    delta_y: i64,
    modifiers: &[Modifier],
    target: Option<&Target>,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let point = match target {
        Some(t) => {
            target::wait_actionable(tab, t, Needs::default(), env)
                .await?
                .0
        }
        None => Point {
            x: ctx.viewport.0 as f64 / 2.0,
            y: ctx.viewport.1 as f64 / 2.0,
        },
    };
    input::wheel(tab, point, delta_x, delta_y, modifiers, env.deadline).await?;
    Ok(detail(StepDetail::Wheeled {
        x: point.x,
        y: point.y,
        delta_x,
        delta_y,
    }))
}
