//! A find from the tree kept since the last find (`gui/src/kept.rs`) never answers with what
//! the program changed since: on `tests/fixtures/gui/changes_qt.py` (Qt, a toolkit whose reads
//! a product find keeps, `Host::app`), buttons are found (and so kept), then one is removed and
//! one renamed by real clicks; the next finds see the change — the removed button is not found,
//! the old name finds nothing, the new one finds the renamed button — and an unchanged button is
//! still found, from the kept read. Then each of two changes whose own events are all a kept
//! find hears (the fixture ticks a check box, a state no kept find counts, to say it is done): a
//! second button with the same name appears (the find is ambiguous), and a label's text changes
//! (its old text labels nothing). No test opens a modal dialog: Qt 5 marks none `modal`, so no
//! find, kept or fresh, takes a Qt dialog for one. Each test first checks that the program's
//! finds do keep reads (`App::keeps_reads`), and fails when the kept reads ignore the program's
//! events: the first find after the change would answer from the stale read (the removed button
//! aside: the call confirming a kept find's element fails for it). The last two prove why no GTK program's reads are kept: a button GTK3
//! adds with `pack_start` (`changes.py`), or GTK4 with `append` (`changes4.py`), is announced by
//! nothing, and is found because their finds read afresh.

use a3s_test_gui::host::Host;
use a3s_test_gui::wait::{self, Condition, TextMatch};
use a3s_test_gui::{locate, App, Clicks, Element, GuiCode, GuiError, Input, Program, ProgramSpec};
use a3s_test_lang::ir::{Target, TextMatch as NameText};
use std::time::Duration;

const WITHIN: Duration = Duration::from_secs(10);

/// `role("button", name)`, as a suite writes it.
fn button(name: &str) -> Target {
    Target::Role {
        role: "button".into(),
        name: Some(NameText::contains(name)),
    }
}

/// The Qt fixture on a desktop a host owns (a host keeps the reads of finds; a bare desktop's
/// program keeps none).
async fn changes() -> (Host, Program, Input) {
    on("changes_qt.py").await
}

/// The fixture `script` (under `tests/fixtures/gui/`) on a desktop a host owns.
async fn on(script: &str) -> (Host, Program, Input) {
    let script = format!(
        "{}/../tests/fixtures/gui/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let host = Host::open(None, 1280, 800).await.unwrap();
    let program = host
        .start_program(&ProgramSpec::new("/usr/bin/python3", [script]))
        .await
        .unwrap();
    let input = host.input().unwrap();
    (host, program, input)
}

/// `program` as a product find reaches it (`Host::app`), checked to keep its reads: a test of
/// kept reads that read afresh without knowing it would pass without testing anything.
async fn kept<'a>(host: &'a Host, program: &'a Program) -> App<'a> {
    let app = host.app(program).await;
    assert!(
        app.keeps_reads(),
        "finds of a {:?} program read afresh",
        app.toolkit
    );
    app
}

/// A role target whose name is exactly `name`.
fn exact(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.into(),
        name: Some(NameText::exact(name)),
    }
}

