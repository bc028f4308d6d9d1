//! `request` steps: API checks sent with the browser context's cookies. A sign-in through the
//! UI of a loopback app sets an HttpOnly session cookie; the request step after it gets the
//! signed-in answer, the one before it the signed-out one. Secrets sent (an `env()` header, the
//! cookie) appear in no detail or message.

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::{FailureCode, MapVars, StepDetail};

const ME: &str = r#"request {
    url = "/api/me"
    status = 200
    json_path = "$.user.name"
    equals = "Ada"
}"#;

#[test]
fn a_request_step_shares_the_cookies_of_a_ui_sign_in() {
    on_page(LIMIT, "login.html", async |page| {
        // Signed out: the API answers 401, and the failure says what came back.
        let message = page.fails(ME, FailureCode::ApiMismatch).await;
        assert!(
            message.contains(
                r#"answered 401, expected status 200; body: "{\"error\":\"signed out\"}""#
            ),
            "{message}"
        );
        page.ok(r#"click { target = role("button", "Sign in") }"#)
            .await;
        page.ok(r#"wait { text = "Signed in" }"#).await;
        let out = page.ok(ME).await;
        let status = detail!(out, StepDetail::ApiAnswered { api_status, .. } => api_status);
        assert_eq!(status, 200);
        assert!(!format!("{out:?}").contains(SESSION));
        // Another value at the path: a coded mismatch quoting the path and both values.
        let wrong = ME.replace("\"Ada\"", "\"Bob\"");
        let message = page.fails(&wrong, FailureCode::ApiMismatch).await;
        assert_eq!(message, r#"$.user.name is "Ada", expected "Bob""#);
        let missing = ME.replace("$.user.name", "$.user.roles[3]");
        let message = page.fails(&missing, FailureCode::ApiMismatch).await;
        assert!(
            message.contains("$.user.roles is an array of 1 item(s)"),
            "{message}"
        );
        assert!(!message.contains(SESSION), "{message}");
    });
}

#[test]
fn a_request_sends_its_method_headers_and_body_and_keeps_env_values_out_of_messages() {
    on_page(LIMIT, "login.html", async |page| {
        const SECRET: &str = "api-token-5e1f-never-shown";
        page.env.vars = MapVars::new([("A3S_TEST_API_TOKEN", SECRET)]);
        let echo = r#"request {
            method = "put"
            url = "/api/echo?who=me"
            headers = { "X-Test" = env("A3S_TEST_API_TOKEN") }
            body = "payload"
            json_path = "$.method"
            equals = "PUT"
        }"#;
        let out = page.ok(echo).await;
        assert!(!format!("{out:?}").contains(SECRET));
        let sent = r#"request {
            method = "PUT"
            url = "/api/echo"
            headers = { "X-Test" = env("A3S_TEST_API_TOKEN") }
            body = "payload"
            json_path = "$.body"
            equals = "another"
        }"#;
        let message = page.fails(sent, FailureCode::ApiMismatch).await;
        assert_eq!(message, r#"$.body is "payload", expected "another""#);
        // The header reached the server: the echo holds it; the message of a mismatch on it
        // quotes the found value, so only the check's own expectation decides what is shown.
        let header = sent
            .replace("$.body", "$.x-test")
            .replace("\"another\"", &format!("{SECRET:?}"));
        page.ok(&header).await;
    });
}

#[test]
fn a_request_that_gets_no_answer_is_a_driver_failure_within_its_bound() {
    on_page(LIMIT, "login.html", async |page| {
        // A port nothing listens on (bound, then closed).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let closed = format!("request {{ url = \"http://127.0.0.1:{port}/api/me\" }}");
        let message = page.fails(&closed, FailureCode::RequestFailed).await;
        assert!(message.contains("failed to connect"), "{message}");
        // `https://` is sent too: nothing listens, so it fails to connect, as http does.
        let tls = closed.replace("http://", "https://");
        let message = page.fails(&tls, FailureCode::RequestFailed).await;
        assert!(message.contains("failed to connect"), "{message}");
    });
}
