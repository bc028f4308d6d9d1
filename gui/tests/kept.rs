//! A find from the tree kept since the last find (`gui/src/kept.rs`) never answers with what
//! the program changed since: on `tests/fixtures/gui/changes_qt.py` (Qt, the toolkit whose reads
//! a product find keeps, `Host::app`), buttons are found (and so kept), then one is removed and
//! one renamed by real clicks; the next finds see the change — the removed button is not found,
//! the old name finds nothing, the new one finds the renamed button — and an unchanged button is
//! still found, from the kept read. Then each of two changes whose own events are all a kept
//! find hears (the fixture ticks a check box, a state no kept find counts, to say it is done): a
//! second button with the same name appears (the find is ambiguous), and a label's text changes
//! (its old text labels nothing). Each first checks that the program's finds do keep reads
//! (`App::keeps_reads`), and fails when the kept reads ignore the program's events: the first
//! find after the change would answer from the stale read (the removed button aside: the call
//! confirming a kept find's element fails for it). A modal Qt dialog, which Qt 5 marks modal
//! only on the X server, is in `qt_modal.rs`.
//!
//! No GTK program's reads are kept, and the same changes on GTK4 (`changes4.py`) show its fresh
//! reads see each of them, a modal window too; the twin tests show why none are kept: a button
//! GTK3 adds with `pack_start` (`changes.py`), or GTK4 with `append`, is announced by nothing,
//! and is found because their finds read afresh (with GTK4's reads kept, as they once were, the
//! GTK4 twin test fails: the find answers the first button alone). Their fixtures too say a
//! change is done by nothing a kept find counts: a GTK4 fixture's buttons take no focus when
//! clicked, and it types into a field rather than tick a box (see `Done`).

mod fixture;

use a3s_test_gui::host::Host;
use a3s_test_gui::wait::{self, Condition, TextMatch};
use a3s_test_gui::{locate, App, Clicks, Element, GuiCode, GuiError, Input, Program};
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

/// A fixture offering the changes (under `tests/fixtures/gui/`), and whether a product find
/// keeps its program's reads.
#[derive(Debug, Clone, Copy)]
struct Fixture {
    script: &'static str,
    keeps_reads: bool,
    done: Done,
}

/// How a fixture says a change is done, by a change no kept find counts.
#[derive(Debug, Clone, Copy)]
enum Done {
    /// The "Done" check box ticked.
    Ticked,
    /// "done" typed into the field labelled "Done": GTK 4.8 announces a check box's state with
    /// a change of its name too, which a kept find counts.
    Typed,
}

impl Done {
    /// The element that says so, and when it does.
    fn signal(self) -> (Target, Condition) {
        match self {
            Done::Ticked => (
                fixture::exact("checkbox", "Done"),
                Condition::State(atspi::State::Checked, true),
            ),
            Done::Typed => (
                Target::Label {
                    label: NameText::exact("Done"),
                },
                Condition::Text(TextMatch::Exact("done".into())),
            ),
        }
    }
}

/// Qt 5: its reads are kept (a child it adds says it is `showing`).
const QT: Fixture = Fixture {
    script: "changes_qt.py",
    keeps_reads: true,
    done: Done::Ticked,
};

/// GTK4 (4.8.3): read afresh, it announces no child it adds.
const GTK4: Fixture = Fixture {
    script: "changes4.py",
    keeps_reads: false,
    done: Done::Typed,
};

/// GTK3: read afresh, it announces no child packed with `pack_start`.
const GTK3: Fixture = Fixture {
    script: "changes.py",
    keeps_reads: false,
    done: Done::Ticked,
};

/// The fixture on a desktop a host owns.
async fn on(fixture: Fixture) -> (Host, Program, Input) {
    fixture::on_host(fixture.script).await
}

/// `program` as a product find reaches it (`Host::app`), checked to keep its reads or not as
/// `fixture` says: a test of kept reads that read afresh without knowing it would pass without
/// testing anything.
async fn app_of<'a>(host: &'a Host, program: &'a Program, fixture: Fixture) -> App<'a> {
    let app = host.app(program).await;
    assert_eq!(
        app.keeps_reads(),
        fixture.keeps_reads,
        "whether finds of a {:?} program keep reads",
        app.toolkit
    );
    app
}

