//! Desktop-only step forms (`docs/acl.md` §5.1, "Desktop scenarios"): `select` of one option or
//! several and `click { via = "action" }` (or `"action:NAME"`, naming the action) admit in a
//! `surface = "gui"` scenario; elsewhere, or malformed, they are refused with their code at the
//! attribute or step.

use crate::{admitted_suite, problems};
use a3s_test_lang::ir::{Action, InputVia};
use a3s_test_lang::render::{render, Colour, Format};
use a3s_test_lang::{admit, Code};

/// One scenario of `surface` holding `steps`.
fn on(surface: &str, steps: &str) -> String {
    format!("suite \"s\" {{\n    scenario \"sc\" {{\n        surface = \"{surface}\"\n{steps}\n    }}\n}}\n")
}

#[test]
fn a_desktop_click_via_the_accessibility_action_and_a_select_of_one_option_or_several_admit() {
    let suite = admitted_suite(&on(
        "gui",
        r#"        click "save" { target = role("button", "Save") via = "action" }
        click "plain" { target = role("button", "Save") via = "pointer" }
        select "colour" { target = role("combo box") values = ["Green"] }
        select "fruit" { target = role("list") values = ["Apple", "Cherry"] }"#,
    ));
    let actions: Vec<&Action> = suite.scenarios[0].steps.iter().map(|s| &s.action).collect();
    assert!(
        matches!(
            actions[0],
            Action::Click {
                via: InputVia::Action,
                ..
            }
        ),
        "{:?}",
        actions[0]
    );
    assert!(
        matches!(
            actions[1],
            Action::Click {
                via: InputVia::Pointer,
                ..
            }
        ),
        "{:?}",
        actions[1]
    );
    assert!(
        matches!(actions[2], Action::Select { values, .. } if values == &["Green"]),
        "{:?}",
        actions[2]
    );
    assert!(
        matches!(actions[3], Action::Select { values, .. } if values == &["Apple", "Cherry"]),
        "{:?}",
        actions[3]
    );
}

#[test]
fn via_action_is_refused_on_a_page_and_via_pointer_is_the_default() {
    let found = problems(&on(
        "web",
        r#"        click "act" { target = css(".a") via = "action" }"#,
    ));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::SurfaceStep, "{found:?}");
    assert_eq!(found[0].2, "click", "{found:?}");
    let suite = admitted_suite(&on(
        "web",
        r#"        click "plain" { target = css(".a") via = "pointer" }"#,
    ));
    assert!(matches!(
        suite.scenarios[0].steps[0].action,
        Action::Click {
            via: InputVia::Pointer,
            ..
        }
    ));
}

#[test]
fn a_desktop_via_of_another_word_and_one_on_a_double_click_are_refused() {
    let found = problems(&on(
        "gui",
        r#"        click "mouse" { target = role("button", "Save") via = "mouse" }
        double_click "twice" { target = role("button", "Save") via = "action" }"#,
    ));
    let codes: Vec<(Code, &str)> = found.iter().map(|(c, _, t)| (*c, t.as_str())).collect();
    assert_eq!(
        codes,
        vec![
            (Code::InvalidValue, "\"mouse\""),
            (Code::UnknownAttribute, "via"),
        ],
        "{found:?}"
    );
}

#[test]
fn via_action_colon_name_admits_with_the_action_named() {
    let suite = admitted_suite(&on(
        "gui",
        r#"        click "open" { target = role("table cell", "Banana") via = "action:activate" }
        click "any" { target = role("button", "Save") via = "action" }"#,
    ));
    let vias: Vec<(InputVia, Option<&str>)> = suite.scenarios[0]
        .steps
        .iter()
        .filter_map(|s| match &s.action {
            Action::Click { via, action, .. } => Some((*via, action.as_deref())),
            _ => None,
        })
        .collect();
    assert_eq!(
        vias,
        vec![
            (InputVia::Action, Some("activate")),
            (InputVia::Action, None)
        ]
    );
}

/// A browser context option on a desktop scenario would be ignored by its driver: refused by name.
#[test]
fn a_browser_context_option_on_a_desktop_scenario_is_refused() {
    let source = on("gui", "click \"ok\" { target = role(\"button\", \"OK\") }").replace(
        "surface = \"gui\"",
        "surface = \"gui\"\n        locale = \"de-DE\"",
    );
    let diagnostics = admit(&source).diagnostics;
    assert_eq!(
        diagnostics
            .iter()
            .map(|d| (d.code, d.message.as_str()))
            .collect::<Vec<_>>(),
        [(
            Code::SurfaceStep,
            "`locale` is a browser context option; this scenario's surface is gui"
        )],
        "{source}"
    );
    // One its suite sets is for the suite's web scenarios: the desktop one takes none.
    let source = on("gui", "click \"ok\" { target = role(\"button\", \"OK\") }")
        .replace("suite \"s\" {", "suite \"s\" {\n    locale = \"de-DE\"");
    let suite = admitted_suite(&source);
    assert!(suite.scenarios[0].context.is_empty(), "{source}");
}

/// `via = "action:"` names no action; `"action:NAME"` on a page is a desktop attribute there
/// too; a misspelt `via` word suggests the right one.
const VIA_REFUSALS: &str = r#"suite "s" {
    scenario "desk" {
        surface = "gui"
        click "blank" { target = role("button", "Save") via = "action: " }
        click "typo" { target = role("button", "Save") via = "acton" }
    }
    scenario "page" {
        surface = "web"
        click "named" { target = css(".a") via = "action:activate" }
    }
}
"#;

#[test]
fn via_refusals() {
    let diagnostics = admit(VIA_REFUSALS).diagnostics;
    let codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        vec![Code::InvalidValue, Code::InvalidValue, Code::SurfaceStep],
        "{diagnostics:?}"
    );
    insta::assert_snapshot!(
        "via_refusals",
        render(
            Format::Human,
            Colour::Never,
            "via.acl",
            VIA_REFUSALS,
            &diagnostics
        )
    );
}