/// Find `doing` and the "Done" check box (so the tree read after them is kept), click `doing`
/// and wait until the box is ticked: the change is made, and no find came between.
async fn change(host: &Host, program: &Program, input: &Input, doing: &str) {
    let app = host.app(program).await;
    let done = locate::one(app, &exact("checkbox", "Done")).await.unwrap();
    let button = locate::one(app, &exact("button", doing)).await.unwrap();
    // Found again: from the kept read, where the program's reads are kept.
    assert_eq!(
        locate::one(app, &exact("button", doing)).await.unwrap(),
        button
    );
    input.click(program, &button, Clicks::Single).await.unwrap();
    let ticked = Condition::State(atspi::State::Checked, true);
    wait::until(host.a11y(), &done, &ticked, WITHIN)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_find_after_a_change_sees_the_change_and_never_the_kept_element() {
    let (host, program, input) = changes().await;
    let a11y = host.a11y();
    let app = kept(&host, &program).await;
    let status = locate::one(
        app,
        &Target::Text {
            text: NameText::contains("Waiting"),
        },
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    let shows = |text: &str| Condition::Text(TextMatch::Exact(text.into()));

    // Found once: the tree is kept; found again from it.
    let doomed = locate::one(app, &button("Doomed")).await.unwrap();
    assert_eq!(locate::one(app, &button("Doomed")).await.unwrap(), doomed);
    locate::one(app, &button("Old")).await.unwrap();

    let remove = locate::one(app, &button("Remove")).await.unwrap();
    input
        .click(&program, &remove, Clicks::Single)
        .await
        .unwrap();
    wait::until(a11y, &status, &shows("Removed"), WITHIN)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let gone = locate::one(app, &button("Doomed")).await.unwrap_err();
    assert_eq!(gone.code(), GuiCode::TargetNotFound, "{gone}");

    let rename = locate::one(app, &button("Rename")).await.unwrap();
    input
        .click(&program, &rename, Clicks::Single)
        .await
        .unwrap();
    wait::until(a11y, &status, &shows("Renamed"), WITHIN)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let renamed = locate::one(app, &button("Old")).await.unwrap_err();
    assert!(
        matches!(renamed, GuiError::TargetNotFound { .. }),
        "{renamed}"
    );
    let new = locate::one(app, &button("New")).await.unwrap();
    assert_eq!(new.name, "New");
    // Unchanged since: found again.
    assert_eq!(locate::one(app, &button("Rename")).await.unwrap(), rename);
    program.stop();
}

/// Find `target` (so the read is kept), make the change `doing`, and find `target` again: what
/// it was, and how the find after the change fails.
async fn failing_after(
    host: &Host,
    program: &Program,
    input: &Input,
    target: &Target,
    doing: &str,
) -> (Element, GuiError) {
    let app = kept(host, program).await;
    let found = locate::one(app, target).await.unwrap();
    change(host, program, input, doing).await;
    (found, locate::one(app, target).await.unwrap_err())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_button_with_the_same_name_makes_the_next_find_ambiguous() {
    let (host, program, input) = changes().await;
    let app = kept(&host, &program).await;
    let twin = exact("button", "Twin");
    let (_, twins) = failing_after(&host, &program, &input, &twin, "Add twin").await;
    assert!(
        matches!(twins, GuiError::TargetAmbiguous { count: 2, .. }),
        "{twins}"
    );
    assert_eq!(locate::all(app, &twin).await.unwrap().len(), 2);
    program.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_label_whose_text_changed_labels_nothing_under_its_old_text() {
    let (host, program, input) = changes().await;
    let app = kept(&host, &program).await;
    let label = |text: &str| Target::Label {
        label: NameText::exact(text),
    };
    let (field, before) = failing_after(&host, &program, &input, &label("Before"), "Relabel").await;
    assert_eq!(before.code(), GuiCode::TargetNotFound, "{before}");
    // The same field, its name aside: Qt names a field after its buddy label.
    let after = locate::one(app, &label("After")).await.unwrap();
    assert_eq!(after.path, field.path);
    program.stop();
}

/// Find `packed` in the fixture `script`, whose finds read afresh, make the change `doing` (a
/// second `packed` added the way the toolkit announces by no event), and find `packed` again:
/// both are seen. From a read kept before the change this would be the first alone.
async fn twin_found_afresh(script: &str, packed: &str, doing: &str) {
    let (host, program, input) = on(script).await;
    let app = host.app(&program).await;
    assert!(
        !app.keeps_reads(),
        "finds of a {:?} program keep reads",
        app.toolkit
    );
    let packed = exact("button", packed);
    locate::one(app, &packed).await.unwrap();
    change(&host, &program, &input, doing).await;
    let twins = locate::one(app, &packed).await.unwrap_err();
    assert!(
        matches!(twins, GuiError::TargetAmbiguous { count: 2, .. }),
        "{twins}"
    );
    program.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gtk3_program_is_read_afresh_so_a_twin_packed_without_an_event_is_not_missed() {
    // GTK3 sends no event for a child added with `pack_start`.
    twin_found_afresh("changes.py", "Packed", "Pack twin").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gtk4_program_is_read_afresh_so_a_twin_appended_without_an_event_is_not_missed() {
    // GTK4 (4.8.3) sends no event for a child added to any container, `append` included.
    twin_found_afresh("changes4.py", "Twin", "Add twin").await;
}
