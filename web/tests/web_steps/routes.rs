//! Routes that set response headers, continue requests with changes, answer a limited number of
//! times, and match URLs by glob or regular expression — in real Chromium, against the loopback
//! server's `/api/echo`, which answers with what it received.

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::{MapVars, StepDetail};

const CART: &str = r#"click { target = role("button", "Cart", exact = true) }"#;
const CART_V2: &str = r#"click { target = role("button", "Cart v2") }"#;
const USERS: &str = r#"click { target = role("button", "Users") }"#;

/// Wait until the page's output line shows `text`.
fn shows(text: &str) -> String {
    format!("wait {{ text = {text:?} }}")
}

#[test]
fn a_fulfilled_route_sets_response_headers() {
    on_page(LIMIT, "routes.html", async |page| {
        let route = r#"network_route {
            pattern = "**/api/cart"
            body = "[1,2,3]"
            content_type = "application/json"
            headers = { "X-Total" = "3", "Access-Control-Expose-Headers" = "X-Total" }
        }"#;
        page.ok(route).await;
        page.ok(CART).await;
        page.ok(&shows("#1 200 total=3 [1,2,3]")).await;
    });
}

#[test]
fn a_continued_request_goes_on_with_its_url_method_headers_and_body_replaced() {
    on_page(LIMIT, "routes.html", async |page| {
        const SECRET: &str = "token-9f2c-never-shown";
        page.env.vars = MapVars::new([("A3S_TEST_ROUTE_TOKEN", SECRET)]);
        let route = format!(
            r#"network_route {{
            pattern = "**/api/users"
            continue = true
            url = "{}/api/echo?from=route"
            method = "post"
            headers = {{ "X-Test" = env("A3S_TEST_ROUTE_TOKEN") }}
            post_data = "hello"
        }}"#,
            base_url()
        );
        let out = page.ok(&route).await;
        let shown = format!("{out:?}");
        assert!(!shown.contains(SECRET), "{shown}");
        page.ok(USERS).await;
        let echoed = format!(
            r#"#1 200 total=null {{"body":"hello","method":"POST","path":"/api/echo?from=route","x-test":"{SECRET}"}}"#
        );
        page.ok(&shows(&echoed)).await;
        // Unchanged, the page's own header reaches the server.
        let plain = r#"network_route {
            pattern = "**/api/users"
            continue = true
            url = "BASE/api/echo"
        }"#
        .replace("BASE", base_url());
        page.ok(&plain).await;
        page.ok(USERS).await;
        page.ok(&shows(
            r#"#2 200 total=null {"body":"","method":"GET","path":"/api/echo","x-test":"from-page"}"#,
        ))
        .await;
    });
}

#[test]
fn a_route_with_times_answers_that_many_requests_then_falls_through() {
    on_page(LIMIT, "routes.html", async |page| {
        let always = r#"network_route {
            pattern = "**/api/cart"
            body = "always"
        }"#;
        let once = r#"network_route {
            pattern = "**/api/cart"
            body = "once"
            status = 503
            times = 1
        }"#;
        page.ok(always).await;
        let out = page.ok(once).await;
        let routes = detail!(out, StepDetail::Routed { routes, .. } => routes);
        assert_eq!(routes, 2, "a limited route goes on top of the same pattern");
        page.ok(CART).await;
        page.ok(&shows("#1 503 total=null once")).await;
        page.ok(CART).await;
        page.ok(&shows("#2 200 total=null always")).await;
        // With nothing under it, a used-up route leaves the request to the network (a 404 there).
        page.ok("network_unroute {}").await;
        let twice = r#"network_route {
            pattern = "**/api/cart"
            body = "routed"
            times = 2
        }"#;
        page.ok(twice).await;
        for k in [3, 4] {
            page.ok(CART).await;
            page.ok(&shows(&format!("#{k} 200 total=null routed")))
                .await;
        }
        page.ok(CART).await;
        page.ok(&shows("#5 404 total=null not found")).await;
    });
}

#[test]
fn a_regex_pattern_is_found_in_the_url_and_a_glob_matches_all_of_it() {
    on_page(LIMIT, "routes.html", async |page| {
        let by_regex = r#"network_route {
            pattern = /\/API\/cart\?v=\d+$/i
            body = "by regex"
        }"#;
        let by_glob = r#"network_route {
            pattern = "**/api/cart"
            body = "by glob"
        }"#;
        page.ok(by_regex).await;
        page.ok(by_glob).await;
        page.ok(CART_V2).await;
        page.ok(&shows("#1 200 total=null by regex")).await;
        page.ok(CART).await;
        page.ok(&shows("#2 200 total=null by glob")).await;
        // Removed by the pattern as written, the regex route no longer answers.
        page.ok(r#"network_unroute { pattern = /\/API\/cart\?v=\d+$/i }"#)
            .await;
        page.ok(CART_V2).await;
        page.ok(&shows("#3 404 total=null not found")).await;
    });
}
