//! Real subjects beyond GTK4, driven through the crate's public API on an owned desktop:
//! `mousepad` (GTK3: typed text, then Ctrl+S opens its save dialog — a new, modal top-level
//! window of the same process — whose unnamed file-name entry is found by its label and takes
//! the name; the save itself is tested through `run` in `tests/run/gui_apps.rs`), `yad --form` (GTK3: two entries with no name of their own, found
//! by their `labelled-by` label; OK ends the program, whose stdout holds both values), and Qt5's
//! calculator example (its accessibility bridge found through the `AT_SPI_BUS` root property:
//! 7 × 6 = 42 by clicks), and a GTK3 combo box's popup (`tests/fixtures/gui/ids.py`): its items
//! are clicked in the popup window, which still covers the rows under it.

use a3s_test_gui::find::Query;
use a3s_test_gui::wait::{self, Condition, TextMatch};
use a3s_test_gui::{action, select};
use a3s_test_gui::{
    appear, Chord, Clicks, Desktop, DesktopOptions, Element, GuiCode, Input, InputPath, Program,
    ProgramExit, ProgramSpec,
};
use atspi::State;
use std::time::Duration;

const WITHIN: Duration = Duration::from_secs(10);

/// The bound for a step whose effect is slow to build (a file chooser).
const SLOW: Duration = Duration::from_secs(30);

/// Debian's path of Qt5's calculator example (`qtbase5-examples`).
const QT_CALCULATOR: &str =
    "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator";

/// A desktop with `spec` on it, and input on that desktop.
async fn start(spec: ProgramSpec) -> (Desktop, Program, Input) {
    let desktop = Desktop::start(&DesktopOptions::default()).await.unwrap();
    let program = desktop.start_program(&spec).await.unwrap();
    let input = desktop.input().unwrap();
    (desktop, program, input)
}

