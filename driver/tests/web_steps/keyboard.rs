//! Keyboard and text steps: `fill`, `type`, `select`, `press` and `insert_text` put what they say
//! into the control and report what the control really holds.

use crate::common::*;
use crate::{log_shows, value_is, LIMIT};
use a3s_test_driver::{FailureCode, SurfaceContext};
use a3s_test_lang::ir::Action;

/// A `fill` or `type` step putting `value` into `target`.
fn with_value(verb: &str, target: &str, value: &str) -> String {
    format!("{verb} {{\n    target = {target}\n    value = {value:?}\n}}")
}

#[test]
fn keyboard_actions_fill_type_select_press() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("actions.html")).await;
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
            ok(&mut ctx, &env, &with_value(verb, target, value)).await;
            ok(&mut ctx, &env, &value_is(target, holds)).await;
        }
        // The page rewrites the value: fill reports what the control holds.
        let upper = with_value("fill", r#"label("Upper")"#, "abc");
        let m = fails(&mut ctx, &env, &upper, FailureCode::ValueMismatch).await;
        assert!(m.contains("\"ABC\""), "{m}");
        let readonly = with_value("fill", r#"label("Readonly")"#, "x");
        let m = fails(&mut ctx, &env, &readonly, FailureCode::TargetNotActionable).await;
        assert!(m.contains("read-only"), "{m}");
        let green = r#"select {
            target = label("One")
            values = ["Green"]
        }"#;
        ok(&mut ctx, &env, green).await;
        ok(&mut ctx, &env, &log_shows("select g")).await;
        let selected = r#"expect {
            target = label("One")
            selected_values = ["g"]
        }"#;
        ok(&mut ctx, &env, selected).await;
        // By value and by label at once; the selection is a set.
        let many = r#"select {
            target = label("Many")
            values = ["1", "Three"]
        }"#;
        ok(&mut ctx, &env, many).await;
        let selected = r#"expect {
            target = label("Many")
            selected_values = ["3", "1"]
        }"#;
        ok(&mut ctx, &env, selected).await;
        let purple = r#"select {
            target = label("One")
            values = ["Purple"]
        }"#;
        fails(&mut ctx, &env, purple, FailureCode::SelectionMismatch).await;
        // Keys and chords go to the focused element.
        ok(&mut ctx, &env, r#"focus { target = label("Keys") }"#).await;
        ok(&mut ctx, &env, r#"press { key = "Enter" }"#).await;
        ok(&mut ctx, &env, &log_shows("key Enter")).await;
        ok(&mut ctx, &env, r#"press { key = "Control+Shift+k" }"#).await;
        ok(&mut ctx, &env, &log_shows("key Control+Shift+K")).await;
        // Control+a selects everything; typing then replaces it.
        ok(&mut ctx, &env, r#"focus { target = label("Typed") }"#).await;
        ok(&mut ctx, &env, r#"press { key = "Control+a" }"#).await;
        ok(&mut ctx, &env, r#"insert_text { value = "replaced" }"#).await;
        ok(&mut ctx, &env, &value_is(r#"label("Typed")"#, "replaced")).await;
        // Admission refuses an unknown key (test.spec.invalid_key); the driver refuses it too.
        let unknown = refused_by_admission(
            r#"press { key = "NoSuchKey" }"#,
            r#"press { key = "Enter" }"#,
            |action| {
                if let Action::Press { key } = action {
                    key.key = "NoSuchKey".into();
                }
            },
        );
        step_outcome(
            &mut ctx,
            &env,
            &unknown,
            "press NoSuchKey",
            Some(FailureCode::Unsupported),
        )
        .await
        .unwrap_err();
        ctx.close().await.unwrap();
    });
}
