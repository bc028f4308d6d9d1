//! Every transport rule of the provider boundary against real loopback HTTP servers: each test
//! fails when its rule breaks (a followed redirect reaches the second server, a read 50 MB answer
//! lets the server write it all, a proxy that is used records a connection, …).

mod common;

use a3s_test_provider::grounding::Grounding;
use a3s_test_provider::{HttpProvider, ProviderCode, ProviderError};
use common::*;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;

async fn ground(
    provider: &HttpProvider,
) -> Result<a3s_test_provider::GroundingResponse, ProviderError> {
    provider.call::<Grounding>(&request()).await
}

fn provider(endpoint: &str) -> HttpProvider {
    HttpProvider::new(&config(endpoint), |_| None).expect("a valid provider")
}

#[tokio::test]
async fn a_valid_answer_is_read_and_the_request_is_the_documented_envelope() {
    let server = serve(json(success())).await;
    let mut cfg = config(&server.url("/ground?v=1"));
    cfg.authorization_env = Some("A3S_TEST_PROVIDER_AUTHORIZATION_OCR".into());
    let p = HttpProvider::new(&cfg, |n| {
        (n == "A3S_TEST_PROVIDER_AUTHORIZATION_OCR").then(|| "Bearer s3cr3t-t0ken".to_string())
    })
    .unwrap();
    let answer = ground(&p).await.expect("advice");
    assert_eq!(answer.boxes.len(), 1);
    assert_eq!(answer.boxes[0].text.as_deref(), Some("Checkout"));
    let got = server.received();
    assert_eq!(got.len(), 1);
    assert!(
        got[0].head.starts_with("POST /ground?v=1 HTTP/1.1"),
        "{}",
        got[0].head
    );
    assert_eq!(
        got[0].header("content-type").as_deref(),
        Some("application/json")
    );
    assert_eq!(
        got[0].header("authorization").as_deref(),
        Some("Bearer s3cr3t-t0ken")
    );
    let sent: serde_json::Value = serde_json::from_slice(&got[0].body).unwrap();
    assert_eq!(sent["protocol"], PROTOCOL);
    assert_eq!(sent["request"]["observation_id"], "o3");
    assert_eq!(sent["request"]["screenshot"]["sha256"], SHA);
    assert_eq!(sent["request"]["trigger"], "canvas");
    assert_eq!(sent.as_object().unwrap().len(), 2, "{sent}");
}

/// The absence checks below can fail: a connection made before the check is seen.
#[tokio::test]
async fn an_untouched_socket_sees_any_connection_made_before_it_is_asked() {
    let socket = Untouched::bind("127.0.0.1:0");
    assert!(!socket.touched());
    let _stream = tokio::net::TcpStream::connect(socket.addr).await.unwrap();
    assert!(socket.touched());
}

#[tokio::test]
async fn a_redirect_is_refused_and_not_followed() {
    let target = Untouched::bind("127.0.0.1:0");
    let redirecting = serve(reply(
        "302 Found",
        vec![("Location", target.url("/ground"))],
        Vec::new(),
    ))
    .await;
    let err = ground(&provider(&redirecting.url("/ground")))
        .await
        .unwrap_err();
    assert_eq!(err.code, ProviderCode::Redirect, "{err}");
    assert_eq!(redirecting.received().len(), 1);
    assert!(!target.touched(), "the redirect was followed");
}

#[tokio::test]
async fn any_status_but_200_and_a_non_json_answer_are_refused() {
    let failing = serve(reply(
        "500 Internal Server Error",
        vec![("Content-Type", "application/json".into())],
        success().to_string().into_bytes(),
    ))
    .await;
    let err = ground(&provider(&failing.url("/"))).await.unwrap_err();
    assert_eq!(err.code, ProviderCode::Status, "{err}");
    let created = serve(reply(
        "201 Created",
        vec![("Content-Type", "application/json".into())],
        success().to_string().into_bytes(),
    ))
    .await;
    assert_eq!(
        ground(&provider(&created.url("/"))).await.unwrap_err().code,
        ProviderCode::Status
    );
    let html = serve(reply(
        "200 OK",
        vec![("Content-Type", "text/html".into())],
        success().to_string().into_bytes(),
    ))
    .await;
    assert_eq!(
        ground(&provider(&html.url("/"))).await.unwrap_err().code,
        ProviderCode::ContentType
    );
}

