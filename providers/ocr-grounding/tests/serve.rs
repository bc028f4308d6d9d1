//! The provider binary end to end: started on loopback as an owned child, asked through A3S
//! Test's own transport (`HttpProvider`, every answer checked), grounding on a real Chromium
//! screenshot (`fixtures/shop.png`, 1280×720: a heading, "Checkout" drawn on a canvas in a
//! button, a line where "Remove" appears twice).

use a3s_test_driver::child::{self, Group, OnOwnerDeath};
use a3s_test_lang::ir::{ProviderConfig, ProviderKind};
use a3s_test_provider::grounding::{GroundingRequest, GroundingTrigger, Screenshot};
use a3s_test_provider::{HttpProvider, ProviderCode, VisualGrounding};
use base64::Engine as _;
use sha2::Digest;
use std::io::BufRead;
use std::process::{Command, Stdio};
use std::time::Duration;

const SHOP: &[u8] = include_bytes!("fixtures/shop.png");

/// The provider process, its group killed when the test ends however it ends.
struct Running {
    pgid: u32,
    address: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        a3s_test_driver::process::kill_group(self.pgid);
    }
}

fn start(extra: &[&str]) -> Running {
    let mut command = Command::new(env!("CARGO_BIN_EXE_a3s-test-ocr-grounding"));
    command
        .args(["--listen", "127.0.0.1:0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut spawned = child::spawn(command, Group::NewGroup, OnOwnerDeath::Kill).unwrap();
    let pgid = spawned.id();
    let stdout = spawned.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
        let _ = spawned.wait();
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| {
            a3s_test_driver::process::kill_group(pgid);
            panic!("the provider printed no address within 20 s")
        });
    // Owned from here: a panic below still kills the group.
    let mut running = Running {
        pgid,
        address: String::new(),
    };
    running.address = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    running
}

fn provider(running: &Running, name: &str, model: &str) -> HttpProvider {
    HttpProvider::new(
        &ProviderConfig {
            name: name.into(),
            kind: ProviderKind::VisualGrounding,
            endpoint: format!("http://{}/ground", running.address),
            model: model.into(),
            authorization_env: None,
            timeout_ms: 20_000,
            max_cost_microusd: 0,
            max_input_units: None,
            max_output_units: None,
        },
        |_| None,
    )
    .unwrap()
}

fn request(query: &str, png: &[u8]) -> GroundingRequest {
    let digest: String = sha2::Sha256::digest(png)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    GroundingRequest {
        query: query.into(),
        observation_id: "7".into(),
        screenshot: Screenshot {
            sha256: digest,
            width: 1280,
            height: 720,
            png_base64: base64::engine::general_purpose::STANDARD.encode(png),
        },
        trigger: GroundingTrigger::Explicit,
        deadline_ms: 20_000,
        max_cost_microusd: 0,
    }
}

#[tokio::test]
async fn a_word_on_a_canvas_is_found_once_and_a_repeated_word_twice() {
    let running = start(&[]);
    let ocr = provider(&running, "ocr", "tesseract");
    let checkout = ocr.ground(&request("checkout", SHOP)).await.unwrap();
    assert_eq!(checkout.boxes.len(), 1, "{checkout:?}");
    let b = &checkout.boxes[0];
    assert_eq!(b.text.as_deref(), Some("Checkout"));
    // The canvas sits in the button at the top left; the word is inside it.
    assert!(b.x < 60.0 && b.y > 30.0 && b.y < 80.0, "{b:?}");
    assert!(b.confidence > 0.5 && b.confidence <= 1.0, "{b:?}");
    assert_eq!(checkout.observation_id, "7");
    let remove = ocr.ground(&request("REMOVE", SHOP)).await.unwrap();
    assert_eq!(remove.boxes.len(), 2, "{remove:?}");
    let phrase = ocr
        .ground(&request("remove this item", SHOP))
        .await
        .unwrap();
    assert_eq!(phrase.boxes.len(), 1, "{phrase:?}");
    assert!(phrase.boxes[0].width > remove.boxes[0].width);
    let absent = ocr.ground(&request("Basket", SHOP)).await.unwrap();
    assert!(absent.boxes.is_empty());
}

#[tokio::test]
async fn an_image_that_is_not_the_one_the_request_names_is_refused() {
    let running = start(&["--name", "vision", "--model", "t5"]);
    let ocr = provider(&running, "vision", "t5");
    let mut wrong = request("Checkout", SHOP);
    wrong.screenshot.sha256 = "0".repeat(64);
    let refused = ocr.ground(&wrong).await.unwrap_err();
    assert_eq!(refused.code, ProviderCode::Refused);
    assert!(refused.message.contains("ocr.image_digest"), "{refused}");
    let mut size = request("Checkout", SHOP);
    size.screenshot.width = 640;
    let refused = ocr.ground(&size).await.unwrap_err();
    assert!(refused.message.contains("ocr.image_size"), "{refused}");
    // Another identity than the configured one is A3S Test's refusal, not the provider's.
    let impostor = provider(&running, "ocr", "t5");
    let refused = impostor
        .ground(&request("Checkout", SHOP))
        .await
        .unwrap_err();
    assert_eq!(refused.code, ProviderCode::Identity);
}

#[test]
fn a_non_loopback_address_is_refused_before_listening() {
    let out = Command::new(env!("CARGO_BIN_EXE_a3s-test-ocr-grounding"))
        .args(["--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a loopback address"));
}
