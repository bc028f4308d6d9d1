//! Desktop input waits until its element takes it, end to end through the real binary's `run`
//! on `tests/fixtures/gui/later.py` (GTK3): keys (`type`, `fill`, `press` at a target) wait
//! until the target is enabled, showing and focusable and then has the keyboard focus, and the
//! wheel waits as a click does (enabled, stable, hit-tested). A target that never gets there
//! fails with `test.driver.gui.wait_timeout` naming the condition, and nothing is sent. No test
//! sleeps: each waits on the run's exit.

use crate::gui_apps::{self, later_program, run_app, step};
use serde_json::Value;

/// Run `steps` on `later.py`; the JSON result.
fn run_later(steps: &str, want_code: i32) -> Value {
    let command = later_program();
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    run_app(&command, steps, want_code).0
}

/// The run's failure message, after checking that it is a product `wait_timeout`.
fn failure_message(json: &Value) -> String {
    gui_apps::failure_message(json, "test.driver.gui.wait_timeout")
}

#[test]
fn gui_keys_wait_until_their_target_is_enabled_and_focused_and_the_wheel_until_enabled() {
    // The dial, the field and "Go" become sensitive 400 ms after "Start" is clicked: a wheel
    // sent at once goes to an insensitive dial, which drops it. The keyboard focus is then in
    // the field: a Space pressed without focusing "Go" would type into the field, not click.
    let steps = r#"    action_timeout_ms = 5000
    click "start" { target = role("button", "Start") }
    wheel "up" { target = label("Dial") delta_y = -100 }
    expect "dialled" { target = label("Dial") value = "1" }
    type "typed" { target = label("Later field") value = "soon" }
    expect "field" { target = label("Later field") value = "soon" }
    fill "filled" { target = label("Later field") value = "later" }
    expect "refilled" { target = label("Later field") value = "later" }
    press "go" { target = role("button", "Go") key = "Space" }
    expect "went" { text = "Went" }"#;
    let json = run_later(steps, 0);
    let typed = &step(&json, "typed")["detail"];
    assert_eq!(typed["focus"], "click", "{typed}");
    assert!(typed["hit"].as_str().unwrap().contains("text"), "{typed}");
    assert_eq!(typed["keys"], 4, "{typed}");
    let filled = &step(&json, "filled")["detail"];
    assert_eq!(filled["focus"], "had", "{filled}");
    let wheel = &step(&json, "up")["detail"];
    assert_eq!(wheel["input"], "xtest", "{wheel}");
    let go = &step(&json, "go")["detail"];
    assert_eq!(go["focus"], "grab_focus", "{go}");
    assert!(go["element"].as_str().unwrap().contains("\"Go\""), "{go}");
}

#[test]
fn gui_a_key_at_a_target_that_never_becomes_enabled_fails_naming_enabled_and_sends_nothing() {
    for (target, want) in [
        (
            r#"type "t" { target = label("Never field") value = "x" }"#,
            "text \"\" was not enabled",
        ),
        (
            r#"press "p" { target = role("button", "Never") key = "Space" }"#,
            "button \"Never\" was not enabled",
        ),
    ] {
        let steps = format!("    action_timeout_ms = 700\n    {target}");
        let message = failure_message(&run_later(&steps, 1));
        assert!(message.contains(want), "{message}");
        assert!(
            message.contains("within the step's action timeout (700 ms)"),
            "{message}"
        );
        assert!(message.contains("nothing was sent"), "{message}");
    }
}

#[test]
fn gui_a_key_at_a_label_fails_naming_focusable_and_a_wheel_over_a_disabled_dial_names_enabled() {
    let steps = r#"    action_timeout_ms = 700
    press "p" { target = text("Waiting") key = "Space" }"#;
    let message = failure_message(&run_later(steps, 1));
    assert!(
        message.contains("label \"Waiting\" was not focusable"),
        "{message}"
    );
    let steps = r#"    action_timeout_ms = 700
    wheel "w" { target = label("Stuck dial") delta_y = -100 }"#;
    let message = failure_message(&run_later(steps, 1));
    assert!(message.contains("was not enabled"), "{message}");
    assert!(message.contains("nothing was sent"), "{message}");
}
