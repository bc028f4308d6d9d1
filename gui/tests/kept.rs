//! A find from the tree kept since the last find (`gui/src/kept.rs`) never answers with what
//! the program changed since: on `tests/fixtures/gui/changes.py` (GTK3), buttons are found (and
//! so kept), then one is destroyed and one renamed by real clicks; the next finds see the
//! change — the removed button is not found, the old name finds nothing, the new one finds the
//! renamed button — and an unchanged button is still found, from the kept read.

use a3s_test_gui::host::Host;
use a3s_test_gui::wait::{self, Condition, TextMatch};
use a3s_test_gui::{locate, Clicks, GuiCode, GuiError, ProgramSpec};
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_find_after_a_change_sees_the_change_and_never_the_kept_element() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/gui/changes.py"
    );
    // A host keeps the reads of finds; a bare desktop's program keeps none.
    let host = Host::open(None, 1280, 800).await.unwrap();
    let program = host
        .start_program(&ProgramSpec::new("/usr/bin/python3", [script]))
        .await
        .unwrap();
    let a11y = host.a11y();
    let app = host.app(&program).await;
    let input = host.input().unwrap();
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
