//! A scenario's place in a run (issue 41): `depends_on`, `storage_state` (scenario, suite,
//! project) and the annotations, admitted to the IR; every new refusal in one file, rendered.

use crate::{admitted_suite, in_scenario, problems};
use a3s_test_lang::ir::{AdmittedDocument, Dependency, SkipAnnotation, StatePath};
use a3s_test_lang::render::{render, Colour, Format};
use a3s_test_lang::{admit, Code};

const SUITE: &str = r#"suite "shop" {
    storage_state = ".a3s-test/auth.json"
    scenario "auth-setup" {
        surface = "web"
        navigate "open" { url = "/login" }
        save_storage_state "save" { path = ".a3s-test/auth.json" }
    }
    scenario "cart" {
        surface = "web"
        depends_on = ["auth-setup", "shop/checkout"]
        storage_state = "states/other.json"
        slow = true
        only = true
        navigate "open" { url = "/cart" }
    }
    scenario "checkout" {
        surface = "web"
        depends_on = ["auth-setup"]
        fixme = "the total is wrong (#12)"
        navigate "open" { url = "/checkout" }
    }
    scenario "legacy" {
        surface = "web"
        skip = "retired"
        slow = false
        only = false
        navigate "open" { url = "/" }
    }
}
"#;

#[test]
fn organisation_is_admitted_to_the_ir() {
    let suite = admitted_suite(SUITE);
    assert_eq!(
        suite.storage_state,
        Some(StatePath(".a3s-test/auth.json".into()))
    );
    let [setup, cart, checkout, legacy] = &suite.scenarios[..] else {
        panic!("four scenarios");
    };
    assert!(setup.organisation.is_default());
    let dep = |s: &str| Dependency {
        suite: None,
        scenario: s.into(),
    };
    assert_eq!(
        cart.organisation.depends_on,
        [dep("auth-setup"), dep("checkout")]
    );
    assert_eq!(
        cart.organisation.storage_state,
        Some(StatePath("states/other.json".into()))
    );
    assert!(cart.organisation.annotations.slow && cart.organisation.annotations.only);
    assert_eq!(
        checkout.organisation.annotations.skip,
        Some(SkipAnnotation::Fixme("the total is wrong (#12)".into()))
    );
    assert_eq!(
        legacy.organisation.annotations.skip,
        Some(SkipAnnotation::Skip("retired".into()))
    );
    assert!(!legacy.organisation.annotations.slow && !legacy.organisation.annotations.only);
}

#[test]
fn the_project_file_takes_a_storage_state() {
    let source = "project \"p\" {\n    storage_state = \".a3s-test/auth.json\"\n}\n";
    match admit(source).document {
        Some(AdmittedDocument::Project(p)) => assert_eq!(
            p.storage_state,
            Some(StatePath(".a3s-test/auth.json".into()))
        ),
        other => panic!("{other:?}"),
    }
    let bad = "project \"p\" {\n    storage_state = \"/etc/passwd\"\n}\n";
    let found = problems(bad);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, Code::StatePath);
    assert_eq!(found[0].1, "project.p.storage_state");
}

#[test]
fn a_longer_cycle_is_reported_once_at_the_entry_that_closes_it() {
    let source = r#"suite "s" {
    scenario "a" {
        surface = "web"
        depends_on = ["c"]
        navigate "n" { url = "/" }
    }
    scenario "b" {
        surface = "web"
        depends_on = ["a"]
        navigate "n" { url = "/" }
    }
    scenario "c" {
        surface = "web"
        depends_on = ["b"]
        navigate "n" { url = "/" }
    }
}
"#;
    let found = problems(source);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::DependencyCycle);
}

/// Every refusal of the new forms in one file: each at its span, all reported together.
const MISTAKES: &str = r#"suite "shop" {
    storage_state = "C:/auth.json"
    scenario "setup" {
        surface = "web"
        depends_on = ["checkout"]
        navigate "open" { url = "/login" }
        save_storage_state "save" {
            path = ".a3s-test/"
            indexed_db = "yes"
        }
    }
    scenario "checkout" {
        surface = "web"
        depends_on = ["setup", "stup", "other/setup", "bad suite/x"]
        storage_state = "../../home/auth.json"
        skip = ""
        fixme = "later"
        slow = "yes"
        navigate "open" { url = "/" }
    }
}
"#;

#[test]
fn every_new_refusal_is_rendered_at_its_span() {
    let diagnostics = admit(MISTAKES).diagnostics;
    insta::assert_snapshot!(
        "organisation_refusals",
        render(
            Format::Human,
            Colour::Never,
            "shop.acl",
            MISTAKES,
            &diagnostics
        )
    );
    let codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    for code in [
        Code::StatePath,
        Code::UnknownDependency,
        Code::DependencyCycle,
        Code::ConflictingAnnotations,
    ] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
}

#[test]
fn a_dependency_may_come_later_in_the_file() {
    let source = in_scenario("        depends_on = [\"later\"]\n        navigate \"n\" { url = \"/\" }")
        .replace(
            "\n}\n",
            "\n    scenario \"later\" {\n        surface = \"web\"\n        navigate \"n\" { url = \"/\" }\n    }\n}\n",
        );
    assert_eq!(admitted_suite(&source).scenarios.len(), 2);
}

#[test]
fn another_suites_scenario_is_admitted_for_the_planner_to_check() {
    let source = in_scenario(
        "        depends_on = [\"auth/sign-in\", \"s/later\"]\n        navigate \"n\" { url = \"/\" }",
    )
    .replace(
        "\n}\n",
        "\n    scenario \"later\" {\n        surface = \"web\"\n        navigate \"n\" { url = \"/\" }\n    }\n}\n",
    );
    let suite = admitted_suite(&source);
    assert_eq!(
        suite.scenarios[0].organisation.depends_on,
        [
            Dependency {
                suite: None,
                scenario: "later".into()
            },
            Dependency {
                suite: Some("auth".into()),
                scenario: "sign-in".into()
            },
        ]
    );
}

/// The other new forms' refusals: `only` and `soft` of the wrong type, `soft` on a `wait`, the
/// project's `include` and `storage_state`, and `soft` in an agent statement.
const MORE_MISTAKES: &str = r#"suite "shop" {
    scenario "cart" {
        surface = "web"
        only = "yes"
        depends_on = "auth-setup"
        navigate "open" { url = "/cart" }
        expect "total" {
            text = "25 EUR"
            soft = 1
        }
        wait "ready" {
            text = "Cart"
            soft = true
        }
    }
}
"#;

const PROJECT_MISTAKES: &str = r#"project "shop" {
    include = "shared/*.acl"
    storage_state = "/home/ci/auth.json"
}
"#;

const STATEMENT_MISTAKE: &str = "expect {\n  text = \"Saved\"\n  soft = true\n}\n";

#[test]
fn the_other_new_forms_are_refused_at_their_spans() {
    let mut out = String::new();
    for (file, source) in [
        ("shop.acl", MORE_MISTAKES),
        ("project.acl", PROJECT_MISTAKES),
    ] {
        let diagnostics = admit(source).diagnostics;
        assert!(!diagnostics.is_empty(), "{file} was admitted");
        out.push_str(&render(
            Format::Human,
            Colour::Never,
            file,
            source,
            &diagnostics,
        ));
    }
    let statement = a3s_test_lang::admit_statement(STATEMENT_MISTAKE).unwrap_err();
    out.push_str(&render(
        Format::Human,
        Colour::Never,
        "statement",
        STATEMENT_MISTAKE,
        &statement,
    ));
    insta::assert_snapshot!("other_new_form_refusals", out);
}
