//! Desktop subjects beyond GTK4, end to end through the real binary's `run`: `yad --form` (GTK3:
//! fields found by `label(…)`, a check box checked and unchecked, a spin button moved by the
//! wheel, and an OK whose click ends the program — the step passes, records the exit and keeps
//! the program's stdout as evidence), Qt5's calculator example, and `automation_id(…)` on a
//! GTK3 program that sets accessible ids (`tests/fixtures/gui/ids.py`, whose combo box and list
//! also take `select`, whose button takes `click { via = "action" }` and whose list's cells
//! `via = "action:activate"`) and on one that sets none (a coded failure with the hint), and an
//! Enter into a field that waits for the default button it presses
//! (`tests/fixtures/gui/default.py`, mousepad's file chooser). Each run's desktop is its own; no
//! test sleeps.

use crate::common::workdir;
use crate::harness::{repo, run, RUN_BOUND};
use serde_json::Value;

/// Debian's path of Qt5's calculator example (`qtbase5-examples`).
const QT_CALCULATOR: &str =
    "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator";

/// A project whose `gui` block runs `command`.
fn project(command: &[&str]) -> String {
    let quoted: Vec<String> = command.iter().map(|c| format!("{c:?}")).collect();
    format!(
        "project \"p\" {{\n  gui {{\n    command = [{}]\n  }}\n}}\n",
        quoted.join(", ")
    )
}

/// One desktop scenario holding `steps`.
fn scenario(steps: &str) -> String {
    format!(
        "suite \"app\" {{\n  scenario \"s\" {{\n    surface = \"gui\"\n    timeout_ms = 60000\n{steps}\n  }}\n}}\n"
    )
}

/// Run `steps` against `command`; the JSON result.
pub(crate) fn run_app(command: &[&str], steps: &str, want_code: i32) -> (Value, tempfile::TempDir) {
    let work = workdir(&[
        (".a3s-test/project.acl", &project(command)),
        ("app.acl", &scenario(steps)),
    ]);
    let done = run(&["--json", "app.acl"], work.path(), RUN_BOUND);
    assert_eq!(done.code, want_code, "{}\n{}", done.stdout, done.stderr);
    (done.json(), work)
}

/// The step labelled `label` of the first scenario in a run's JSON result.
pub(crate) fn step<'a>(json: &'a Value, label: &str) -> &'a Value {
    json["scenarios"][0]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["label"] == label)
        .unwrap_or_else(|| panic!("no step {label} in {json}"))
}

/// The first scenario's failure message, after checking that its code is `code` (a product
/// failure: every desktop code these tests meet is one).
pub(crate) fn failure_message(json: &Value, code: &str) -> String {
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(failure["code"], code, "{failure}");
    assert_eq!(failure["failure_class"], "product", "{failure}");
    failure["message"].as_str().unwrap().to_owned()
}

