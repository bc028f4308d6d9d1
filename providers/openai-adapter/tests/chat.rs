//! The adapter between the tool's own transport and a loopback model server written here, which
//! implements `POST /v1/chat/completions`: a good completion becomes a typed design report (and
//! the model server saw the model, the bearer header and the page's facts); content that is not
//! the findings' shape, that carries a verdict or an action, or that breaks the protocol's
//! bounds is a coded failure; a model server that stalls, streams without end or redirects is
//! cut off by the deadline, the bound, or not followed; the authorization value shows nowhere.

use a3s_test_lang::ir::{ProviderConfig, ProviderKind};
use a3s_test_openai_adapter::review::DEFAULT_MAX_ANSWER_BYTES;
use a3s_test_openai_adapter::server::ServedKind;
use a3s_test_openai_adapter::{Adapter, AdapterConfig};
use a3s_test_provider::design::context::{NodeStyles, Viewport};
use a3s_test_provider::design::{
    AdviceTarget, ContextNode, DesignAuditReport, DesignReview, DesignReviewRequest, Dimension,
    NodeRect, PageContext, Priority,
};
use a3s_test_provider::grounding::Screenshot;
use a3s_test_provider::{HttpProvider, ProviderCode, ProviderError};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::{completion, model_server, Reply};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

mod support;

const SECRET: &str = "Bearer sk-test-0123456789abcdef";
const ENV: &str = "A3S_TEST_PROVIDER_AUTHORIZATION_OPENAI";
const SHA: &str = "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef";
const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUg==";

fn config(endpoint: SocketAddr) -> AdapterConfig {
    AdapterConfig {
        name: "openai".into(),
        endpoint: format!("http://{endpoint}/"),
        model: "gpt-test".into(),
        authorization_env: Some(ENV.into()),
        timeout_ms: 10_000,
        max_answer_bytes: DEFAULT_MAX_ANSWER_BYTES,
        usd_per_million_input_tokens: 2.5,
        usd_per_million_output_tokens: 10.0,
        send_images: true,
    }
}

/// The adapter serving on loopback, its authorization value from a table rather than the
/// environment (tests run in parallel in one process).
async fn adapter(config: AdapterConfig) -> SocketAddr {
    let adapter = Adapter::new(config, |name| (name == ENV).then(|| SECRET.to_string()))
        .expect("the adapter is set up");
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(a3s_test_openai_adapter::server::serve(
        listener,
        Arc::new(adapter),
        ServedKind::DesignReview,
    ));
    addr
}

/// The tool's own transport pointed at the adapter, as a project's provider block would.
fn tool(adapter: SocketAddr) -> HttpProvider {
    HttpProvider::new(
        &ProviderConfig {
            name: "openai".into(),
            kind: ProviderKind::DesignReview,
            endpoint: format!("http://{adapter}/review"),
            model: "gpt-test".into(),
            authorization_env: None,
            timeout_ms: 20_000,
            max_cost_microusd: 10_000,
            max_input_units: None,
            max_output_units: None,
        },
        |_| None,
    )
    .unwrap()
}

fn node(id: &str, parent: Option<&str>, role: Option<&str>, text: Option<&str>) -> ContextNode {
    ContextNode {
        id: id.into(),
        parent_id: parent.map(Into::into),
        tag: if role.is_some() { "button" } else { "main" }.into(),
        role: role.map(Into::into),
        name: text.map(Into::into),
        text: text.map(Into::into),
        visible: true,
        redacted: false,
        disabled: false,
        rect: Some(NodeRect {
            x: 10.0,
            y: 20.0,
            width: 120.0,
            height: 18.0,
        }),
        styles: NodeStyles {
            color: Some("rgb(170, 170, 170)".into()),
            ..NodeStyles::default()
        },
    }
}

