//! `visual_point("@vN", x, y)` (`docs/acl.md` §3): a point of one desktop session's screenshot,
//! admitted in an agent statement only; a suite is refused at the call with
//! `test.spec.visual_point_in_suite`, and a malformed id or coordinate at its argument.

use crate::{problems, statement_problems};
use a3s_test_lang::ir::{Action, Target};
use a3s_test_lang::{admit_statement, Code};
use proptest::prelude::*;

#[test]
fn a_statement_clicks_a_visual_point() {
    let step =
        admit_statement("click { target = visual_point(\"@v2\", 120, 40) }").expect("admitted");
    let target = Target::VisualPoint {
        shot: 2,
        x: 120,
        y: 40,
    };
    assert!(!target.is_stable());
    assert_eq!(target.to_string(), "visual_point(\"@v2\", 120, 40)");
    assert_eq!(
        step.action,
        Action::Click {
            target,
            pointer: Default::default(),
            via: Default::default(),
            action: None,
        }
    );
}

#[test]
fn a_suite_cannot_hold_a_visual_point() {
    let source = "suite \"s\" {\n  scenario \"sc\" {\n    surface = \"gui\"\n    click \"go\" { target = visual_point(\"@v1\", 3, 4) }\n  }\n}\n";
    assert_eq!(
        problems(source),
        vec![(
            Code::VisualPointInSuite,
            "suite.s.scenario.sc.click.go.target".into(),
            "visual_point(\"@v1\", 3, 4)".into()
        )]
    );
    let diagnostics = a3s_test_lang::admit(source).diagnostics;
    assert_eq!(
        diagnostics[0].hint,
        "promote the session: the click is written as the element at that point"
    );
}

#[test]
fn malformed_ids_and_coordinates_are_refused_at_the_argument() {
    assert_eq!(
        statement_problems("click { target = visual_point(\"@e2\", 1, 2) }"),
        vec![(
            Code::TargetArguments,
            "statement.click.target".into(),
            "\"@e2\"".into()
        )]
    );
    assert_eq!(
        statement_problems("click { target = visual_point(\"@v01\", -1, 40000) }"),
        vec![
            (
                Code::TargetArguments,
                "statement.click.target".into(),
                "\"@v01\"".into()
            ),
            (
                Code::TargetArguments,
                "statement.click.target".into(),
                "-1".into()
            ),
            (
                Code::TargetArguments,
                "statement.click.target".into(),
                "40000".into()
            ),
        ]
    );
    assert_eq!(
        statement_problems("click { target = visual_point(\"@v1\", 2) }"),
        vec![(
            Code::TargetArguments,
            "statement.click.target".into(),
            "visual_point(\"@v1\", 2)".into()
        )]
    );
    assert_eq!(
        statement_problems(
            "click { target = within(role(\"panel\"), visual_point(\"@v1\", 2, 3)) }"
        ),
        vec![(
            Code::TargetArguments,
            "statement.click.target".into(),
            "visual_point(\"@v1\", 2, 3)".into()
        )]
    );
}

proptest! {
    /// Any visual point printed from the IR reads back as itself; any other id text is refused
    /// with a code, never a panic.
    #[test]
    fn visual_points_round_trip(shot in any::<u32>(), x in 0u32..=32767, y in 0u32..=32767, junk in "\\PC{0,12}") {
        let target = Target::VisualPoint { shot, x, y };
        let step = admit_statement(&format!("click {{ target = {target} }}")).expect("a printed point admits");
        prop_assert_eq!(step.action, Action::Click { target, pointer: Default::default(), via: Default::default(), action: None });
        let literal = a3s_test_lang::printer::string_literal(&junk);
        let source = format!("click {{ target = visual_point({literal}, 1, 1) }}");
        let admitted = admit_statement(&source);
        let well_formed = junk.strip_prefix("@v").is_some_and(|d| {
            !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) && !(d.len() > 1 && d.starts_with('0')) && d.parse::<u32>().is_ok()
        });
        prop_assert_eq!(admitted.is_ok(), well_formed, "{}", source);
    }
}
