//! Contract generation through the adapter, against a loopback chat completions server: the
//! model's quotes become exact byte spans of the PRD (after a multi-byte character, too), its
//! regions stay regions of the design, and the tool's own transport admits the answer with the
//! protocol's checks; a quote the source does not hold, a quote of an image, a region outside
//! its image or a candidate carrying a verdict are coded failures.

use a3s_test_lang::ir::{ProviderConfig, ProviderKind};
use a3s_test_openai_adapter::review::DEFAULT_MAX_ANSWER_BYTES;
use a3s_test_openai_adapter::server::ServedKind;
use a3s_test_openai_adapter::{Adapter, AdapterConfig};
use a3s_test_provider::contract::{
    ContractGeneration, ContractRequest, Evidence, Expectation, MediaType, Source, SourceContent,
};
use a3s_test_provider::{HttpProvider, ProviderCode, ProviderError};
use std::net::SocketAddr;
use std::sync::Arc;
use support::{completion, model_server, ModelServer};
use tokio::net::TcpListener;

mod support;

const PRD: &str = "# Checkout — v2\n\n## /checkout\n\nThe page shows a button \"Pay now\".\nThe total is shown above the button.\n";
const DESIGN_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAA";

fn request() -> ContractRequest {
    ContractRequest {
        sources: vec![
            Source {
                id: "s1".into(),
                name: "prd.md".into(),
                media_type: MediaType::Markdown,
                sha256: "11".repeat(32),
                bytes: PRD.len() as u64,
                content: SourceContent::Utf8 { text: PRD.into() },
            },
            Source {
                id: "s2".into(),
                name: "design.png".into(),
                media_type: MediaType::Png,
                sha256: "22".repeat(32),
                bytes: 18,
                content: SourceContent::Base64 {
                    data: DESIGN_BASE64.into(),
                    width: 300,
                    height: 200,
                },
            },
        ],
        deadline_ms: 20_000,
        max_cost_microusd: 0,
    }
}

const ENV: &str = "A3S_TEST_PROVIDER_AUTHORIZATION_LLM";
const SECRET: &str = "Bearer sk-contract-secret-99";

async fn adapter_for(server: &ModelServer) -> SocketAddr {
    let config = AdapterConfig {
        name: "llm".into(),
        endpoint: format!("http://{}", server.addr),
        model: "gpt-test".into(),
        authorization_env: Some(ENV.into()),
        timeout_ms: 10_000,
        max_answer_bytes: DEFAULT_MAX_ANSWER_BYTES,
        usd_per_million_input_tokens: 0.0,
        usd_per_million_output_tokens: 0.0,
        send_images: true,
    };
    let adapter = Adapter::new(config, |name| (name == ENV).then(|| SECRET.into())).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(a3s_test_openai_adapter::server::serve(
        listener,
        Arc::new(adapter),
        ServedKind::ContractGeneration,
    ));
    addr
}

fn tool(adapter: SocketAddr) -> HttpProvider {
    HttpProvider::new(
        &ProviderConfig {
            name: "llm".into(),
            kind: ProviderKind::ContractGeneration,
            endpoint: format!("http://{adapter}/candidates"),
            model: "gpt-test".into(),
            authorization_env: None,
            timeout_ms: 20_000,
            max_cost_microusd: 0,
            max_input_units: None,
            max_output_units: None,
        },
        |_| None,
    )
    .unwrap()
}

const GOOD: &str = r#"{
  "candidates": [
    {"id": "pay", "route": "/checkout",
     "expectation": {"kind": "element", "role": "button", "name": "Pay now"},
     "confidence": 0.9,
     "evidence": [{"kind": "quote", "source": "s1", "quote": "a button \"Pay now\""},
                  {"kind": "region", "source": "s2", "x": 200, "y": 150, "width": 80, "height": 30, "text": "Pay now"}]},
    {"id": "total", "route": "/checkout",
     "expectation": {"kind": "element", "role": "status", "name": "Total"},
     "confidence": 0.6,
     "evidence": [{"kind": "quote", "source": "s1", "quote": "The total is shown"}]},
    {"id": "total-above", "route": "/checkout",
     "expectation": {"kind": "layout", "subject": "total", "relation": "above", "object": "pay"},
     "confidence": 0.7,
     "evidence": [{"kind": "quote", "source": "s1", "quote": "shown above the button"}]}
  ],
  "conflicts": [],
  "open_decisions": [{"id": "q1", "question": "Is the total text \"Total\" or \"Order total\"?", "candidates": ["total"]}]
}"#;

