//! Page-level steps: tabs (popups adopted), dialogs that never hang a step, the viewport,
//! navigation failures, isolated contexts, and a resolver that follows each new document.

use crate::common::*;
use crate::{log_is, LIMIT};
use a3s_test_driver::{FailureCode, SurfaceContext};
use std::time::Duration;

#[test]
fn tabs_open_switch_list_and_close() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("network.html")).await;
        let second = r#"tab {
            operation = "new"
            url = "/pages/expect.html"
            label = "second"
        }"#;
        ok(&mut ctx, &env, second).await;
        ok(&mut ctx, &env, &expect_text("Status: ready")).await;
        let first = r#"tab {
            operation = "switch"
            tab = 0
        }"#;
        ok(&mut ctx, &env, first).await;
        ok(&mut ctx, &env, &expect_text("none")).await;
        // A popup the page opens is adopted as the next tab.
        ok(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Open popup") }"#,
        )
        .await;
        let list = r#"tab { operation = "list" }"#;
        let mut tabs = 0;
        for _ in 0..250 {
            let out = ok(&mut ctx, &env, list).await;
            tabs = out.detail.unwrap()["tabs"].as_array().unwrap().len();
            if tabs == 3 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(tabs, 3);
        let popup = r#"tab {
            operation = "switch"
            tab = 2
        }"#;
        ok(&mut ctx, &env, popup).await;
        ok(&mut ctx, &env, r#"wait { text = "Inside the frame" }"#).await;
        let back = r#"tab {
            operation = "switch"
            tab = "second"
        }"#;
        ok(&mut ctx, &env, back).await;
        ok(&mut ctx, &env, r#"tab { operation = "close" }"#).await;
        fails(&mut ctx, &env, back, FailureCode::TabNotFound).await;
        let out = ok(&mut ctx, &env, list).await;
        assert_eq!(out.detail.unwrap()["tabs"].as_array().unwrap().len(), 2);
        ctx.close().await.unwrap();
    });
}

#[test]
fn dialogs_never_hang_a_step() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("dialogs.html")).await;
        let accept = r#"dialog { operation = "accept" }"#;
        fails(&mut ctx, &env, accept, FailureCode::NoDialog).await;
        ok(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Alert") }"#,
        )
        .await;
        let out = ok(&mut ctx, &env, r#"dialog { operation = "status" }"#).await;
        let d = out.detail.unwrap();
        assert_eq!(
            (
                d["open"].as_bool(),
                d["type"].as_str(),
                d["message"].as_str()
            ),
            (Some(true), Some("alert"), Some("Hello there"))
        );
        // A step that needs the page fails at once while the dialog blocks it.
        fails(
            &mut ctx,
            &env,
            &expect_text("anything"),
            FailureCode::DialogBlocking,
        )
        .await;
        ok(&mut ctx, &env, accept).await;
        ok(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Confirm") }"#,
        )
        .await;
        ok(&mut ctx, &env, r#"dialog { operation = "dismiss" }"#).await;
        let out_is = |text: &str| {
            format!("expect {{\n    target = css(\"#out\")\n    rendered_text = {text:?}\n}}")
        };
        ok(&mut ctx, &env, &out_is("no")).await;
        ok(
            &mut ctx,
            &env,
            r#"click { target = role("button", "Prompt") }"#,
        )
        .await;
        let answer = r#"dialog {
            operation = "accept"
            text = "Ada"
        }"#;
        ok(&mut ctx, &env, answer).await;
        ok(&mut ctx, &env, &out_is("name=Ada")).await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn an_evaluation_fails_at_once_when_a_dialog_opens_while_it_waits() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("dialogs.html")).await;
        // The promise never settles; the alert it schedules blocks the page mid-call.
        let err = ctx
            .evaluate_json(
                "new Promise(() => setTimeout(() => alert('opened mid-call'), 0))",
                env.deadline,
            )
            .await
            .unwrap_err();
        assert_eq!(err.code, FailureCode::DialogBlocking, "{}", err.message);
        assert!(err.message.contains("opened mid-call"), "{}", err.message);
        ok(&mut ctx, &env, r#"dialog { operation = "accept" }"#).await;
        let two = ctx.evaluate_json("1 + 1", env.deadline).await.unwrap();
        assert_eq!(two, serde_json::json!(2));
        ctx.close().await.unwrap();
    });
}

