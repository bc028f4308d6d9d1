//! Keyboard and text steps: `fill`, `type`, `select`, `press` and `insert_text` put what they say
//! into the control and report what the control really holds.

use crate::common::*;
use crate::{log_shows, value_is, LIMIT};
use a3s_test_driver::{FailureCode, MapVars, StepDetail};
use a3s_test_lang::ir::Action;

/// A `fill` or `type` step putting `value` into `target`.
fn with_value(verb: &str, target: &str, value: &str) -> String {
    format!("{verb} {{\n    target = {target}\n    value = {value:?}\n}}")
}

#[test]
fn keyboard_actions_fill_type_select_press() {
    on_page(LIMIT, "actions.html", async |page: &mut Page| {
        for (verb, target, value, holds) in [
            ("fill", r#"label("Text")"#, "new value", "new value"),
            ("fill", r#"label("Text")"#, "", ""),
            ("type", r#"label("Typed")"#, "cD!", "abcD!"),
            (
                "fill",
                r#"label("Area")"#,
                "line one\nline two",
                "line one\nline two",
            ),
            ("fill", r#"label("Date")"#, "2024-02-29", "2024-02-29"),
        ] {
            page.ok(&with_value(verb, target, value)).await;
            page.ok(&value_is(target, holds)).await;
        }
        // The page rewrites the value: fill reports what the control holds.
        let upper = with_value("fill", r#"label("Upper")"#, "abc");
        let m = page.fails(&upper, FailureCode::ValueMismatch).await;
        assert!(m.contains("\"ABC\""), "{m}");
        let readonly = with_value("fill", r#"label("Readonly")"#, "x");
        let m = page
            .fails(&readonly, FailureCode::TargetNotActionable)
            .await;
        assert!(m.contains("read-only"), "{m}");
        let green = r#"select {
            target = label("One")
            values = ["Green"]
        }"#;
        page.ok(green).await;
        page.ok(&log_shows("select g")).await;
        let selected = r#"expect {
            target = label("One")
            selected_values = ["g"]
        }"#;
        page.ok(selected).await;
        // By value and by label at once; the selection is a set.
        let many = r#"select {
            target = label("Many")
            values = ["1", "Three"]
        }"#;
        page.ok(many).await;
        let selected = r#"expect {
            target = label("Many")
            selected_values = ["3", "1"]
        }"#;
        page.ok(selected).await;
        let purple = r#"select {
            target = label("One")
            values = ["Purple"]
        }"#;
        page.fails(purple, FailureCode::SelectionMismatch).await;
        // Keys and chords go to the focused element.
        page.ok(r#"focus { target = label("Keys") }"#).await;
        page.ok(r#"press { key = "Enter" }"#).await;
        page.ok(&log_shows("key Enter")).await;
        page.ok(r#"press { key = "Control+Shift+k" }"#).await;
        page.ok(&log_shows("key Control+Shift+K")).await;
        // Control+a selects everything; typing then replaces it.
        page.ok(r#"focus { target = label("Typed") }"#).await;
        page.ok(r#"press { key = "Control+a" }"#).await;
        page.ok(r#"insert_text { value = "replaced" }"#).await;
        page.ok(&value_is(r#"label("Typed")"#, "replaced")).await;
        // Admission refuses an unknown key (test.spec.invalid_key); the driver refuses it too.
        let unknown = refused_by_admission(
            r#"press { key = "NoSuchKey" }"#,
            r#"press { key = "Enter" }"#,
            |action| {
                if let Action::Press { key, .. } = action {
                    key.key = "NoSuchKey".into();
                }
            },
        );
        page.step_outcome(&unknown, "press NoSuchKey", Some(FailureCode::Unsupported))
            .await
            .unwrap_err();
    });
}

#[test]
fn env_texts_are_typed_and_compared_but_never_shown() {
    const SECRET: &str = "s3cr3t-Value-71";
    on_page(LIMIT, "actions.html", async |page: &mut Page| {
        page.env.vars = MapVars::new([("A3S_TEST_SECRET", SECRET)]);
        let secret = r#"env("A3S_TEST_SECRET")"#;
        let shows_secret = |s: &str| s.to_lowercase().contains(&SECRET.to_lowercase());
        // Typed into the page, and compared there.
        let fill = format!("fill {{\n    target = label(\"Text\")\n    value = {secret}\n}}");
        let out = page.ok(&fill).await;
        assert!(
            matches!(out.detail, Some(StepDetail::Element { .. })),
            "{out:?}"
        );
        page.ok(&value_is(r#"label("Text")"#, SECRET)).await;
        let expect = format!("expect {{\n    target = label(\"Text\")\n    value = {secret}\n}}");
        page.ok(&expect).await;
        // `type` and `insert_text` do not count the characters of a secret.
        let typed = format!("type {{\n    target = label(\"Typed\")\n    value = {secret}\n}}");
        let out = page.ok(&typed).await;
        assert!(
            matches!(out.detail, Some(StepDetail::Element { .. })),
            "{out:?}"
        );
        page.ok(&value_is(r#"label("Typed")"#, &format!("ab{SECRET}")))
            .await;
        page.ok(r#"focus { target = label("Area") }"#).await;
        let out = page
            .ok(&format!("insert_text {{ value = {secret} }}"))
            .await;
        assert!(out.detail.is_none(), "{out:?}");
        page.ok(&value_is(r#"label("Area")"#, SECRET)).await;
        // A mismatch quotes neither side: not the secret, not what the control holds instead.
        let upper = format!("fill {{\n    target = label(\"Upper\")\n    value = {secret}\n}}");
        let m = page.fails(&upper, FailureCode::ValueMismatch).await;
        assert!(
            m.contains("a different value than env(\"A3S_TEST_SECRET\")"),
            "{m}"
        );
        assert!(!shows_secret(&m), "{m}");
        page.ok(&with_value("fill", r#"label("Text")"#, "other"))
            .await;
        let m = page.fails(&expect, FailureCode::ValueMismatch).await;
        assert!(m.contains("private, not shown"), "{m}");
        // "another value" is the wording; the control's own text is never quoted.
        assert!(!shows_secret(&m) && !m.contains("\"other\""), "{m}");
        // A variable that is not set fails before anything reaches the page, naming it.
        for statement in [
            "fill {\n    target = label(\"Text\")\n    value = env(\"A3S_TEST_UNSET\")\n}",
            "type {\n    target = label(\"Text\")\n    value = env(\"A3S_TEST_UNSET\")\n}",
            "insert_text { value = env(\"A3S_TEST_UNSET\") }",
            "expect {\n    target = label(\"Text\")\n    value = env(\"A3S_TEST_UNSET\")\n}",
        ] {
            let m = page.fails(statement, FailureCode::EnvUnset).await;
            assert!(m.contains("the variable A3S_TEST_UNSET is not set"), "{m}");
        }
        page.ok(&value_is(r#"label("Text")"#, "other")).await;
    });
}
