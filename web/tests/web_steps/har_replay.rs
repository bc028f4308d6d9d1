//! `route_from_har`: answers replayed from a HAR file in the working directory (status, headers,
//! body, base64 bodies, POST bodies), unknown requests aborted or let through, and a file that
//! is not JSON or not a HAR refused with `test.run.har_invalid`, no route set, nothing written.

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::{FailureCode, StepDetail};

const CART: &str = r#"click { target = role("button", "Cart", exact = true) }"#;
const USERS: &str = r#"click { target = role("button", "Users") }"#;

/// A HAR recording of the loopback server at `base`: the cart (JSON, with a header the page
/// reads) and a base64 body for users.
fn har(base: &str) -> String {
    format!(
        r#"{{"log":{{"version":"1.2","creator":{{"name":"test","version":"1"}},"entries":[
        {{"request":{{"method":"GET","url":"{base}/api/cart","headers":[]}},
         "response":{{"status":202,"statusText":"Accepted","headers":[
            {{"name":"Content-Type","value":"application/json"}},
            {{"name":"Content-Length","value":"999"}},
            {{"name":"X-Total","value":"2"}},
            {{"name":"Access-Control-Expose-Headers","value":"X-Total"}}],
          "content":{{"size":5,"mimeType":"application/json","text":"[1,2]"}}}}}},
        {{"request":{{"method":"GET","url":"{base}/api/users","headers":[]}},
         "response":{{"status":200,"headers":[],
          "content":{{"mimeType":"text/plain","text":"ZnJvbSB0aGUgaGFy","encoding":"base64"}}}}}}
    ]}}}}"#
    )
}

#[test]
fn a_har_answers_what_it_recorded_and_aborts_the_rest() {
    on_page(LIMIT, "routes.html", async |page| {
        std::fs::write(page.env.work.path().join("shop.har"), har(base_url())).unwrap();
        let out = page.ok(r#"route_from_har { path = "shop.har" }"#).await;
        let entries = detail!(out, StepDetail::HarRouted { har_entries } => har_entries);
        assert_eq!(entries, 2);
        page.ok(CART).await;
        page.ok(r##"wait { text = "#1 202 total=2 [1,2]" }"##).await;
        page.ok(USERS).await;
        page.ok(r##"wait { text = "#2 200 total=null from the har" }"##)
            .await;
        // Not recorded: aborted (the default), so nothing reaches the server.
        page.ok(r#"click { target = role("button", "Cart v2") }"#)
            .await;
        page.ok(r##"wait { text = "#3 failed" }"##).await;
    });
}

#[test]
fn not_found_fallback_lets_unrecorded_requests_through() {
    on_page(LIMIT, "routes.html", async |page| {
        std::fs::write(page.env.work.path().join("shop.har"), har(base_url())).unwrap();
        let older = r#"network_route {
            pattern = "**/api/cart?v=2"
            body = "older route"
        }"#;
        page.ok(older).await;
        let replay = r#"route_from_har {
            path = "shop.har"
            not_found = "fallback"
        }"#;
        page.ok(replay).await;
        page.ok(r#"click { target = role("button", "Cart v2") }"#)
            .await;
        page.ok(r##"wait { text = "#1 200 total=null older route" }"##)
            .await;
        page.ok("network_unroute {}").await;
        page.ok(replay).await;
        // Past the HAR and with no older route: the loopback server answers (404 there).
        page.ok(r#"click { target = role("button", "Cart v2") }"#)
            .await;
        page.ok(r##"wait { text = "#2 404 total=null not found" }"##)
            .await;
    });
}

#[test]
fn a_file_that_is_not_json_or_not_a_har_is_refused_and_left_alone() {
    on_page(LIMIT, "routes.html", async |page| {
        let dir = page.env.work.path().to_path_buf();
        std::fs::write(dir.join("page.har"), "<html>not json</html>").unwrap();
        std::fs::write(dir.join("other.har"), r#"{"log":{"pages":[]}}"#).unwrap();
        let message = page
            .fails(
                r#"route_from_har { path = "page.har" }"#,
                FailureCode::HarInvalid,
            )
            .await;
        assert!(
            message.starts_with("page.har is not JSON (line 1, column 1)"),
            "{message}"
        );
        let message = page
            .fails(
                r#"route_from_har { path = "other.har" }"#,
                FailureCode::HarInvalid,
            )
            .await;
        assert!(
            message.starts_with("other.har is JSON but not a HAR"),
            "{message}"
        );
        let message = page
            .fails(
                r#"route_from_har { path = "missing.har" }"#,
                FailureCode::HarInvalid,
            )
            .await;
        assert!(
            message.starts_with("cannot read the HAR file missing.har"),
            "{message}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("page.har")).unwrap(),
            "<html>not json</html>"
        );
        // No route was set: the cart comes from the server.
        page.ok(CART).await;
        page.ok(r##"wait { text = "#1 404" }"##).await;
    });
}
