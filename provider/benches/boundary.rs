//! The provider boundary alone (not a timed test): what one visual grounding call costs the tool
//! when the provider has no work to do.
//!
//! `cargo bench -p a3s-test-provider --bench boundary` (release profile; `--profile dev` for the
//! debug build the end-to-end figures use). One reference server of this crate
//! ([`a3s_test_provider::serve`]) listens on loopback and answers every request at once with two
//! boxes bound to it; the client is the one transport ([`HttpProvider::call`]). The request is
//! realistic in size: a screenshot of `SHOT_BYTES` bytes (the size of the 1280×720 grounding
//! screenshot in `bench/ground.py`, encoded by Chromium's fast encoder) as base64 in JSON.
//! Reported, p50 and p95 over `BOUNDARY_BENCH_ROUNDS` calls (default 500) after 20 warm-up
//! calls: the whole call (encode, connect, send, the server's read of the envelope, the answer,
//! decode, the receipt and binding checks), and apart from it the request's encode and the
//! answer's decode + checks. The figures and the goal (≤ 10 ms) are in docs/benchmarks.md.

use a3s_test_lang::ir::{ProviderConfig, ProviderKind};
use a3s_test_provider::grounding::{
    GroundingBox, GroundingRequest, GroundingResponse, GroundingTrigger, Screenshot, Usage,
};
use a3s_test_provider::serve::Answer;
use a3s_test_provider::wire::ProviderFailure;
use a3s_test_provider::{Grounding, HttpProvider, ProviderProtocol};
use base64::Engine as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The PNG size of bench/ground.py's 1280×720 page with Chromium's fast encoder.
const SHOT_BYTES: usize = 28_431;
const ROUNDS: usize = 500;
const WARM_UP: usize = 20;

/// A provider with nothing to do: two boxes, the request's binding repeated.
struct Instant0;

impl Answer<Grounding> for Instant0 {
    async fn answer(
        &self,
        request: GroundingRequest,
    ) -> Result<GroundingResponse, ProviderFailure> {
        Ok(answer_to(&request))
    }
}

fn answer_to(request: &GroundingRequest) -> GroundingResponse {
    let place = |x: f64, y: f64| GroundingBox {
        x,
        y,
        width: 163.0,
        height: 27.0,
        confidence: 0.96,
        text: Some("Checkout".into()),
    };
    GroundingResponse {
        provider: "ocr".into(),
        model: "tesseract".into(),
        observation_id: request.observation_id.clone(),
        screenshot_sha256: request.screenshot.sha256.clone(),
        boxes: vec![place(47.0, 101.0), place(47.0, 191.0)],
        usage: Usage {
            input_units: 1,
            output_units: 1,
        },
        cost_microusd: 0,
    }
}

/// `SHOT_BYTES` of noise (a compressed image is close to it), from a fixed seed.
fn screenshot() -> Vec<u8> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..SHOT_BYTES)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

fn percentile(samples: &mut [Duration], p: f64) -> f64 {
    samples.sort();
    let at = ((samples.len() - 1) as f64 * p).round() as usize;
    samples[at].as_secs_f64() * 1000.0
}

fn main() {
    let rounds = std::env::var("BOUNDARY_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ROUNDS);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let address = listener.local_addr().expect("its address");
        tokio::spawn(a3s_test_provider::serve::serve::<Grounding, _>(
            listener,
            Arc::new(Instant0),
        ));
        let config = ProviderConfig {
            name: "ocr".into(),
            kind: ProviderKind::VisualGrounding,
            endpoint: format!("http://{address}/ground"),
            model: "tesseract".into(),
            authorization_env: None,
            timeout_ms: 10_000,
            max_cost_microusd: 0,
            max_input_units: None,
            max_output_units: None,
        };
        let provider = HttpProvider::new(&config, |_| None).expect("the provider");
        let png = screenshot();
        let request = GroundingRequest {
            query: "Checkout".into(),
            observation_id: "7".into(),
            screenshot: Screenshot {
                sha256: "ab".repeat(32),
                width: 1280,
                height: 720,
                png_base64: base64::engine::general_purpose::STANDARD.encode(&png),
            },
            trigger: GroundingTrigger::Explicit,
            deadline_ms: 10_000,
            max_cost_microusd: 0,
        };
        let answer = serde_json::to_vec(&serde_json::json!({
            "status": "success",
            "protocol": Grounding::PROTOCOL,
            "response": answer_to(&request),
        }))
        .expect("the answer encodes");
        let (mut call, mut encode, mut decode) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..WARM_UP + rounds {
            let t = Instant::now();
            let body = a3s_test_provider::wire::encode(Grounding::PROTOCOL, &request)
                .expect("the request encodes");
            let encoded = t.elapsed();
            std::hint::black_box(body);
            let t = Instant::now();
            let response: GroundingResponse =
                a3s_test_provider::wire::decode(Grounding::PROTOCOL, &answer)
                    .expect("the answer decodes");
            Grounding::check(&request, &response).expect("the answer is bound");
            let decoded = t.elapsed();
            let t = Instant::now();
            let response = provider
                .call::<Grounding>(&request)
                .await
                .expect("the call succeeds");
            let called = t.elapsed();
            assert_eq!(response.boxes.len(), 2);
            if round >= WARM_UP {
                call.push(called);
                encode.push(encoded);
                decode.push(decoded);
            }
        }
        let request_bytes = a3s_test_provider::wire::encode(Grounding::PROTOCOL, &request)
            .expect("the request encodes")
            .len();
        println!(
            "provider boundary, {rounds} calls to a loopback provider that answers at once \
             (request {request_bytes} bytes, answer {} bytes)",
            answer.len()
        );
        println!("{:<44}{:>10}{:>10}", "measure", "p50 ms", "p95 ms");
        for (label, samples) in [
            ("whole call (HttpProvider::call)", &mut call),
            ("  of which: request encode", &mut encode),
            ("  of which: answer decode + checks", &mut decode),
        ] {
            let (p50, p95) = (percentile(samples, 0.5), percentile(samples, 0.95));
            println!("{label:<44}{p50:>10.3}{p95:>10.3}");
        }
    });
}
