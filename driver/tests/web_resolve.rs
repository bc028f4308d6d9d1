//! Target resolution against real Chromium: strictness, accessible names, shadow DOM, frames.

mod common;

use a3s_test_driver::FailureCode;
use a3s_test_driver::SurfaceContext;
use a3s_test_lang::ir::*;
use common::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

fn visible(t: Target) -> Action {
    expect(ExpectCondition::Visible { target: t })
}

fn count(t: Target, n: u32) -> Action {
    expect(ExpectCondition::VisibleCount {
        target: t,
        count: n,
    })
}

#[test]
fn strict_resolution_counts_zero_one_many() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, goto("resolve.html")).await;
        ok(&mut ctx, &env, visible(role("button", "Save"))).await;
        let m = fails(
            &mut ctx,
            &env,
            visible(role("button", "Delete")),
            FailureCode::TargetAmbiguous,
        )
        .await;
        assert!(m.contains("2 elements match"), "{m}");
        let m = fails(
            &mut ctx,
            &env,
            visible(role("button", "Nope")),
            FailureCode::TargetNotFound,
        )
        .await;
        assert!(m.starts_with("role(\"button\", \"Nope\")"), "{m}");
        // Hidden and aria-hidden elements are not in the accessibility tree.
        fails(
            &mut ctx,
            &env,
            visible(role("button", "Hidden action")),
            FailureCode::TargetNotFound,
        )
        .await;
        fails(
            &mut ctx,
            &env,
            visible(role("button", "Invisible to AT")),
            FailureCode::TargetNotFound,
        )
        .await;
        // Actions wait, then name the target and the time waited.
        let m = fails(
            &mut ctx,
            &env,
            Action::Click {
                target: role("button", "Delete"),
            },
            FailureCode::TargetAmbiguous,
        )
        .await;
        assert!(m.contains("waited"), "{m}");
        let m = fails(
            &mut ctx,
            &env,
            Action::Click {
                target: css("#nothing"),
            },
            FailureCode::TargetNotFound,
        )
        .await;
        assert!(
            m.contains("css(\"#nothing\")") && m.contains("waited"),
            "{m}"
        );
        fails(
            &mut ctx,
            &env,
            visible(css("##bad")),
            FailureCode::InvalidSelector,
        )
        .await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn accessible_names_come_from_one_computation() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, goto("resolve.html")).await;
        for (r, name) in [
            ("button", "Close dialog"),      // aria-label wins over content
            ("textbox", "Shipping address"), // aria-labelledby, two ids
            ("textbox", "Email"),            // <label for>
            ("textbox", "Name"),             // wrapping label
            ("textbox", "Search products"),  // placeholder
            ("img", "Company logo"),         // alt
            ("link", "?"),                   // content wins over title
            ("button", "Settings"),          // title fallback when there is no content
            ("checkbox", "I agree"),
            ("button", "Custom button"), // explicit role, name from content
            ("heading", "Resolution"),
        ] {
            ok(&mut ctx, &env, visible(role(r, name))).await;
        }
        fails(
            &mut ctx,
            &env,
            visible(role("link", "Read the docs")),
            FailureCode::TargetNotFound,
        )
        .await;
        ok(
            &mut ctx,
            &env,
            visible(Target::Label {
                label: "Email".into(),
            }),
        )
        .await;
        ok(
            &mut ctx,
            &env,
            visible(Target::Label {
                label: "Shipping address".into(),
            }),
        )
        .await;
        ok(
            &mut ctx,
            &env,
            visible(Target::Placeholder {
                placeholder: "Search products".into(),
            }),
        )
        .await;
        fails(
            &mut ctx,
            &env,
            visible(Target::Label {
                label: "Search products".into(),
            }),
            FailureCode::TargetNotFound,
        )
        .await;
        ok(
            &mut ctx,
            &env,
            visible(Target::TestId {
                test_id: "card".into(),
            }),
        )
        .await;
        // Text: substring by default, exact on request, whitespace-normalised, deepest element.
        ok(&mut ctx, &env, visible(text("to the store"))).await;
        ok(
            &mut ctx,
            &env,
            visible(Target::Text {
                text: "Welcome to the store".into(),
                exact: true,
            }),
        )
        .await;
        fails(
            &mut ctx,
            &env,
            visible(Target::Text {
                text: "Welcome".into(),
                exact: true,
            }),
            FailureCode::TargetNotFound,
        )
        .await;
        ok(
            &mut ctx,
            &env,
            expect(ExpectCondition::RenderedText {
                target: text("Welcome"),
                text: "Welcome to the store".into(),
            }),
        )
        .await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn semantic_targets_pierce_open_shadow_roots_only() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, goto("resolve.html")).await;
        ok(&mut ctx, &env, visible(role("button", "Shadow action"))).await;
        ok(
            &mut ctx,
            &env,
            visible(Target::Label {
                label: "Shadow field".into(),
            }),
        )
        .await;
        ok(
            &mut ctx,
            &env,
            visible(Target::TestId {
                test_id: "deep".into(),
            }),
        )
        .await;
        ok(&mut ctx, &env, visible(text("deep text"))).await;
        fails(
            &mut ctx,
            &env,
            visible(role("button", "Closed action")),
            FailureCode::TargetNotFound,
        )
        .await;
        // css() stays in the light DOM of the current document.
        fails(
            &mut ctx,
            &env,
            visible(css("#sf")),
            FailureCode::TargetNotFound,
        )
        .await;
        ok(
            &mut ctx,
            &env,
            Action::Fill {
                target: Target::Label {
                    label: "Shadow field".into(),
                },
                value: "in shadow".into(),
            },
        )
        .await;
        ok(
            &mut ctx,
            &env,
            expect(ExpectCondition::Value {
                target: Target::Label {
                    label: "Shadow field".into(),
                },
                value: "in shadow".into(),
            }),
        )
        .await;
        ok(
            &mut ctx,
            &env,
            Action::Click {
                target: role("button", "Shadow action"),
            },
        )
        .await;
        ok(&mut ctx, &env, count(role("button", "Delete"), 2)).await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn refs_are_refused_in_suites() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        let r = Target::Ref {
            reference: ElementRef::Accessibility(4),
        };
        let m = fails(
            &mut ctx,
            &env,
            Action::Click { target: r.clone() },
            FailureCode::Unsupported,
        )
        .await;
        assert!(m.contains("@e4") && m.contains("agent session"), "{m}");
        fails(&mut ctx, &env, visible(r), FailureCode::Unsupported).await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn frames_switch_the_document_steps_act_in() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, goto("frames.html")).await;
        fails(
            &mut ctx,
            &env,
            visible(role("button", "Frame button")),
            FailureCode::TargetNotFound,
        )
        .await;
        fails(
            &mut ctx,
            &env,
            Action::Frame {
                target: FrameTarget::Css {
                    selector: "#notframe".into(),
                },
            },
            FailureCode::FrameUnavailable,
        )
        .await;
        ok(
            &mut ctx,
            &env,
            Action::Frame {
                target: FrameTarget::Css {
                    selector: "#child".into(),
                },
            },
        )
        .await;
        ok(&mut ctx, &env, expect_text("Inside the frame")).await;
        // A real click at the right place proves the frame offset is applied.
        ok(
            &mut ctx,
            &env,
            Action::Click {
                target: role("button", "Frame button"),
            },
        )
        .await;
        ok(&mut ctx, &env, visible(role("button", "Frame clicked"))).await;
        ok(
            &mut ctx,
            &env,
            Action::Fill {
                target: Target::Label {
                    label: "Frame input".into(),
                },
                value: "x".into(),
            },
        )
        .await;
        ok(
            &mut ctx,
            &env,
            expect(ExpectCondition::PointerReachable {
                target: role("button", "Frame clicked"),
            }),
        )
        .await;
        ok(
            &mut ctx,
            &env,
            Action::Frame {
                target: FrameTarget::Main,
            },
        )
        .await;
        ok(&mut ctx, &env, visible(role("button", "Top button"))).await;
        fails(
            &mut ctx,
            &env,
            visible(role("button", "Frame clicked")),
            FailureCode::TargetNotFound,
        )
        .await;
        ctx.close().await.unwrap();
    });
}
