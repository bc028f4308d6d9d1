//! `a3s-test provider schema KIND`: the real binary prints a kind's protocol and the JSON
//! Schemas of its request and answer envelopes, generated from the transport's own types.

mod common;

use common::run_in;
use std::path::Path;

#[test]
fn provider_schema_prints_the_grounding_envelopes() {
    let run = run_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["provider", "schema", "visual_grounding"],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let printed: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(printed["kind"], "visual_grounding");
    assert_eq!(printed["protocol"], "a3s.test.visual-grounding/1");
    let request = printed["request"].to_string();
    for field in [
        "protocol",
        "observation_id",
        "sha256",
        "png_base64",
        "no-semantic-match",
        "max_cost_microusd",
    ] {
        assert!(
            request.contains(field),
            "request schema lacks {field}: {request}"
        );
    }
    let response = printed["response"].to_string();
    for field in [
        "success",
        "failure",
        "retryable",
        "boxes",
        "confidence",
        "cost_microusd",
        "usage",
    ] {
        assert!(
            response.contains(field),
            "answer schema lacks {field}: {response}"
        );
    }
}

#[test]
fn an_unknown_provider_kind_is_refused_with_the_kinds() {
    let run = run_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["provider", "schema", "design_reviw"],
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("visual_grounding"), "{}", run.stderr);
}

#[test]
fn provider_schema_prints_the_contract_generation_envelopes() {
    let run = run_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["provider", "schema", "contract_generation"],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let printed: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(printed["protocol"], "a3s.test.contract-candidates/1");
    let request = printed["request"].to_string();
    for field in [
        "sources",
        "sha256",
        "media_type",
        "image/png",
        "utf8",
        "max_cost_microusd",
    ] {
        assert!(
            request.contains(field),
            "request schema lacks {field}: {request}"
        );
    }
    let response = printed["response"].to_string();
    for field in [
        "candidates",
        "conflicts",
        "open_decisions",
        "quote",
        "region",
        "left_of",
    ] {
        assert!(
            response.contains(field),
            "answer schema lacks {field}: {response}"
        );
    }
    // Extra fields (a verdict, an action) are forbidden by the schema itself.
    assert!(
        response.contains("\"additionalProperties\":false"),
        "{response}"
    );
    assert!(!response.contains("verdict"), "{response}");
}

#[test]
fn the_design_review_schema_has_findings_and_no_verdict() {
    let run = run_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["provider", "schema", "design_review"],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let printed: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(printed["protocol"], "a3s.test.design-audit-report/1");
    let request = printed["request"].to_string();
    for field in [
        "screenshot",
        "page_context",
        "revision",
        "dimensions",
        "max_findings",
    ] {
        assert!(request.contains(field), "request schema lacks {field}");
    }
    let response = printed["response"].to_string();
    for field in [
        "findings",
        "rationale",
        "recommendation",
        "priority",
        "responsive_composition",
    ] {
        assert!(response.contains(field), "answer schema lacks {field}");
    }
    for forbidden in ["\"verdict\"", "\"outcome\"", "\"action\"", "\"expected\""] {
        assert!(!response.contains(forbidden), "{forbidden} in {response}");
    }
    assert!(response.contains("\"additionalProperties\":false"));
}