fn request(max_findings: u32) -> DesignReviewRequest {
    DesignReviewRequest {
        url: "http://127.0.0.1:8080/checkout".into(),
        revision: 7,
        screenshot: Screenshot {
            sha256: SHA.into(),
            width: 400,
            height: 300,
            png_base64: PNG_BASE64.into(),
        },
        page_context: PageContext {
            revision: 7,
            viewport: Viewport {
                width: 400.0,
                height: 300.0,
                dpr: 1.0,
            },
            nodes: vec![
                node("n1", None, None, None),
                node("n2", Some("n1"), Some("button"), Some("Pay now")),
            ],
            truncated: false,
        },
        dimensions: vec![Dimension::Colour, Dimension::Spacing],
        max_findings,
        deadline_ms: 20_000,
        max_cost_microusd: 10_000,
    }
}

const GOOD: &str = r#"{"findings": [
  {"id": "contrast-pay", "dimension": "colour", "target": {"kind": "node", "node_id": "n2"},
   "priority": "high", "title": "The pay button's label is faint",
   "rationale": "Grey 170 on white is about 2.3:1, under the 4.5:1 WCAG asks of body text.",
   "recommendation": "Darken the label to at least rgb(118, 118, 118).",
   "measurements": [{"name": "contrast_ratio", "value": 2.32, "guideline": 4.5}]},
  {"id": "gap-1", "dimension": "spacing", "target": {"kind": "region", "x": 10, "y": 38, "width": 120, "height": 7},
   "priority": "low", "title": "An off-grid gap", "rationale": "7 px is not on the 4 px grid.",
   "recommendation": "Use 8 px."}
]}"#;

