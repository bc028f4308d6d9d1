//! The real auditor binary on loopback, asked through the tool's own provider transport: a page
//! with low-contrast text, an off-grid gap, a tiny button, a near-miss edge and a crowded type
//! scale gets exactly that advice, each with its measurement; a screenshot whose digest does not
//! match is answered with a `failure`, and a request for one dimension gets only that one.

use a3s_test_lang::ir::{ProviderConfig, ProviderKind};
use a3s_test_provider::design::context::{NodeStyles, Viewport};
use a3s_test_provider::design::{
    AdviceTarget, ContextNode, DesignReview, DesignReviewRequest, Dimension, NodeRect, PageContext,
    Priority,
};
use a3s_test_provider::grounding::Screenshot;
use a3s_test_provider::{HttpProvider, ProviderCode};
use base64::Engine;
use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The auditor, in its own process group, killed with it when the test ends.
struct Auditor {
    child: Child,
    addr: String,
}

impl Drop for Auditor {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the process group this test created for the child.
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

fn start() -> Auditor {
    let mut child = Command::new(env!("CARGO_BIN_EXE_a3s-test-design-auditor"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--name",
            "auditor",
            "--model",
            "m1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
        .expect("the auditor starts");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the auditor says where it listens within 30 s");
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    Auditor { child, addr }
}

/// A white 200×100 PNG with a grey band at the top (what shows behind transparent text).
fn png() -> Vec<u8> {
    let (w, h) = (200u32, 100u32);
    let mut pixels = Vec::with_capacity((w * h * 3) as usize);
    for y in 0..h {
        for _ in 0..w {
            let v = if y < 30 { 150 } else { 255 };
            pixels.extend_from_slice(&[v, v, v]);
        }
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    let mut writer = enc.write_header().unwrap();
    writer.write_image_data(&pixels).unwrap();
    writer.finish().unwrap();
    out
}

fn node(
    id: &str,
    parent: Option<&str>,
    role: Option<&str>,
    text: &str,
    rect: (f64, f64, f64, f64),
    styles: NodeStyles,
) -> ContextNode {
    ContextNode {
        id: id.into(),
        parent_id: parent.map(Into::into),
        tag: "div".into(),
        role: role.map(Into::into),
        name: None,
        text: (!text.is_empty()).then(|| text.into()),
        visible: true,
        redacted: false,
        disabled: false,
        rect: Some(NodeRect {
            x: rect.0,
            y: rect.1,
            width: rect.2,
            height: rect.3,
        }),
        styles,
    }
}

fn text_style(color: &str, size: f64) -> NodeStyles {
    NodeStyles {
        color: Some(color.into()),
        font_size_px: Some(size),
        ..NodeStyles::default()
    }
}

fn request(image: &[u8]) -> DesignReviewRequest {
    let sha: String = Sha256::digest(image)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let white = NodeStyles {
        background_color: Some("rgb(255, 255, 255)".into()),
        ..NodeStyles::default()
    };
    let mut nodes = vec![
        node("root", None, None, "", (0.0, 0.0, 200.0, 100.0), white),
        // Pale grey on white: 1.9:1.
        node(
            "pale",
            Some("root"),
            None,
            "Shipping is free",
            (8.0, 40.0, 100.0, 16.0),
            text_style("rgb(190, 190, 190)", 14.0),
        ),
        // 18.76 px below the pale line: off the 4 px grid; and 2 px to the right of its edge.
        node(
            "next",
            Some("root"),
            None,
            "Total",
            (10.0, 74.76, 60.0, 16.0),
            text_style("rgb(20, 20, 20)", 15.0),
        ),
        // A 12 × 12 button.
        node(
            "tiny",
            Some("root"),
            Some("button"),
            "",
            (150.0, 40.0, 12.0, 12.0),
            NodeStyles::default(),
        ),
    ];
    // Grey text on the screenshot's grey band with no CSS background anywhere: 2.3:1 sampled.
    nodes.push(node(
        "banded",
        None,
        None,
        "Sale",
        (20.0, 5.0, 40.0, 14.0),
        text_style("rgb(90, 90, 90)", 13.0),
    ));
    for (i, size) in [11.0, 12.0, 16.0, 18.0, 20.0, 22.0, 26.0]
        .iter()
        .enumerate()
    {
        nodes.push(node(
            &format!("t{i}"),
            None,
            None,
            "Aa",
            (100.0, 60.0 + i as f64, 10.0, 5.0),
            text_style("rgb(0, 0, 0)", *size),
        ));
    }
    DesignReviewRequest {
        url: "http://127.0.0.1/".into(),
        revision: 3,
        screenshot: Screenshot {
            sha256: sha,
            width: 200,
            height: 100,
            png_base64: base64::engine::general_purpose::STANDARD.encode(image),
        },
        page_context: PageContext {
            revision: 3,
            viewport: Viewport {
                width: 200.0,
                height: 100.0,
                dpr: 1.0,
            },
            nodes,
            truncated: false,
        },
        dimensions: Dimension::ALL.to_vec(),
        max_findings: 100,
        deadline_ms: 10_000,
        max_cost_microusd: 0,
    }
}

fn provider(addr: &str) -> HttpProvider {
    let config = ProviderConfig {
        name: "auditor".into(),
        kind: ProviderKind::DesignReview,
        endpoint: format!("http://{addr}/review"),
        model: "m1".into(),
        authorization_env: None,
        timeout_ms: 20_000,
        max_cost_microusd: 0,
        max_input_units: None,
        max_output_units: None,
    };
    HttpProvider::new(&config, |_| None).unwrap()
}

fn measurement(f: &a3s_test_provider::design::DesignFinding, name: &str) -> f64 {
    f.measurements
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("{name} in {f:?}"))
        .value
}

#[tokio::test]
async fn the_auditor_measures_what_the_page_shows() {
    let auditor = start();
    let image = png();
    let report = provider(&auditor.addr)
        .call::<DesignReview>(&request(&image))
        .await
        .expect("a report");
    let on = |id: &str, d: Dimension| {
        report
            .findings
            .iter()
            .find(|f| f.dimension == d && f.target == AdviceTarget::Node { node_id: id.into() })
    };
    let pale = on("pale", Dimension::Colour).expect("contrast advice on the pale text");
    assert!(
        (measurement(pale, "contrast_ratio") - 1.88).abs() < 0.05,
        "{pale:?}"
    );
    assert_eq!(pale.priority, Priority::High);
    let banded =
        on("banded", Dimension::Colour).expect("contrast advice from the screenshot's pixels");
    assert!(banded.rationale.contains("from screenshot"), "{banded:?}");
    assert!(
        on("next", Dimension::Colour).is_none(),
        "dark text on white passes"
    );
    let gap = report
        .findings
        .iter()
        .find(|f| f.dimension == Dimension::Spacing)
        .expect("spacing advice");
    assert!((measurement(gap, "gap_px") - 18.76).abs() < 0.01, "{gap:?}");
    assert!(matches!(gap.target, AdviceTarget::Region { .. }));
    let tiny = on("tiny", Dimension::InteractionClarity).expect("target-size advice");
    assert_eq!(measurement(tiny, "width_px"), 12.0);
    let edge = on("next", Dimension::Composition).expect("alignment advice");
    assert!(
        (measurement(edge, "offset_px") - 2.0).abs() < 0.01,
        "{edge:?}"
    );
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.dimension == Dimension::Consistency),
        "too many sizes"
    );
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.dimension == Dimension::Typography),
        "11 and 12 px are too close"
    );
    assert!(
        report
            .findings
            .windows(2)
            .all(|w| w[0].priority >= w[1].priority),
        "most important first"
    );
}

