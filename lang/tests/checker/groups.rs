//! Hooks (`before_each`, `after_each`), `steps` groups, `use` and included libraries
//! (`docs/acl.md` §2.1–§2.2): what they expand to, and every admission error of the new forms
//! rendered as people see it.

use crate::admitted_suite;
use a3s_test_lang::ir::{AdmittedDocument, GroupKind, Hook, Library};
use a3s_test_lang::render::{render, Colour, Format};
use a3s_test_lang::{admit, admit_with};

const HOOKED: &str = r#"suite "shop" {
    before_each {
        navigate "open" { url = "/" }
        use "sign-in" {}
    }
    after_each {
        click "sign-out" { target = role("button", "Sign out") }
    }
    steps "sign-in" {
        fill "user" {
            target = label("User")
            value = "alice"
        }
        use "submit" { steps = "press-submit" }
    }
    steps "press-submit" {
        click "go" { target = role("button", "Sign in") }
    }
    scenario "cart" {
        surface = "web"
        click "add" { target = role("button", "Add") }
        use "again" { steps = "sign-in" }
    }
}
"#;

#[test]
fn hooks_and_groups_expand_into_one_closed_list_with_distinct_paths() {
    let suite = admitted_suite(HOOKED);
    let scenario = &suite.scenarios[0];
    let paths: Vec<(&str, Option<usize>, Option<Hook>)> = scenario
        .steps
        .iter()
        .map(|s| (s.path.as_str(), s.group, s.hook))
        .collect();
    let p = "suite.shop.scenario.cart";
    let owned: Vec<String> = [
        "before_each.navigate.open",
        "before_each.use.sign-in.fill.user",
        "before_each.use.sign-in.use.submit.click.go",
        "click.add",
        "use.again.fill.user",
        "use.again.use.submit.click.go",
        "after_each.click.sign-out",
    ]
    .iter()
    .map(|t| format!("{p}.{t}"))
    .collect();
    let expected: Vec<(&str, Option<usize>, Option<Hook>)> = vec![
        (&owned[0], Some(0), Some(Hook::BeforeEach)),
        (&owned[1], Some(1), Some(Hook::BeforeEach)),
        (&owned[2], Some(2), Some(Hook::BeforeEach)),
        (&owned[3], None, None),
        (&owned[4], Some(3), None),
        (&owned[5], Some(4), None),
        (&owned[6], Some(5), Some(Hook::AfterEach)),
    ];
    assert_eq!(paths, expected);
    let groups: Vec<(&str, Option<usize>, &GroupKind)> = scenario
        .groups
        .iter()
        .map(|g| (g.path.as_str(), g.parent, &g.kind))
        .collect();
    let use_of = |g: &str| GroupKind::Use { group: g.into() };
    let hook = |hook| GroupKind::Hook { hook };
    assert_eq!(
        groups,
        vec![
            (&*format!("{p}.before_each"), None, &hook(Hook::BeforeEach)),
            (
                &*format!("{p}.before_each.use.sign-in"),
                Some(0),
                &use_of("sign-in")
            ),
            (
                &*format!("{p}.before_each.use.sign-in.use.submit"),
                Some(1),
                &use_of("press-submit")
            ),
            (&*format!("{p}.use.again"), None, &use_of("sign-in")),
            (
                &*format!("{p}.use.again.use.submit"),
                Some(3),
                &use_of("press-submit")
            ),
            (&*format!("{p}.after_each"), None, &hook(Hook::AfterEach)),
        ]
    );
}

fn library(source: &str) -> Library {
    match admit(source).document {
        Some(AdmittedDocument::Library(library)) => library,
        other => panic!("not a library: {other:?}"),
    }
}

const SHARED: &str = r#"library "shared" {
    steps "sign-in" {
        navigate "login" { url = "/login" }
        click "go" { target = role("button", "Sign in") }
    }
}
"#;

#[test]
fn an_included_group_expands_with_its_steps_pointing_at_the_use() {
    let libraries = vec![("shared/login.acl".to_string(), library(SHARED))];
    let source = "suite \"s\" {\n    scenario \"a\" {\n        surface = \"web\"\n        use \"sign-in\" {}\n    }\n}\n";
    let admission = admit_with(source, &libraries);
    let Some(AdmittedDocument::Suite(suite)) = admission.document else {
        panic!("{:?}", admission.diagnostics)
    };
    let steps = &suite.scenarios[0].steps;
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[1].path, "suite.s.scenario.a.use.sign-in.click.go");
    let use_span = &source[steps[1].span.range()];
    assert!(use_span.starts_with("use \"sign-in\""), "{use_span}");
    // Without the library the name is unknown.
    assert!(!admit(source).is_admitted());
}

/// A library of terminal groups (`surface = "tui"`).
const TERMINAL_SHARED: &str = r#"library "keys" {
    surface = "tui"
    steps "multiply" {
        type "expr" { value = "6*7" }
        press "enter" { key = "Enter" }
    }
}
"#;

