//! Target resolution against real Chromium, with each step written as an ACL statement:
//! strictness (zero, one, many), accessible names, open shadow roots, refs outside a session,
//! and frames.

mod common;

use a3s_test_driver::{FailureCode, SurfaceContext};
use common::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// `expect` that `target` (an ACL target) is visible.
fn visible(target: &str) -> String {
    format!("expect {{ visible = {target} }}")
}

#[test]
fn strict_resolution_counts_zero_one_many() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("resolve.html")).await;
        ok(&mut ctx, &env, &visible(r#"role("button", "Save")"#)).await;
        let delete = r#"role("button", "Delete")"#;
        let m = fails(
            &mut ctx,
            &env,
            &visible(delete),
            FailureCode::TargetAmbiguous,
        )
        .await;
        assert!(m.contains("2 elements match"), "{m}");
        let nope = visible(r#"role("button", "Nope")"#);
        let m = fails(&mut ctx, &env, &nope, FailureCode::TargetNotFound).await;
        assert!(m.starts_with("role(\"button\", \"Nope\")"), "{m}");
        // Hidden and aria-hidden elements are not in the accessibility tree.
        let hidden = [
            r#"role("button", "Hidden action")"#,
            r#"role("button", "Invisible to AT")"#,
        ];
        all_fail(
            &mut ctx,
            &env,
            &hidden.map(visible),
            FailureCode::TargetNotFound,
        )
        .await;
        // Actions wait, then name the target and the time waited.
        let click = format!("click {{ target = {delete} }}");
        let m = fails(&mut ctx, &env, &click, FailureCode::TargetAmbiguous).await;
        assert!(m.contains("waited"), "{m}");
        let nothing = r##"click { target = css("#nothing") }"##;
        let m = fails(&mut ctx, &env, nothing, FailureCode::TargetNotFound).await;
        assert!(
            m.contains("css(\"#nothing\")") && m.contains("waited"),
            "{m}"
        );
        let bad = visible(r###"css("##bad")"###);
        fails(&mut ctx, &env, &bad, FailureCode::InvalidSelector).await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn accessible_names_come_from_one_computation() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("resolve.html")).await;
        for target in [
            r#"role("button", "Close dialog")"#, // aria-label wins over content
            r#"role("textbox", "Shipping address")"#, // aria-labelledby, two ids
            r#"role("textbox", "Email")"#,       // <label for>
            r#"role("textbox", "Name")"#,        // wrapping label
            r#"role("textbox", "Search products")"#, // placeholder
            r#"role("img", "Company logo")"#,    // alt
            r#"role("link", "?")"#,              // content wins over title
            r#"role("button", "Settings")"#,     // title fallback when there is no content
            r#"role("checkbox", "I agree")"#,
            r#"role("button", "Custom button")"#, // explicit role, name from content
            r#"role("heading", "Resolution")"#,
            r#"label("Email")"#,
            r#"label("Shipping address")"#,
            r#"placeholder("Search products")"#,
            r#"testid("card")"#,
            // Text: substring by default, exact on request, whitespace-normalised, deepest
            // element.
            r#"text("to the store")"#,
            r#"text("Welcome to the store", true)"#,
        ] {
            ok(&mut ctx, &env, &visible(target)).await;
        }
        let missing = [
            r#"role("link", "Read the docs")"#,
            r#"label("Search products")"#,
            r#"text("Welcome", true)"#,
        ];
        let missing = missing.map(visible);
        all_fail(&mut ctx, &env, &missing, FailureCode::TargetNotFound).await;
        let deepest = r#"expect {
            target = text("Welcome")
            rendered_text = "Welcome to the store"
        }"#;
        ok(&mut ctx, &env, deepest).await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn semantic_targets_pierce_open_shadow_roots_only() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("resolve.html")).await;
        for target in [
            r#"role("button", "Shadow action")"#,
            r#"label("Shadow field")"#,
            r#"testid("deep")"#,
            r#"text("deep text")"#,
        ] {
            ok(&mut ctx, &env, &visible(target)).await;
        }
        // A closed shadow root stays closed; css() stays in the light DOM of the document.
        let missing = [r#"role("button", "Closed action")"#, r##"css("#sf")"##].map(visible);
        all_fail(&mut ctx, &env, &missing, FailureCode::TargetNotFound).await;
        let fill = r#"fill {
            target = label("Shadow field")
            value = "in shadow"
        }"#;
        ok(&mut ctx, &env, fill).await;
        let filled = r#"expect {
            target = label("Shadow field")
            value = "in shadow"
        }"#;
        ok(&mut ctx, &env, filled).await;
        ok(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Shadow action") }"#,
        )
        .await;
        let two = r#"expect {
            target = role("button", "Delete")
            visible_count = 2
        }"#;
        ok(&mut ctx, &env, two).await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn refs_are_refused_in_suites() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        let click = r#"click { target = ref("@e4") }"#;
        let m = fails(&mut ctx, &env, click, FailureCode::Unsupported).await;
        assert!(m.contains("@e4") && m.contains("agent session"), "{m}");
        let seen = visible(r#"ref("@e4")"#);
        fails(&mut ctx, &env, &seen, FailureCode::Unsupported).await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn frames_switch_the_document_steps_act_in() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("frames.html")).await;
        let frame_button = visible(r#"role("button", "Frame button")"#);
        fails(&mut ctx, &env, &frame_button, FailureCode::TargetNotFound).await;
        let not_a_frame = r##"frame { target = css("#notframe") }"##;
        fails(&mut ctx, &env, not_a_frame, FailureCode::FrameUnavailable).await;
        ok(&mut ctx, &env, r##"frame { target = css("#child") }"##).await;
        ok(&mut ctx, &env, &expect_text("Inside the frame")).await;
        // A real click at the right place proves the frame offset is applied.
        ok(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Frame button") }"#,
        )
        .await;
        let clicked = r#"role("button", "Frame clicked")"#;
        ok(&mut ctx, &env, &visible(clicked)).await;
        let fill = r#"fill {
            target = label("Frame input")
            value = "x"
        }"#;
        ok(&mut ctx, &env, fill).await;
        let reachable = format!("expect {{ pointer_reachable = {clicked} }}");
        ok(&mut ctx, &env, &reachable).await;
        ok(&mut ctx, &env, "frame { target = main() }").await;
        ok(&mut ctx, &env, &visible(r#"role("button", "Top button")"#)).await;
        fails(
            &mut ctx,
            &env,
            &visible(clicked),
            FailureCode::TargetNotFound,
        )
        .await;
        ctx.close().await.unwrap();
    });
}
