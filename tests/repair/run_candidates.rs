//! Quality candidates from a run, end to end with real processes only: `a3s-test run` fails a
//! scenario on a loopback page (real Chromium); the page, with the real Test Kit and Review
//! Overlay, reads the latest run's candidates through the dev server's proxy from a real
//! `a3s-test repair-endpoint`, lists the failure under "Candidates from the latest run" and marks
//! the pay button the failing step named. Reading writes nothing to the ledger; the reviewer's
//! pointer and keys turn it into a sent finding (`sent_by: human`); the run's result and verdict
//! are untouched.

use crate::endpoint::Endpoint;
use crate::page_server::AppServer;
use crate::reviewer::{overlay, Reviewer};
use crate::support::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const SESSION: &str = "quality";

const PAGE: &str = r#"<!doctype html><html lang="en"><head><title>Checkout</title></head><body>
<main><h1>Checkout</h1>
<p><button type="button" id="cancel">Cancel order</button></p>
<p style="margin-top:120px"><button type="button" id="pay">Pay $42.00</button></p>
</main>
<script type="importmap">{ "imports": { "@a3s-lab/testkit": "/kit/index.js" } }</script>
<script type="module">
import { installTestKit } from "/kit/index.js";
import { mountReviewOverlay } from "/kit/overlay.js";
installTestKit({ enabled: true, page: { id: "checkout" }, repairStorage: "session", repairEndpoint: "/__a3s-test/repairs" });
mountReviewOverlay({ enabled: true, locale: "en", candidates: "/__a3s-test/repairs/candidates" });
</script></body></html>"#;

fn suite(origin: &str) -> String {
    format!(
        "suite \"shop\" {{\n    base_url = \"{origin}\"\n\n    scenario \"pay\" {{\n        name = \"Paying confirms the order\"\n        surface = \"web\"\n        navigate \"open\" {{ url = \"/\" }}\n        expect \"paid\" {{\n            rendered_text = \"Paid\"\n            target = role(\"button\", \"Pay\")\n        }}\n    }}\n\n    scenario \"title\" {{\n        surface = \"web\"\n        navigate \"open\" {{ url = \"/\" }}\n        expect \"heading\" {{ text = \"Checkout\" }}\n    }}\n}}\n"
    )
}

fn ledger_lines(root: &Path) -> usize {
    let path = root.join(format!(".a3s-test/agent-sessions/{SESSION}/repairs.jsonl"));
    std::fs::read_to_string(path)
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 4.0
}

#[test]
fn a_failed_run_is_a_candidate_on_its_page_and_becomes_work_only_through_the_reviewer() {
    let app = AppServer::start(PAGE);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("shop.acl"), suite(&app.origin)).unwrap();
    std::fs::create_dir_all(root.join(".a3s-test")).unwrap();
    std::fs::write(
        root.join(".a3s-test/project.acl"),
        "project \"shop\" {\n    expect_timeout_ms = 500\n}\n",
    )
    .unwrap();

    // The run: one scenario fails on the pay button, one passes.
    let out = crate::common::output_within(
        Command::new(BIN)
            .args(["run", "shop.acl", "--json"])
            .current_dir(root)
            .env("A3S_TEST_ROOT", root)
            .env_remove("CI"),
        None,
        Duration::from_secs(120),
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result = json(&out);
    let pay = &result["scenarios"][0];
    assert_eq!(pay["status"], "failed", "{result}");
    assert_eq!(pay["failure"]["target"]["by"], "role", "{pay}");
    assert_eq!(
        pay["failure"]["page_url"],
        format!("{}/", app.origin),
        "{pay}"
    );
    let run_id = result["run_id"].as_str().unwrap();
    let result_file = root.join(format!(".a3s-test/runs/{run_id}/result.json"));
    let written: Value = serde_json::from_slice(&std::fs::read(&result_file).unwrap()).unwrap();
    assert_eq!(
        written, result,
        "the run's result file is its --json result"
    );
    let before = (
        std::fs::read(&result_file).unwrap(),
        std::fs::read(root.join(".a3s-test/last-run.json")).unwrap(),
    );

    // The endpoint behind the app's proxy, and the reviewer at the page in a session's browser.
    let endpoint = Endpoint::start_for(root, SESSION, &app.origin, 10_000);
    app.forward_to(endpoint.addr());
    let _abort = start_session(root, &app.origin, SESSION);
    let reviewer = Reviewer::at(
        &root.join(format!(".a3s-test/agent-sessions/{SESSION}/session.json")),
        &app.origin,
    );
    let shown = reviewer.overlay_until(|t| t.contains("Candidates from the latest run (1)"));
    assert!(shown.contains("Paying confirms the order"), "{shown}");
    assert!(shown.contains(run_id), "labelled as the run's: {shown}");
    assert!(
        shown.contains("test.assert.rendered_text_mismatch"),
        "{shown}"
    );
    assert!(!shown.contains("not on this page"), "{shown}");

    // The marker sits on the pay button, not on the other one.
    let marker = reviewer.rect("h && h.querySelector('[data-marker=\"candidate-shop/pay\"]')");
    let button = reviewer.rect("d.getElementById('pay')");
    assert!(
        marker.is_object() && button.is_object(),
        "{marker} {button}"
    );
    for k in ["x", "y", "width", "height"] {
        assert!(
            close(marker[k].as_f64().unwrap(), button[k].as_f64().unwrap()),
            "{k}: marker {marker} vs pay button {button}"
        );
    }

    // Reading it writes nothing.
    reviewer.click("h && h.querySelector('[data-candidate=\"shop/pay\"] summary')");
    reviewer.overlay_until(|t| t.contains("expected") && t.contains("Paid"));
    assert_eq!(
        ledger_lines(root),
        0,
        "reading a candidate authorizes nothing"
    );

    // The reviewer turns it into a finding: select, write the instruction, send.
    reviewer.click(&overlay("candidate-draft-shop/pay"));
    reviewer.type_into(
        &overlay("instruction"),
        "The pay button should confirm the payment",
    );
    reviewer.click(&overlay("send"));
    reviewer.overlay_until(|t| t.contains("Sent findings (1)"));
    assert!(
        crate::common::wait_until(Duration::from_secs(30), || ledger_lines(root) > 0),
        "the sent finding never reached the ledger"
    );
    let inbox = ok_json(
        root,
        &["agent", "repair-inbox", "--session", SESSION, "--json"],
    );
    let text = inbox.to_string();
    assert!(text.contains("The pay button should confirm"), "{text}");
    assert_eq!(inbox["items"][0]["sent_by"], "human", "{text}");

    // The run's verdict and result are as the run left them.
    let after = (
        std::fs::read(&result_file).unwrap(),
        std::fs::read(root.join(".a3s-test/last-run.json")).unwrap(),
    );
    assert!(before == after, "the run's result or record changed");
}

