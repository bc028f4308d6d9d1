//! `request` steps over HTTPS, end to end: the real binary and Chromium, and loopback HTTPS
//! servers written here (rustls on threads) presenting the committed test certificates of
//! `provider/tests/fixtures/tls/` (its `make.sh` says what each is). The binary trusts the test
//! root only because `SSL_CERT_FILE` names it — the machine's trust store as curl reads it; the
//! code has no other door. The context's cookies for the https URL go with the request, `Secure`
//! ones included. A certificate for another name, or under another root, is
//! `test.driver.web.request_failed` saying why; without `SSL_CERT_FILE` the test root is not
//! trusted.

use crate::harness::{command, finish, repo, scenario, workdir, RUN_BOUND};
use rustls::pki_types::{pem::PemObject, CertificateDer, PrivateKeyDer};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// The committed test certificates.
pub fn fixture(name: &str) -> PathBuf {
    repo().join("provider/tests/fixtures/tls").join(name)
}

/// A loopback HTTPS server presenting `certificate` (for `server.key`) that answers every
/// request with `{"user":{"name":"Ada"},"cookie":"<the request's Cookie header>"}`; its port.
fn https_server(certificate: &str) -> u16 {
    https_serving(certificate, |_path, cookie| {
        let body = serde_json::json!({ "user": { "name": "Ada" }, "cookie": cookie });
        ("application/json", body.to_string())
    })
}

/// What an HTTPS test server answers a request for a path, with its Cookie header: the content
/// type and the body.
pub type Answer = fn(&str, &str) -> (&'static str, String);

/// A loopback HTTPS server presenting `certificate` (for `server.key`) that answers each request
/// with what `answer` makes of its path and Cookie header; its port. A connection that ends
/// before a request line (a client that refused the certificate) is told to `answer` as the
/// empty path, whose answer goes nowhere.
pub fn https_serving(certificate: &str, answer: Answer) -> u16 {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(fixture(certificate))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let key = PrivateKeyDer::from_pem_file(fixture("server.key")).unwrap();
    #[allow(deprecated)] // ring: no post-quantum key exchange, and no C build.
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = Arc::new(
        rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap(),
    );
    let (listener, _) = crate::common::loopback();
    let port = listener.local_addr().unwrap().port();
    crate::common::serve_each(listener, move |tcp| {
        let Ok(session) = rustls::ServerConnection::new(config.clone()) else {
            return;
        };
        let mut tls = BufReader::new(rustls::StreamOwned::new(session, tcp));
        // The head ends at the first empty line; a refused handshake ends the read first.
        let (mut line, mut path, mut cookie) = (String::new(), String::new(), String::new());
        while tls.read_line(&mut line).is_ok_and(|n| n > 0) {
            if path.is_empty() {
                path = line.split(' ').nth(1).unwrap_or("/").to_string();
            } else if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("cookie") {
                    cookie = value.trim().to_string();
                }
            }
            if line == "\r\n" {
                let (content_type, body) = answer(&path, &cookie);
                let _ = write!(
                    tls.get_mut(),
                    "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = tls.get_mut().flush();
                return;
            }
            line.clear();
        }
        if path.is_empty() {
            answer("", "");
        }
    });
    port
}

/// A scenario whose one `request` step asks `https://{host}:{port}/api/me` for Ada.
fn scenario_asking(id: &str, host: &str, port: u16) -> String {
    scenario_checking(id, host, port, "", "$.user.name", "Ada")
}

/// A scenario (with `attributes`) whose one `request` step asks `https://{host}:{port}/api/me`
/// and expects `value` at `path`.
fn scenario_checking(
    id: &str,
    host: &str,
    port: u16,
    attributes: &str,
    path: &str,
    value: &str,
) -> String {
    format!(
        "    scenario \"{id}\" {{\n        surface = \"web\"\n        {attributes}\n        \
         request \"me\" {{\n            url = \"https://{host}:{port}/api/me\"\n            \
         status = 200\n            json_path = \"{path}\"\n            equals = \"{value}\"\n        \
         }}\n    }}\n"
    )
}

/// A sign-in state holding one `Secure`, `HttpOnly` session cookie for localhost.
const SIGNED_IN: &str = r#"{"version": 2, "origins": [], "cookies": [{"name": "sid",
  "value": "tls-s3ssion", "domain": "localhost", "path": "/", "expires": -1, "httpOnly": true,
  "secure": true, "sameSite": "Lax"}]}"#;

