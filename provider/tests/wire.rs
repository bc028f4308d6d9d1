//! Property tests of the envelope parser: it never panics, reads every valid answer back, refuses
//! every other protocol string as `test.provider.protocol`, and keeps a provider's failure text
//! bounded and on one line.

use a3s_test_provider::grounding::{Grounding, GroundingBox, GroundingResponse, Usage};
use a3s_test_provider::kind::ProviderProtocol;
use a3s_test_provider::wire::{decode, AnswerEnvelope, MAX_FAILURE_MESSAGE};
use a3s_test_provider::ProviderCode;
use proptest::prelude::*;

fn a_box() -> impl Strategy<Value = GroundingBox> {
    (
        0.0..1000.0f64,
        0.0..1000.0f64,
        0.1..500.0f64,
        0.1..500.0f64,
        0.0..=1.0f64,
        proptest::option::of(".{0,40}"),
    )
        .prop_map(|(x, y, width, height, confidence, text)| GroundingBox {
            x,
            y,
            width,
            height,
            confidence,
            text,
        })
}

fn a_response() -> impl Strategy<Value = GroundingResponse> {
    (
        ".{0,30}",
        ".{0,30}",
        ".{0,20}",
        "[0-9a-f]{64}",
        proptest::collection::vec(a_box(), 0..8),
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(
            |(provider, model, observation_id, screenshot_sha256, boxes, i, o, cost)| {
                GroundingResponse {
                    provider,
                    model,
                    observation_id,
                    screenshot_sha256,
                    boxes,
                    usage: Usage {
                        input_units: i,
                        output_units: o,
                    },
                    cost_microusd: cost,
                }
            },
        )
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic_and_are_refused_with_a_code(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Err(e) = decode::<GroundingResponse>(Grounding::PROTOCOL, &bytes) {
            prop_assert!(matches!(e.code, ProviderCode::Malformed | ProviderCode::Protocol | ProviderCode::Refused));
        }
    }

    #[test]
    fn every_valid_success_envelope_reads_back(response in a_response()) {
        let envelope = AnswerEnvelope::Success { protocol: Grounding::PROTOCOL.to_string(), response: response.clone() };
        let bytes = serde_json::to_vec(&envelope).unwrap();
        let read = decode::<GroundingResponse>(Grounding::PROTOCOL, &bytes).unwrap();
        prop_assert_eq!(read, response);
    }

    #[test]
    fn any_other_protocol_string_is_refused_as_such(response in a_response(), protocol in ".{0,60}") {
        prop_assume!(protocol != Grounding::PROTOCOL);
        let envelope = AnswerEnvelope::Success { protocol, response };
        let bytes = serde_json::to_vec(&envelope).unwrap();
        let err = decode::<GroundingResponse>(Grounding::PROTOCOL, &bytes).unwrap_err();
        prop_assert_eq!(err.code, ProviderCode::Protocol);
    }

    #[test]
    fn a_failure_is_refused_with_a_bounded_one_line_message(message in ".{0,3000}", code in "[a-z][a-z0-9._-]{0,40}", retryable in any::<bool>()) {
        let body = serde_json::json!({
            "status": "failure",
            "protocol": Grounding::PROTOCOL,
            "error": { "code": code, "message": message, "retryable": retryable }
        });
        let err = decode::<GroundingResponse>(Grounding::PROTOCOL, body.to_string().as_bytes()).unwrap_err();
        prop_assert_eq!(err.code, ProviderCode::Refused);
        prop_assert_eq!(err.retryable, retryable);
        prop_assert!(!err.message.chars().any(char::is_control));
        prop_assert!(err.message.chars().count() <= MAX_FAILURE_MESSAGE + 100);
    }

    #[test]
    fn an_unknown_field_or_status_is_malformed(field in "[a-z]{1,10}") {
        prop_assume!(!["status", "protocol", "response", "error"].contains(&field.as_str()));
        let mut body = serde_json::json!({ "status": "success", "protocol": Grounding::PROTOCOL });
        body[field.as_str()] = 1.into();
        let err = decode::<GroundingResponse>(Grounding::PROTOCOL, body.to_string().as_bytes()).unwrap_err();
        prop_assert_eq!(err.code, ProviderCode::Malformed);
        let body = serde_json::json!({ "status": field, "protocol": Grounding::PROTOCOL });
        let err = decode::<GroundingResponse>(Grounding::PROTOCOL, body.to_string().as_bytes()).unwrap_err();
        prop_assert_eq!(err.code, ProviderCode::Malformed);
    }
}
