//! Keyboard steps: fill (replace), type (append keystrokes), insert_text, select, press.

use crate::failure::FailureCode;
use crate::web::cdp::COMMAND_BOUND;
use crate::web::context::{detail, WebContext};
use crate::web::target::{self, describe, Needs};
use crate::web::{input, keys, script};
use crate::{StepEnv, StepFailure, StepOutput};
use a3s_test_lang::ir::{KeyChord, Target};
use serde_json::{json, Value};

/// `fill`: focus, select everything, insert the value (or set it for date/colour/range inputs),
/// then verify the control holds it.
pub(crate) async fn fill(
    ctx: &mut WebContext,
    target: &Target,
    value: &str,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let tab = ctx.tab()?;
    let (_, element) = target::wait_actionable(tab, target, Needs::EDITABLE, env).await?;
    let named = |f| target::name_target(f, target);
    let args = json!({ "target": target });
    let prepared = script::call(
        tab,
        "prepare_fill",
        args.clone(),
        COMMAND_BOUND,
        env.deadline,
    )
    .await
    .map_err(named)?;
    if prepared.get("mode").and_then(Value::as_str) == Some("set") {
        let args = json!({ "target": target, "value": value });
        script::call(tab, "set_value", args, COMMAND_BOUND, env.deadline)
            .await
            .map_err(named)?;
    } else if value.is_empty() {
        let delete = keys::named_key("Delete").expect("Delete is a known key");
        input::press(tab, &delete, &[], env.deadline).await?;
    } else {
        input::insert_text(tab, value, env.deadline).await?;
    }
    if tab.dialog().is_some() {
        return Ok(detail(json!({ "element": element, "verified": false })));
    }
    let read = script::call(tab, "read_value", args, COMMAND_BOUND, env.deadline)
        .await
        .map_err(named)?;
    let have = read.get("value").and_then(Value::as_str);
    let secret = read.get("secret") == Some(&Value::Bool(true));
    let normalised = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let matches = have == Some(value) || have.map(normalised) == Some(normalised(value));
    if !matches {
        let shown = if secret {
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
    Ok(detail(json!({ "element": element })))
}

/// `type`: focus with the caret at the end and send one keystroke per character.
pub(crate) async fn type_into(
    ctx: &mut WebContext,
    target: &Target,
    value: &str,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let tab = ctx.tab()?;
    let (_, element) = target::wait_actionable(tab, target, Needs::EDITABLE, env).await?;
    script::call(
        tab,
        "focus_end",
        json!({ "target": target }),
        COMMAND_BOUND,
        env.deadline,
    )
    .await
    .map_err(|f| target::name_target(f, target))?;
    input::type_text(tab, value, env.deadline).await?;
    Ok(detail(
        json!({ "element": element, "keys": value.chars().count() }),
    ))
}

/// `insert_text`: at the current caret, no target.
pub(crate) async fn insert_text(
    ctx: &mut WebContext,
    value: &str,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let tab = ctx.tab()?;
    input::insert_text(tab, value, env.deadline).await?;
    Ok(detail(json!({ "chars": value.chars().count() })))
}

/// `select`: choose options by value or label; `input` and `change` are dispatched.
pub(crate) async fn select(
    ctx: &mut WebContext,
    target: &Target,
    values: &[String],
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    let tab = ctx.tab()?;
    let (_, element) = target::wait_actionable(tab, target, Needs::ENABLED, env).await?;
    let args = json!({ "target": target, "values": values });
    let r = script::call(tab, "select_options", args, COMMAND_BOUND, env.deadline)
        .await
        .map_err(|f| target::name_target(f, target))?;
    if let Some(error) = r.get("problem").and_then(Value::as_str) {
        return Err(StepFailure::new(
            FailureCode::SelectionMismatch,
            format!("{}: {error}", describe(target)),
        ));
    }
    Ok(detail(
        json!({ "element": element, "selected": r.get("selected").cloned().unwrap_or(Value::Null) }),
    ))
}

/// `press`: a key or chord to the focused element or, with a target, to that element: the
/// key is checked first, then the target is focused (as `focus` does) and the key sent, all in
/// one step, so an agent's "press Enter in @e4" is one dispatch and one record.
pub(crate) async fn press(
    ctx: &mut WebContext,
    chord: &KeyChord,
    into: Option<&Target>,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
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
        Some(t) => super::pointer::focus(ctx, t, env)
            .await?
            .detail
            .and_then(|d| d.get("element").cloned()),
        None => None,
    };
    let tab = ctx.tab()?;
    input::press(tab, &key, &chord.modifiers, env.deadline).await?;
    let mut out = json!({ "key": key.key, "modifiers": chord.modifiers });
    if let Some(element) = element {
        out["element"] = element;
    }
    Ok(detail(out))
}