/// This machine's address on its outbound interface (never loopback), if it has one.
fn non_loopback_ip() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    // Connecting a UDP socket sends nothing; it only picks the interface.
    socket.connect("198.51.100.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

/// The code an `http://` endpoint is refused with, wherever the refusal comes: at construction,
/// or (were the check moved) at the call, after which `listener` shows whether it connected.
async fn refusal(endpoint: &str) -> ProviderError {
    match HttpProvider::new(&config(endpoint), |_| None) {
        Err(err) => err,
        Ok(p) => ground(&p)
            .await
            .expect_err(&format!("{endpoint} was called in plaintext")),
    }
}

#[tokio::test]
async fn plaintext_to_a_non_loopback_address_is_refused_before_any_connection() {
    // Addresses that are never connected to: the refusal is at construction, so no provider
    // exists to call (TEST-NET-2 and -3 literals, names, a private and the unspecified address).
    for endpoint in [
        "http://198.51.100.1:8080/ground",
        "http://203.0.113.7/ground",
        "http://example.com/ground",
        "http://localhost.example.com/ground",
        "http://localhost./ground",
        "http://10.0.0.1:8080/",
        "http://[::2]:80/",
        "http://0.0.0.0:80/",
    ] {
        let err = HttpProvider::new(&config(endpoint), |_| None).unwrap_err();
        assert_eq!(
            err.code,
            ProviderCode::InsecureEndpoint,
            "{endpoint}: {err}"
        );
        assert!(
            err.message.contains("nothing was sent"),
            "{endpoint}: {err}"
        );
    }
    // Endpoints that would reach a listener on this machine if connected to, though their host
    // is not explicit loopback: an IPv4-mapped loopback address (one dual-stack socket away
    // from 127.0.0.1), and where the machine has one, its own non-loopback interface. Each is
    // refused with the code, and its listener saw no connection.
    let listener = Untouched::bind("127.0.0.1:0");
    let port = listener.addr.port();
    let mut reachable = vec![format!("http://[::ffff:127.0.0.1]:{port}/ground")];
    let interface = non_loopback_ip().map(|ip| Untouched::bind(&format!("{ip}:0")));
    if let Some(server) = &interface {
        reachable.push(server.url("/ground"));
    }
    for endpoint in &reachable {
        let err = refusal(endpoint).await;
        assert_eq!(
            err.code,
            ProviderCode::InsecureEndpoint,
            "{endpoint}: {err}"
        );
    }
    assert!(!listener.touched(), "a loopback connection was opened");
    if let Some(server) = &interface {
        assert!(!server.touched(), "a connection was opened");
    }
    for endpoint in ["ftp://127.0.0.1/", "https://u:p@127.0.0.1/", "/relative"] {
        let err = HttpProvider::new(&config(endpoint), |_| None).unwrap_err();
        assert_eq!(err.code, ProviderCode::Endpoint, "{endpoint}: {err}");
    }
}

#[tokio::test]
async fn loopback_spellings_are_plaintext_endpoints() {
    let server = serve(json(success())).await;
    let port = server.addr.port();
    for endpoint in [
        format!("http://127.0.0.1:{port}/"),
        format!("http://localhost:{port}/"),
        format!("http://LOCALHOST:{port}/"),
    ] {
        ground(&provider(&endpoint))
            .await
            .unwrap_or_else(|e| panic!("{endpoint}: {e}"));
    }
}

#[tokio::test]
async fn https_speaks_tls_and_never_falls_back_to_plaintext() {
    // A plaintext server behind an https:// endpoint: the TLS handshake fails, and no request
    // reaches it in the clear.
    let server = serve(json(success())).await;
    let endpoint = format!("https://127.0.0.1:{}/ground", server.addr.port());
    let err = ground(&provider(&endpoint)).await.unwrap_err();
    assert_eq!(err.code, ProviderCode::Tls, "{err}");
    assert!(
        server.received().is_empty(),
        "a request was sent in the clear"
    );
}

#[tokio::test]
async fn a_50_mb_answer_is_cut_at_the_bound_without_reading_it() {
    const FIFTY_MB: usize = 50 * 1024 * 1024;
    // Declared length: refused before the body is read.
    let declared = serve(std::sync::Arc::new(|_, mut stream: tokio::net::TcpStream| {
        Box::pin(async move {
            let head = format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {FIFTY_MB}\r\n\r\n");
            let _ = stream.write_all(head.as_bytes()).await;
            let block = vec![b' '; 1 << 20];
            for _ in 0..50 {
                if stream.write_all(&block).await.is_err() {
                    return;
                }
            }
        }) as common::futures_like::Boxed
    }))
    .await;
    let started = Instant::now();
    let err = ground(&provider(&declared.url("/"))).await.unwrap_err();
    assert_eq!(err.code, ProviderCode::ResponseTooLarge, "{err}");
    assert!(started.elapsed() < Duration::from_secs(3));

    // Chunked, no length: cut when the bound is reached; the server could not write it all.
    let written = std::sync::Arc::new(std::sync::Mutex::new(0usize));
    let w = written.clone();
    let chunked = serve(std::sync::Arc::new(move |_, mut stream: tokio::net::TcpStream| {
        let w = w.clone();
        Box::pin(async move {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
            let _ = stream.write_all(head.as_bytes()).await;
            let block = vec![b' '; 64 * 1024];
            let framed = [format!("{:x}\r\n", block.len()).into_bytes(), block, b"\r\n".to_vec()].concat();
            while *w.lock().unwrap() < FIFTY_MB {
                if stream.write_all(&framed).await.is_err() {
                    return;
                }
                *w.lock().unwrap() += 64 * 1024;
            }
            let _ = stream.write_all(b"0\r\n\r\n").await;
        }) as common::futures_like::Boxed
    }))
    .await;
    let err = ground(&provider(&chunked.url("/"))).await.unwrap_err();
    assert_eq!(err.code, ProviderCode::ResponseTooLarge, "{err}");
    // Read past the bound, the answer would have been written nearly whole by now.
    let sent = *written.lock().unwrap();
    assert!(
        sent < FIFTY_MB / 2,
        "the server wrote {sent} bytes: the answer was read past its bound"
    );
}

#[tokio::test]
async fn a_provider_that_sleeps_past_the_deadline_times_out() {
    let slow = serve(std::sync::Arc::new(|r, s| {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_secs(10)).await;
            json(success())(r, s).await;
        }) as common::futures_like::Boxed
    }))
    .await;
    let mut cfg = config(&slow.url("/"));
    cfg.timeout_ms = 300;
    let p = HttpProvider::new(&cfg, |_| None).unwrap();
    let started = Instant::now();
    let err = ground(&p).await.unwrap_err();
    assert_eq!(err.code, ProviderCode::Timeout, "{err}");
    assert!(err.retryable);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