#[test]
fn gui_yad_form_filled_by_label_ok_ends_it_and_its_stdout_is_evidence() {
    let steps = r#"    fill "name" { target = label("Name") value = "Ada Lovelace" }
    fill "city" { target = label("City") value = "London" }
    check "agree" { target = role("checkbox", "Agree") }
    expect "agreed" { checked = role("checkbox", "Agree") }
    uncheck "disagree" { target = role("check box", "Agree") }
    expect "not-agreed" { unchecked = role("checkbox", "Agree") }
    check "agree-again" { target = role("checkbox", "Agree") }
    check "still-agreed" { target = role("checkbox", "Agree") }
    wheel "up" { target = label("Count") delta_y = -100 }
    expect "count" { target = label("Count") value = "1" }
    click "ok" { target = role("button", "OK") }"#;
    let (json, work) = run_app(
        &[
            "yad",
            "--form",
            "--field=Name",
            "--field=City",
            "--field=Agree:CHK",
            "--field=Count:NUM",
        ],
        steps,
        0,
    );
    let name = &step(&json, "name")["detail"];
    assert_eq!(name["element"], "text \"\"", "{name}");
    assert_eq!(name["keys"], 12, "{name}");
    // A check on a checked box sends nothing.
    assert_eq!(step(&json, "still-agreed")["detail"]["changed"], false);
    assert_eq!(step(&json, "agree")["detail"]["input"], "xtest");
    let wheel = &step(&json, "up")["detail"];
    assert_eq!(wheel["element"], "spin button \"\"", "{wheel}");
    // The click that ends the program passes and says how it ended; no step before it did.
    let ok = step(&json, "ok");
    assert_eq!(ok["status"], "passed", "{ok}");
    assert_eq!(ok["detail"]["program_exit"], "exit code 0", "{ok}");
    assert!(step(&json, "city")["detail"].get("program_exit").is_none());
    let out = &ok["evidence"][0];
    assert_eq!(out["kind"], "program_output", "{ok}");
    let stdout = std::fs::read_to_string(work.path().join(out["path"].as_str().unwrap())).unwrap();
    assert_eq!(stdout.trim_end(), "Ada Lovelace|London|TRUE|1|");
}

#[test]
fn gui_a_step_after_the_program_ended_is_window_gone() {
    let steps = r#"    click "ok" { target = role("button", "OK") }
    click "again" { target = role("button", "OK") }"#;
    let (json, _work) = run_app(&["yad", "--form", "--field=Name"], steps, 1);
    assert_eq!(step(&json, "ok")["detail"]["program_exit"], "exit code 0");
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.driver.gui.window_gone", "{failure}");
    assert!(failure["message"].as_str().unwrap().contains("exit code 0"));
}

#[test]
fn gui_the_qt5_calculator_computes_through_run() {
    let steps = r#"    click "seven" { target = role("button", "7") }
    click "times" { target = role("button", "×") }
    click "six" { target = role("button", "6") }
    click "equals" { target = role("button", "=") }
    expect "answer" { target = role("textbox") value = "42" }"#;
    let (json, _work) = run_app(&[QT_CALCULATOR], steps, 0);
    let seven = &step(&json, "seven")["detail"];
    assert_eq!(seven["input"], "xtest", "{seven}");
    assert!(seven["hit"].as_str().unwrap().contains('7'), "{seven}");
}

/// `tests/fixtures/gui/ids.py`'s command line (Debian's Python, which has GTK's bindings).
fn ids_program() -> Vec<String> {
    let script = repo().join("tests/fixtures/gui/ids.py");
    vec!["/usr/bin/python3".into(), script.display().to_string()]
}

#[test]
fn gui_automation_id_finds_the_ids_a_toolkit_sets_and_lists_them_on_a_miss() {
    let steps = r#"    action_timeout_ms = 300
    click "save" { target = automation_id("save-button") }
    expect "saved" { target = automation_id("status") rendered_text = "Saved" }
    click "missing" { target = automation_id("nothing-here") }"#;
    let command = ids_program();
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (json, _work) = run_app(&command, steps, 1);
    assert_eq!(step(&json, "save")["status"], "passed");
    assert_eq!(step(&json, "saved")["status"], "passed");
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.driver.gui.target_not_found");
    assert_eq!(failure["failure_class"], "product");
    let message = failure["message"].as_str().unwrap();
    assert!(
        message.contains("\"save-button\" (button \"Save\")"),
        "{message}"
    );
}

