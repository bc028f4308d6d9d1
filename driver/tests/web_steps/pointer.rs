//! Pointer actions dispatch real events, wait for an actionable target and land once.

use crate::common::*;
use crate::{log_is, log_shows, LIMIT};
use a3s_test_driver::{FailureCode, SurfaceContext};
use std::time::Duration;

#[test]
fn pointer_actions_dispatch_real_events() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        let (click, dblclick, context, hover) = (
            log_is(&["click"]),
            log_shows("dblclick"),
            log_shows("contextmenu"),
            log_shows("hover"),
        );
        let focus = log_shows("focus");
        all_pass(
            &mut ctx,
            &env,
            &[
                &goto("actions.html"),
                r#"click { target = role("button", "Click me") }"#,
                &click,
                r#"double_click { target = role("button", "Double me") }"#,
                &dblclick,
                r#"context_click { target = role("button", "Context me") }"#,
                &context,
                r#"hover { target = role("button", "Hover me") }"#,
                &hover,
                r#"focus { target = label("Focus me") }"#,
                &focus,
                r#"expect { focused = label("Focus me") }"#,
            ],
        )
        .await;
        // Scrolled into view before the click.
        ok(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Far away") }"#,
        )
        .await;
        ok(&mut ctx, &env, &log_shows("far")).await;
        // Drag with pointer events: press, several moves, release over the drop zone.
        let drag = r##"drag {
            source = css("#src")
            target = css("#dst")
        }"##;
        ok(&mut ctx, &env, drag).await;
        ok(&mut ctx, &env, &log_shows("dropped on dst after moves")).await;
        // HTML5 drag and drop (draggable=true) carries its data to the drop zone.
        let drag = r##"drag {
            source = css("#h5src")
            target = css("#h5dst")
        }"##;
        ok(&mut ctx, &env, drag).await;
        ok(&mut ctx, &env, &log_shows("h5 drop payload")).await;
        // Wheel over the scroller.
        let wheel = r##"wheel {
            delta_y = 200
            target = css("#scroller")
        }"##;
        ok(&mut ctx, &env, wheel).await;
        ok(&mut ctx, &env, &log_shows("scrolled")).await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn check_uncheck_click_only_when_needed_and_verify() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("actions.html")).await;
        let check = r#"check { target = label("Subscribe") }"#;
        let out = ok(&mut ctx, &env, check).await;
        assert_eq!(out.detail.unwrap()["changed"], true);
        ok(&mut ctx, &env, r#"expect { checked = label("Subscribe") }"#).await;
        let out = ok(&mut ctx, &env, check).await;
        assert_eq!(out.detail.unwrap()["changed"], false);
        ok(&mut ctx, &env, &log_is(&["cb true"])).await;
        ok(&mut ctx, &env, r#"uncheck { target = label("Subscribe") }"#).await;
        ok(
            &mut ctx,
            &env,
            r#"expect { unchecked = label("Subscribe") }"#,
        )
        .await;
        ok(
            &mut ctx,
            &env,
            r#"check { target = role("switch", "Dark mode") }"#,
        )
        .await;
        ok(
            &mut ctx,
            &env,
            r#"expect { checked = role("switch", "Dark mode") }"#,
        )
        .await;
        fails(
            &mut ctx,
            &env,
            r#"check { target = role("button", "Click me") }"#,
            FailureCode::TargetNotActionable,
        )
        .await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn actionability_waits_for_visible_enabled_stable_targets() {
    block_on(LIMIT, async {
        let mut env = Env::new();
        let mut ctx = context().await;
        let late = r#"navigate { url = "/pages/actions.html?late=300&enable=300" }"#;
        ok(&mut ctx, &env, late).await;
        // Appears after 300 ms, enabled after 300 ms: both actions wait, then dispatch once.
        let enable_later = r#"click { target = role("button", "Enable later") }"#;
        ok(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Late button") }"#,
        )
        .await;
        ok(&mut ctx, &env, enable_later).await;
        ok(&mut ctx, &env, &log_shows("late")).await;
        ok(&mut ctx, &env, &log_shows("enabled")).await;
        env.action_timeout = Duration::from_millis(400);
        let m = fails(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Spinner") }"#,
            FailureCode::TargetNotActionable,
        )
        .await;
        assert!(m.contains("moving") && m.contains("waited"), "{m}");
        ok(&mut ctx, &env, &goto("actions.html")).await;
        let m = fails(
            &mut ctx,
            &env,
            enable_later,
            FailureCode::TargetNotActionable,
        )
        .await;
        assert!(m.contains("disabled"), "{m}");
        let m = fails(
            &mut ctx,
            &env,
            r##"click { target = css("#late") }"##,
            FailureCode::TargetNotActionable,
        )
        .await;
        assert!(m.contains("not visible"), "{m}");
        ctx.close().await.unwrap();
    });
}

#[test]
fn a_click_whose_arrival_moves_its_target_still_lands_once() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("actions.html")).await;
        // The pointer's arrival logs a line above the button, pushing it down: the click
        // re-checks the target, moves once more and presses where the button now is.
        ok(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Shy") }"#,
        )
        .await;
        ok(&mut ctx, &env, &log_shows("shy click")).await;
        ok(&mut ctx, &env, &log_is(&["shy hover", "shy click"])).await;
        ctx.close().await.unwrap();
    });
}
