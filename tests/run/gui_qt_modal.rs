//! A modal Qt dialog through the real binary's `run` (`tests/fixtures/gui/dialogs_qt.py`,
//! PyQt5): Qt 5 marks no window `modal` over AT-SPI and drops every click meant for the window
//! under a modal dialog, so a step on that window once reported success. Now the X server's
//! `_NET_WM_STATE_MODAL` says the dialog is modal (`gui/src/x11_modal.rs`): steps inside it
//! pass, and a click on the main window's button fails — its find narrowed to the dialog, as on
//! GTK — listing the dialog's button. With a non-modal dialog up, a click on the main window
//! goes through and the program counts it.

use crate::gui_apps::{failure_message, run_app, step};
use crate::gui_select::fixture;

/// Run `steps` against the fixture, expecting exit `code`.
fn run_dialogs(steps: &str, code: i32) -> serde_json::Value {
    let command = fixture("dialogs_qt.py");
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    run_app(&command, steps, code).0
}

#[test]
fn gui_a_click_under_a_modal_qt_dialog_fails_and_one_inside_it_passes() {
    // The last find waits the action timeout for the button it never sees.
    let steps = r#"    action_timeout_ms = 3000
    click "open" { target = role("button", "Open modal") }
    click "inside" { target = role("button", "Inside") }
    expect "counted-inside" { text = "Inside: 1" }
    click "count" { target = role("button", "Count") }"#;
    let json = run_dialogs(steps, 1);
    for passed in ["open", "inside", "counted-inside"] {
        assert_eq!(step(&json, passed)["status"], "passed", "{json}");
    }
    let message = failure_message(&json, "test.driver.gui.target_not_found");
    assert!(message.contains("Count"), "{message}");
    assert!(
        message.contains("Inside"),
        "the dialog's button is listed: {message}"
    );
}

#[test]
fn gui_a_click_under_a_non_modal_qt_dialog_goes_through() {
    let steps = r#"    click "open" { target = role("button", "Open loose") }
    expect "shown" { visible = role("button", "Inside") }
    click "count" { target = role("button", "Count") }
    expect "counted" { text = "Clicks: 1" }"#;
    run_dialogs(steps, 0);
}