async fn refused(content: &str) -> ProviderError {
    let server = model_server(completion(content, 1, 1)).await;
    let addr = adapter_for(&server).await;
    let err = tool(addr)
        .call::<ContractGeneration>(&request())
        .await
        .expect_err("the adapter refuses");
    assert_eq!(err.code, ProviderCode::Refused, "{err}");
    err
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quotes_become_exact_spans_and_the_answer_passes_the_protocols_checks() {
    let server = model_server(completion(GOOD, 900, 300)).await;
    let addr = adapter_for(&server).await;
    let answer = tool(addr)
        .call::<ContractGeneration>(&request())
        .await
        .expect("candidates");
    assert_eq!(answer.provider, "llm");
    assert_eq!(answer.sources.len(), 2);
    assert_eq!(answer.sources[1].sha256, "22".repeat(32));
    assert_eq!(
        (answer.usage.input_units, answer.usage.output_units),
        (900, 300)
    );
    assert_eq!(answer.candidates.len(), 3);
    let Evidence::Span {
        start, end, quote, ..
    } = &answer.candidates[0].evidence[0]
    else {
        panic!("a span: {:?}", answer.candidates[0].evidence[0]);
    };
    // "—" is three bytes: the offset counts bytes, not characters.
    let at = PRD.find("a button").unwrap();
    assert_eq!((*start as usize, *end as usize), (at, at + quote.len()));
    assert_eq!(
        &PRD.as_bytes()[at..at + quote.len()],
        b"a button \"Pay now\""
    );
    assert!(
        PRD[..at].chars().count() < at,
        "the PRD has a multi-byte character before it"
    );
    assert!(matches!(
        answer.candidates[0].evidence[1],
        Evidence::Region {
            x: 200,
            width: 80,
            ..
        }
    ));
    assert!(matches!(
        answer.candidates[2].expectation,
        Expectation::Layout { .. }
    ));
    assert_eq!(
        answer.open_decisions[0].candidates,
        vec!["total".to_string()]
    );

    let body: serde_json::Value =
        serde_json::from_slice(&server.received.lock().unwrap()[0].body).unwrap();
    assert_eq!(body["model"], "gpt-test");
    assert_eq!(body["response_format"]["type"], "json_object");
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("\"quote\"") && system.contains("open_decisions"),
        "{system}"
    );
    let parts = body["messages"][1]["content"].as_array().unwrap();
    let texts: Vec<&str> = parts.iter().filter_map(|p| p["text"].as_str()).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Source `s1`") && t.ends_with(PRD)),
        "{texts:?}"
    );
    assert!(parts
        .iter()
        .any(|p| p["image_url"]["url"] == format!("data:image/png;base64,{DESIGN_BASE64}")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quote_the_source_does_not_hold_or_of_an_image_is_a_span_failure() {
    let invented = GOOD.replace("The total is shown", "The grand total is shown");
    let err = refused(&invented).await;
    assert!(err.message.contains("(test.provider.span)"), "{err}");
    assert!(err.message.contains("does not hold"), "{err}");

    let of_image = GOOD.replace(
        r#""source": "s1", "quote": "The total is shown""#,
        r#""source": "s2", "quote": "The total is shown""#,
    );
    let err = refused(&of_image).await;
    assert!(err.message.contains("(test.provider.span)"), "{err}");
    assert!(err.message.contains("not a text source"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_region_outside_the_design_a_verdict_or_a_dangling_reference_is_refused() {
    let outside = GOOD.replace("\"x\": 200", "\"x\": 250");
    let err = refused(&outside).await;
    assert!(err.message.contains("(test.provider.region)"), "{err}");

    let verdict = GOOD.replace(
        "\"confidence\": 0.9,",
        "\"confidence\": 0.9, \"verdict\": \"pass\",",
    );
    let err = refused(&verdict).await;
    assert!(err.message.contains("(test.provider.malformed)"), "{err}");

    let dangling = GOOD.replace("\"object\": \"pay\"", "\"object\": \"checkout-button\"");
    let err = refused(&dangling).await;
    assert!(err.message.contains("(test.provider.candidates)"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_echoing_the_authorization_value_is_refused_whole() {
    let echoed = GOOD.replace(
        "Is the total text",
        "sk-contract-secret-99: is the total text",
    );
    let err = refused(&echoed).await;
    assert!(err.message.contains("(test.provider.malformed)"), "{err}");
    assert!(err.message.contains("authorization value"), "{err}");
    assert!(!err.message.contains("sk-contract"), "{err}");
}
