//! A finding the Review Overlay posts to the real `a3s-test repair-endpoint` while an agent
//! session runs reaches the ledger without a browser of the tool's; the next `repair-drain`
//! records its *before* baseline from the live page, exactly once, so it verifies like a
//! finding drained from the page queue and not like one imported without a page.

use crate::endpoint::app_with_endpoint;
use crate::page_server::ENDPOINT_PATH;
use crate::support::*;
use serde_json::{json, Value};
use std::path::Path;

const SESSION: &str = "eb";
const FINDING: &str = "finding-total";

fn page() -> String {
    format!(
        r#"<!doctype html><html><head><title>Basket</title></head><body>
<p data-testid="total">Total: 12</p>
<p id="state">Sending</p>
<script type="module">
import {{ installTestKit }} from "/kit/index.js";
const bridge = installTestKit({{ enabled: true, page: {{ id: "basket" }}, repairEndpoint: "{ENDPOINT_PATH}" }});
const total = bridge.snapshot().nodes.find((n) => n.testId === "total").id;
const sent = await bridge.submitRepair([
  {{ id: "{FINDING}", target: {{ kind: "node", nodeIds: [total] }}, instruction: "Show the currency",
    successCriteria: [{{ kind: "target_text", equals: "Total: 12 EUR" }}], intent: "fix", severity: "important" }},
]);
document.getElementById("state").textContent = "Sent: " + sent.delivery;
</script></body></html>"#
    )
}

fn events(root: &Path) -> Vec<Value> {
    std::fs::read_to_string(ledger_path(root, SESSION))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn baselines(root: &Path) -> usize {
    events(root)
        .iter()
        .filter(|e| e.pointer("/action/baseline").is_some())
        .count()
}

fn drain(root: &Path) -> Value {
    ok_json(
        root,
        &["agent", "repair-drain", "--session", SESSION, "--json"],
    )
}

#[test]
fn an_endpoint_sent_finding_gets_its_baseline_from_the_next_drain_once() {
    let (app, dir, _ep) = app_with_endpoint(&page(), SESSION);
    let root = dir.path();
    let _abort = start_session(root, &app.origin, SESSION);
    ok_json(
        root,
        &[
            "agent",
            "exec",
            r#"wait "state" { text = "Sent: endpoint" }"#,
            "--session",
            SESSION,
            "--json",
        ],
    );
    // The endpoint appended the finding; it has no baseline yet (the endpoint has no browser).
    assert!(events(root).iter().any(|e| e["finding_id"] == FINDING));
    assert_eq!(baselines(root), 0);

    // The page queue is empty (the POST succeeded), but the drain records the baseline.
    let first = drain(root);
    assert_eq!(first["accepted"], json!([]), "{first}");
    assert_eq!(
        first["baselines"],
        json!([{ "finding_id": FINDING, "recorded": true }]),
        "{first}"
    );
    assert_eq!(baselines(root), 1);
    let inspect = ok_json(
        root,
        &[
            "agent",
            "repair-inspect",
            FINDING,
            "--session",
            SESSION,
            "--json",
        ],
    );
    assert_eq!(inspect["status"], "queued", "{inspect}");
    assert!(
        !inspect["baseline"].is_null(),
        "inspect shows the baseline: {inspect}"
    );

    // Once recorded, a later drain leaves it alone.
    let second = drain(root);
    assert_eq!(second["baselines"], json!([]), "{second}");
    assert_eq!(baselines(root), 1);
}