/// `select` with real input: the combo box is clicked open and its option clicked in GTK3's
/// popup window, the list's row is clicked (then two rows, the second Control+clicked), each
/// choice read back; `click { via = "action" }`
/// performs the button's accessibility action, and the JSON report says which path ran.
#[test]
fn gui_select_chooses_in_a_combo_box_and_a_list_and_a_click_via_action_is_recorded() {
    let steps = r#"    select "colour" { target = automation_id("colour") values = ["Green"] }
    expect "colour-shown" { target = automation_id("colour") value = "Green" }
    expect "status-colour" { text = "Colour Green" }
    select "fruit" { target = automation_id("fruit") values = ["Banana"] }
    expect "row-selected" { selected = role("table cell", "Banana") }
    expect "status-fruit" { text = "Fruit Banana" }
    select "fruits" { target = automation_id("fruit") values = ["Apple", "Cherry"] }
    expect "status-fruits" { text = "Fruit Apple, Cherry" }
    expect "banana-dropped" { unselected = role("table cell", "Banana") }
    select "colour-again" { target = role("combo box") values = ["Blue"] }
    expect "status-blue" { text = "Colour Blue" }
    click "save" { target = role("button", "Save") via = "action" }
    expect "saved" { text = "Saved" }"#;
    let command = ids_program();
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (json, _work) = run_app(&command, steps, 0);
    let colour = &step(&json, "colour")["detail"];
    assert_eq!(colour["input"], "xtest", "{colour}");
    assert_eq!(
        colour["element"], "menu item \"Green\" in combo box \"\"",
        "{colour}"
    );
    assert_eq!(colour["hit"], "menu item \"Green\"", "{colour}");
    let fruit = &step(&json, "fruit")["detail"];
    assert_eq!(
        fruit["element"], "table cell \"Banana\" in table \"\"",
        "{fruit}"
    );
    let save = &step(&json, "save")["detail"];
    assert_eq!(save["input"], "accessibility_action", "{save}");
    assert_eq!(save["action"], "click", "{save}");
    assert!(
        save.get("x").is_none() && save.get("hit").is_none(),
        "{save}"
    );
}