#[tokio::test]
async fn a_wrong_protocol_string_is_refused() {
    let mut answer = success();
    answer["protocol"] = "a3s.test.visual-grounding/2".into();
    let server = serve(json(answer)).await;
    let err = ground(&provider(&server.url("/"))).await.unwrap_err();
    assert_eq!(err.code, ProviderCode::Protocol, "{err}");
}

#[tokio::test]
async fn identity_model_and_cost_are_checked_against_the_config() {
    let cases = [
        (
            "provider",
            serde_json::json!("someone-else"),
            ProviderCode::Identity,
        ),
        ("model", serde_json::json!("gpt-9"), ProviderCode::Model),
        (
            "cost_microusd",
            serde_json::json!(1_001),
            ProviderCode::OverBudget,
        ),
        (
            "observation_id",
            serde_json::json!("o2"),
            ProviderCode::Binding,
        ),
        (
            "screenshot_sha256",
            serde_json::json!("00"),
            ProviderCode::Binding,
        ),
        (
            "boxes",
            serde_json::json!([{ "x": 1270.0, "y": 0.0, "width": 20.0, "height": 5.0, "confidence": 0.5 }]),
            ProviderCode::Geometry,
        ),
        (
            "boxes",
            serde_json::json!([{ "x": 0.0, "y": 0.0, "width": 0.0, "height": 5.0, "confidence": 0.5 }]),
            ProviderCode::Geometry,
        ),
        (
            "boxes",
            serde_json::json!([{ "x": 0.0, "y": 0.0, "width": 5.0, "height": 5.0, "confidence": 1.5 }]),
            ProviderCode::Geometry,
        ),
        (
            "usage",
            serde_json::json!({ "input_units": -1, "output_units": 0 }),
            ProviderCode::Malformed,
        ),
    ];
    for (field, value, code) in cases {
        let mut answer = success();
        answer["response"][field] = value.clone();
        let server = serve(json(answer)).await;
        let err = ground(&provider(&server.url("/"))).await.unwrap_err();
        assert_eq!(err.code, code, "{field} = {value}: {err}");
    }
    // The request's own budget binds too, below the config's.
    let mut answer = success();
    answer["response"]["cost_microusd"] = 600.into();
    let server = serve(json(answer)).await;
    let mut req = request();
    req.max_cost_microusd = 500;
    let err = provider(&server.url("/"))
        .call::<Grounding>(&req)
        .await
        .unwrap_err();
    assert_eq!(err.code, ProviderCode::OverBudget, "{err}");
}

