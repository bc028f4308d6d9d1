//! `expect { screenshot }` and `expect { aria_snapshot }`: the options admitted to the IR, and
//! each mistake refused at its own span with a code and a hint.

use crate::{action, in_scenario, problems};
use a3s_test_lang::ir::*;
use a3s_test_lang::Code;

fn condition(body: &str) -> ExpectCondition {
    match action(&format!("expect \"e\" {{\n{body}\n}}")) {
        Action::Expect { expectation } => expectation.condition,
        other => panic!("{other:?}"),
    }
}

fn refused(body: &str) -> Vec<(Code, String, String)> {
    problems(&in_scenario(&format!("expect \"e\" {{\n{body}\n}}")))
}

#[test]
fn a_screenshot_takes_its_defaults() {
    let ExpectCondition::Screenshot(v) = condition("screenshot = \"cart.png\"") else {
        panic!()
    };
    assert_eq!(v.name.as_str(), "cart.png");
    assert_eq!(v.budget, DiffBudget::Pixels(0));
    assert_eq!(v.threshold, DEFAULT_THRESHOLD);
    assert!(v.mask.is_empty() && !v.full_page);
    assert_eq!(v.animations, Animations::Disabled);
}

#[test]
fn a_screenshot_takes_every_option() {
    let ExpectCondition::Screenshot(v) = condition(
        "screenshot = \"cart.png\"\n max_diff_ratio = 0.01\n threshold = 0.3\n \
         mask = [css(\"#clock\"), testid(\"ad\")]\n full_page = true\n animations = \"allow\"",
    ) else {
        panic!()
    };
    assert_eq!(v.budget, DiffBudget::Ratio(0.01));
    assert_eq!(v.threshold, 0.3);
    assert_eq!(v.mask.len(), 2);
    assert!(v.full_page);
    assert_eq!(v.animations, Animations::Allow);
    let ExpectCondition::Screenshot(v) =
        condition("screenshot = \"a.png\"\n max_diff_pixels = 100\n threshold = 0")
    else {
        panic!()
    };
    assert_eq!((v.budget, v.threshold), (DiffBudget::Pixels(100), 0.0));
}

#[test]
fn screenshot_mistakes_are_refused_where_they_are_written() {
    let cases: &[(&str, Code, &str)] = &[
        ("screenshot = \"cart\"", Code::InvalidValue, "\"cart\""),
        (
            "screenshot = \"../cart.png\"",
            Code::InvalidValue,
            "\"../cart.png\"",
        ),
        (
            "screenshot = \"a.png\"\n max_diff_pixels = 1\n max_diff_ratio = 0.1",
            Code::InvalidValue,
            "max_diff_ratio",
        ),
        (
            "screenshot = \"a.png\"\n threshold = 1.5",
            Code::InvalidValue,
            "1.5",
        ),
        (
            "screenshot = \"a.png\"\n max_diff_ratio = \"x\"",
            Code::Type,
            "\"x\"",
        ),
        (
            "screenshot = \"a.png\"\n mask = [ref(\"@e1\")]",
            Code::InvalidValue,
            "ref(\"@e1\")",
        ),
        (
            "screenshot = \"a.png\"\n animations = \"off\"",
            Code::InvalidValue,
            "\"off\"",
        ),
        (
            "text = \"x\"\n mask = [css(\"#a\")]",
            Code::ConditionAttribute,
            "mask",
        ),
    ];
    for (body, code, span) in cases {
        let found = refused(body);
        assert!(
            found.iter().any(|(c, _, s)| c == code && s == span),
            "{body}: {found:?}"
        );
    }
}

#[test]
fn an_aria_snapshot_keeps_its_outline_and_where_it_is_written() {
    let source = in_scenario(
        "expect \"e\" {\n aria_snapshot = \"- heading \\\"Cart\\\" [level=1]\"\n target = css(\"main\")\n}",
    );
    let scenario = crate::only_scenario(&source);
    let Action::Expect { expectation } = &scenario.steps[0].action else {
        panic!()
    };
    let ExpectCondition::AriaSnapshot(a) = &expectation.condition else {
        panic!()
    };
    assert_eq!(a.snapshot, "- heading \"Cart\" [level=1]");
    assert_eq!(
        a.target,
        Some(Target::Css {
            selector: "main".into()
        })
    );
    assert_eq!(
        &source[a.value_span.range()],
        "\"- heading \\\"Cart\\\" [level=1]\""
    );
}