/// An option the combo box does not have fails before anything is sent, listing the options;
/// an element with no click-like action fails naming the actions it has (none); a `select` on
/// a button is the suite's mistake.
#[test]
fn gui_select_of_a_missing_option_and_a_click_via_a_missing_action_are_coded_failures() {
    let command = ids_program();
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let steps = r#"    select "colour" { target = role("combo box") values = ["Purple"] }"#;
    let (json, _work) = run_app(&command, steps, 1);
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(
        failure["code"], "test.driver.gui.option_not_found",
        "{failure}"
    );
    assert_eq!(failure["failure_class"], "product", "{failure}");
    let message = failure["message"].as_str().unwrap();
    assert!(
        message.contains(r#"has no option "Purple"; its options: "Red", "Green", "Blue""#),
        "{message}"
    );

    let steps = r#"    click "status" { target = automation_id("status") via = "action" }"#;
    let (json, _work) = run_app(&command, steps, 1);
    let message = failure_message(&json, "test.driver.gui.action_missing");
    assert!(message.contains("its actions: none"), "{message}");

    // A target that cannot be chosen in blames the suite: a specification failure, exit 2.
    let steps = r#"    select "button" { target = role("button", "Save") values = ["Saved"] }"#;
    let (json, _work) = run_app(&command, steps, 2);
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(
        failure["code"], "test.driver.gui.not_selectable",
        "{failure}"
    );
    assert_eq!(failure["failure_class"], "specification", "{failure}");
}

/// `via = "action:NAME"` performs the action of that name: a GTK3 table cell has `expand or
/// contract`, `edit` and `activate`, and only `activate` fires the list's row activation. A
/// name the element does not have fails before anything is performed, listing its actions.
#[test]
fn gui_a_click_via_a_named_action_performs_that_action_and_a_missing_one_is_coded() {
    let command = ids_program();
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let steps = r#"    click "open" { target = role("table cell", "Banana") via = "action:activate" }
    expect "activated" { text = "Activated Banana" }"#;
    let (json, _work) = run_app(&command, steps, 0);
    let open = &step(&json, "open")["detail"];
    assert_eq!(open["input"], "accessibility_action", "{open}");
    assert_eq!(open["action"], "activate", "{open}");

    let steps = r#"    click "toggle" { target = role("button", "Save") via = "action:toggle" }"#;
    let (json, _work) = run_app(&command, steps, 1);
    let message = failure_message(&json, "test.driver.gui.action_missing");
    assert!(
        message.contains("has no `toggle` action; its actions: click"),
        "{message}"
    );
}

/// yad's `:CB` form field is a GTK3 combo box found by its label; the chosen option is what yad
/// prints once OK ends it.
#[test]
fn gui_select_in_a_yad_combo_field_is_what_yad_prints() {
    let steps = r#"    select "colour" { target = label("Colour") values = ["Green"] }
    expect "shown" { target = label("Colour") value = "Green" }
    click "ok" { target = role("button", "OK") }"#;
    let (json, work) = run_app(
        &["yad", "--form", "--field=Colour:CB", "Red!Green!Blue"],
        steps,
        0,
    );
    let ok = step(&json, "ok");
    assert_eq!(ok["detail"]["program_exit"], "exit code 0", "{ok}");
    let out = &ok["evidence"][0];
    let stdout = std::fs::read_to_string(work.path().join(out["path"].as_str().unwrap())).unwrap();
    assert_eq!(stdout.trim_end(), "Green|");
}

#[test]
fn gui_automation_id_on_a_toolkit_that_sets_none_says_so_with_a_hint() {
    let steps = r#"    action_timeout_ms = 300
    click "missing" { target = automation_id("ok") }"#;
    let (json, _work) = run_app(&["yad", "--form", "--field=Name"], steps, 1);
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.driver.gui.target_not_found");
    let message = failure["message"].as_str().unwrap();
    assert!(
        message.contains("no element of this program has an accessible id"),
        "{message}"
    );
    assert!(
        message.contains("role(…), label(…) or text(…)"),
        "{message}"
    );
}

/// `tests/fixtures/gui/later.py`'s command line: controls that take input later, or never.
pub(crate) fn later_program() -> Vec<String> {
    let script = repo().join("tests/fixtures/gui/later.py");
    vec!["/usr/bin/python3".into(), script.display().to_string()]
}

#[test]
fn gui_a_click_waits_until_its_button_is_enabled_and_then_lands() {
    // "Go" becomes sensitive 400 ms after "Start" is clicked: the click waits for it (a click
    // sent while it is insensitive is dropped by GTK, and "Went" would never show).
    let steps = r#"    action_timeout_ms = 5000
    click "start" { target = role("button", "Start") }
    click "go" { target = role("button", "Go") }
    expect "went" { text = "Went" }"#;
    let command = later_program();
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (json, _work) = run_app(&command, steps, 0);
    let go = step(&json, "go");
    assert_eq!(go["status"], "passed", "{go}");
    assert_eq!(go["detail"]["input"], "xtest", "{go}");
    assert!(go["detail"]["hit"].as_str().unwrap().contains("Go"), "{go}");
}

#[test]
fn gui_a_click_on_a_button_that_never_becomes_enabled_fails_naming_enabled() {
    let steps = r#"    action_timeout_ms = 700
    click "never" { target = role("button", "Never") }"#;
    let command = later_program();
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (json, _work) = run_app(&command, steps, 1);
    let message = not_enabled_within_700_ms(&json);
    assert!(
        message.contains("button \"Never\" was not enabled"),
        "{message}"
    );
}

/// The message of a run's failure that is a target not enabled within a 700 ms action
/// timeout, nothing sent (a product failure).
fn not_enabled_within_700_ms(json: &Value) -> String {
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(failure["code"], "test.driver.gui.wait_timeout", "{failure}");
    assert_eq!(failure["failure_class"], "product", "{failure}");
    let message = failure["message"].as_str().unwrap().to_owned();
    assert!(
        message.contains("enabled within the step's action timeout (700 ms)"),
        "{message}"
    );
    assert!(message.contains("nothing was sent"), "{message}");
    message
}

/// A project running mousepad in `dir` with private settings, data and cache folders (mousepad
/// restores an earlier session's documents from its data folder) on a desktop tall enough for
/// GTK3's file chooser (1096×856 px whatever the screen: on 800 rows its name entry is off it).
fn mousepad_project(dir: &std::path::Path) -> String {
    let env: Vec<String> = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"]
        .iter()
        .map(|name| {
            let path = dir.join(name.to_lowercase());
            std::fs::create_dir_all(&path).unwrap();
            format!("{name} = {:?}", path.display().to_string())
        })
        .collect();
    format!(
        "project \"p\" {{\n  gui {{\n    command = [\"mousepad\"]\n    cwd = {:?}\n    env = {{ {} }}\n    height = 1000\n  }}\n}}\n",
        dir.display().to_string(),
        env.join(", ")
    )
}

#[test]
fn gui_mousepad_saves_typed_text_through_its_file_chooser() {
    // The chooser opens in the program's working directory; its name entry is found by its
    // label inside the modal dialog, and Enter right after the fill saves: GTK3 enables Save
    // only 300 ms after the name last changed, and the press waits for that default button.
    // The title then names the file.
    let steps = r#"    type "text" { target = role("text") value = "Hello, desktop!" }
    press "save" { target = role("text") key = "Control+s" }
    fill "name" { target = label("Name:") value = "note.txt" }
    press "enter" { target = label("Name:") key = "Enter" }
    expect "closed" { hidden = label("Name:") }
    expect "titled" { text = "note.txt" }"#;
    let work = workdir(&[("app.acl", &scenario(steps))]);
    let folder = work.path().join("docs");
    std::fs::create_dir_all(work.path().join(".a3s-test")).unwrap();
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        work.path().join(".a3s-test/project.acl"),
        mousepad_project(&folder),
    )
    .unwrap();
    let done = run(&["--json", "app.acl"], work.path(), RUN_BOUND);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let name = &step(&json, "name")["detail"];
    assert_eq!(name["input"], "xtest", "{name}");
    let saved = std::fs::read_to_string(folder.join("note.txt")).unwrap();
    assert_eq!(saved.trim_end(), "Hello, desktop!");
}