/// Make `run` trust only `cert_file` (`SSL_CERT_FILE`), or only the system store with `None`:
/// this machine and cargo set `SSL_CERT_FILE` and `SSL_CERT_DIR` for the processes they start.
pub fn trusting_only(run: &mut std::process::Command, cert_file: Option<PathBuf>) {
    run.env_remove("SSL_CERT_FILE").env_remove("SSL_CERT_DIR");
    if let Some(file) = cert_file {
        run.env("SSL_CERT_FILE", file);
    }
}

/// `run api.acl --json` over `suite`, with `SSL_CERT_FILE` as given (else unset, like
/// `SSL_CERT_DIR`).
fn run_suite(suite: &str, cert_file: Option<PathBuf>) -> serde_json::Value {
    let work = workdir(&[("api.acl", suite), (".a3s-test/auth.json", SIGNED_IN)]);
    let mut run = command("run", &["api.acl", "--json"], work.path());
    trusting_only(&mut run, cert_file);
    let done = finish(run.spawn().unwrap(), RUN_BOUND);
    assert!(
        done.code == 0 || done.code == 1,
        "exit {}:\n{}\n{}",
        done.code,
        done.stdout,
        done.stderr
    );
    done.json()
}

/// The failure code and message of scenario `id`.
fn failure(json: &serde_json::Value, id: &str) -> (String, String) {
    let s = scenario(json, id);
    (
        s["failure"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        s["failure"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}

#[test]
fn a_request_step_over_https_trusts_the_machines_store_and_verifies_the_name() {
    let trusted = https_server("localhost.pem");
    let other_name = https_server("other-name.pem");
    let stranger = https_server("stranger.pem");
    let suite = format!(
        "suite \"api\" {{\n{}{}{}{}{}}}\n",
        scenario_asking("by-name", "localhost", trusted),
        scenario_asking("by-ip", "127.0.0.1", trusted),
        scenario_asking("other-name", "localhost", other_name),
        scenario_asking("stranger", "localhost", stranger),
        // The context's cookies for that https URL are sent, `Secure` ones included.
        scenario_checking(
            "signed-in",
            "localhost",
            trusted,
            "storage_state = \".a3s-test/auth.json\"",
            "$.cookie",
            "sid=tls-s3ssion",
        ),
    );
    let json = run_suite(&suite, Some(fixture("root.pem")));
    for id in ["api/by-name", "api/by-ip", "api/signed-in"] {
        assert_eq!(scenario(&json, id)["status"], "passed", "{id}: {json}");
    }
    let (code, message) = failure(&json, "api/other-name");
    assert_eq!(code, "test.driver.web.request_failed", "{json}");
    assert!(message.contains("name mismatch"), "{message}");
    let (code, message) = failure(&json, "api/stranger");
    assert_eq!(code, "test.driver.web.request_failed", "{json}");
    assert!(
        message.contains("unknown issuer") && message.contains("SSL_CERT_FILE"),
        "{message}"
    );

    // The test root is trusted only because SSL_CERT_FILE names it.
    let alone = format!(
        "suite \"api\" {{\n{}}}\n",
        scenario_asking("by-name", "localhost", trusted)
    );
    let json = run_suite(&alone, None);
    let (code, message) = failure(&json, "api/by-name");
    assert_eq!(code, "test.driver.web.request_failed", "{json}");
    // (On a machine without any trust store the refusal names that instead.)
    assert!(
        message.contains("unknown issuer") || message.contains("no trusted root"),
        "{message}"
    );
}
