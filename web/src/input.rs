//! Real input: `Input.dispatchMouseEvent` / `Input.dispatchKeyEvent` / `Input.insertText`.
//!
//! A handler that opens `alert()` keeps the renderer busy, so Chrome answers the input command
//! only after the dialog closes. Each dispatch therefore races the tab's dialog signal: once a
//! dialog is open the input has evidently been delivered and the step goes on (the dialog is then
//! handled by a `dialog` step).

use super::cdp::COMMAND_BOUND;
use super::keys::{self, KeyDef};
use super::tab::Tab;
use a3s_test_driver::StepFailure;
use a3s_test_lang::ir::{Modifier, MouseButton};
use serde_json::{json, Value};
use tokio::time::Instant;

/// A point in CSS pixels of the top-level viewport.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Point {
    /// Horizontal position.
    pub x: f64,
    /// Vertical position.
    pub y: f64,
}

/// Mouse buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Button {
    /// Primary.
    Left,
    /// Secondary (context menu).
    Right,
    /// The wheel button (auxiliary click; opens a link in a new tab).
    Middle,
}

impl Button {
    fn name(self) -> &'static str {
        match self {
            Button::Left => "left",
            Button::Right => "right",
            Button::Middle => "middle",
        }
    }

    /// The `buttons` bit of this button while it is down (`MouseEvent.buttons`).
    fn mask(self) -> i64 {
        match self {
            Button::Left => 1,
            Button::Right => 2,
            Button::Middle => 4,
        }
    }
}

impl From<MouseButton> for Button {
    fn from(b: MouseButton) -> Button {
        match b {
            MouseButton::Left => Button::Left,
            MouseButton::Right => Button::Right,
            MouseButton::Middle => Button::Middle,
        }
    }
}

/// Send one `Input.*` command, treating a dialog that opens meanwhile as delivery.
pub(crate) async fn dispatch(
    tab: &Tab,
    method: &'static str,
    params: Value,
    deadline: Instant,
) -> Result<(), StepFailure> {
    tab.fail_if_dialog()?;
    let call = tab.session.call(method, params, COMMAND_BOUND, deadline);
    tokio::select! {
        result = call => result.map(|_| ()),
        _ = tab.dialog_opened() => Ok(()),
    }
}

/// Move the pointer.
pub(crate) async fn mouse_move(
    tab: &Tab,
    p: Point,
    buttons: i64,
    deadline: Instant,
) -> Result<(), StepFailure> {
    mouse_move_with(tab, p, buttons, 0, deadline).await
}

/// Move the pointer with CDP modifier bits `modifiers` held (`hover { modifiers }`).
pub(crate) async fn mouse_move_with(
    tab: &Tab,
    p: Point,
    buttons: i64,
    modifiers: i64,
    deadline: Instant,
) -> Result<(), StepFailure> {
    let params = json!({ "type": "mouseMoved", "x": p.x, "y": p.y, "buttons": buttons, "button": if buttons == 1 { "left" } else { "none" }, "modifiers": modifiers });
    dispatch(tab, "Input.dispatchMouseEvent", params, deadline).await
}