#[tokio::test]
async fn a_narrowed_request_and_a_wrong_digest() {
    let auditor = start();
    let image = png();
    let mut only = request(&image);
    only.dimensions = vec![Dimension::Spacing];
    let report = provider(&auditor.addr)
        .call::<DesignReview>(&only)
        .await
        .unwrap();
    assert!(!report.findings.is_empty());
    assert!(report
        .findings
        .iter()
        .all(|f| f.dimension == Dimension::Spacing));

    let mut tampered = request(&image);
    tampered.screenshot.sha256 = "0".repeat(64);
    tampered.screenshot.png_base64 = request(&image).screenshot.png_base64;
    let e = provider(&auditor.addr)
        .call::<DesignReview>(&tampered)
        .await
        .unwrap_err();
    assert_eq!(e.code, ProviderCode::Refused, "{e}");
    assert!(e.message.contains("SHA-256"), "{e}");
}

/// Like every reference provider (`a3s_test_provider::listen`), the auditor speaks plain HTTP and
/// so refuses to listen anywhere but loopback — before it binds anything.
#[test]
fn a_non_loopback_address_is_refused_before_listening() {
    let out = Command::new(env!("CARGO_BIN_EXE_a3s-test-design-auditor"))
        .args(["--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a loopback address"));
}
