//! Agent sessions on desktop programs beyond GTK4, end to end: the real binary, a supervisor
//! owning a desktop with the real program on it. `mousepad` (GTK3): text typed into its editor
//! by ref, Control+S opens the modal save dialog, whose controls a new observation shows (the
//! refs decided before it are refused, nothing sent), the name field filled by its ref (a
//! nameless entry named by its label), Enter saves the file; then the promoted suite is run in a
//! fresh folder and saves the same file there. Qt5's calculator example: 7 × 6 = by refs, the
//! display 42, promoted and run green.

use crate::support::*;
use serde_json::Value;
use std::path::Path;

/// Debian's path of Qt5's calculator example (`qtbase5-examples`).
const QT_CALCULATOR: &str =
    "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator";

/// The text typed into mousepad and expected in the saved file.
const NOTE: &str = "Hello from an agent!";

/// The first control line of `observation` with `role` whose name is `name` (any name: `None`).
fn control<'a>(observation: &'a Value, role: &str, name: Option<&str>) -> Option<&'a Value> {
    observation["lines"]
        .as_array()
        .unwrap_or_else(|| panic!("no outline in {observation}"))
        .iter()
        .find(|l| {
            l.get("ref").is_some() && l["role"] == role && name.is_none_or(|n| l["name"] == n)
        })
}

fn ref_in(observation: &Value, role: &str, name: Option<&str>) -> String {
    control(observation, role, name)
        .and_then(|l| l["ref"].as_str())
        .unwrap_or_else(|| panic!("no {role} {name:?} in {observation}"))
        .to_string()
}

/// `agent WORDS… --session S --observation N --observe --full --json`, passed: its answer.
fn act(d: &Path, session: &str, observation: &Value, words: &[&str]) -> Value {
    let n = observation_number(observation);
    let mut args = vec!["agent"];
    args.extend_from_slice(words);
    args.extend_from_slice(&[
        "--session",
        session,
        "--observation",
        &n,
        "--observe",
        "--full",
        "--json",
    ]);
    let done = ok(d, &args);
    assert_eq!(done["status"], "passed", "{done}");
    assert_eq!(done["detail"]["input"], "xtest", "{done}");
    done
}

/// A project whose `gui` block runs mousepad in `root/docs` with private settings, data and
/// cache folders (mousepad restores an earlier session's documents from its data folder) on a
/// screen tall enough for GTK3's file chooser (its name entry is off an 800-row screen).
fn mousepad_project(root: &Path) {
    let env: Vec<String> = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"]
        .iter()
        .map(|name| {
            let path = root.join(name.to_lowercase());
            std::fs::create_dir_all(&path).unwrap();
            format!("{name} = {:?}", path.display().to_string())
        })
        .collect();
    let docs = root.join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::create_dir_all(root.join(".a3s-test")).unwrap();
    let project = format!(
        "project \"p\" {{\n  gui {{\n    command = [\"mousepad\"]\n    cwd = \"docs\"\n    env = {{ {} }}\n    height = 1000\n  }}\n}}\n",
        env.join(", ")
    );
    std::fs::write(root.join(".a3s-test/project.acl"), project).unwrap();
}

