//! HTTPS calls that complete, against a real loopback HTTPS server written here (rustls, a
//! certificate from `tests/fixtures/tls/`), trusted only through
//! [`HttpProvider::with_test_roots`]: the answer is checked like any other; a certificate for
//! another name, or under another root, is refused with `test.provider.tls`; a redirect is still
//! refused. The last test holds the injection out of the configured path.

mod common;

use a3s_test_provider::grounding::Grounding;
use a3s_test_provider::{GroundingResponse, HttpProvider, ProviderCode, ProviderError};
use common::tls::{serve_tls, test_roots, LOCALHOST, OTHER_NAME, STRANGER};
use common::*;
use std::path::Path;

/// A provider at `endpoint` trusting the test root alone.
fn trusting_test_root(endpoint: &str) -> HttpProvider {
    HttpProvider::with_test_roots(&config(endpoint), |_| None, test_roots()).unwrap()
}

#[tokio::test]
async fn an_https_call_to_loopback_is_answered_and_checked_like_any_other() {
    let server = serve_tls(LOCALHOST, json_response(&success())).await;
    let port = server.addr.port();
    for (n, endpoint) in [
        format!("https://127.0.0.1:{port}/ground?v=1"),
        format!("https://localhost:{port}/ground?v=1"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut cfg = config(&endpoint);
        cfg.authorization_env = Some("A3S_TEST_PROVIDER_AUTHORIZATION_OCR".into());
        let p =
            HttpProvider::with_test_roots(&cfg, |_| Some("Bearer tls-t0ken".into()), test_roots())
                .unwrap();
        let answer = p
            .call::<Grounding>(&request())
            .await
            .unwrap_or_else(|e| panic!("{endpoint}: {e}"));
        assert_eq!(answer.boxes.len(), 1, "{endpoint}");
        assert_eq!(answer.boxes[0].text.as_deref(), Some("Checkout"));
        assert_eq!(answer.observation_id, "o3");
        let got = server.received();
        assert_eq!(got.len(), n + 1, "{endpoint}: one request per call");
        let sent = &got[n];
        assert!(
            sent.head.starts_with("POST /ground?v=1 HTTP/1.1"),
            "{}",
            sent.head
        );
        assert_eq!(
            sent.header("authorization").as_deref(),
            Some("Bearer tls-t0ken")
        );
        let envelope: serde_json::Value = serde_json::from_slice(&sent.body).unwrap();
        assert_eq!(envelope["protocol"], PROTOCOL);
        assert_eq!(envelope["request"]["screenshot"]["sha256"], SHA);
    }
    // Over HTTPS the answer is still checked: another model is refused.
    let mut answer = success();
    answer["response"]["model"] = "gpt-9".into();
    let server = serve_tls(LOCALHOST, json_response(&answer)).await;
    let err = ground_at(&server, "localhost").await.unwrap_err();
    assert_eq!(err.code, ProviderCode::Model, "{err}");
}

/// A call to `server` at `https://HOST:PORT/ground`, trusting the test root alone.
async fn ground_at(server: &Server, host: &str) -> Result<GroundingResponse, ProviderError> {
    let endpoint = format!("https://{host}:{}/ground", server.addr.port());
    trusting_test_root(&endpoint)
        .call::<Grounding>(&request())
        .await
}

/// `err` refused `server`'s certificate for `reason`, after `connections` handshakes and before
/// any request.
fn assert_certificate_refused(
    err: &ProviderError,
    reason: &str,
    server: &Server,
    connections: usize,
) {
    assert_eq!(err.code, ProviderCode::Tls, "{err}");
    assert!(err.message.contains(reason), "{reason}: {err}");
    assert_eq!(server.connections(), connections, "{err}");
    assert!(server.received().is_empty(), "a request was sent");
}

#[tokio::test]
async fn a_certificate_for_another_name_is_refused() {
    let server = serve_tls(OTHER_NAME, json_response(&success())).await;
    for (n, host) in ["127.0.0.1", "localhost"].into_iter().enumerate() {
        let err = ground_at(&server, host).await.unwrap_err();
        assert_certificate_refused(&err, "not valid for name", &server, n + 1);
    }
}

#[tokio::test]
async fn a_certificate_not_under_the_trusted_roots_is_refused() {
    // Under another root than the injected one.
    let stranger = serve_tls(STRANGER, json_response(&success())).await;
    let err = ground_at(&stranger, "localhost").await.unwrap_err();
    assert_certificate_refused(&err, "UnknownIssuer", &stranger, 1);

    // The configured path trusts the webpki roots alone: the test root is not among them.
    let server = serve_tls(LOCALHOST, json_response(&success())).await;
    let endpoint = format!("https://localhost:{}/ground", server.addr.port());
    let err = HttpProvider::new(&config(&endpoint), |_| None)
        .unwrap()
        .call::<Grounding>(&request())
        .await
        .unwrap_err();
    assert_certificate_refused(&err, "UnknownIssuer", &server, 1);
}

#[tokio::test]
async fn a_redirect_over_https_is_refused_and_not_followed() {
    let target = Untouched::bind("127.0.0.1:0");
    let location = format!("https://localhost:{}/ground", target.addr.port());
    let redirect = response("302 Found", &[("Location", location)], b"");
    let redirecting = serve_tls(LOCALHOST, redirect).await;
    let err = ground_at(&redirecting, "localhost").await.unwrap_err();
    assert_eq!(err.code, ProviderCode::Redirect, "{err}");
    assert_eq!(redirecting.received().len(), 1);
    assert!(!target.touched(), "the redirect was followed");
}

/// Every `.rs` file under `dir`, build output and dependencies left out.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_provider_tests_reach_the_test_root_injection() {
    let provider = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = provider.parent().unwrap();
    let mut files = Vec::new();
    rust_files(workspace, &mut files);
    assert!(files.len() > 50, "the workspace was not walked: {files:?}");
    let defined_in = provider.join("src/transport.rs");
    let callers: Vec<_> = files
        .iter()
        .filter(|f| **f != defined_in && !f.starts_with(provider.join("tests")))
        .filter(|f| {
            std::fs::read_to_string(f)
                .unwrap_or_default()
                .contains("with_test_roots")
        })
        .collect();
    assert!(
        callers.is_empty(),
        "only the provider's tests may inject TLS roots: {callers:?}"
    );
}