/// The tool's call, the adapter's failure read back as the refusal's message.
async fn refused(reply: Reply, config_edit: impl FnOnce(&mut AdapterConfig)) -> ProviderError {
    let server = model_server(reply).await;
    let mut config = config(server.addr);
    config_edit(&mut config);
    let addr = adapter(config).await;
    let err = tool(addr)
        .call::<DesignReview>(&request(10))
        .await
        .expect_err("the adapter refuses");
    assert_eq!(err.code, ProviderCode::Refused, "{err}");
    assert!(!err.message.contains("sk-test"), "{err}");
    err
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_good_completion_is_a_typed_report_and_the_model_saw_the_page() {
    let server = model_server(completion(GOOD, 1200, 80)).await;
    let addr = adapter(config(server.addr)).await;
    let report: DesignAuditReport = tool(addr)
        .call::<DesignReview>(&request(10))
        .await
        .expect("a report");

    assert_eq!(report.provider, "openai");
    assert_eq!(report.model, "gpt-test");
    assert_eq!(report.revision, 7);
    assert_eq!(report.screenshot_sha256, SHA);
    assert_eq!(report.usage.input_units, 1200);
    assert_eq!(report.usage.output_units, 80);
    // 1200 × 2.5 + 80 × 10 µUSD.
    assert_eq!(report.cost_microusd, 3_800);
    assert_eq!(report.findings.len(), 2);
    let first = &report.findings[0];
    assert_eq!(first.dimension, Dimension::Colour);
    assert_eq!(first.priority, Priority::High);
    assert_eq!(
        first.target,
        AdviceTarget::Node {
            node_id: "n2".into()
        }
    );
    assert_eq!(first.measurements[0].value, 2.32);
    assert!(matches!(
        report.findings[1].target,
        AdviceTarget::Region { height, .. } if height == 7.0
    ));

    let received = server.received.lock().unwrap().clone();
    assert_eq!(received.len(), 1);
    let got = &received[0];
    assert_eq!(got.method_and_path, "POST /v1/chat/completions");
    assert_eq!(got.header("authorization"), Some(SECRET));
    assert_eq!(got.header("content-type"), Some("application/json"));
    let body: serde_json::Value = serde_json::from_slice(&got.body).unwrap();
    assert_eq!(body["model"], "gpt-test");
    assert_eq!(body["response_format"]["type"], "json_object");
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert_eq!(body["messages"][0]["role"], "system");
    assert!(system.contains("\"findings\""), "{system}");
    assert!(system.contains("\"colour\", \"spacing\""), "{system}");
    assert!(
        system.contains("interaction_clarity"),
        "the schema names every dimension"
    );
    assert_eq!(body["messages"][1]["role"], "user");
    let page = body["messages"][1]["content"][0]["text"].as_str().unwrap();
    for fact in [
        "http://127.0.0.1:8080/checkout",
        SHA,
        "\"revision\":7",
        "Pay now",
        "rgb(170, 170, 170)",
    ] {
        assert!(page.contains(fact), "the page facts hold {fact}: {page}");
    }
    assert!(
        !page.contains(PNG_BASE64),
        "the image travels as an image part"
    );
    assert_eq!(
        body["messages"][1]["content"][1]["image_url"]["url"],
        format!("data:image/png;base64,{PNG_BASE64}")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_screenshot_the_page_is_one_text() {
    let server = model_server(completion(r#"{"findings": []}"#, 10, 2)).await;
    let addr = adapter(AdapterConfig {
        send_images: false,
        ..config(server.addr)
    })
    .await;
    let report = tool(addr).call::<DesignReview>(&request(10)).await.unwrap();
    assert!(report.findings.is_empty());
    let body: serde_json::Value =
        serde_json::from_slice(&server.received.lock().unwrap()[0].body).unwrap();
    let page = body["messages"][1]["content"].as_str().unwrap();
    assert!(page.contains("Pay now") && !page.contains(PNG_BASE64));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_that_is_not_the_findings_shape_is_malformed() {
    for content in [
        "Here is my review: the button is faint.",
        r#"{"findings": [{"id": "a", "dimension": "colour"}]}"#,
        r#"{"advice": []}"#,
        r#"{"findings": [], "summary": "fine"}"#,
    ] {
        let err = refused(completion(content, 1, 1), |_| {}).await;
        assert!(
            err.message.contains("(test.provider.malformed)"),
            "{content}: {err}"
        );
    }
    let not_a_completion = "{\"object\": \"error\"}";
    let err = refused(
        Reply::Raw(format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{not_a_completion}",
            not_a_completion.len()
        )),
        |_| {},
    )
    .await;
    assert!(
        err.message.contains("(test.provider.malformed)")
            && err.message.contains("chat completion"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verdict_or_an_action_in_the_content_is_refused_by_name() {
    let with_action = GOOD.replace(
        "\"priority\": \"low\"",
        "\"priority\": \"low\", \"action\": \"click #pay\"",
    );
    let err = refused(completion(&with_action, 1, 1), |_| {}).await;
    assert!(err.message.contains("(test.provider.authority)"), "{err}");
    assert!(err.message.contains("content.findings[1].action"), "{err}");

    let with_verdict = r#"{"verdict": "failed", "findings": []}"#;
    let err = refused(completion(with_verdict, 1, 1), |_| {}).await;
    assert!(err.message.contains("(test.provider.authority)"), "{err}");
    assert!(err.message.contains("content.verdict"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn advice_over_the_protocols_bounds_is_refused() {
    // Two findings where one was asked.
    let server = model_server(completion(GOOD, 1, 1)).await;
    let addr = adapter(config(server.addr)).await;
    let err = tool(addr)
        .call::<DesignReview>(&request(1))
        .await
        .unwrap_err();
    assert!(err.message.contains("(test.provider.bounds)"), "{err}");

    // A dimension that was not asked, a node the page does not hold, a title over 200.
    let cases = [
        (
            GOOD.replace("\"spacing\"", "\"typography\""),
            "test.provider.bounds",
        ),
        (GOOD.replace("\"n2\"", "\"n99\""), "test.provider.geometry"),
        (
            GOOD.replace("An off-grid gap", &"x".repeat(201)),
            "test.provider.bounds",
        ),
    ];
    for (content, code) in cases {
        let err = refused(completion(&content, 1, 1), |_| {}).await;
        assert!(err.message.contains(&format!("({code})")), "{err}");
    }

    // A cost over the request's budget: 10,000 µUSD allows 4,000 prompt tokens at 2.5.
    let err = refused(completion(GOOD, 4_001, 0), |_| {}).await;
    assert!(err.message.contains("(test.provider.over_budget)"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_model_server_is_a_retryable_timeout_within_the_deadline() {
    let started = Instant::now();
    let err = refused(Reply::Stall, |c| c.timeout_ms = 300).await;
    let took = started.elapsed();
    assert!(
        err.message.contains("(test.provider.timeout, retryable)"),
        "{err}"
    );
    assert!(err.retryable);
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(took >= Duration::from_millis(300), "took {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_answer_is_cut_at_the_bound() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let err = refused(Reply::Endless(tx), |c| c.max_answer_bytes = 64 * 1024).await;
    assert!(
        err.message.contains("(test.provider.response_too_large)"),
        "{err}"
    );
    // The adapter closed the connection: the server's writes fail rather than go on.
    let written = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("the model server's writes stop within 10 s")
        .unwrap();
    assert!(written >= 64 * 1024, "wrote {written}");

    // A declared length over the bound is refused before its body is read.
    let err = refused(
        Reply::Raw(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"
                .into(),
        ),
        |_| {},
    )
    .await;
    assert!(
        err.message.contains("(test.provider.response_too_large)"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_is_not_followed_and_a_non_200_is_refused() {
    let server = model_server(Reply::Raw(
        "HTTP/1.1 302 Found\r\nLocation: /v1/elsewhere\r\nContent-Length: 0\r\n\r\n".into(),
    ))
    .await;
    let addr = adapter(config(server.addr)).await;
    let err = tool(addr)
        .call::<DesignReview>(&request(10))
        .await
        .unwrap_err();
    assert!(err.message.contains("(test.provider.redirect)"), "{err}");
    let received = server.received.lock().unwrap().clone();
    assert_eq!(received.len(), 1, "one request, the redirect not followed");
    assert_eq!(received[0].method_and_path, "POST /v1/chat/completions");

    let err = refused(
        Reply::Raw(
            "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
                .into(),
        ),
        |_| {},
    )
    .await;
    assert!(err.message.contains("(test.provider.status)"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_authorization_value_never_shows() {
    // The model echoes the token into its advice: the report carries it redacted.
    let echoed = GOOD.replace("An off-grid gap", "sk-test-0123456789abcdef says hi");
    let server = model_server(completion(&echoed, 1, 1)).await;
    let addr = adapter(config(server.addr)).await;
    let report = tool(addr).call::<DesignReview>(&request(10)).await.unwrap();
    assert_eq!(report.findings[1].title, "[redacted] says hi");

    // And into content that does not parse: the failure's message does not quote it.
    let err = refused(
        completion(&format!("{{\"findings\": \"{SECRET}\"}}"), 1, 1),
        |_| {},
    )
    .await;
    assert!(err.message.contains("(test.provider.malformed)"), "{err}");

    // Nor does the adapter's own Debug.
    let adapter = Adapter::new(config(server.addr), |_| Some(SECRET.into())).unwrap();
    let shown = format!("{adapter:?}");
    assert!(
        !shown.contains("sk-test") && shown.contains("[redacted]"),
        "{shown}"
    );
}

#[test]
fn the_model_server_endpoint_follows_the_transports_rules() {
    let lookup = |_: &str| Some(SECRET.to_string());
    let remote_plaintext = AdapterConfig {
        endpoint: "http://203.0.113.7".into(),
        ..config("127.0.0.1:1".parse().unwrap())
    };
    let err = Adapter::new(remote_plaintext, lookup).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("test.provider.insecure_endpoint"),
        "{err}"
    );
    let other_secret = AdapterConfig {
        authorization_env: Some("OPENAI_API_KEY".into()),
        ..config("127.0.0.1:1".parse().unwrap())
    };
    let err = Adapter::new(other_secret, lookup).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("test.provider.authorization_env"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_that_declines_or_answers_nothing_is_refused() {
    let declined = serde_json::json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
            "refusal": "I cannot review this page."}, "finish_reason": "stop"}]
    })
    .to_string();
    let err = refused(
        Reply::Raw(format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{declined}",
            declined.len()
        )),
        |_| {},
    )
    .await;
    assert!(err.message.contains("(test.provider.refused)"), "{err}");
    assert!(err.message.contains("I cannot review this page."), "{err}");

    let empty = r#"{"choices": []}"#;
    let err = refused(
        Reply::Raw(format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{empty}",
            empty.len()
        )),
        |_| {},
    )
    .await;
    assert!(err.message.contains("(test.provider.malformed)"), "{err}");
    assert!(err.message.contains("no choices"), "{err}");
}