#[test]
fn the_candidates_read_is_refused_for_another_origin_and_a_bad_page() {
    let dir = tempfile::tempdir().unwrap();
    let endpoint = Endpoint::start_for(dir.path(), SESSION, "http://localhost:5173", 10_000);
    let get = |target: &str, headers: &str| -> (u16, Value) {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(endpoint.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(s, "GET {target} HTTP/1.1\r\nhost: x\r\n{headers}\r\n").unwrap();
        let mut reply = String::new();
        let _ = s.read_to_string(&mut reply);
        let status = reply.split(' ').nth(1).unwrap().parse().unwrap();
        let body = reply.split("\r\n\r\n").nth(1).unwrap();
        (status, serde_json::from_str(body).unwrap())
    };
    // No run yet: an empty feed, labelled with no run.
    let (status, feed) = get(
        "/r/candidates?page=http%3A%2F%2Flocalhost%3A5173%2Fshop",
        "",
    );
    assert_eq!(status, 200, "{feed}");
    assert_eq!(feed["protocol"], "a3s.test.run-candidates/1");
    assert_eq!(feed["candidates"], serde_json::json!([]));
    assert!(feed.get("run_id").is_none(), "{feed}");
    for (target, headers, code) in [
        (
            "/r/candidates?page=http%3A%2F%2Fevil.test%2F",
            "",
            "test.session.repair_endpoint_origin",
        ),
        (
            "/r/candidates?page=http%3A%2F%2Flocalhost%3A5173%2F",
            "origin: http://evil.test\r\n",
            "test.session.repair_endpoint_origin",
        ),
        (
            "/r/candidates?page=http%3A%2F%2Flocalhost%3A5173%2F",
            "sec-fetch-site: cross-site\r\n",
            "test.session.repair_endpoint_origin",
        ),
        (
            "/r/candidates",
            "",
            "test.session.repair_endpoint_bad_request",
        ),
        (
            "/r/candidates?page=file%3A%2F%2F%2Fetc%2Fpasswd",
            "",
            "test.session.repair_endpoint_bad_request",
        ),
        ("/r/other", "", "test.session.repair_endpoint_method"),
    ] {
        let (status, body) = get(target, headers);
        assert_eq!(body["error"]["code"], code, "{target}: {body}");
        assert!(status >= 400, "{target}");
    }
    // A run result that is not one is refused with its code, not served half-read.
    let runs = dir.path().join(".a3s-test/runs/20260101T000000Z-abcdef");
    std::fs::create_dir_all(&runs).unwrap();
    std::fs::write(runs.join("result.json"), "{").unwrap();
    std::fs::write(
        dir.path().join(".a3s-test/last-run.json"),
        r#"{"format_version":1,"run_id":"20260101T000000Z-abcdef","exit_code":1,"not_passed":[]}"#,
    )
    .unwrap();
    let (status, body) = get("/r/candidates?page=http%3A%2F%2Flocalhost%3A5173%2F", "");
    assert_eq!(status, 500, "{body}");
    assert_eq!(
        body["error"]["code"],
        "test.session.repair_endpoint_candidates_unreadable"
    );
}