#[test]
fn a_block_string_outline_is_admitted_dedented_and_formatted_back_as_a_block() {
    let source = "suite \"s\" {\n  scenario \"sc\" {\n    surface = \"web\"\n    expect \"e\" {\n      aria_snapshot = \"\"\"\n        - heading \"Cart\" [level=1]\n        - list:\n          - listitem: /\\d+ apples/\n      \"\"\"\n    }\n  }\n}\n";
    let scenario = crate::only_scenario(source);
    let Action::Expect { expectation } = &scenario.steps[0].action else {
        panic!()
    };
    let ExpectCondition::AriaSnapshot(a) = &expectation.condition else {
        panic!()
    };
    assert_eq!(
        a.snapshot,
        "- heading \"Cart\" [level=1]\n- list:\n  - listitem: /\\d+ apples/"
    );
    let formatted = a3s_test_lang::printer::format_source(source).unwrap();
    assert!(
        formatted.contains(
            "aria_snapshot = \"\"\"\n                - heading \"Cart\" [level=1]\n                - list:\n                  - listitem: /\\d+ apples/\n                \"\"\"\n"
        ),
        "{formatted}"
    );
    assert_eq!(
        a3s_test_lang::printer::format_source(&formatted).unwrap(),
        formatted
    );
    let again = crate::only_scenario(&formatted);
    let Action::Expect { expectation } = &again.steps[0].action else {
        panic!()
    };
    let ExpectCondition::AriaSnapshot(b) = &expectation.condition else {
        panic!()
    };
    assert_eq!(b.snapshot, a.snapshot);
}

#[test]
fn an_agent_statement_refuses_snapshot_expectations() {
    for body in ["screenshot = \"a.png\"", "aria_snapshot = \"- button\""] {
        let errors =
            a3s_test_lang::admit_statement(&format!("expect \"e\" {{ {body} }}")).expect_err(body);
        assert!(
            errors
                .iter()
                .any(|d| d.code == Code::InvalidValue && d.message.contains("beside a suite file")),
            "{body}: {errors:?}"
        );
    }
}

/// A desktop scenario holding `steps`.
fn desktop(steps: &str) -> String {
    format!("suite \"s\" {{\n  scenario \"d\" {{\n    surface = \"gui\"\n{steps}\n  }}\n}}\n")
}

#[test]
fn a_desktop_screenshot_is_admitted_with_desktop_masks() {
    let source = desktop(
        "    expect \"e\" {\n      screenshot = \"window.png\"\n      max_diff_pixels = 10\n      \
         mask = [role(\"label\"), automation_id(\"status\")]\n    }",
    );
    assert_eq!(problems(&source), Vec::new());
}

#[test]
fn a_desktop_screenshot_refuses_what_a_window_has_not() {
    let p = "suite.s.scenario.d";
    let cases: &[(&str, Code, String, &str)] = &[
        (
            "screenshot = \"w.png\"\n full_page = true",
            Code::SurfaceStep,
            format!("{p}.expect.e"),
            "expect",
        ),
        (
            "screenshot = \"w.png\"\n animations = \"disabled\"",
            Code::SurfaceStep,
            format!("{p}.expect.e.animations"),
            "animations",
        ),
        (
            "screenshot = \"w.png\"\n mask = [css(\"#clock\")]",
            Code::SurfaceStep,
            format!("{p}.expect.e"),
            "expect",
        ),
        (
            "aria_snapshot = \"- button\"",
            Code::SurfaceStep,
            format!("{p}.expect.e"),
            "expect",
        ),
    ];
    for (body, code, path, text) in cases {
        let got = problems(&desktop(&format!("expect \"e\" {{\n{body}\n}}")));
        assert_eq!(got, vec![(*code, path.clone(), text.to_string())], "{body}");
    }
}