#[tokio::test]
async fn usage_over_the_configured_limits_is_refused_and_at_them_accepted() {
    // (input limit, output limit, the answer's input and output units, refused?)
    let cases = [
        (Some(10), None, (11, 0), true),
        (None, Some(3), (1, 4), true),
        (Some(10), Some(3), (10, 3), false),
        (None, None, (u64::MAX, u64::MAX), false),
        (Some(0), Some(0), (0, 0), false),
        (Some(0), None, (1, 0), true),
    ];
    for (max_in, max_out, (used_in, used_out), refused) in cases {
        let mut answer = success();
        answer["response"]["usage"] =
            serde_json::json!({ "input_units": used_in, "output_units": used_out });
        let server = serve(json(answer)).await;
        let mut cfg = config(&server.url("/"));
        cfg.max_input_units = max_in;
        cfg.max_output_units = max_out;
        let p = HttpProvider::new(&cfg, |_| None).unwrap();
        let got = ground(&p).await;
        let case = format!("limits {max_in:?}/{max_out:?}, used {used_in}/{used_out}");
        if refused {
            let err = got.expect_err(&case);
            assert_eq!(err.code, ProviderCode::OverUsage, "{case}: {err}");
            assert!(
                err.message.contains("units, over the budget of"),
                "{case}: {err}"
            );
            assert!(err.hint().contains("max_input_units"), "{case}: {err}");
        } else {
            let answer = got.unwrap_or_else(|e| panic!("{case}: {e}"));
            assert_eq!(
                (answer.usage.input_units, answer.usage.output_units),
                (used_in, used_out),
                "{case}"
            );
        }
        assert_eq!(server.received().len(), 1, "{case}: one call, no retry");
    }
}