#[test]
fn a_gtk3_session_types_saves_through_the_modal_dialog_and_its_suite_saves_again() {
    let dir = project();
    let d = dir.path();
    mousepad_project(d);
    let (_, g) = start_program(d, "pad", "gui", &[]);
    let first = ok(
        d,
        &["agent", "observe", "--session", "pad", "--full", "--json"],
    );
    assert!(
        first["url"].as_str().unwrap().contains("Mousepad"),
        "{first}"
    );
    // What is on screen only: the menu bar's menus, not the items of the closed menus (GTK3
    // calls them `visible`; they are not `showing`).
    assert!(control(&first, "menu", Some("File")).is_some(), "{first}");
    assert!(control(&first, "menu item", None).is_none(), "{first}");
    // The editor has no name: its ref is dispatched through its role alone, proven unique.
    let editor = ref_in(&first, "text", None);
    let typed = act(d, "pad", &first, &["type", &editor, NOTE]);
    assert_eq!(typed["resolved"][0]["target"], "role(\"text\")", "{typed}");
    let written = &typed["observation"];
    assert_eq!(
        control(written, "text", None).unwrap()["value"],
        NOTE,
        "{written}"
    );

    let saving = act(d, "pad", written, &["press", "Control+s", &editor]);
    let dialog = &saving["observation"];
    // The modal dialog's name field, nameless itself, is shown under its label's text.
    let name = ref_in(dialog, "text", Some("Name:"));
    assert!(
        dialog["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["text"].as_str().is_some_and(|t| t.contains("Save"))),
        "no save dialog in {dialog}"
    );
    // The refs decided before the dialog opened are refused, and nothing reaches the program.
    for (old, r) in [(&first, &editor), (written, &editor)] {
        let out = a3s(
            d,
            &[
                "agent",
                "type",
                r,
                "lost",
                "--session",
                "pad",
                "--observation",
                &observation_number(old),
                "--json",
            ],
        );
        assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
        assert_eq!(out.json()["error"]["code"], "test.session.stale_ref");
    }

    let again = ok(
        d,
        &["agent", "observe", "--session", "pad", "--full", "--json"],
    );
    let name_now = ref_in(&again, "text", Some("Name:"));
    assert_eq!(name, name_now, "a control keeps its ref while it lives");
    let filled = act(d, "pad", &again, &["fill", &name_now, "note.txt"]);
    let target = filled["resolved"][0]["target"].as_str().unwrap();
    assert!(target.contains("Name:"), "{filled}");
    let named = &filled["observation"];
    assert_eq!(
        control(named, "text", Some("Name:")).unwrap()["value"],
        "note.txt",
        "{named}"
    );
    // Enter at once: GTK3's chooser enables Save only 300 ms after the name last changed, and
    // the press waits for the default button it will press (`gui/src/default_button.rs`).
    act(d, "pad", named, &["press", "Enter", &name_now]);
    // The dialog closes once the file is written, and the title then names the file (the
    // name entry held "note.txt" until then: the title alone is no proof).
    for statement in [
        "expect { hidden = label(\"Name:\") timeout_ms = 20000 }",
        "expect { text = \"note.txt - Mousepad\" }",
    ] {
        let held = ok(
            d,
            &["agent", "exec", "--session", "pad", "--json", statement],
        );
        assert_eq!(held["status"], "passed", "{held}");
    }
    let saved = std::fs::read_to_string(d.join("docs/note.txt")).unwrap();
    assert_eq!(saved.trim_end(), NOTE);
    // The lost keys of the refused turns reached neither the editor nor the file.
    assert!(!saved.contains("lost"), "{saved}");

    finish_passed(d, "pad", "proven", g);
    // The suite runs in a fresh project and folder and saves the file there: the session's
    // file is not in its way (a file of that name would make the dialog ask to replace it).
    let fresh = project();
    let f = fresh.path();
    mousepad_project(f);
    let suite = promote_and_run(d, "pad", "gui", 6, f);
    assert!(!suite.contains("ref("), "{suite}");
    assert!(suite.contains("Name:"), "{suite}");
    let again = std::fs::read_to_string(f.join("docs/note.txt")).unwrap();
    assert_eq!(again.trim_end(), NOTE);
}

/// The Qt calculator's display: its read-only line edit, a text line of the view (or a text
/// control's value, were it editable) — whatever is not a button.
fn qt_display(observation: &Value) -> String {
    observation["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["role"] != "push button")
        .filter_map(|l| l["value"].as_str().or_else(|| l["text"].as_str()))
        .find(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no display in {observation}"))
        .to_string()
}

#[test]
fn a_qt_session_computes_by_refs_and_its_promoted_suite_passes() {
    let dir = project();
    let d = dir.path();
    let (_, g) = start_program(d, "qt", "gui", &[QT_CALCULATOR]);
    let mut seen = ok(
        d,
        &["agent", "observe", "--session", "qt", "--full", "--json"],
    );
    assert!(
        seen["url"].as_str().unwrap().contains("Calculator"),
        "{seen}"
    );
    let before = seen.clone();
    for label in ["7", "×", "6", "="] {
        let button = ref_in(&seen, "push button", Some(label));
        seen = act(d, "qt", &seen, &["click", &button])["observation"].clone();
    }
    assert_eq!(qt_display(&seen), "42", "{seen}");
    // A ref of an earlier observation is refused; the display shows nothing was sent.
    let out = a3s(
        d,
        &[
            "agent",
            "click",
            &ref_in(&before, "push button", Some("7")),
            "--session",
            "qt",
            "--observation",
            &observation_number(&before),
            "--json",
        ],
    );
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert_eq!(out.json()["error"]["code"], "test.session.stale_ref");
    let after = ok(
        d,
        &["agent", "observe", "--session", "qt", "--full", "--json"],
    );
    assert_eq!(
        qt_display(&after),
        "42",
        "a refused click was sent: {after}"
    );
    let expected = ok(
        d,
        &[
            "agent",
            "exec",
            "--session",
            "qt",
            "--json",
            "expect { text = \"42\" }",
        ],
    );
    assert_eq!(expected["status"], "passed", "{expected}");

    finish_passed(d, "qt", "proven", g);
    let suite = promote_and_run(d, "qt", "gui", 5, d);
    assert!(suite.contains("role(\"push button\", \"×\""), "{suite}");
}