/// The one element `query` matches, waiting until it appears.
async fn target(desktop: &Desktop, program: &Program, query: Query) -> Element {
    let (element, _) = appear::one(program.app(desktop.a11y()).await, &query, WITHIN)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    element
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mousepad_takes_typed_text_and_ctrl_s_opens_its_modal_save_dialog_found_by_label() {
    let folder = tempfile::tempdir().unwrap();
    let mut spec = ProgramSpec::new("mousepad", Vec::<String>::new());
    spec.cwd = Some(folder.path().to_owned());
    spec.env = private_home(folder.path());
    let options = DesktopOptions {
        height: 1000,
        ..DesktopOptions::default()
    };
    let desktop = Desktop::start(&options).await.unwrap();
    let program = desktop.start_program(&spec).await.unwrap();
    let input = desktop.input().unwrap();
    let a11y = desktop.a11y();

    // The document: the one text view of the main window.
    let text = target(&desktop, &program, Query::role("text", None).unwrap()).await;
    let clicked = input.click(&program, &text, Clicks::Single).await.unwrap();
    assert_eq!(clicked.path, InputPath::XTest);
    input
        .type_text(&program, &text, "Hello, desktop!")
        .await
        .unwrap();
    wait::until(
        a11y,
        &text,
        &Condition::Text(TextMatch::Exact("Hello, desktop!".into())),
        WITHIN,
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));

    // Ctrl+S opens the save dialog: a new top-level window of the same program.
    input
        .press(&program, &text, &Chord::parse("ctrl+s").unwrap())
        .await
        .unwrap();
    // GTK3's file chooser takes a while to build (seconds on a loaded machine).
    let (name, _) = appear::one(program.app(a11y).await, &Query::Label("Name:".into()), SLOW)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let dialog = name.window(a11y).await.unwrap();
    assert_ne!(dialog.path, text.window(a11y).await.unwrap().path);
    // The chooser opens in the program's working directory: select the suggested name,
    // replace it with the file's, save. (A typed path with `/` pops up completions.)
    input
        .press(&program, &name, &Chord::parse("ctrl+a").unwrap())
        .await
        .unwrap();
    input.type_text(&program, &name, "note.txt").await.unwrap();
    wait::until(
        a11y,
        &name,
        &Condition::Text(TextMatch::Exact("note.txt".into())),
        WITHIN,
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    // The dialog is modal: the document under it takes no input until it closes.
    let covered = input
        .click(&program, &text, Clicks::Single)
        .await
        .unwrap_err();
    assert_eq!(
        covered.code(),
        a3s_test_gui::GuiCode::TargetCovered,
        "{covered}"
    );
    assert_eq!(program.exit(), None);
}

/// Private settings, data and cache folders under `folder`: mousepad restores the documents of
/// an earlier session from its data folder, which a test must not inherit.
fn private_home(folder: &std::path::Path) -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
    ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"]
        .iter()
        .map(|name| {
            let path = folder.join(name.to_lowercase());
            std::fs::create_dir_all(&path).unwrap();
            (name.into(), path.into_os_string())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn yad_form_fields_found_by_label_are_filled_and_ok_prints_them() {
    let spec = ProgramSpec::new("yad", ["--form", "--field=Name", "--field=City"]);
    let (desktop, program, input) = start(spec).await;
    let a11y = desktop.a11y();

    for (label, value) in [("Name", "Ada Lovelace"), ("City", "London")] {
        // yad's entries have no name: only their label finds them.
        let field = target(&desktop, &program, Query::Label(label.into())).await;
        assert_eq!(field.name, "", "yad's entries are unnamed");
        input.click(&program, &field, Clicks::Single).await.unwrap();
        input.type_text(&program, &field, value).await.unwrap();
        wait::until(
            a11y,
            &field,
            &Condition::Text(TextMatch::Exact(value.into())),
            WITHIN,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    }

    let ok = target(
        &desktop,
        &program,
        Query::role("button", Some("OK")).unwrap(),
    )
    .await;
    // The click ends the program: it still succeeds, and the exit is recorded.
    let acted = input.click(&program, &ok, Clicks::Single).await.unwrap();
    assert_eq!(acted.path, InputPath::XTest);
    assert_eq!(program.exited(WITHIN).await, Some(ProgramExit::Code(0)));
    let stdout = std::fs::read_to_string(program.output_dir().join("stdout")).unwrap();
    assert_eq!(stdout.trim_end(), "Ada Lovelace|London|");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_qt5_calculator_computes_seven_times_six_by_clicks() {
    let (desktop, program, input) =
        start(ProgramSpec::new(QT_CALCULATOR, Vec::<String>::new())).await;
    let a11y = desktop.a11y();
    // Its display: the one text box.
    let display = target(&desktop, &program, Query::role("textbox", None).unwrap()).await;
    for (button, after) in [("7", "7"), ("×", "7"), ("6", "6"), ("=", "42")] {
        let element = target(
            &desktop,
            &program,
            Query::role("button", Some(button)).unwrap(),
        )
        .await;
        let acted = input
            .click(&program, &element, Clicks::Single)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let hit = acted.hit.expect("a click is hit-tested");
        assert!(hit.bounds.contains(hit.x, hit.y));
        wait::until(
            a11y,
            &display,
            &Condition::Text(TextMatch::Exact(after.into())),
            WITHIN,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// `tests/fixtures/gui/ids.py` (GTK3 through Debian's python3-gi) on a desktop of its own.
async fn ids_form() -> (Desktop, Program, Input) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/gui/ids.py");
    start(ProgramSpec::new("/usr/bin/python3", [script])).await
}

/// GTK3 shows a combo box's list in an override-redirect popup of the same process, while the
/// list's items stay descendants of the combo box in the main window's tree. A shown item is
/// clicked in that popup (its hit test passes), and a row of the main window the popup lies
/// over is still `target_covered` by it, with nothing sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_combo_item_is_clicked_in_its_popup_and_a_row_under_the_popup_stays_covered() {
    let (desktop, program, input) = ids_form().await;
    let a11y = desktop.a11y();
    let combo = target(&desktop, &program, Query::role("combo box", None).unwrap()).await;
    let apple = target(
        &desktop,
        &program,
        Query::role("table cell", Some("Apple")).unwrap(),
    )
    .await;
    let status = target(
        &desktop,
        &program,
        Query::role("label", Some("Ready")).unwrap(),
    )
    .await;
    let green = target(
        &desktop,
        &program,
        Query::role("menu item", Some("Green")).unwrap(),
    )
    .await;

    input.click(&program, &combo, Clicks::Single).await.unwrap();
    wait::until(
        a11y,
        &green,
        &Condition::State(State::Showing, true),
        WITHIN,
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));

    // The popup (79×95 at the combo box) lies over the list's first rows.
    let covered = input
        .click(&program, &apple, Clicks::Single)
        .await
        .unwrap_err();
    assert_eq!(covered.code(), GuiCode::TargetCovered, "{covered}");
    assert!(covered.to_string().contains("window 0x"), "{covered}");
    // Nothing was sent: the popup is still open and nothing was chosen.
    let states = green.read_states(a11y).await.unwrap();
    assert!(states.contains(State::Showing), "the popup stayed open");
    assert_eq!(status.read_text(a11y).await.unwrap(), "Ready");

    let acted = input.click(&program, &green, Clicks::Single).await.unwrap();
    let hit = acted.hit.expect("a click is hit-tested");
    assert_eq!(
        hit.deepest.path, green.path,
        "the item itself is at its centre"
    );
    wait::until(
        a11y,
        &status,
        &Condition::Text(TextMatch::Exact("Colour Green".into())),
        WITHIN,
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    // The popup closed: the row under it takes the click now.
    input.click(&program, &apple, Clicks::Single).await.unwrap();
    wait::until(
        a11y,
        &status,
        &Condition::Text(TextMatch::Exact("Fruit Apple".into())),
        WITHIN,
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
}

/// `select::select` chooses a combo box's option and a list's row with real input, and
/// `action::perform` clicks a button through its accessibility action; the figures printed here
/// (`--nocapture`) are in `docs/benchmarks.md`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn select_chooses_combo_options_and_list_rows_and_an_action_clicks_a_button() {
    let (desktop, program, input) = ids_form().await;
    let a11y = desktop.a11y();
    let combo = target(&desktop, &program, Query::role("combo box", None).unwrap()).await;
    let table = target(&desktop, &program, Query::role("table", None).unwrap()).await;
    let status = target(
        &desktop,
        &program,
        Query::role("label", Some("Ready")).unwrap(),
    )
    .await;
    let shows = |text: &'static str| {
        let status = status.clone();
        async move {
            wait::until(
                a11y,
                &status,
                &Condition::Text(TextMatch::Exact(text.into())),
                WITHIN,
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"))
        }
    };
    // With "Blue" active, GTK3 opens the list with Blue over the combo box, clamped to the top
    // of the screen: "Red" lies partly above the popup, under its scroll arrow, and is reached
    // with the arrow keys and Return (how many Ups depends on which option the pointer left
    // highlighted); every other option is clicked.
    for (control, option, after, by_keys) in [
        (&combo, "Blue", "Colour Blue", false),
        (&table, "Cherry", "Fruit Cherry", false),
        (&combo, "Red", "Colour Red", true),
        (&table, "Apple", "Fruit Apple", false),
    ] {
        let selected = select::select(&input, &program, control, &[option.into()], WITHIN)
            .await
            .unwrap_or_else(|e| panic!("{option}: {e}"));
        assert_eq!(selected.options[0].name, option);
        assert_eq!(selected.acted.path, InputPath::XTest);
        assert_eq!(
            selected.keys.is_some(),
            by_keys,
            "{option}: {:?}",
            selected.keys
        );
        assert!(
            selected.keys.is_none_or(|k| (2..=4).contains(&k)),
            "{option}"
        );
        assert_eq!(selected.acted.hit.is_some(), !by_keys, "{option}");
        shows(after).await;
        println!(
            "select {option:?} in {}: {} ms (clicks and the choice read back)",
            control.describe(),
            selected.took.as_millis()
        );
    }
    // The same option again: the combo box opens on it, and it stays chosen.
    select::select(&input, &program, &combo, &["Red".into()], WITHIN)
        .await
        .unwrap();
    assert_eq!(combo.read_name(a11y).await.unwrap(), "Red");

    let save = target(
        &desktop,
        &program,
        Query::role("button", Some("Save")).unwrap(),
    )
    .await;
    let performed = action::perform(a11y, &program, &save, None).await.unwrap();
    assert_eq!(performed.name, "click");
    let seen = shows("Saved").await;
    println!(
        "click via the accessibility action: DoAction answered in {} ms, the label changed {} ms later",
        performed.took.as_millis(),
        seen.took.as_millis()
    );
}