/// Find `doing` and the element that says a change is done (so the tree read after them is
/// kept), click `doing` and wait until it says so: the change is made, and no find came between.
async fn change(host: &Host, program: &Program, input: &Input, fixture: Fixture, doing: &str) {
    let app = host.app(program).await;
    let (done, said) = fixture.done.signal();
    let done = locate::one(app, &done).await.unwrap();
    let button = locate::one(app, &fixture::exact("button", doing))
        .await
        .unwrap();
    // Found again: from the kept read, where the program's reads are kept.
    assert_eq!(
        locate::one(app, &fixture::exact("button", doing))
            .await
            .unwrap(),
        button
    );
    input.click(program, &button, Clicks::Single).await.unwrap();
    wait::until(host.a11y(), &done, &said, WITHIN)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_find_after_a_change_sees_the_change_and_never_the_kept_element() {
    removal_and_rename(QT).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gtk4_program_read_afresh_sees_a_removal_and_a_rename() {
    removal_and_rename(GTK4).await;
}

/// Find buttons, remove one and rename one by real clicks: the next finds see both changes,
/// and an unchanged button is found again.
async fn removal_and_rename(fixture: Fixture) {
    let (host, program, input) = on(fixture).await;
    let a11y = host.a11y();
    let app = app_of(&host, &program, fixture).await;
    let status = locate::one(
        app,
        &Target::Text {
            text: NameText::contains("Waiting"),
        },
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    let shows = |text: &str| Condition::Text(TextMatch::Exact(text.into()));

    // Found once: the tree is kept (where reads are); found again from it.
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
    fixture: Fixture,
    target: &Target,
    doing: &str,
) -> (Element, GuiError) {
    let app = host.app(program).await;
    let found = locate::one(app, target).await.unwrap();
    change(host, program, input, fixture, doing).await;
    (found, locate::one(app, target).await.unwrap_err())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_button_with_the_same_name_makes_the_next_find_ambiguous() {
    twin(QT, "Twin", "Add twin").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gtk3_program_is_read_afresh_so_a_twin_packed_without_an_event_is_not_missed() {
    // GTK3 sends no event for a child added with `pack_start`.
    twin(GTK3, "Packed", "Pack twin").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gtk4_program_is_read_afresh_so_a_twin_appended_without_an_event_is_not_missed() {
    // GTK4 (4.8.3) sends no event for a child added to any container, `append` included.
    twin(GTK4, "Twin", "Add twin").await;
}

/// Find the button `name`, make the change `doing` (a second button named so appears), and
/// find it again: both are seen. From a read kept before the change, a find would see the first
/// alone were the change not announced.
async fn twin(fixture: Fixture, name: &str, doing: &str) {
    let (host, program, input) = on(fixture).await;
    let app = app_of(&host, &program, fixture).await;
    let twin = fixture::exact("button", name);
    let (_, twins) = failing_after(&host, &program, &input, fixture, &twin, doing).await;
    assert!(
        matches!(twins, GuiError::TargetAmbiguous { count: 2, .. }),
        "{twins}"
    );
    assert_eq!(locate::all(app, &twin).await.unwrap().len(), 2);
    program.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_label_whose_text_changed_labels_nothing_under_its_old_text() {
    relabel(QT).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gtk4_program_read_afresh_sees_a_label_change() {
    relabel(GTK4).await;
}

/// Find a field by its label, change the label's text: the old text labels nothing, the new
/// one the same field.
async fn relabel(fixture: Fixture) {
    let (host, program, input) = on(fixture).await;
    let app = app_of(&host, &program, fixture).await;
    let label = |text: &str| Target::Label {
        label: NameText::exact(text),
    };
    let (field, before) = failing_after(
        &host,
        &program,
        &input,
        fixture,
        &label("Before"),
        "Relabel",
    )
    .await;
    assert_eq!(before.code(), GuiCode::TargetNotFound, "{before}");
    // The same field, its name aside: Qt names a field after its buddy label.
    let after = locate::one(app, &label("After")).await.unwrap();
    assert_eq!(after.path, field.path);
    program.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gtk4_program_read_afresh_sees_a_modal_window_hide_the_window_under_it() {
    let (host, program, input) = on(GTK4).await;
    let app = app_of(&host, &program, GTK4).await;
    let remove = fixture::exact("button", "Remove");
    let (_, under) = failing_after(&host, &program, &input, GTK4, &remove, "Open dialog").await;
    assert_eq!(under.code(), GuiCode::TargetNotFound, "{under}");
    locate::one(app, &fixture::exact("button", "Inside"))
        .await
        .unwrap();
    program.stop();
}
