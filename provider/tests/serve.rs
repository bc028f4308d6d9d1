//! The providers' one server (`a3s_test_provider::serve`) over a real loopback socket: a valid
//! envelope reaches the provider's answer and comes back in the success envelope; a provider's
//! failure comes back as the failure envelope; anything but `POST`, a body that is not the
//! kind's envelope, another protocol, or a body over the kind's bound is refused before the
//! answer runs, each with its code.

use a3s_test_provider::contract::{ContractGeneration, ContractRequest, ContractResponse};
use a3s_test_provider::grounding::Usage;
use a3s_test_provider::kind::ProviderProtocol;
use a3s_test_provider::serve::{failure, serve, Answer};
use a3s_test_provider::wire::ProviderFailure;
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Answers with an empty response whose `cost_microusd` is the request's `deadline_ms`, or
/// fails when it is 0; counts how often it ran.
#[derive(Default)]
struct Counting(AtomicUsize);

impl Answer<ContractGeneration> for Counting {
    async fn answer(&self, request: ContractRequest) -> Result<ContractResponse, ProviderFailure> {
        self.0.fetch_add(1, Ordering::SeqCst);
        if request.deadline_ms == 0 {
            return Err(failure("test.no_time", "no time to answer", true));
        }
        Ok(ContractResponse {
            provider: "p".into(),
            model: "m".into(),
            sources: Vec::new(),
            candidates: Vec::new(),
            conflicts: Vec::new(),
            open_decisions: Vec::new(),
            usage: Usage {
                input_units: 0,
                output_units: 0,
            },
            cost_microusd: request.deadline_ms,
        })
    }
}

/// One HTTP/1.1 exchange: the status code and the body.
async fn exchange(address: std::net::SocketAddr, method: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "{method} / HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // A refused body may be cut off by the server: a write error is part of the answer.
    let _ = stream.write_all(body).await;
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = match text.find("\r\n\r\n") {
        Some(at) => out[at + 4..].to_vec(),
        None => Vec::new(),
    };
    (status, body)
}

fn envelope(deadline_ms: u64, protocol: &str) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "protocol": protocol,
        "request": { "sources": [], "deadline_ms": deadline_ms, "max_cost_microusd": 0 }
    }))
    .unwrap()
}

#[test]
fn the_one_server_answers_envelopes_and_refuses_everything_else_with_a_code() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let counting = Arc::new(Counting::default());
        tokio::spawn(serve::<ContractGeneration, _>(listener, counting.clone()));
        let json = |body: &[u8]| -> Value { serde_json::from_slice(body).unwrap() };
        let bound = Duration::from_secs(20);
        let protocol = ContractGeneration::PROTOCOL;

        let (status, body) =
            tokio::time::timeout(bound, exchange(address, "POST", &envelope(7, protocol)))
                .await
                .unwrap();
        let answer = json(&body);
        assert_eq!(
            (status, &answer["status"]),
            (200, &Value::from("success")),
            "{answer}"
        );
        assert_eq!(answer["protocol"], protocol);
        assert_eq!(answer["response"]["cost_microusd"], 7);

        let (_, body) =
            tokio::time::timeout(bound, exchange(address, "POST", &envelope(0, protocol)))
                .await
                .unwrap();
        let answer = json(&body);
        assert_eq!(answer["status"], "failure", "{answer}");
        assert_eq!(
            (&answer["error"]["code"], &answer["error"]["retryable"]),
            (&Value::from("test.no_time"), &Value::from(true))
        );
        assert_eq!(counting.0.load(Ordering::SeqCst), 2);

        let (status, _) = tokio::time::timeout(bound, exchange(address, "GET", b""))
            .await
            .unwrap();
        assert_eq!(status, 405);
        let refused = [
            (b"{\"protocol\":".to_vec(), "request.malformed"),
            (
                envelope(7, "a3s.test.visual-grounding/1"),
                "request.protocol",
            ),
            (
                vec![b' '; ContractGeneration::MAX_REQUEST_BYTES + 1],
                "request.too_large",
            ),
        ];
        for (body, code) in refused {
            let (status, body) = tokio::time::timeout(bound, exchange(address, "POST", &body))
                .await
                .unwrap();
            let answer = json(&body);
            assert_eq!(
                (status, &answer["error"]["code"]),
                (200, &Value::from(code)),
                "{answer}"
            );
        }
        // None of the refused requests reached the answer.
        assert_eq!(counting.0.load(Ordering::SeqCst), 2);
    });
}