/// `tests/fixtures/gui/default.py`'s command line: an entry whose Enter presses a default
/// button enabled only on a timer after the entry changes.
fn default_program() -> Vec<String> {
    let script = repo().join("tests/fixtures/gui/default.py");
    vec!["/usr/bin/python3".into(), script.display().to_string()]
}

#[test]
fn gui_enter_after_fill_waits_for_the_default_button_it_presses() {
    // "OK" becomes sensitive 300 ms after the name last changed; an Enter sent before that is
    // dropped by GTK, so "Saved note" shows only because the press waited.
    let steps = r#"    fill "name" { target = label("Name") value = "note" }
    press "enter" { target = label("Name") key = "Enter" }
    expect "saved" { text = "Saved note" }"#;
    let command = default_program();
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (json, _work) = run_app(&command, steps, 0);
    let detail = &step(&json, "enter")["detail"];
    assert_eq!(detail["input"], "xtest");
    // The detail names the button the press waited for.
    let button = detail["default_button"].as_str().unwrap_or_default();
    assert!(button.ends_with("\"OK\""), "{detail}");
}

#[test]
fn gui_enter_whose_default_button_stays_disabled_fails_naming_it() {
    let steps = r#"    action_timeout_ms = 700
    press "enter" { target = label("Name") key = "Enter" }"#;
    let command = default_program();
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (json, _work) = run_app(&command, steps, 1);
    let message = not_enabled_within_700_ms(&json);
    assert!(
        message.contains("button \"OK\" (the default button Enter in text \"\" presses) was not"),
        "{message}"
    );
}
