//! The design review kind against real loopback servers: a valid report is read and bound to its
//! request; a report carrying an outcome, verdict, expected value or action is refused by name
//! (`test.provider.authority`) wherever it hides the key; bounds, binding and targets are checked;
//! and any report the type can hold survives the wire, while any forbidden key is refused
//! (property tests).

mod common;

use a3s_test_lang::ir::ProviderKind;
use a3s_test_provider::design::context::{NodeStyles, Viewport};
use a3s_test_provider::design::{
    check_report, screen_authority, AdviceTarget, ContextNode, DesignAuditReport, DesignFinding,
    DesignReview, DesignReviewRequest, Dimension, NodeRect, PageContext, Priority, FORBIDDEN_KEYS,
};
use a3s_test_provider::grounding::{Screenshot, Usage};
use a3s_test_provider::{HttpProvider, ProviderCode};
use common::*;
use proptest::prelude::*;
use serde_json::{json, Value};

const DESIGN: &str = "a3s.test.design-audit-report/1";

fn design_request() -> DesignReviewRequest {
    DesignReviewRequest {
        url: "http://127.0.0.1:1/".into(),
        revision: 4,
        screenshot: Screenshot {
            sha256: SHA.into(),
            width: 800,
            height: 600,
            png_base64: "iVBORw0KGgo=".into(),
        },
        page_context: PageContext {
            revision: 4,
            viewport: Viewport {
                width: 800.0,
                height: 600.0,
                dpr: 1.0,
            },
            nodes: vec![ContextNode {
                id: "n7".into(),
                parent_id: None,
                tag: "button".into(),
                role: Some("button".into()),
                name: Some("Pay".into()),
                text: Some("Pay".into()),
                visible: true,
                redacted: false,
                disabled: false,
                rect: Some(NodeRect {
                    x: 10.0,
                    y: 10.0,
                    width: 80.0,
                    height: 20.0,
                }),
                styles: NodeStyles::default(),
            }],
            truncated: false,
        },
        dimensions: Dimension::ALL.to_vec(),
        max_findings: 50,
        deadline_ms: 5_000,
        max_cost_microusd: 0,
    }
}

fn finding() -> Value {
    json!({
        "id": "colour-1",
        "dimension": "colour",
        "target": { "kind": "node", "node_id": "n7" },
        "priority": "high",
        "title": "Low contrast",
        "rationale": "2.4:1 is below 4.5:1",
        "recommendation": "Darken the text",
        "measurements": [{ "name": "contrast_ratio", "value": 2.4, "guideline": 4.5 }]
    })
}

fn report(findings: Vec<Value>) -> Value {
    json!({
        "status": "success",
        "protocol": DESIGN,
        "response": {
            "provider": "auditor",
            "model": "m1",
            "revision": 4,
            "screenshot_sha256": SHA,
            "findings": findings,
            "usage": { "input_units": 1, "output_units": 1 },
            "cost_microusd": 0
        }
    })
}

fn provider(endpoint: &str) -> HttpProvider {
    let mut cfg = config(endpoint);
    cfg.name = "auditor".into();
    cfg.model = "m1".into();
    cfg.kind = ProviderKind::DesignReview;
    HttpProvider::new(&cfg, |_| None).expect("a valid provider")
}

async fn call(answer: Value) -> Result<DesignAuditReport, a3s_test_provider::ProviderError> {
    let server = serve(json(answer)).await;
    provider(&server.url("/review"))
        .call::<DesignReview>(&design_request())
        .await
}

#[tokio::test]
async fn a_valid_report_is_read() {
    let got = call(report(vec![finding()])).await.expect("advice");
    assert_eq!(got.findings.len(), 1);
    assert_eq!(got.findings[0].priority, Priority::High);
    assert_eq!(got.findings[0].dimension, Dimension::Colour);
}

#[tokio::test]
async fn a_verdict_or_an_action_is_refused_by_name() {
    let mut with_verdict = report(vec![finding()]);
    with_verdict["response"]["verdict"] = json!("failed");
    let e = call(with_verdict).await.unwrap_err();
    assert_eq!(e.code, ProviderCode::Authority, "{e}");
    assert!(e.message.contains("response.verdict"), "{e}");

    let mut with_action = finding();
    with_action["action"] = json!({ "click": "#pay" });
    let e = call(report(vec![with_action])).await.unwrap_err();
    assert_eq!(e.code, ProviderCode::Authority, "{e}");
    assert!(e.message.contains("findings[0].action"), "{e}");

    let mut with_expected = finding();
    with_expected["measurements"][0]["expected"] = json!(4.5);
    let e = call(report(vec![with_expected])).await.unwrap_err();
    assert_eq!(e.code, ProviderCode::Authority, "{e}");
}

#[tokio::test]
async fn an_unknown_field_is_malformed() {
    let mut odd = finding();
    odd["colour"] = json!("red");
    let e = call(report(vec![odd])).await.unwrap_err();
    assert_eq!(e.code, ProviderCode::Malformed, "{e}");
}

