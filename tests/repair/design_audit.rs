//! Design review end to end, with real processes only: the reference design auditor
//! (`providers/design-auditor`, spawned in its own process group, on loopback) reviews the example
//! checkout's markup under the example's own stylesheet (`examples/react-vite/src/styles.css`) in
//! the session's Chromium, with the real Test Kit and Review Overlay mounted. `agent audit` gets
//! contrast advice (the disabled pay button's white on #9aa6bd) and spacing advice (the default
//! heading margins, off the 4 px grid); the overlay lists them under "Advice" with no ledger
//! event; the reviewer turns one into a sent finding by pointer and keys; a re-render clears the
//! advice; and a provider answering with a verdict is refused (`test.provider.authority`).

use crate::common::{loopback, read_request, respond, serve_each, spawn_grouped};
use crate::page_server::AppServer;
use crate::reviewer::{overlay, Reviewer};
use crate::support::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const SESSION: &str = "design";

/// The example checkout as React renders it at first (empty forms, the pay button disabled),
/// under the example's stylesheet (`STYLES` is replaced by it), with the Test Kit and overlay.
const PAGE: &str = r#"<!doctype html><html lang="en"><head><title>Checkout</title><style>STYLES</style></head><body>
<main class="page"><h1>Checkout</h1>
<div class="checkout">
<section class="card" aria-labelledby="cart-heading"><h2 id="cart-heading">Your cart</h2>
<ul class="lines"><li><span>Coffee beans × 2</span><span>$24.00</span></li><li><span>Grinder × 1</span><span>$18.00</span></li></ul>
<dl class="totals"><dt>Subtotal</dt><dd>$42.00</dd><dt>Shipping</dt><dd id="shipping">Free</dd><dt>Total</dt><dd data-total>$42.00</dd></dl>
</section>
<form class="pay-form" novalidate>
<fieldset class="card"><legend>Shipping address</legend>
<div class="field"><label for="name">Full name</label><input id="name" autocomplete="name"></div>
<div class="field"><label for="street">Street</label><input id="street" autocomplete="street-address"></div>
</fieldset>
<button type="submit" class="pay" disabled>Pay $42.00</button>
</form></div>
<p><button type="button" id="express">Express shipping</button></p>
</main>
<script type="importmap">{ "imports": { "@a3s-lab/testkit": "/kit/index.js" } }</script>
<script type="module">
import { installTestKit } from "/kit/index.js";
import { mountReviewOverlay } from "/kit/overlay.js";
installTestKit({ enabled: true, page: { id: "checkout" }, repairStorage: "session" });
mountReviewOverlay({ enabled: true, locale: "en" });
document.getElementById("express").addEventListener("click", () => {
  document.getElementById("shipping").textContent = "$9.00";
});
</script></body></html>"#;

/// The auditor, in its own process group, killed with the group when the test ends.
struct Auditor {
    child: Child,
    addr: String,
}

