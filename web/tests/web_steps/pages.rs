//! Page-level steps: tabs (popups adopted), dialogs that never hang a step, the viewport,
//! navigation failures, isolated contexts, and a resolver that follows each new document.

use crate::common::*;
use crate::{log_is, LIMIT};
use a3s_test_driver::{DialogStatus, FailureCode, StepDetail};
use std::time::Duration;

#[test]
fn tabs_open_switch_list_and_close() {
    on_page(LIMIT, "network.html", async |page: &mut Page| {
        let second = r#"tab {
            operation = "new"
            url = "/pages/expect.html"
            label = "second"
        }"#;
        page.ok(second).await;
        page.ok(&expect_text("Status: ready")).await;
        let first = r#"tab {
            operation = "switch"
            tab = 0
        }"#;
        page.ok(first).await;
        page.ok(&expect_text("none")).await;
        // A popup the page opens is adopted as the next tab: switching to it right after the
        // click waits for the browser to announce it.
        page.ok(r#"click { target = role("button", "Open popup") }"#)
            .await;
        let popup = r#"tab {
            operation = "switch"
            tab = 2
        }"#;
        page.ok(popup).await;
        let list = r#"tab { operation = "list" }"#;
        let out = page.ok(list).await;
        assert_eq!(detail!(out, StepDetail::Tabs { tabs } => tabs.len()), 3);
        page.ok(r#"wait { text = "Inside the frame" }"#).await;
        let back = r#"tab {
            operation = "switch"
            tab = "second"
        }"#;
        page.ok(back).await;
        page.ok(r#"tab { operation = "close" }"#).await;
        let message = page.fails(back, FailureCode::TabNotFound).await;
        assert!(
            !message.contains("waited"),
            "a label is not waited for: {message}"
        );
        // An index no tab has is waited for (a popup may be opening), then refused.
        let never = r#"tab {
            operation = "switch"
            tab = 7
        }"#;
        let message = page.fails(never, FailureCode::TabNotFound).await;
        assert!(
            message.contains("no open tab #7") && message.contains("waited"),
            "{message}"
        );
        let out = page.ok(list).await;
        assert_eq!(detail!(out, StepDetail::Tabs { tabs } => tabs.len()), 2);
    });
}

#[test]
fn dialogs_never_hang_a_step() {
    on_page(LIMIT, "dialogs.html", async |page: &mut Page| {
        let accept = r#"dialog { operation = "accept" }"#;
        page.fails(accept, FailureCode::NoDialog).await;
        page.ok(r#"click { target = role("button", "Alert") }"#)
            .await;
        let out = page.ok(r#"dialog { operation = "status" }"#).await;
        let d = detail!(out, StepDetail::Dialog(DialogStatus { open: true, dialog: Some(d) }) => d);
        assert_eq!(
            (d.kind.as_str(), d.message.as_str()),
            ("alert", "Hello there")
        );
        // A step that needs the page fails at once while the dialog blocks it.
        page.fails(&expect_text("anything"), FailureCode::DialogBlocking)
            .await;
        page.ok(accept).await;
        page.ok(r#"click { target = role("button", "Confirm") }"#)
            .await;
        page.ok(r#"dialog { operation = "dismiss" }"#).await;
        let out_is = |text: &str| {
            format!("expect {{\n    target = css(\"#out\")\n    rendered_text = {text:?}\n}}")
        };
        page.ok(&out_is("no")).await;
        page.ok(r#"click { target = role("button", "Prompt") }"#)
            .await;
        let answer = r#"dialog {
            operation = "accept"
            text = "Ada"
        }"#;
        page.ok(answer).await;
        page.ok(&out_is("name=Ada")).await;
    });
}

#[test]
fn an_evaluation_fails_at_once_when_a_dialog_opens_while_it_waits() {
    on_page(LIMIT, "dialogs.html", async |page: &mut Page| {
        // The promise never settles; the alert it schedules blocks the page mid-call.
        let err = page
            .ctx
            .evaluate_json(
                "new Promise(() => setTimeout(() => alert('opened mid-call'), 0))",
                page.env.deadline,
            )
            .await
            .unwrap_err();
        assert_eq!(err.code, FailureCode::DialogBlocking, "{}", err.message);
        assert!(err.message.contains("opened mid-call"), "{}", err.message);
        page.ok(r#"dialog { operation = "accept" }"#).await;
        let two = page
            .ctx
            .evaluate_json("1 + 1", page.env.deadline)
            .await
            .unwrap();
        assert_eq!(two, serde_json::json!(2));
    });
}

#[test]
fn viewport_and_navigation_failures() {
    on_page(LIMIT, "expect.html", async |page: &mut Page| {
        let small = "viewport {
            width = 400
            height = 300
        }";
        page.ok(small).await;
        let gone = r##"expect {
            target = css("#big")
            viewport_coverage_at_most = 0
        }"##;
        page.ok(gone).await;
        page.ok(r##"expect { in_viewport = css("#a") }"##).await;
        page.fails(
            r##"expect { in_viewport = css("#outer") }"##,
            FailureCode::NotInViewport,
        )
        .await;
        page.fails(
            r#"navigate { url = "http://127.0.0.1:9/" }"#,
            FailureCode::NavigationFailed,
        )
        .await;
    });
}

#[test]
fn contexts_are_isolated_and_counted() {
    block_on(LIMIT, async {
        // Isolation: storage written in one context is not visible in the next.
        let mut first = Page::open().await;
        first.ok(&goto("expect.html")).await;
        first.ok(&expect_text("first visit")).await;
        first
            .ok(r#"navigate { url = "/pages/expect.html?x" }"#)
            .await;
        first.ok(&expect_text("visited before")).await;
        first.close().await;
        let before = driver().await.context_stats().contexts;
        let rounds = 3;
        for _ in 0..rounds {
            let mut page = Page::at("expect.html").await;
            page.ok(&expect_text("first visit")).await;
            page.close().await;
        }
        // Each context is a fresh one the driver counts. What opening and closing one costs is
        // the `contexts` benchmark (docs/benchmarks.md), not a timed assertion here.
        assert!(driver().await.context_stats().contexts >= before + rounds);
    });
}

#[test]
fn the_resolver_follows_each_new_document_and_leaves_no_trace() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        let globals = "Object.getOwnPropertyNames(window).length";
        let deadline = || tokio::time::Instant::now() + Duration::from_secs(10);
        page.ok(&goto("actions.html")).await;
        let before = page.ctx.evaluate_json(globals, deadline()).await.unwrap();
        let click = r#"click { target = role("button", "Click me") }"#;
        page.ok(click).await;
        page.ok(&log_is(&["click"])).await;
        // The resolver is held by the driver, not installed in the page.
        let after = page.ctx.evaluate_json(globals, deadline()).await.unwrap();
        assert_eq!(before, after, "the page gained globals");

        // A new document: targets resolve there, never in the page left behind.
        page.ok(&goto("expect.html")).await;
        page.ok(&expect_text("first visit")).await;
        page.fails(&expect_text("Click me"), FailureCode::TextMismatch)
            .await;

        // Back to the first page by the page's own history (possibly restored from the
        // back/forward cache): the resolver follows again.
        // (Deferred, so the evaluation answers before the document goes away.)
        page.ctx
            .evaluate_json("setTimeout(() => history.back(), 0)", deadline())
            .await
            .unwrap();
        let back = r#"wait { visible = role("button", "Click me") }"#;
        page.ok(back).await;
        page.ok(click).await;
        page.close().await;
    });
}