/// Press and release `button` at `p` (where the pointer already is), `count` times, with
/// `modifiers` held: each modifier key goes down first and up last, as a person's would, and
/// every mouse event carries them (`ctrlKey`, …), so a page and the browser (Control+click
/// opens a link in a new tab) both see the chord. The keys come up again however the press
/// ends (see [`release_modifiers`]).
pub(crate) async fn press_release(
    tab: &Tab,
    p: Point,
    button: Button,
    count: i64,
    modifiers: &[Modifier],
    deadline: Instant,
) -> Result<(), StepFailure> {
    let bits = hold_modifiers(tab, modifiers, deadline).await?;
    let pressed = async {
        for n in 1..=count {
            for kind in ["mousePressed", "mouseReleased"] {
                mouse_button(tab, kind, p, button, n, bits, deadline).await?;
                if tab.dialog().is_some() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
    .await;
    let released = release_modifiers(tab, deadline).await;
    pressed.and(released)
}

/// Put `modifiers` down in order (after releasing any still held from an earlier step); their
/// CDP modifier bits. They stay recorded as held until [`release_modifiers`] lets them up.
pub(crate) async fn hold_modifiers(
    tab: &Tab,
    modifiers: &[Modifier],
    deadline: Instant,
) -> Result<i64, StepFailure> {
    release_modifiers(tab, deadline).await?;
    let mut bits = 0;
    for m in modifiers {
        bits |= keys::modifier_bit(*m);
        tab.state
            .held_modifiers
            .lock()
            .expect("held modifiers lock")
            .push(*m);
        let key = keys::modifier_key(*m);
        key_event(tab, "rawKeyDown", &key, bits, None, deadline).await?;
    }
    Ok(bits)
}

/// Let every held modifier up, in reverse order. While a JavaScript dialog is open no key can
/// reach the page: the keys stay recorded as held and come up before the next input, or when a
/// `dialog` step has handled the dialog.
pub(crate) async fn release_modifiers(tab: &Tab, deadline: Instant) -> Result<(), StepFailure> {
    if tab.dialog().is_some() {
        return Ok(());
    }
    let held: Vec<Modifier> = tab
        .state
        .held_modifiers
        .lock()
        .expect("held modifiers lock")
        .clone();
    let mut bits: i64 = held.iter().map(|m| keys::modifier_bit(*m)).sum();
    for m in held.iter().rev() {
        bits &= !keys::modifier_bit(*m);
        key_event(tab, "keyUp", &keys::modifier_key(*m), bits, None, deadline).await?;
        tab.state
            .held_modifiers
            .lock()
            .expect("held modifiers lock")
            .pop();
    }
    Ok(())
}

/// One press (`mousePressed`) or release (`mouseReleased`) of `button` at `p`.
async fn mouse_button(
    tab: &Tab,
    kind: &'static str,
    p: Point,
    button: Button,
    count: i64,
    modifiers: i64,
    deadline: Instant,
) -> Result<(), StepFailure> {
    let buttons = if kind == "mousePressed" {
        button.mask()
    } else {
        0
    };
    let params = json!({
        "type": kind, "x": p.x, "y": p.y, "button": button.name(),
        "buttons": buttons, "clickCount": count, "modifiers": modifiers,
    });
    dispatch(tab, "Input.dispatchMouseEvent", params, deadline).await
}

/// Press (`mousePressed`) or release (`mouseReleased`) the left button at `p`, once: the two
/// ends of a drag (`steps/drag.rs`), which moves in between with the button held.
pub(crate) async fn left_button(
    tab: &Tab,
    kind: &'static str,
    p: Point,
    deadline: Instant,
) -> Result<(), StepFailure> {
    mouse_button(tab, kind, p, Button::Left, 1, 0, deadline).await
}

/// A mouse wheel event at `p`.
pub(crate) async fn wheel(
    tab: &Tab,
    p: Point,
    delta_x: i64,
    delta_y: i64,
    modifiers: &[Modifier],
    deadline: Instant,
) -> Result<(), StepFailure> {
    let bits: i64 = modifiers.iter().map(|m| keys::modifier_bit(*m)).sum();
    mouse_move(tab, p, 0, deadline).await?;
    let params = json!({
        "type": "mouseWheel", "x": p.x, "y": p.y, "deltaX": delta_x, "deltaY": delta_y,
        "modifiers": bits,
    });
    dispatch(tab, "Input.dispatchMouseEvent", params, deadline).await
}

async fn key_event(
    tab: &Tab,
    kind: &'static str,
    key: &KeyDef,
    modifiers: i64,
    text: Option<&str>,
    deadline: Instant,
) -> Result<(), StepFailure> {
    let mut params = json!({
        "type": kind,
        "key": key.key,
        "code": key.code,
        "windowsVirtualKeyCode": key.key_code,
        "nativeVirtualKeyCode": key.key_code,
        "modifiers": modifiers,
        "location": key.location,
    });
    if let Some(text) = text {
        params["text"] = json!(text);
        params["unmodifiedText"] = json!(text);
    }
    dispatch(tab, "Input.dispatchKeyEvent", params, deadline).await
}

/// Press one key (down + up) with `modifiers` held, as a keyboard would.
pub(crate) async fn press(
    tab: &Tab,
    key: &KeyDef,
    modifiers: &[Modifier],
    deadline: Instant,
) -> Result<(), StepFailure> {
    let bits = hold_modifiers(tab, modifiers, deadline).await?;
    let shift = bits & 8 != 0;
    let command = bits & (1 | 2 | 4) != 0;
    let mut key = key.clone();
    if shift && key.key.len() == 1 {
        key.key = key.key.to_uppercase();
        key.text = key.text.map(|t| t.to_uppercase());
    }
    // A key with text produces `keypress`/`input`; chords with Control/Alt/Meta insert nothing.
    let text = if command { None } else { key.text.clone() };
    let down = if text.is_some() {
        "keyDown"
    } else {
        "rawKeyDown"
    };
    key_event(tab, down, &key, bits, text.as_deref(), deadline).await?;
    if tab.dialog().is_some() {
        return Ok(());
    }
    key_event(tab, "keyUp", &key, bits, None, deadline).await?;
    release_modifiers(tab, deadline).await
}

/// Type `text` one keystroke per character.
pub(crate) async fn type_text(tab: &Tab, text: &str, deadline: Instant) -> Result<(), StepFailure> {
    for c in text.chars() {
        press(tab, &keys::char_key(c), &[], deadline).await?;
        if tab.dialog().is_some() {
            break;
        }
    }
    Ok(())
}

/// Insert text at the caret (IME-style, one `input` event).
pub(crate) async fn insert_text(
    tab: &Tab,
    text: &str,
    deadline: Instant,
) -> Result<(), StepFailure> {
    dispatch(tab, "Input.insertText", json!({ "text": text }), deadline).await
}
