//! Keyboard steps: fill (replace), type (append keystrokes), insert_text, select, press.

use super::Outcome;
use crate::context::{detail, WebContext};
use crate::target::{self, describe, Needs};
use crate::{input, keys, review_overlay};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::vars::Text;
use a3s_test_driver::{StepDetail, StepEnv, StepFailure};
use a3s_test_lang::ir::{KeyChord, Target};
use serde_json::{json, Value};

/// `fill`: focus, select everything, insert the value (or set it for date/colour/range inputs),
/// then verify the control holds it. A concealed text (`env("NAME")`) is never quoted, and
/// neither is what the control holds instead (it may be part of the secret).
pub(crate) async fn fill(
    ctx: &mut WebContext,
    target: &Target,
    text: &Text<'_>,
    env: &StepEnv<'_>,
) -> Outcome {
    let value = text.as_str();
    let tab = ctx.tab()?;
    let element = target::wait_actionable(tab, target, Needs::EDITABLE, env)
        .await?
        .element;
    let prepared = target::call_on(tab, "prepare_fill", target, json!({}), env.deadline).await?;
    if prepared.get("mode").and_then(Value::as_str) == Some("set") {
        let args = json!({ "value": value });
        target::call_on(tab, "set_value", target, args, env.deadline).await?;
    } else if value.is_empty() {
        let delete = keys::named_key("Delete").expect("Delete is a known key");
        input::press(tab, &delete, &[], env.deadline).await?;
    } else {
        input::insert_text(tab, value, env.deadline).await?;
    }
    if tab.dialog().is_some() {
        return Ok(detail(StepDetail::Element {
            element,
            verified: Some(false),
            hit: None,
        }));
    }
    let read = target::call_on(tab, "read_value", target, json!({}), env.deadline).await?;
    let have = read.get("value").and_then(Value::as_str);
    let secret = read.get("secret") == Some(&Value::Bool(true));
    let normalised = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let matches = have == Some(value) || have.map(normalised) == Some(normalised(value));
    if !matches {
        let shown = if text.is_concealed() {
            format!("a different value than {} (not shown)", text.shown())
        } else if secret {
            "a different (secret) value".to_string()
        } else {
            format!("{:?}", have.unwrap_or(""))
        };
        return Err(StepFailure::new(
            FailureCode::ValueMismatch,
            format!(
                "{}: after filling, {element} holds {shown}",
                describe(target)
            ),
        ));
    }
    Ok(detail(StepDetail::element(element)))
}

/// `type`: focus with the caret at the end and send one keystroke per character. The detail
/// counts the keystrokes, except for a concealed text, whose length is not shown either.
pub(crate) async fn type_into(
    ctx: &mut WebContext,
    target: &Target,
    text: &Text<'_>,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let element = target::wait_actionable(tab, target, Needs::EDITABLE, env)
        .await?
        .element;
    target::call_on(tab, "focus_end", target, json!({}), env.deadline).await?;
    input::type_text(tab, text.as_str(), env.deadline).await?;
    if text.is_concealed() {
        return Ok(detail(StepDetail::element(element)));
    }
    Ok(detail(StepDetail::Typed {
        element,
        keys: text.as_str().chars().count(),
    }))
}

/// `insert_text`: at the current caret, no target. The detail counts the characters, except for
/// a concealed text (no detail: its length is not shown either).
pub(crate) async fn insert_text(
    ctx: &mut WebContext,
    text: &Text<'_>,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    review_overlay::refuse_focus(tab, "insert_text", env.deadline).await?;
    input::insert_text(tab, text.as_str(), env.deadline).await?;
    if text.is_concealed() {
        return Ok(a3s_test_driver::StepOutput::default());
    }
    Ok(detail(StepDetail::Chars {
        chars: text.as_str().chars().count(),
    }))
}

/// `select`: choose options by value or label; `input` and `change` are dispatched.
pub(crate) async fn select(
    ctx: &mut WebContext,
    target: &Target,
    values: &[String],
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let element = target::wait_actionable(tab, target, Needs::ENABLED, env)
        .await?
        .element;
    let args = json!({ "values": values });
    let r = target::call_on(tab, "select_options", target, args, env.deadline).await?;
    if let Some(error) = r.get("problem").and_then(Value::as_str) {
        return Err(StepFailure::new(
            FailureCode::SelectionMismatch,
            format!("{}: {error}", describe(target)),
        ));
    }
    let selected = r
        .get("selected")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    Ok(detail(StepDetail::Selected { element, selected }))
}

/// `press`: a key or chord to the focused element or, with a target, to that element: the
/// key is checked first, then the target is focused (as `focus` does) and the key sent, all in
/// one step, so an agent's "press Enter in @e4" is one dispatch and one record.
pub(crate) async fn press(
    ctx: &mut WebContext,
    chord: &KeyChord,
    into: Option<&Target>,
    env: &StepEnv<'_>,
) -> Outcome {
    let Some(key) = keys::named_key(&chord.key) else {
        return Err(StepFailure::new(
            FailureCode::Unsupported,
            format!(
                "unknown key {:?} (use a character or a key name such as Enter, ArrowDown, F5)",
                chord.key
            ),
        ));
    };
    let element = match into {
        Some(t) => Some(super::pointer::focus_element(ctx, t, env).await?),
        None => None,
    };
    let tab = ctx.tab()?;
    if element.is_none() {
        review_overlay::refuse_focus(tab, &format!("press {:?}", chord.key), env.deadline).await?;
    }
    input::press(tab, &key, &chord.modifiers, env.deadline).await?;
    Ok(detail(StepDetail::Pressed {
        key: key.key,
        modifiers: chord.modifiers.clone(),
        element,
    }))
}
