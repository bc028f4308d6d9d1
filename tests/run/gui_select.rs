//! `select` on each desktop toolkit, end to end through the real binary's `run`: a GTK4
//! drop-down (`tests/fixtures/gui/choices4.py`: its options live in a popover, a surface of its
//! own whose extents count from its corner), a Qt5 combo box, a Qt5 list that selects several
//! rows with Control+click and one that keeps a stale row selected
//! (`tests/fixtures/gui/choices_qt.py`). Each option is reached with real input after the hit
//! test and the choice read back; what the programs print in their status labels proves they
//! took it. GTK3's combo box and list are in `gui_apps.rs`.

use crate::gui_apps::{run_app, step};
use crate::harness::repo;

/// The command line of the fixture `name` under `tests/fixtures/gui/` (Debian's Python, which
/// has GTK's and Qt's bindings).
pub(crate) fn fixture(name: &str) -> Vec<String> {
    let script = repo().join("tests/fixtures/gui").join(name);
    vec!["/usr/bin/python3".into(), script.display().to_string()]
}

/// Run `steps` against the fixture `name`, expecting exit `code` and a scenario failure coded
/// `test.driver.gui.WANT`; its message.
fn fails(name: &str, steps: &str, code: i32, want: &str) -> String {
    let command = fixture(name);
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (json, _work) = run_app(&command, steps, code);
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(
        failure["code"],
        format!("test.driver.gui.{want}"),
        "{failure}"
    );
    failure["message"].as_str().unwrap().to_owned()
}

/// GTK4: the drop-down is clicked open, the option clicked in its popover and read back from
/// the label the drop-down shows; the second time its options are listed before it opens.
#[test]
fn gui_select_chooses_in_a_gtk4_drop_down_through_its_popover() {
    let steps = r#"    select "green" { target = role("combo box") values = ["Green"] }
    expect "status-green" { text = "Colour Green" }
    select "blue" { target = role("combo box") values = ["Blue"] }
    expect "status-blue" { text = "Colour Blue" }"#;
    let command = fixture("choices4.py");
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (json, _work) = run_app(&command, steps, 0);
    let green = &step(&json, "green")["detail"];
    assert_eq!(green["input"], "xtest", "{green}");
    assert_eq!(
        green["element"], "list item \"Green\" in combo box \"GtkDropDown\"",
        "{green}"
    );
    assert_eq!(green["hit"], "label \"Green\"", "{green}");
    assert!(green.get("keys").is_none(), "clicked, not keyed: {green}");
}

/// GTK4 lists a drop-down's options only once its popover opens: an option it lacks fails once
/// the popover shows the others, listing them.
#[test]
fn gui_select_of_an_option_a_gtk4_drop_down_lacks_lists_its_options() {
    let steps = r#"    select "purple" { target = role("combo box") values = ["Purple"] }"#;
    let message = fails("choices4.py", steps, 1, "option_not_found");
    assert!(
        message.contains(r#"has no option "Purple"; its options: "Red", "Green", "Blue""#),
        "{message}"
    );
}

/// Qt5: the combo box opens its list in a popup window and is named after its choice; the list
/// takes two rows, the second Control+clicked, and both read `selected`.
#[test]
fn gui_select_chooses_in_a_qt_combo_box_and_several_rows_of_a_qt_list() {
    let steps = r#"    select "colour" { target = role("combo box") values = ["Green"] }
    expect "colour-shown" { text = "Colour Green" }
    select "fruit" { target = role("list", "Fruit") values = ["Apple", "Cherry"] }
    expect "apple" { selected = role("list item", "Apple") }
    expect "cherry" { selected = role("list item", "Cherry") }
    expect "banana" { unselected = role("list item", "Banana") }
    expect "status-fruit" { text = "Fruit Apple, Cherry" }"#;
    let command = fixture("choices_qt.py");
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (json, _work) = run_app(&command, steps, 0);
    let colour = &step(&json, "colour")["detail"];
    assert_eq!(
        colour["element"], "list item \"Green\" in combo box \"Red\"",
        "{colour}"
    );
    assert_eq!(colour["hit"], "list item \"Green\"", "{colour}");
    assert!(colour.get("keys").is_none(), "clicked, not keyed: {colour}");
    let fruit = &step(&json, "fruit")["detail"];
    assert_eq!(
        fruit["element"], "list item \"Apple\", list item \"Cherry\" in list \"Fruit\"",
        "{fruit}"
    );
    assert_eq!(fruit["hit"], "list item \"Cherry\"", "{fruit}");
}

/// Several options of a combo box are the suite's mistake (nothing is sent); an option a Qt
/// combo box lacks fails before anything is sent, listing the ones it has.
#[test]
fn gui_select_of_several_options_in_a_combo_box_or_a_missing_one_is_coded() {
    let steps = r#"    select "two" { target = role("combo box") values = ["Red", "Green"] }"#;
    let message = fails("choices_qt.py", steps, 2, "not_selectable");
    assert!(
        message.contains("which shows one option; this `select` names 2"),
        "{message}"
    );

    let steps =
        r#"    select "purple" { target = role("list", "Fruit") values = ["Apple", "Purple"] }"#;
    let message = fails("choices_qt.py", steps, 1, "option_not_found");
    assert!(
        message.contains(r#"its options: "Apple", "Banana", "Cherry", "Damson""#),
        "{message}"
    );
}

/// A `select` of rows holds only when they alone are selected: the Qt list that toggles rows
/// keeps its preselected "Cheese" beside the two rows chosen, and the step fails naming it.
#[test]
fn gui_select_of_rows_fails_naming_a_row_the_list_keeps_selected_beside_them() {
    let steps =
        r#"    select "toppings" { target = role("list", "Toppings") values = ["Ham", "Olives"] }"#;
    let message = fails("choices_qt.py", steps, 1, "selection_unchanged");
    assert!(
        message.contains(r#"did not show "only Ham, Olives" chosen"#),
        "{message}"
    );
    assert!(
        message.contains(r#"list item \"Cheese\" selected as well"#),
        "{message}"
    );
}
