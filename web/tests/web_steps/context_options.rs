//! Context options against real Chromium (`docs/acl.md` §2.4): applied before the first
//! document, inherited by a tab opened later, and changed mid-scenario by the `context` step.

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::{FailureCode, SurfaceContext};
use a3s_test_lang::ir::{ColorScheme, ContextSettings};

#[test]
fn options_reach_every_tab_and_the_context_step_changes_them() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        let settings = ContextSettings {
            locale: Some("de-DE".into()),
            timezone_id: Some("America/New_York".into()),
            color_scheme: Some(ColorScheme::Dark),
            ..ContextSettings::default()
        };
        page.ctx
            .apply_context(&settings, &page.env.vars, page.env.deadline)
            .await
            .expect("the options apply");
        page.ok(&goto("media.html")).await;
        let seen = "language: de-DE / dark: true / zone: America/New_York";
        page.ok(&expect_text(seen)).await;
        // A tab opened later gets the same options.
        let new_tab = format!(
            "tab {{\n    operation = \"new\"\n    url = {:?}\n}}",
            crate::common::page("media.html")
        );
        page.ok(&new_tab).await;
        page.ok("tab {\n    operation = \"switch\"\n    tab = 1\n}")
            .await;
        page.ok(&expect_text(seen)).await;
        // The `context` step changes the media features of every tab at once.
        page.ok(r#"context { color_scheme = "light" }"#).await;
        page.ok(&goto("media.html")).await;
        page.ok(&expect_text("dark: false")).await;
        page.ok("tab {\n    operation = \"switch\"\n    tab = 0\n}")
            .await;
        page.ok(&goto("media.html")).await;
        page.ok(&expect_text("language: de-DE / dark: false")).await;
        page.close().await;
    });
}

#[test]
fn an_unset_header_variable_is_refused_naming_it() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        let settings = ContextSettings {
            extra_http_headers: Some(vec![a3s_test_lang::ir::HttpHeader {
                name: "X-Token".into(),
                value: a3s_test_lang::ir::TextValue::Env(
                    a3s_test_lang::ir::EnvVar::new("A3S_TEST_NEVER_SET_HEADER").unwrap(),
                ),
            }]),
            ..ContextSettings::default()
        };
        let refused = page
            .ctx
            .apply_context(&settings, &page.env.vars, page.env.deadline)
            .await
            .expect_err("an unset variable is refused");
        assert_eq!(refused.code, FailureCode::EnvUnset);
        assert!(refused.message.contains("A3S_TEST_NEVER_SET_HEADER"));
        page.close().await;
    });
}
