//! The `a3s-test-openai-adapter` binary as a deployment runs it: flags, the authorization value
//! from the named environment variable, `listening on ADDR` first, a design report through the
//! tool's transport; and exit 2, before listening, for an address or an endpoint it must refuse.

use a3s_test_lang::ir::{ProviderConfig, ProviderKind};
use a3s_test_provider::design::context::Viewport;
use a3s_test_provider::design::{DesignReview, DesignReviewRequest, Dimension, PageContext};
use a3s_test_provider::grounding::Screenshot;
use a3s_test_provider::HttpProvider;
use std::process::Stdio;
use std::time::Duration;
use support::{completion, model_server};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

mod support;

const BIN: &str = env!("CARGO_BIN_EXE_a3s-test-openai-adapter");
const ENV: &str = "A3S_TEST_PROVIDER_AUTHORIZATION_OPENAI";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_answers_through_the_model_server_with_the_variables_bearer() {
    let server = model_server(completion(
        r#"{"findings": [{"id": "p", "dimension": "hierarchy", "target": {"kind": "page"},
            "priority": "medium", "title": "Two headings compete",
            "rationale": "Both are 32 px bold.", "recommendation": "Make one smaller."}]}"#,
        40,
        9,
    ))
    .await;
    let mut child = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0", "--endpoint"])
        .arg(format!("http://{}", server.addr))
        .args([
            "--model",
            "m-1",
            "--name",
            "advisor",
            "--authorization-env",
            ENV,
        ])
        .args(["--timeout-ms", "5000"])
        .env(ENV, "Bearer sk-binary-secret-42")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the adapter starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("the adapter says where it listens within 30 s")
        .unwrap()
        .unwrap();
    let addr = line.strip_prefix("listening on ").expect(&line).to_string();

    let tool = HttpProvider::new(
        &ProviderConfig {
            name: "advisor".into(),
            kind: ProviderKind::DesignReview,
            endpoint: format!("http://{addr}/"),
            model: "m-1".into(),
            authorization_env: None,
            timeout_ms: 10_000,
            max_cost_microusd: 0,
            max_input_units: Some(100),
            max_output_units: Some(10),
        },
        |_| None,
    )
    .unwrap();
    let request = DesignReviewRequest {
        url: "http://127.0.0.1/".into(),
        revision: 1,
        screenshot: Screenshot {
            sha256: "ab".repeat(32),
            width: 10,
            height: 10,
            png_base64: "AA==".into(),
        },
        page_context: PageContext {
            revision: 1,
            viewport: Viewport {
                width: 10.0,
                height: 10.0,
                dpr: 1.0,
            },
            nodes: Vec::new(),
            truncated: false,
        },
        dimensions: Dimension::ALL.to_vec(),
        max_findings: 5,
        deadline_ms: 10_000,
        max_cost_microusd: 0,
    };
    let report = tool.call::<DesignReview>(&request).await.expect("a report");
    assert_eq!(report.provider, "advisor");
    assert_eq!(report.model, "m-1");
    assert_eq!(report.findings[0].title, "Two headings compete");
    assert_eq!(
        (report.usage.input_units, report.usage.output_units),
        (40, 9)
    );
    assert_eq!(report.cost_microusd, 0, "no prices given, no cost");
    let received = server.received.lock().unwrap().clone();
    assert_eq!(
        received[0].header("authorization"),
        Some("Bearer sk-binary-secret-42")
    );

    child.kill().await.unwrap();
    let out = child.wait_with_output().await.unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("sk-binary"), "{stderr}");
}

async fn refused_at_start(args: &[&str]) -> String {
    let child = Command::new(BIN)
        .args(args)
        .env_remove(ENV)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let out = tokio::time::timeout(Duration::from_secs(30), child.wait_with_output())
        .await
        .expect("the adapter exits within 30 s")
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "nothing listened: {args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_refuses_a_public_address_a_plaintext_remote_model_an_unset_variable_and_grounding(
) {
    let base = ["--model", "m", "--endpoint", "http://127.0.0.1:9"];
    let stderr = refused_at_start(&[&["--listen", "0.0.0.0:0"], &base[..]].concat()).await;
    assert!(stderr.contains("not a loopback address"), "{stderr}");
    let stderr = refused_at_start(&[
        "--listen",
        "127.0.0.1:0",
        "--model",
        "m",
        "--endpoint",
        "http://198.51.100.4",
    ])
    .await;
    assert!(
        stderr.contains("test.provider.insecure_endpoint"),
        "{stderr}"
    );
    let stderr = refused_at_start(
        &[
            &["--listen", "127.0.0.1:0", "--authorization-env", ENV],
            &base[..],
        ]
        .concat(),
    )
    .await;
    assert!(
        stderr.contains("test.provider.authorization_env"),
        "{stderr}"
    );
    let stderr = refused_at_start(
        &[
            &["--listen", "127.0.0.1:0", "--kind", "visual_grounding"],
            &base[..],
        ]
        .concat(),
    )
    .await;
    assert!(stderr.contains("visual_grounding"), "{stderr}");
}
