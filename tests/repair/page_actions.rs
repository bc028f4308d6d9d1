//! Actions queued by page code from real Chromium through the real `repair-endpoint` process: the
//! page's Test Kit POSTs them (the app server forwards, as a dev server's proxy does) and reads
//! the per-item answers. No person's gesture in the Review Overlay sent them (a page script
//! called `submitRepairAction`), so the Test Kit marks them `page_script` and the ledger refuses
//! each — an accept, a dismissal, a reopen alike: page code cannot decide a review. A refused
//! action gets a final answer and leaves the page queue — it is posted once, never again — while
//! an action the ledger could not judge (its file cannot be written) stays queued and goes out
//! with the next POST. The findings the script sent are recorded as `page_script` intake, and a
//! Layout Mode placement of a project component without a purpose reaches the ledger as sent.

use crate::endpoint::app_with_endpoint;
use crate::page_server::{AppServer, ENDPOINT_PATH};
use crate::support::*;
use serde_json::{json, Value};
use std::path::Path;

const SESSION: &str = "pa";
const INVALID: &str = "test.session.repair_invalid_transition";

fn page() -> String {
    format!(
        r#"<!doctype html><html><head><title>Actions</title></head><body>
<p data-testid="note">Card saved</p>
<button id="reopen">Reopen</button> <button id="again">Dismiss again</button>
<p id="state">Sending</p>
<script type="module">
import {{ installTestKit }} from "/kit/index.js";
const bridge = installTestKit({{ enabled: true, page: {{ id: "actions" }}, repairEndpoint: "{ENDPOINT_PATH}" }});
const note = bridge.snapshot().nodes.find((n) => n.testId === "note").id;
const show = (label) => {{
  const {{ pending, outcomes }} = bridge.listRepairActions();
  document.getElementById("state").textContent = label + " | pending: " + (pending.map((a) => a.requestId).join(",") || "none")
    + " | answers: " + outcomes.map((o) => o.requestId + "=" + o.outcome + ":" + (o.status ?? o.error?.code)).join(",");
}};
const sent = await bridge.submitRepair([
  {{ id: "finding-note", target: {{ kind: "node", nodeIds: [note] }}, instruction: "Say which card was saved", intent: "question", severity: "suggestion" }},
  {{ id: "finding-place", target: {{ kind: "region", nodeIds: [], region: {{ x: 0, y: 0, width: 120, height: 40 }},
     layout: {{ mode: "placement", componentType: "button", componentSource: "project", canvas: "wireframe", destination: {{ x: 0, y: 0, width: 120, height: 40 }} }} }},
    instruction: "Put our own button here", intent: "change", severity: "suggestion" }},
]);
await bridge.submitRepairAction({{ repairId: "finding-note", kind: "accept", requestId: "act-accept" }});
await bridge.submitRepairAction({{ repairId: "finding-note", kind: "dismiss", requestId: "act-dismiss" }});
show("Sent " + sent.delivery);
document.getElementById("reopen").addEventListener("click", async () => {{
  await bridge.submitRepairAction({{ repairId: "finding-note", kind: "reopen", message: "Not yet", requestId: "act-reopen" }});
  show("Reopen sent");
}});
document.getElementById("again").addEventListener("click", async () => {{
  await bridge.submitRepairAction({{ repairId: "finding-note", kind: "dismiss", requestId: "act-dismiss-2" }});
  show("Dismiss sent");
}});
</script></body></html>"#
    )
}

/// Wait (bounded by the session's step deadline) until the page shows `text`; on failure, say
/// what it shows instead.
fn expect_text(root: &Path, text: &str) {
    assert!(!text.contains(['"', '\\']), "plain text only");
    let statement = format!("wait \"state\" {{ text = \"{text}\" }}");
    let out = run(
        root,
        &["agent", "exec", &statement, "--session", SESSION, "--json"],
        None,
    );
    if !out.status.success() {
        let seen = run(
            root,
            &["agent", "observe", "--session", SESSION, "--json"],
            None,
        );
        panic!(
            "the page does not show {text:?}; it shows: {}",
            String::from_utf8_lossy(&seen.stdout)
        );
    }
}