#[tokio::test]
async fn binding_targets_and_bounds_are_checked() {
    let mut other = report(vec![finding()]);
    other["response"]["revision"] = json!(5);
    assert_eq!(call(other).await.unwrap_err().code, ProviderCode::Binding);

    let mut stray = finding();
    stray["target"] = json!({ "kind": "node", "node_id": "n999" });
    assert_eq!(
        call(report(vec![stray])).await.unwrap_err().code,
        ProviderCode::Geometry
    );

    let mut outside = finding();
    outside["target"] = json!({ "kind": "region", "x": 700, "y": 0, "width": 200, "height": 10 });
    assert_eq!(
        call(report(vec![outside])).await.unwrap_err().code,
        ProviderCode::Geometry
    );

    let mut long = finding();
    long["rationale"] = json!("x".repeat(2_001));
    assert_eq!(
        call(report(vec![long])).await.unwrap_err().code,
        ProviderCode::Bounds
    );

    let twice = vec![finding(), finding()];
    assert_eq!(
        call(report(twice)).await.unwrap_err().code,
        ProviderCode::Bounds
    );

    let many: Vec<Value> = (0..51)
        .map(|i| {
            let mut f = finding();
            f["id"] = json!(format!("f-{i}"));
            f
        })
        .collect();
    assert_eq!(
        call(report(many)).await.unwrap_err().code,
        ProviderCode::Bounds
    );
}

#[test]
fn the_schema_names_the_protocol_and_forbids_unknown_fields() {
    let (request, answer) = a3s_test_provider::schemas(ProviderKind::DesignReview);
    assert_eq!(
        a3s_test_provider::protocol(ProviderKind::DesignReview),
        DESIGN
    );
    let answer = serde_json::to_string(&answer).unwrap();
    assert!(answer.contains("\"additionalProperties\":false"));
    assert!(answer.contains("interaction_clarity"));
    for key in ["verdict", "outcome", "expected", "action"] {
        assert!(
            !answer.contains(&format!("\"{key}\"")),
            "{key} in the schema"
        );
    }
    assert!(serde_json::to_string(&request)
        .unwrap()
        .contains("page_context"));
}

fn any_dimension() -> impl Strategy<Value = Dimension> {
    proptest::sample::select(Dimension::ALL.to_vec())
}

fn any_finding() -> impl Strategy<Value = DesignFinding> {
    (
        "[a-z]{1,8}",
        any_dimension(),
        prop_oneof![
            Just(Priority::Low),
            Just(Priority::Medium),
            Just(Priority::High)
        ],
        "\\PC{1,60}",
        "\\PC{1,200}",
        (0.0f64..700.0, 0.0f64..500.0, 1.0f64..100.0, 1.0f64..100.0),
        prop_oneof![Just(0u8), Just(1), Just(2)],
    )
        .prop_map(
            |(id, dimension, priority, title, text, (x, y, width, height), t)| DesignFinding {
                id,
                dimension,
                target: match t {
                    0 => AdviceTarget::Page,
                    1 => AdviceTarget::Node {
                        node_id: "n7".into(),
                    },
                    _ => AdviceTarget::Region {
                        x,
                        y,
                        width,
                        height,
                    },
                },
                priority,
                title,
                rationale: text.clone(),
                recommendation: text,
                measurements: vec![],
            },
        )
}

proptest! {
    #[test]
    fn any_valid_report_survives_the_wire(findings in proptest::collection::vec(any_finding(), 0..20)) {
        let mut findings = findings;
        for (i, f) in findings.iter_mut().enumerate() {
            f.id = format!("{}-{i}", f.id);
        }
        let report = DesignAuditReport {
            provider: "auditor".into(),
            model: "m1".into(),
            revision: 4,
            screenshot_sha256: SHA.into(),
            findings,
            usage: Usage { input_units: 1, output_units: 1 },
            cost_microusd: 0,
        };
        let bytes = serde_json::to_vec(&json!({ "status": "success", "protocol": DESIGN, "response": report })).unwrap();
        prop_assert!(screen_authority(&bytes).is_ok());
        let back: DesignAuditReport = a3s_test_provider::wire::decode(DESIGN, &bytes).unwrap();
        prop_assert_eq!(&back, &report);
        prop_assert!(check_report(&design_request(), &back).is_ok());
    }

    #[test]
    fn any_forbidden_key_anywhere_is_refused(key in proptest::sample::select(FORBIDDEN_KEYS.to_vec()), depth in 0usize..3, upper in any::<bool>()) {
        let key = if upper { key.to_ascii_uppercase() } else { key.to_string() };
        let mut answer = report(vec![finding()]);
        let slot = match depth {
            0 => &mut answer["response"],
            1 => &mut answer["response"]["findings"][0],
            _ => &mut answer["response"]["findings"][0]["target"],
        };
        slot[key.as_str()] = json!(true);
        let e = screen_authority(answer.to_string().as_bytes()).unwrap_err();
        prop_assert_eq!(e.code, ProviderCode::Authority);
    }

    #[test]
    fn screening_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = screen_authority(&bytes);
    }
}
