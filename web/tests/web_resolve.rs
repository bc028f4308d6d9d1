//! Target resolution against real Chromium, with each step written as an ACL statement:
//! strictness (zero, one, many), accessible names, open shadow roots, refs outside a session,
//! and frames.

mod common;

use a3s_test_driver::FailureCode;
use common::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// `expect` that `target` (an ACL target) is visible.
fn visible(target: &str) -> String {
    format!("expect {{ visible = {target} }}")
}

/// Each of `found` (ACL targets) names a visible element; none of `missing` names any.
async fn names(page: &mut Page, found: &[&str], missing: &[&str]) {
    for target in found {
        page.ok(&visible(target)).await;
    }
    let missing: Vec<String> = missing.iter().map(|t| visible(t)).collect();
    page.all_fail(&missing, FailureCode::TargetNotFound).await;
}

#[test]
fn strict_resolution_counts_zero_one_many() {
    on_page(LIMIT, "resolve.html", async |page: &mut Page| {
        page.ok(&visible(r#"role("button", "Save")"#)).await;
        let delete = r#"role("button", "Delete")"#;
        let m = page
            .fails(&visible(delete), FailureCode::TargetAmbiguous)
            .await;
        assert!(m.contains("2 elements match"), "{m}");
        // The message shows, for each match, a locator that picks it alone, and each does.
        let picks: Vec<&str> = m
            .split_once("; to pick one, write ")
            .unwrap_or_else(|| panic!("no picks in {m}"))
            .1
            .split(" or ")
            .collect();
        assert_eq!(picks.len(), 2, "{m}");
        assert_ne!(picks[0], picks[1], "{m}");
        for pick in picks {
            page.ok(&visible(pick)).await;
        }
        let nope = visible(r#"role("button", "Nope")"#);
        let m = page.fails(&nope, FailureCode::TargetNotFound).await;
        assert!(m.starts_with("role(\"button\", \"Nope\")"), "{m}");
        // Hidden and aria-hidden elements are not in the accessibility tree.
        let hidden = [
            r#"role("button", "Hidden action")"#,
            r#"role("button", "Invisible to AT")"#,
        ];
        page.all_fail(&hidden.map(visible), FailureCode::TargetNotFound)
            .await;
        // Actions wait, then name the target and the time waited.
        let click = format!("click {{ target = {delete} }}");
        let m = page.fails(&click, FailureCode::TargetAmbiguous).await;
        assert!(
            m.contains("waited") && m.contains("; to pick one, write "),
            "{m}"
        );
        let nothing = r##"click { target = css("#nothing") }"##;
        let m = page.fails(nothing, FailureCode::TargetNotFound).await;
        assert!(
            m.contains("css(\"#nothing\")") && m.contains("waited"),
            "{m}"
        );
        let bad = visible(r###"css("##bad")"###);
        page.fails(&bad, FailureCode::InvalidSelector).await;
    });
}

#[test]
fn accessible_names_come_from_one_computation() {
    on_page(LIMIT, "resolve.html", async |page: &mut Page| {
        let found = [
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
        ];
        let missing = [
            r#"role("link", "Read the docs")"#,
            r#"label("Search products")"#,
            r#"text("Welcome", true)"#,
        ];
        names(page, &found, &missing).await;
        let deepest = r#"expect {
            target = text("Welcome")
            rendered_text = "Welcome to the store"
        }"#;
        page.ok(deepest).await;
    });
}

#[test]
fn targets_pierce_open_shadow_roots_only() {
    on_page(LIMIT, "resolve.html", async |page: &mut Page| {
        let found = [
            r#"role("button", "Shadow action")"#,
            r#"label("Shadow field")"#,
            r#"testid("deep")"#,
            r#"text("deep text")"#,
            // css() searches every open shadow root too (a selector matches within one tree).
            r##"css("#sf")"##,
            r##"css("span[data-testid=deep]")"##,
        ];
        // A closed shadow root stays closed to every locator.
        let missing = [
            r#"role("button", "Closed action")"#,
            r##"css("#closed-host button")"##,
            r#"text("Closed action")"#,
        ];
        names(page, &found, &missing).await;
        let fill = r#"fill {
            target = label("Shadow field")
            value = "in shadow"
        }"#;
        page.ok(fill).await;
        let filled = r#"expect {
            target = label("Shadow field")
            value = "in shadow"
        }"#;
        page.ok(filled).await;
        page.ok(r#"click { target = role("button", "Shadow action") }"#)
            .await;
        let two = r#"expect {
            target = role("button", "Delete")
            visible_count = 2
        }"#;
        page.ok(two).await;
    });
}

#[test]
fn refs_are_refused_in_suites() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        let click = r#"click { target = ref("@e4") }"#;
        let m = page.fails(click, FailureCode::Unsupported).await;
        assert!(m.contains("@e4") && m.contains("agent session"), "{m}");
        let seen = visible(r#"ref("@e4")"#);
        page.fails(&seen, FailureCode::Unsupported).await;
        page.close().await;
    });
}

#[test]
fn frames_switch_the_document_steps_act_in() {
    on_page(LIMIT, "frames.html", async |page: &mut Page| {
        let frame_button = visible(r#"role("button", "Frame button")"#);
        page.fails(&frame_button, FailureCode::TargetNotFound).await;
        let not_a_frame = r##"frame { target = css("#notframe") }"##;
        page.fails(not_a_frame, FailureCode::FrameUnavailable).await;
        page.ok(r##"frame { target = css("#child") }"##).await;
        page.ok(&expect_text("Inside the frame")).await;
        // A real click at the right place proves the frame offset is applied.
        page.ok(r#"click { target = role("button", "Frame button") }"#)
            .await;
        let clicked = r#"role("button", "Frame clicked")"#;
        page.ok(&visible(clicked)).await;
        let fill = r#"fill {
            target = label("Frame input")
            value = "x"
        }"#;
        page.ok(fill).await;
        let reachable = format!("expect {{ pointer_reachable = {clicked} }}");
        page.ok(&reachable).await;
        page.ok("frame { target = main() }").await;
        page.ok(&visible(r#"role("button", "Top button")"#)).await;
        page.fails(&visible(clicked), FailureCode::TargetNotFound)
            .await;
    });
}
