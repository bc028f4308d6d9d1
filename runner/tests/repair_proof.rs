//! A generated repair candidate proven in real Chromium against a page from a loopback server:
//! the candidate whose criteria hold passes, the one whose finding text is absent fails with the
//! assertion's code, and the browser the proof borrowed is still usable afterwards.

use a3s_test_driver::{ContextOptions, SurfaceContext, SurfaceDriver};
use a3s_test_ledger::verification::{LocatorKind, TargetResolution};
use a3s_test_ledger::Finding;
use a3s_test_runner::repair::{candidate, proof};
use a3s_test_runner::session::file::Policy;
use a3s_test_web::{LaunchOptions, WebDriver};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const PAGE: &str = r#"<!doctype html><html><body><main>
<h1>Checkout</h1><p>Total: 12 EUR</p><button type="button">Pay now</button>
</main></body></html>"#;

/// Serve [`PAGE`] on a loopback port for every request; returns the base URL.
async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                    match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk))
                        .await
                    {
                        Ok(Ok(n)) if n > 0 => buf.extend_from_slice(&chunk[..n]),
                        _ => return,
                    }
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    PAGE.len()
                );
                let _ = stream.write_all(head.as_bytes()).await;
                let _ = stream.write_all(PAGE.as_bytes()).await;
            });
        }
    });
    format!("http://{addr}")
}

fn finding(criteria: &str) -> Finding {
    let json = format!(
        r#"{{"id":"f-pay","target":{{"kind":"node","nodeIds":["n1"]}},"instruction":"Say pay now",
            "successCriteria":{criteria},"intent":"change","severity":"important"}}"#
    );
    serde_json::from_str(&json).unwrap()
}

#[test]
fn a_candidate_passes_when_its_criteria_hold_and_fails_when_the_text_is_absent() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(90), body())
            .await
            .expect("the test exceeded its deadline");
    });
}

async fn body() {
    let base = serve().await;
    let driver = Arc::new(
        WebDriver::launch(LaunchOptions {
            prewarm: false,
            ..LaunchOptions::default()
        })
        .await
        .expect("launch chromium"),
    );
    let out = tempfile::tempdir().unwrap();
    let settings = proof::ProofSettings {
        policy: Policy {
            origins: vec![base.clone()],
            domains: vec![],
        },
        artifacts: a3s_test_fsroot::Dir::open_anchor(out.path()).unwrap(),
        working_dir: out.path().to_path_buf(),
        bound: proof::PROOF_BOUND,
    };
    let resolved = TargetResolution {
        locator: LocatorKind::RoleName,
        acl_target: r#"role("button", "Pay now")"#.into(),
        stable: true,
    };
    let url = format!("{base}/checkout");

    let holds = finding(
        r#"[{"kind":"target_text","equals":"Pay now"},{"kind":"page_text","contains":"Total: 12"},
            {"kind":"page_text_absent","contains":"Payment failed"},{"kind":"target_state","state":"enabled"}]"#,
    );
    let passing = candidate::generate(&holds, &resolved, &url)
        .unwrap()
        .expect("a candidate is due");
    let passed = proof::prove(driver.clone(), &passing, &settings).await;
    assert!(passed.passed, "{passed:?}\n{passing}");
    assert_eq!(passed.code, None);

    let absent = finding(r#"[{"kind":"page_text","contains":"Thank you for paying"}]"#);
    let failing = candidate::generate(&absent, &resolved, &url)
        .unwrap()
        .expect("a candidate is due");
    let failed = proof::prove(driver.clone(), &failing, &settings).await;
    assert!(!failed.passed, "{failed:?}");
    assert_eq!(
        failed.code.as_deref(),
        Some("test.assert.text_mismatch"),
        "{failed:?}"
    );
    assert!(
        failed
            .message
            .as_deref()
            .unwrap_or("")
            .contains("Thank you"),
        "{failed:?}"
    );

    // A navigation outside the session's origins never reaches the browser.
    let elsewhere = passing.replace(&base, "http://127.0.0.2:9");
    let refused = proof::prove(driver.clone(), &elsewhere, &settings).await;
    assert_eq!(refused.code.as_deref(), Some("test.session.policy"));

    // The proof borrowed the session's browser; it did not shut it down.
    let ctx = driver
        .new_context(ContextOptions::default())
        .await
        .expect("the browser is still running");
    ctx.close().await.unwrap();
    driver.shutdown().await.unwrap();
}