impl Drop for Auditor {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the process group this test created for the auditor.
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

/// Start the auditor (a workspace binary this test package does not depend on).
fn start_auditor() -> Auditor {
    let mut command = Command::new(crate::common::workspace_binary("a3s-test-design-auditor"));
    command
        .args([
            "--listen",
            "127.0.0.1:0",
            "--name",
            "auditor",
            "--model",
            "a3s-design-auditor-1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let mut child = spawn_grouped(&mut command);
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the auditor listens within 30 s");
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .expect("listening on ADDR")
        .to_string();
    Auditor { child, addr }
}

/// A provider that answers every review with a verdict beside its advice.
fn start_liar() -> String {
    let (listener, origin) = loopback();
    serve_each(listener, |stream| {
        let Some(request) = read_request(&stream) else {
            return;
        };
        let asked: Value = serde_json::from_slice(&request.body).unwrap_or_default();
        let body = json!({
            "status": "success",
            "protocol": "a3s.test.design-audit-report/1",
            "response": {
                "provider": "liar", "model": "m1",
                "revision": asked["request"]["revision"],
                "screenshot_sha256": asked["request"]["screenshot"]["sha256"],
                "findings": [], "verdict": "failed",
                "usage": { "input_units": 1, "output_units": 0 }, "cost_microusd": 0
            }
        });
        respond(
            &stream,
            "200 OK",
            "application/json",
            "",
            body.to_string().as_bytes(),
        );
    });
    origin
}

fn project(root: &Path, auditor: &str, liar: &str) {
    let text = format!(
        "project \"shop\" {{\n    provider \"auditor\" {{\n        kind = \"design_review\"\n        endpoint = \"http://{auditor}/review\"\n        model = \"a3s-design-auditor-1\"\n        timeout_ms = 30000\n        max_cost_microusd = 0\n    }}\n    provider \"liar\" {{\n        kind = \"design_review\"\n        endpoint = \"{liar}/review\"\n        model = \"m1\"\n        max_cost_microusd = 0\n    }}\n}}\n"
    );
    std::fs::create_dir_all(root.join(".a3s-test")).unwrap();
    std::fs::write(root.join(".a3s-test/project.acl"), text).unwrap();
}

fn audit(root: &Path, provider: &str) -> (Option<i32>, Value) {
    let out = run(
        root,
        &[
            "agent",
            "audit",
            "--session",
            SESSION,
            "--provider",
            provider,
            "--json",
        ],
        None,
    );
    (out.status.code(), json(&out))
}

fn ledger_lines(root: &Path) -> usize {
    let path = root.join(format!(".a3s-test/agent-sessions/{SESSION}/repairs.jsonl"));
    std::fs::read_to_string(path)
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

#[test]
fn design_advice_reaches_the_overlay_and_becomes_work_only_through_the_reviewer() {
    let auditor = start_auditor();
    let liar = start_liar();
    let styles = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/react-vite/src/styles.css"),
    )
    .unwrap();
    let app = AppServer::start(&PAGE.replace("STYLES", &styles));
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    project(root, &auditor.addr, &liar);
    let _abort = start_session(root, &app.origin, SESSION);
    let reviewer = Reviewer::at(
        &root.join(format!(".a3s-test/agent-sessions/{SESSION}/session.json")),
        &app.origin,
    );
    reviewer.overlay_until(|t| t.contains("Review"));

    // The review: contrast advice on the pay button, spacing advice off the 4 px grid.
    let (code, v) = audit(root, "auditor");
    assert_eq!(code, Some(0), "{v}");
    let findings = v["report"]["findings"].as_array().unwrap().clone();
    let contrast = findings
        .iter()
        .find(|f| f["dimension"] == "colour" && f["title"].as_str().unwrap().contains("Pay $42.00"))
        .unwrap_or_else(|| panic!("no contrast advice on the pay button: {v}"));
    let ratio = contrast["measurements"][0]["value"].as_f64().unwrap();
    assert!(
        (2.2..2.6).contains(&ratio),
        "white on #9aa6bd is about 2.4:1, got {ratio}"
    );
    assert!(
        findings.iter().any(|f| f["dimension"] == "spacing"),
        "no spacing advice: {v}"
    );
    for f in &findings {
        for key in ["verdict", "outcome", "expected", "action"] {
            assert!(f.get(key).is_none(), "{f}");
        }
    }
    assert_eq!(v["overlay"]["delivery"], "shown", "{v}");
    let id = contrast["id"].as_str().unwrap().to_string();

    // The overlay lists the advice apart; reading it writes nothing to the ledger.
    let shown = reviewer.overlay_until(|t| t.contains("Advice ("));
    assert!(shown.contains("Text contrast"), "{shown}");
    assert!(!shown.to_lowercase().contains("blocking"), "{shown}");
    reviewer.click(&format!(
        "h && h.querySelector('[data-advice=\"{id}\"] summary')"
    ));
    reviewer.overlay_until(|t| t.contains("WCAG 2 success criterion 1.4.3"));
    assert_eq!(ledger_lines(root), 0, "reading advice authorizes nothing");
    let drained = ok_json(
        root,
        &["agent", "repair-drain", "--session", SESSION, "--json"],
    );
    assert_eq!(ledger_lines(root), 0, "nothing to drain: {drained}");

    // The reviewer turns it into a finding: select, write the instruction, send.
    reviewer.click(&overlay(&format!("advice-draft-{id}")));
    reviewer.type_into(
        &overlay("instruction"),
        "Make the pay button readable while it is disabled",
    );
    reviewer.click(&overlay("send"));
    reviewer.overlay_until(|t| t.contains("Sent findings (1)"));
    let drained = ok_json(
        root,
        &["agent", "repair-drain", "--session", SESSION, "--json"],
    );
    assert!(ledger_lines(root) > 0, "{drained}");
    let inbox = ok_json(
        root,
        &["agent", "repair-inbox", "--session", SESSION, "--json"],
    );
    let text = inbox.to_string();
    assert!(text.contains("Make the pay button readable"), "{text}");
    // The draft starts at the advice's weight: high at most important, never blocking.
    let expected = if contrast["priority"] == "high" {
        "important"
    } else {
        "suggestion"
    };
    assert_eq!(inbox["items"][0]["severity"], expected, "{text}");
    assert_eq!(inbox["items"][0]["sent_by"], "human", "{text}");

    // A re-render (the page's own button) clears the advice of the older revision.
    let (code, v) = {
        let out = run(
            root,
            &[
                "agent",
                "exec",
                "click { target = role(\"button\", \"Express shipping\") }",
                "--session",
                SESSION,
                "--json",
            ],
            None,
        );
        (out.status.code(), json(&out))
    };
    assert_eq!(code, Some(0), "{v}");
    let after = reviewer.overlay_until(|t| !t.contains("Advice ("));
    assert!(after.contains("Sent findings (1)"), "{after}");

    // A provider that slips a verdict in is refused with its code; the page gets nothing.
    let (code, v) = audit(root, "liar");
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["error"]["code"], "test.provider.authority", "{v}");
    drop(auditor);
}
