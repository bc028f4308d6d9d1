//! `wait { request = … }` and `wait { response = … status = … }`, armed at the action before them:
//! a response that came during the click is seen, one from before the action is not, and a wait
//! whose response never comes fails with `test.assert.network_not_seen` naming what it waited for
//! and how long.

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::{FailureCode, StepDetail};

const CART: &str = r#"click { target = role("button", "Cart", exact = true) }"#;
const CART_V2: &str = r#"click { target = role("button", "Cart v2") }"#;
const FULFIL_CART: &str = r#"network_route {
    pattern = "**/api/cart"
    body = "[]"
}"#;

#[test]
fn a_response_that_came_during_the_click_is_not_missed() {
    on_page(LIMIT, "routes.html", async |page| {
        page.ok(FULFIL_CART).await;
        page.ok(CART).await;
        // The page has shown the answer: the response came before the network wait began.
        page.ok(r##"wait { text = "#1 200 total=null []" }"##).await;
        let out = page
            .ok(r#"wait {
                response = "**/api/cart"
                status = 200
            }"#)
            .await;
        let observed = detail!(out, StepDetail::Waited { observed, .. } => observed);
        let observed = observed.expect("the response seen");
        assert!(
            observed["url"].as_str().unwrap().ends_with("/api/cart"),
            "{observed}"
        );
        assert_eq!(observed["status"], 200);
        // A second wait after the same action shares its mark.
        page.ok(r#"wait { request = /\/api\/cart$/ }"#).await;
    });
}

#[test]
fn a_wait_never_sees_traffic_from_before_its_action_and_says_what_it_waited_for() {
    on_page(LIMIT, "routes.html", async |page| {
        page.ok(FULFIL_CART).await;
        page.ok(CART).await;
        page.ok(r##"wait { text = "#1 200" }"##).await;
        // An action that sends nothing: the cart response before it no longer counts.
        page.ok(r#"press { key = "Tab" }"#).await;
        let started = std::time::Instant::now();
        let message = page
            .fails(
                r#"wait { response = "**/api/cart" }"#,
                FailureCode::NetworkNotSeen,
            )
            .await;
        let waited = started.elapsed();
        assert!(
            message.contains(r#"no response "**/api/cart" since the previous action began"#),
            "{message}"
        );
        assert!(message.contains("ms (the expect timeout)"), "{message}");
        // Bounded by the expect timeout (1.5 s in these tests), well inside the scenario's.
        assert!(waited < std::time::Duration::from_secs(10), "{waited:?}");
    });
}

#[test]
fn a_response_with_another_status_does_not_satisfy_the_wait_and_is_named() {
    on_page(LIMIT, "routes.html", async |page| {
        let busy = r#"network_route {
            pattern = /cart\?v=2/
            body = "busy"
            status = 503
        }"#;
        page.ok(busy).await;
        page.ok(CART_V2).await;
        let message = page
            .fails(
                r#"wait {
                    response = "**/api/cart?v=2"
                    status = 200
                }"#,
                FailureCode::NetworkNotSeen,
            )
            .await;
        assert!(
            message.contains(r#"no response "**/api/cart?v=2" with status 200"#),
            "{message}"
        );
        assert!(message.contains("came with status 503"), "{message}");
    });
}
