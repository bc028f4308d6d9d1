//! `expect` conditions: each passes on the page that satisfies it and fails with its own code
//! otherwise; inline states; a missing target never proves a negative. (Waiting for a condition
//! and stability windows are the runner's: runner/src/expect.rs, tests/run/web_first.rs.)

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::FailureCode;

/// `expect` one `layout` relation between two targets.
fn layout(target: &str, relation: &str, relative_to: &str, tolerance_px: u32) -> String {
    format!(
        "expect {{\n    layout = {relation:?}\n    target = {target}\n    relative_to = {relative_to}\n    tolerance_px = {tolerance_px}\n}}"
    )
}

/// `expect` a condition written with a separate `target`.
fn of(target: &str, condition: &str) -> String {
    format!("expect {{\n    target = {target}\n    {condition}\n}}")
}

#[test]
fn expectations_pass_and_fail_with_their_codes() {
    use FailureCode as F;
    block_on(LIMIT, async {
        let mut page = Page::at("expect.html").await;
        let (a, b, c) = (r##"css("#a")"##, r##"css("#b")"##, r##"css("#c")"##);
        let (outer, inner) = (r##"css("#outer")"##, r##"css("#inner")"##);
        let cases: Vec<(String, Option<FailureCode>)> = vec![
            (expect_text("Status: ready"), None),
            (expect_text("Status: broken"), Some(F::TextMismatch)),
            (r#"expect { url = "/pages/expect.html" }"#.into(), None),
            (
                r#"expect { url = "/pages/other.html" }"#.into(),
                Some(F::UrlMismatch),
            ),
            (format!("expect {{ visible = {a} }}"), None),
            (
                r#"expect { visible = text("Hidden") }"#.into(),
                Some(F::TargetNotFound),
            ),
            (
                r##"expect { visible = css("#list li:nth-child(3)") }"##.into(),
                Some(F::NotVisible),
            ),
            (
                r##"expect { hidden = css("#list li:nth-child(3)") }"##.into(),
                None,
            ),
            (r##"expect { hidden = css("#no-such") }"##.into(), None),
            (format!("expect {{ hidden = {a} }}"), Some(F::NotHidden)),
            (format!("expect {{ in_viewport = {a} }}"), None),
            (
                r##"expect { in_viewport = css("#below") }"##.into(),
                Some(F::NotInViewport),
            ),
            (format!("expect {{ pointer_reachable = {a} }}"), None),
            (
                r##"expect { pointer_reachable = css("#cover-target") }"##.into(),
                Some(F::NotPointerReachable),
            ),
            (
                of(
                    r##"css("#status")"##,
                    r#"rendered_text = " Status:   ready ""#,
                ),
                None,
            ),
            (
                of(r##"css("#status")"##, r#"rendered_text = "Status""#),
                Some(F::RenderedTextMismatch),
            ),
            (
                of(
                    r##"css("#list li")"##,
                    r#"rendered_texts = ["One", "Two", "Three"]"#,
                ),
                None,
            ),
            (
                of(
                    r##"css("#list li")"##,
                    r#"rendered_texts = ["Two", "One", "Three"]"#,
                ),
                Some(F::RenderedTextMismatch),
            ),
            (of(r##"css("#list li")"##, "visible_count = 3"), None),
            (
                of(r##"css("#list li")"##, "visible_count = 4"),
                Some(F::CountMismatch),
            ),
            (of(r##"css("#v")"##, r#"value = "hello""#), None),
            (
                of(r##"css("#v")"##, r#"value = "bye""#),
                Some(F::ValueMismatch),
            ),
            (
                of(r##"css("#sel")"##, r#"selected_values = ["l", "s"]"#),
                None,
            ),
            (
                of(r##"css("#sel")"##, r#"selected_values = ["m"]"#),
                Some(F::SelectionMismatch),
            ),
            (
                of(r##"css("#big")"##, "viewport_coverage_at_least = 30"),
                None,
            ),
            (
                of(r##"css("#big")"##, "viewport_coverage_at_most = 10"),
                Some(F::CoverageMismatch),
            ),
            (of(a, "viewport_coverage_at_most = 1"), None),
            (layout(a, "above", b, 0), None),
            (layout(b, "above", a, 0), Some(F::LayoutMismatch)),
            (layout(a, "left_of", c, 0), None),
            (layout(c, "right_of", a, 0), None),
            (layout(a, "aligned_left", b, 0), None),
            (layout(a, "aligned_top", c, 0), None),
            (layout(a, "same_size", c, 0), None),
            (layout(outer, "contains", inner, 0), None),
            (layout(inner, "inside", outer, 0), None),
            (layout(inner, "overlaps", outer, 0), None),
            (layout(a, "not_overlapping", b, 0), None),
            (layout(a, "overlaps", b, 0), Some(F::LayoutMismatch)),
            // 40 px apart vertically: "overlaps" holds only with enough tolerance.
            (layout(a, "overlaps", b, 45), None),
            (layout(a, "same_width", inner, 10), Some(F::LayoutMismatch)),
            (
                layout(a, "aligned_left", r##"css("#nope")"##, 0),
                Some(F::TargetNotFound),
            ),
        ];
        for (statement, want) in cases {
            let _ = page.outcome(&statement, want).await;
        }
        // A secret value is never echoed back.
        let m = page
            .fails(
                &of(r##"css("#pw")"##, r#"value = "guess""#),
                F::ValueMismatch,
            )
            .await;
        assert!(!m.contains("s3cret") && !m.contains("guess"), "{m}");
        page.close().await;
    });
}

#[test]
fn inline_states_are_observed() {
    on_page(LIMIT, "expect.html", async |page: &mut Page| {
        for statement in [
            r#"expect { enabled = label("Value") }"#,
            r#"expect { disabled = label("Disabled") }"#,
            r#"expect { checked = label("Checked box") }"#,
            r#"expect { unfocused = label("Value") }"#,
            r#"expect { expanded = role("button", "Menu") }"#,
            r#"expect { unpressed = role("button", "Bold") }"#,
            r#"expect { readonly = label("Readonly") }"#,
            r#"expect { writable = label("Value") }"#,
            r#"expect { required = label("Required") }"#,
            r#"expect { optional = label("Value") }"#,
            r#"expect { invalid = label("Bad email") }"#,
            r#"expect { valid = label("Value") }"#,
            r##"expect { focus_outside = css("#focus-wrap") }"##,
        ] {
            page.ok(statement).await;
        }
        for statement in [
            r#"expect { enabled = label("Disabled") }"#,
            r#"expect { unchecked = label("Checked box") }"#,
            r#"expect { collapsed = role("button", "Menu") }"#,
            r#"expect { pressed = role("button", "Bold") }"#,
            r##"expect { checked = css("#a") }"##,
            r#"expect { selected = label("Value") }"#,
        ] {
            page.fails(statement, FailureCode::StateMismatch).await;
        }
        page.ok(r#"focus { target = label("Inside") }"#).await;
        page.ok(r##"expect { focus_within = css("#focus-wrap") }"##)
            .await;
        page.ok(r#"expect { focused = label("Inside") }"#).await;
    });
}

#[test]
fn a_missing_target_never_proves_a_negative() {
    on_page(LIMIT, "expect.html", async |page: &mut Page| {
        let missing = r#"label("No such control")"#;
        // Every "negative" state would be vacuously true of nothing; each must fail instead.
        let states = [
            "disabled",
            "unchecked",
            "unselected",
            "unfocused",
            "focus_outside",
            "collapsed",
            "unpressed",
            "writable",
            "optional",
            "valid",
        ];
        let mut statements: Vec<String> = states
            .iter()
            .map(|state| format!("expect {{ {state} = {missing} }}"))
            .collect();
        statements.extend([
            layout(missing, "not_overlapping", r##"css("#a")"##, 0),
            layout(r##"css("#a")"##, "not_overlapping", missing, 0),
            of(missing, "viewport_coverage_at_most = 50"),
        ]);
        for statement in statements {
            page.fails(&statement, FailureCode::TargetNotFound).await;
        }
    });
}
