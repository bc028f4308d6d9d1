//! A modal Qt dialog keeps input from the window under it, as a GTK one does: Qt 5 marks no
//! window `modal` over AT-SPI, so the X server's `_NET_WM_STATE_MODAL` says it
//! (`gui/src/x11_modal.rs`). On `tests/fixtures/gui/dialogs_qt.py` (PyQt5): with its modal
//! dialog up, a click and keys meant for the main window's "Count" button (found before the
//! dialog came up, and not under it on the screen) are refused as `target_covered` naming the
//! dialog, nothing sent — Qt would drop them and the step pass — and a find is narrowed to the
//! dialog; a click inside the dialog works. With a non-modal dialog up, a click on the main
//! window works: no false refusal.

mod fixture;

use a3s_test_gui::find::Query;
use a3s_test_gui::host::Host;
use a3s_test_gui::wait::{self, Condition, TextMatch};
use a3s_test_gui::{appear, locate, App, Chord, Clicks, Element, GuiCode, Input, Program};
use a3s_test_lang::ir::{Target, TextMatch as NameText};
use std::time::Duration;

const WITHIN: Duration = Duration::from_secs(10);

/// `program` as a run's finds reach it: kept reads, and the X server asked for modal windows.
async fn app<'a>(host: &'a Host, program: &'a Program, input: &'a Input) -> App<'a> {
    host.app(program)
        .await
        .with_x11(input.x11(), program.pgid())
}

/// The element whose text is exactly `text`.
async fn text(app: App<'_>, text: &str) -> Element {
    let target = Target::Text {
        text: NameText::exact(text),
    };
    locate::one(app, &target)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Click the main window's `opener` and wait for the dialog's "Inside" button.
async fn open(app: App<'_>, program: &Program, input: &Input, opener: &str) -> Element {
    let opener = locate::one(app, &fixture::exact("button", opener))
        .await
        .unwrap();
    input.click(program, &opener, Clicks::Single).await.unwrap();
    let inside = Query::role("button", Some("Inside")).unwrap();
    appear::one(app, &inside, WITHIN)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

/// Wait until `label` reads `shown`.
async fn shows(host: &Host, label: &Element, shown: &str) {
    let condition = Condition::Text(TextMatch::Exact(shown.into()));
    wait::until(host.a11y(), label, &condition, WITHIN)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_to_the_window_under_a_modal_qt_dialog_is_refused_naming_the_dialog() {
    let (host, program, input) = fixture::on_host("dialogs_qt.py").await;
    let app = app(&host, &program, &input).await;
    let count = locate::one(app, &fixture::exact("button", "Count"))
        .await
        .unwrap();
    let clicks = text(app, "Clicks: 0").await;
    let inside = open(app, &program, &input, "Open modal").await;

    let covered = input
        .click(&program, &count, Clicks::Single)
        .await
        .unwrap_err();
    assert_eq!(covered.code(), GuiCode::TargetCovered, "{covered}");
    // Named as the accessible dialog the X window was matched to.
    let named = r#"by the modal dialog "Modal dialog""#;
    assert!(covered.to_string().contains(named), "{covered}");
    let keys = input
        .press(&program, &count, &Chord::parse("space").unwrap())
        .await
        .unwrap_err();
    assert_eq!(keys.code(), GuiCode::TargetCovered, "{keys}");
    // Finds are narrowed to the dialog: the button under it is not found.
    let under = locate::one(app, &fixture::exact("button", "Count"))
        .await
        .unwrap_err();
    assert_eq!(under.code(), GuiCode::TargetNotFound, "{under}");

    // Inside the dialog, input works; the main window's count did not move.
    let inside_count = text(app, "Inside: 0").await;
    input
        .click(&program, &inside, Clicks::Single)
        .await
        .unwrap();
    shows(&host, &inside_count, "Inside: 1").await;
    assert_eq!(clicks.read_name(host.a11y()).await.unwrap(), "Clicks: 0");
    program.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_on_the_window_under_a_non_modal_qt_dialog_goes_through() {
    let (host, program, input) = fixture::on_host("dialogs_qt.py").await;
    let app = app(&host, &program, &input).await;
    let clicks = text(app, "Clicks: 0").await;
    open(app, &program, &input, "Open loose").await;

    // Found with the dialog up: the find is not narrowed to a non-modal dialog.
    let count = locate::one(app, &fixture::exact("button", "Count"))
        .await
        .unwrap();
    input.click(&program, &count, Clicks::Single).await.unwrap();
    shows(&host, &clicks, "Clicks: 1").await;
    program.stop();
}
