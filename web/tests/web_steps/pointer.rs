//! Pointer actions dispatch real events, wait for an actionable target and land once.

use crate::common::*;
use crate::{log_is, log_shows, LIMIT};
use a3s_test_driver::{FailureCode, StepDetail};
use std::time::Duration;

#[test]
fn pointer_actions_dispatch_real_events() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        let (click, dblclick, context, hover) = (
            log_is(&["click"]),
            log_shows("dblclick"),
            log_shows("contextmenu"),
            log_shows("hover"),
        );
        let focus = log_shows("focus");
        page.all_pass(&[
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
        ])
        .await;
        // Scrolled into view before the click.
        page.ok(r#"click { target = role("button", "Far away") }"#)
            .await;
        page.ok(&log_shows("far")).await;
        // `edge` releases just inside that edge of the target, not at its centre.
        for edge in ["top", "bottom", "left", "right"] {
            let drag = format!(
                "drag {{\n    source = css(\"#src\")\n    target = css(\"#dst\")\n    edge = {edge:?}\n}}"
            );
            page.ok(&drag).await;
            page.ok(&log_shows(&format!("dropped on dst after moves at {edge}")))
                .await;
        }
        // Drag with pointer events (press, several moves, release over the drop zone), and HTML5
        // drag and drop (draggable=true), which carries its data to the drop zone.
        for (source, target, logged) in [
            ("#src", "#dst", "dropped on dst after moves at middle"),
            ("#h5src", "#h5dst", "h5 drop payload"),
        ] {
            let drag =
                format!("drag {{\n    source = css({source:?})\n    target = css({target:?})\n}}");
            page.ok(&drag).await;
            page.ok(&log_shows(logged)).await;
        }
        // Wheel over the scroller.
        let wheel = r##"wheel {
            delta_y = 200
            target = css("#scroller")
        }"##;
        page.ok(wheel).await;
        page.ok(&log_shows("scrolled")).await;
        page.close().await;
    });
}

/// A target a viewport below its source: the press lands on the source even though reaching the
/// target scrolls it away, and the release on the target, each end measured when the pointer
/// gets there (`steps/drag.rs`).
#[test]
fn drag_presses_on_the_source_and_releases_on_a_target_out_of_view() {
    on_page(LIMIT, "drops.html", async |page: &mut Page| {
        let out = page
            .ok("drag {\n    source = css(\"#source\")\n    target = css(\"#target\")\n}")
            .await;
        let (source_hit, target_hit) = detail!(out, StepDetail::Dragged { source_hit, target_hit, .. } => (source_hit, target_hit));
        assert!(source_hit.contains("source"), "{source_hit}");
        assert!(target_hit.contains("target"), "{target_hit}");
        page.ok(&expect_text("log: pointerdown@source pointerup@target"))
            .await;
    });
}

/// A box lying over the middle of the well it is dropped into (MiniWoB's `drag-box`): the box
/// on top of the well's point is what the pointer carries, not something covering the well.
#[test]
fn drag_onto_a_target_the_source_lies_over_is_not_covered_by_it() {
    on_page(LIMIT, "drops.html", async |page: &mut Page| {
        let out = page
            .ok("drag {\n    source = css(\"#box\")\n    target = css(\"#well\")\n}")
            .await;
        let target_hit = detail!(out, StepDetail::Dragged { target_hit, .. } => target_hit);
        assert!(target_hit.contains("box"), "{target_hit}");
        page.ok(&expect_text("log: pointerdown@box pointerup@box"))
            .await;
    });
}

#[test]
fn check_uncheck_click_only_when_needed_and_verify() {
    on_page(LIMIT, "actions.html", async |page: &mut Page| {
        let check = r#"check { target = label("Subscribe") }"#;
        let out = page.ok(check).await;
        assert!(detail!(out, StepDetail::Checked { changed, .. } => changed));
        page.ok(r#"expect { checked = label("Subscribe") }"#).await;
        let out = page.ok(check).await;
        assert!(!detail!(out, StepDetail::Checked { changed, .. } => changed));
        page.ok(&log_is(&["cb true"])).await;
        page.ok(r#"uncheck { target = label("Subscribe") }"#).await;
        page.ok(r#"expect { unchecked = label("Subscribe") }"#)
            .await;
        page.ok(r#"check { target = role("switch", "Dark mode") }"#)
            .await;
        page.ok(r#"expect { checked = role("switch", "Dark mode") }"#)
            .await;
        page.fails(
            r#"check { target = role("button", "Click me") }"#,
            FailureCode::TargetNotActionable,
        )
        .await;
    });
}

#[test]
fn actionability_waits_for_visible_enabled_stable_targets() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        let late = r#"navigate { url = "/pages/actions.html?late=300&enable=300" }"#;
        page.ok(late).await;
        // Appears after 300 ms, enabled after 300 ms: both actions wait, then dispatch once.
        let enable_later = r#"click { target = role("button", "Enable later") }"#;
        page.ok(r#"click { target = role("button", "Late button") }"#)
            .await;
        page.ok(enable_later).await;
        page.ok(&log_shows("late")).await;
        page.ok(&log_shows("enabled")).await;
        page.env.action_timeout = Duration::from_millis(400);
        let m = page
            .fails(
                r#"click { target = role("button", "Spinner") }"#,
                FailureCode::TargetNotActionable,
            )
            .await;
        assert!(m.contains("moving") && m.contains("waited"), "{m}");
        page.ok(&goto("actions.html")).await;
        let m = page
            .fails(enable_later, FailureCode::TargetNotActionable)
            .await;
        assert!(m.contains("disabled"), "{m}");
        let m = page
            .fails(
                r##"click { target = css("#late") }"##,
                FailureCode::TargetNotActionable,
            )
            .await;
        assert!(m.contains("not visible"), "{m}");
        page.close().await;
    });
}

#[test]
fn a_click_whose_arrival_moves_its_target_still_lands_once() {
    on_page(LIMIT, "actions.html", async |page: &mut Page| {
        // The pointer's arrival logs a line above the button, pushing it down: the click
        // re-checks the target, moves once more and presses where the button now is.
        page.ok(r#"click { target = role("button", "Shy") }"#).await;
        page.ok(&log_shows("shy click")).await;
        page.ok(&log_is(&["shy hover", "shy click"])).await;
    });
}