#[test]
fn a_terminal_library_s_groups_run_in_terminal_scenarios_and_are_refused_in_web_ones() {
    let libraries = vec![("shared/keys.acl".to_string(), library(TERMINAL_SHARED))];
    let terminal = "suite \"s\" {\n    scenario \"a\" {\n        surface = \"tui\"\n        use \"multiply\" {}\n        expect \"answer\" { regex = \"(?m)^42$\" }\n    }\n}\n";
    let admission = admit_with(terminal, &libraries);
    let Some(AdmittedDocument::Suite(suite)) = admission.document else {
        panic!("{:?}", admission.diagnostics)
    };
    let kinds: Vec<String> = suite.scenarios[0]
        .steps
        .iter()
        .map(|s| s.path.clone())
        .collect();
    assert_eq!(
        kinds,
        [
            "suite.s.scenario.a.use.multiply.type.expr",
            "suite.s.scenario.a.use.multiply.press.enter",
            "suite.s.scenario.a.expect.answer",
        ]
    );
    // The same group in a web scenario: a terminal `type` is not a browser step.
    let web = terminal.replace("\"tui\"", "\"web\"").replace(
        "expect \"answer\" { regex = \"(?m)^42$\" }",
        "expect \"answer\" { text = \"42\" }",
    );
    let refused = admit_with(&web, &libraries);
    let codes: Vec<&str> = refused
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert!(codes.contains(&"test.spec.surface_step"), "{codes:?}");
    // Without `surface = "tui"` the library's own check refuses the terminal `press`.
    let untyped = TERMINAL_SHARED.replace("    surface = \"tui\"\n", "");
    let admission = admit(&untyped);
    assert!(
        !admission.is_admitted(),
        "a web library admitted a terminal key press"
    );
}

/// Every admission error of the new forms, rendered (human, no colour).
fn rendered(name: &str, source: &str, libraries: &[(String, Library)]) -> String {
    let admission = admit_with(source, libraries);
    assert!(!admission.is_admitted(), "{name} was admitted");
    render(
        Format::Human,
        Colour::Never,
        name,
        source,
        &admission.diagnostics,
    )
}

#[test]
fn admission_errors_of_hooks_and_groups() {
    let cases: &[(&str, &str)] = &[
        (
            "unknown_group",
            "suite \"s\" {\n    steps \"sign-in\" {\n        navigate \"n\" { url = \"/\" }\n    }\n    scenario \"a\" {\n        surface = \"web\"\n        use \"sign_in\" {}\n    }\n}\n",
        ),
        (
            "cycle",
            "suite \"s\" {\n    steps \"a\" {\n        use \"b\" {}\n    }\n    steps \"b\" {\n        use \"a\" {}\n    }\n    scenario \"x\" {\n        surface = \"web\"\n        use \"a\" {}\n    }\n}\n",
        ),
        (
            "empty_and_twice",
            "suite \"s\" {\n    before_each {\n    }\n    after_each {\n        navigate \"n\" { url = \"/\" }\n    }\n    after_each {\n        navigate \"n\" { url = \"/\" }\n    }\n    steps \"g\" {\n    }\n    scenario \"x\" {\n        surface = \"web\"\n        navigate \"n\" { url = \"/\" }\n    }\n}\n",
        ),
        (
            "labels",
            "suite \"s\" {\n    before_each \"b\" {\n        navigate \"n\" { url = \"/\" }\n    }\n    steps {\n        navigate \"n\" { url = \"/\" }\n    }\n    scenario \"x\" {\n        surface = \"web\"\n        use {}\n        use \"u\" { steps = \"\" }\n    }\n}\n",
        ),
    ];
    let mut out = String::new();
    for (name, source) in cases {
        out.push_str(&format!(
            "=== {name} ===\n{}\n",
            rendered(name, source, &[])
        ));
    }
    let mut deep = String::from("suite \"s\" {\n");
    for i in 0..10 {
        deep.push_str(&format!(
            "    steps \"g{i}\" {{\n        use \"g{}\" {{}}\n    }}\n",
            i + 1
        ));
    }
    deep.push_str("    steps \"g10\" {\n        navigate \"n\" { url = \"/\" }\n    }\n    scenario \"x\" {\n        surface = \"web\"\n        use \"g0\" {}\n    }\n}\n");
    out.push_str(&format!(
        "=== depth ===\n{}\n",
        rendered("depth", &deep, &[])
    ));
    let broken =
        "library \"shared\" {\n    steps \"sign-in\" {\n        use \"missing\" {}\n    }\n}\n";
    let libraries = vec![("shared/broken.acl".to_string(), library(broken))];
    let user = "suite \"s\" {\n    scenario \"x\" {\n        surface = \"web\"\n        use \"sign-in\" {}\n    }\n}\n";
    out.push_str(&format!(
        "=== included ===\n{}\n",
        rendered("included", user, &libraries)
    ));
    let not_library =
        "library \"l\" {\n    scenario \"x\" {\n        surface = \"web\"\n    }\n}\n";
    out.push_str(&format!(
        "=== library ===\n{}\n",
        rendered("library", not_library, &[])
    ));
    insta::assert_snapshot!(out);
}