#[test]
fn viewport_and_navigation_failures() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        ok(&mut ctx, &env, &goto("expect.html")).await;
        let small = "viewport {
            width = 400
            height = 300
        }";
        ok(&mut ctx, &env, small).await;
        let gone = r##"expect {
            target = css("#big")
            viewport_coverage_at_most = 0
        }"##;
        ok(&mut ctx, &env, gone).await;
        ok(&mut ctx, &env, r##"expect { in_viewport = css("#a") }"##).await;
        fails(
            &mut ctx,
            &env,
            r##"expect { in_viewport = css("#outer") }"##,
            FailureCode::NotInViewport,
        )
        .await;
        fails(
            &mut ctx,
            &env,
            r#"navigate { url = "http://127.0.0.1:9/" }"#,
            FailureCode::NavigationFailed,
        )
        .await;
        ctx.close().await.unwrap();
    });
}

#[test]
fn contexts_are_isolated_and_counted() {
    block_on(LIMIT, async {
        let env = Env::new();
        // Isolation: storage written in one context is not visible in the next.
        let mut first = context().await;
        ok(&mut first, &env, &goto("expect.html")).await;
        ok(&mut first, &env, &expect_text("first visit")).await;
        let again = r#"navigate { url = "/pages/expect.html?x" }"#;
        ok(&mut first, &env, again).await;
        ok(&mut first, &env, &expect_text("visited before")).await;
        first.close().await.unwrap();
        let before = driver().await.context_stats().contexts;
        let rounds = 3;
        for _ in 0..rounds {
            let mut ctx = context().await;
            ok(&mut ctx, &env, &goto("expect.html")).await;
            ok(&mut ctx, &env, &expect_text("first visit")).await;
            ctx.close().await.unwrap();
        }
        // Each context is a fresh one the driver counts. What opening and closing one costs is
        // the `web-contexts` benchmark (docs/benchmarks.md), not a timed assertion here.
        assert!(driver().await.context_stats().contexts >= before + rounds);
    });
}

#[test]
fn the_resolver_follows_each_new_document_and_leaves_no_trace() {
    block_on(LIMIT, async {
        let env = Env::new();
        let mut ctx = context().await;
        let globals = "Object.getOwnPropertyNames(window).length";
        let deadline = || tokio::time::Instant::now() + Duration::from_secs(10);
        ok(&mut ctx, &env, &goto("actions.html")).await;
        let before = ctx.evaluate_json(globals, deadline()).await.unwrap();
        let click = r#"click { target = role("button", "Click me") }"#;
        ok(&mut ctx, &env, click).await;
        ok(&mut ctx, &env, &log_is(&["click"])).await;
        // The resolver is held by the driver, not installed in the page.
        let after = ctx.evaluate_json(globals, deadline()).await.unwrap();
        assert_eq!(before, after, "the page gained globals");

        // A new document: targets resolve there, never in the page left behind.
        ok(&mut ctx, &env, &goto("expect.html")).await;
        ok(&mut ctx, &env, &expect_text("first visit")).await;
        fails(
            &mut ctx,
            &env,
            &expect_text("Click me"),
            FailureCode::TextMismatch,
        )
        .await;

        // Back to the first page by the page's own history (possibly restored from the
        // back/forward cache): the resolver follows again.
        // (Deferred, so the evaluation answers before the document goes away.)
        ctx.evaluate_json("setTimeout(() => history.back(), 0)", deadline())
            .await
            .unwrap();
        let back = r#"wait { visible = role("button", "Click me") }"#;
        ok(&mut ctx, &env, back).await;
        ok(&mut ctx, &env, click).await;
        ctx.close().await.unwrap();
    });
}