#[tokio::test]
async fn a_failure_envelope_is_a_coded_refusal_with_its_retry_hint() {
    let server = serve(json(serde_json::json!({
        "status": "failure",
        "protocol": PROTOCOL,
        "error": { "code": "model.overloaded", "message": "try\nlater", "retryable": true }
    })))
    .await;
    let err = ground(&provider(&server.url("/"))).await.unwrap_err();
    assert_eq!(err.code, ProviderCode::Refused);
    assert!(err.retryable);
    assert!(
        err.message.contains("model.overloaded") && err.message.contains("try later"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn the_request_body_is_bounded_before_anything_is_sent() {
    let server = serve(json(success())).await;
    let mut req = request();
    req.screenshot.png_base64 = "A".repeat(33 * 1024 * 1024);
    let err = provider(&server.url("/"))
        .call::<Grounding>(&req)
        .await
        .unwrap_err();
    assert_eq!(err.code, ProviderCode::RequestTooLarge, "{err}");
    assert_eq!(server.connections(), 0);
}

#[tokio::test]
async fn the_authorization_variable_is_named_under_the_prefix_and_must_be_set() {
    let mut cfg = config("http://127.0.0.1:9/");
    cfg.authorization_env = Some("OPENAI_API_KEY".into());
    let err = HttpProvider::new(&cfg, |_| Some("Bearer x".into())).unwrap_err();
    assert_eq!(err.code, ProviderCode::AuthorizationEnv);
    cfg.authorization_env = Some("A3S_TEST_PROVIDER_AUTHORIZATION_OCR".into());
    let err = HttpProvider::new(&cfg, |_| None).unwrap_err();
    assert_eq!(err.code, ProviderCode::AuthorizationEnv);
    let err = HttpProvider::new(&cfg, |_| Some("Bearer abc\r\nX-Evil: 1".into())).unwrap_err();
    assert_eq!(err.code, ProviderCode::AuthorizationValue);
    assert!(!err.to_string().contains("abc"), "{err}");
}

/// The secret used by the redaction tests, and its token part on its own.
const SECRET: &str = "Bearer sk-live-7f3a9c2e1d";
const TOKEN: &str = "sk-live-7f3a9c2e1d";

fn authorized(endpoint: &str) -> HttpProvider {
    let mut cfg = config(endpoint);
    cfg.authorization_env = Some("A3S_TEST_PROVIDER_AUTHORIZATION_OCR".into());
    HttpProvider::new(&cfg, |_| Some(SECRET.into())).unwrap()
}

fn assert_clean(text: &str) {
    assert!(
        !text.contains(TOKEN),
        "the authorization value leaked: {text}"
    );
}

#[tokio::test]
async fn the_authorization_value_never_appears_in_errors_answers_or_debug_output() {
    // A provider that echoes the header it received into every place an answer has text.
    let echo = |place: &'static str| {
        json_from(move |r| {
            let auth = r.header("authorization").unwrap_or_default();
            let mut answer = success();
            match place {
                "failure" => {
                    answer = serde_json::json!({
                        "status": "failure", "protocol": PROTOCOL,
                        "error": { "code": "echo", "message": format!("you sent {auth}"), "retryable": false }
                    })
                }
                "model" => answer["response"]["model"] = auth.clone().into(),
                "token-only" => answer["response"]["provider"] = auth.replace("Bearer ", "").into(),
                "type" => answer["response"]["cost_microusd"] = auth.clone().into(),
                "protocol" => answer["protocol"] = auth.clone().into(),
                "text" => answer["response"]["boxes"][0]["text"] = format!("{auth}!").into(),
                _ => unreachable!(),
            }
            answer
        })
    };
    let mut outputs = Vec::new();
    for place in ["failure", "model", "token-only", "type", "protocol"] {
        let server = serve(echo(place)).await;
        let p = authorized(&server.url("/"));
        let err = ground(&p).await.unwrap_err();
        assert!(
            server.received()[0].head.contains(TOKEN),
            "the header was sent"
        );
        outputs.push(format!("{err}\n{err:?}\n{p:?}"));
    }
    let server = serve(echo("text")).await;
    let p = authorized(&server.url("/"));
    let answer = ground(&p).await.unwrap();
    outputs.push(format!(
        "{answer:?}\n{}",
        serde_json::to_string(&answer).unwrap()
    ));
    for out in &outputs {
        assert_clean(out);
    }
    assert!(
        outputs.iter().all(|o| o.contains("[redacted]")),
        "{outputs:#?}"
    );
}

#[tokio::test]
async fn a_provider_of_another_kind_or_name_is_not_configured() {
    let providers = vec![config("http://127.0.0.1:9/")];
    let kind = a3s_test_lang::ir::ProviderKind::VisualGrounding;
    assert!(a3s_test_provider::find(&providers, "ocr", kind).is_ok());
    let err = a3s_test_provider::find(&providers, "vision", kind).unwrap_err();
    assert_eq!(err.code, ProviderCode::NotConfigured);
}