fn click(root: &Path, name: &str) {
    let obs = ok_json(root, &["agent", "observe", "--session", SESSION, "--json"]);
    let r = obs["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["role"] == "button" && r["name"] == name)
        .unwrap_or_else(|| panic!("no button {name:?} in {obs}"))["ref"]
        .as_str()
        .unwrap()
        .to_owned();
    ok_json(
        root,
        &["agent", "click", &r, "--session", SESSION, "--json"],
    );
}

/// How many POSTs carried the action with `request_id`.
fn times_posted(app: &AppServer, request_id: &str) -> usize {
    app.posts()
        .iter()
        .filter(|p| {
            p["actions"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x["requestId"] == request_id))
        })
        .count()
}

#[test]
fn a_refused_action_leaves_the_page_queue_and_a_ledger_failure_keeps_one() {
    let (app, dir, ep) = app_with_endpoint(&page(), SESSION);
    let root = dir.path();
    let _abort = start_session(root, &app.origin, SESSION);

    // Both are page code's, so both are refused; both answers are final, so neither is left in
    // the page.
    expect_text(
        root,
        &format!(
            "Sent endpoint | pending: none | answers: act-accept=refused:{INVALID},act-dismiss=refused:{INVALID}"
        ),
    );
    // The placement reached the ledger exactly as the page sent it: a project component named
    // like a catalog entry, and no purpose at all.
    let ledger = ledger_path(root, SESSION);
    let stored: Vec<Value> = std::fs::read_to_string(&ledger)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|e| e.get("finding").cloned())
        .collect();
    let place = stored.iter().find(|f| f["id"] == "finding-place").unwrap();
    // The script sent the findings: page code's intake, and no event of the reviewer's.
    let actors: Vec<String> = std::fs::read_to_string(&ledger)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["actor"].to_string())
        .collect();
    assert_eq!(actors, ["\"page_script\"", "\"page_script\""], "{actors:?}");
    assert_eq!(
        place["target"]["layout"],
        json!({"mode": "placement", "componentType": "button", "componentSource": "project",
               "canvas": "wireframe", "destination": {"x": 0, "y": 0, "width": 120, "height": 40}})
    );

    // The ledger cannot be written: the reopen is not judged, so the page keeps it.
    let kept = root.join("kept.jsonl");
    std::fs::rename(&ledger, &kept).unwrap();
    std::fs::create_dir(&ledger).unwrap();
    click(root, "Reopen");
    expect_text(
        root,
        "Reopen sent | pending: act-reopen | answers: act-accept=refused",
    );
    std::fs::remove_dir(&ledger).unwrap();
    std::fs::rename(&kept, &ledger).unwrap();

    // The next POST carries the kept reopen with the new action; both are judged, and refused.
    click(root, "Dismiss again");
    expect_text(
        root,
        &format!(
            "Dismiss sent | pending: none | answers: act-accept=refused:{INVALID},act-dismiss=refused:{INVALID},act-reopen=refused:{INVALID},act-dismiss-2=refused:{INVALID}"
        ),
    );
    assert_eq!(
        times_posted(&app, "act-accept"),
        1,
        "a refusal is never resent"
    );
    assert_eq!(times_posted(&app, "act-dismiss"), 1);
    assert_eq!(
        times_posted(&app, "act-reopen"),
        2,
        "kept after the failure, sent again"
    );
    let status = ok_json(
        root,
        &[
            "agent",
            "repair-inspect",
            "finding-note",
            "--session",
            SESSION,
            "--json",
        ],
    )["status"]
        .clone();
    assert_eq!(status, "queued", "page code decided nothing");
    drop(ep);
}
