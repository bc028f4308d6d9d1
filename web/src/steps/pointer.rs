//! Pointer steps: click, hover, focus, double/context click, check/uncheck, wheel (drag is
//! `drag.rs`). Each
//! waits for an actionable target — for those that press or rest the pointer on it, one that
//! is on top at the action point (`target.rs`) — then dispatches real input exactly once.

use super::Outcome;
use crate::context::{detail, WebContext};
use crate::input::{self, Button, Point};
use crate::target::{self, describe, Aim, Needs};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::{StepDetail, StepEnv, StepFailure};
use a3s_test_lang::ir::{Modifier, PointerOptions, Target};
use serde_json::{json, Value};

/// `click`, `double_click` (`count` 2) and `context_click` (the right button); `pointer` may
/// choose another button, hold modifiers and press at a position of the target.
pub(crate) async fn click_with(
    ctx: &mut WebContext,
    target: &Target,
    pointer: &PointerOptions,
    button: Button,
    count: i64,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let reached = target::point_at(tab, target, Needs::PRESS, pointer.position, env).await?;
    let button = pointer.button.map(Button::from).unwrap_or(button);
    let point = reached.point;
    input::press_release(tab, point, button, count, &pointer.modifiers, env.deadline).await?;
    Ok(detail(StepDetail::Clicked {
        element: reached.element,
        hit: reached.hit,
        x: point.x,
        y: point.y,
    }))
}

/// `hover`, at the centre of the target or at its `position`, with `modifiers` held during
/// the move.
pub(crate) async fn hover(
    ctx: &mut WebContext,
    target: &Target,
    pointer: &PointerOptions,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let aim = Aim {
        position: pointer.position,
        ..Aim::default()
    };
    let reached = target::wait_actionable_at(tab, target, Needs::POINT, aim, env).await?;
    // The modifier keys go down before the move and up after it, as for a click.
    let bits = input::hold_modifiers(tab, &pointer.modifiers, env.deadline).await?;
    let moved = input::mouse_move_with(tab, reached.point, 0, bits, env.deadline).await;
    let released = input::release_modifiers(tab, env.deadline).await;
    moved.and(released)?;
    Ok(detail(StepDetail::Element {
        element: reached.element,
        verified: None,
        hit: Some(reached.hit),
    }))
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
    let element = target::wait_actionable(tab, target, Needs::default(), env)
        .await?
        .element;
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
    let element = target::wait_actionable(tab, target, Needs::PRESS, env)
        .await?
        .element;
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
            hit: None,
        }));
    }
    // The pointer moves onto it and the hit test is made again after the move, as for a click.
    let reached = target::point_at(tab, target, Needs::PRESS, None, env).await?;
    let hit = Some(reached.hit);
    input::press_release(tab, reached.point, Button::Left, 1, &[], env.deadline).await?;
    if tab.dialog().is_some() {
        return Ok(detail(StepDetail::Checked {
            element,
            changed: true,
            verified: Some(false),
            hit,
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
        hit,
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
                .point
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
