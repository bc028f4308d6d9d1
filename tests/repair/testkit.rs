//! The Test Kit and the ledger speak one format, end to end: a page with the real built Test Kit
//! (`testkit/dist`) in real Chromium sends a batch with declared relations, typed success
//! criteria and source hints, plus the reviewer's actions. Its endpoint POSTs fail (the stand-in
//! answers 503), so the page keeps its queue; `agent repair-drain` moves the batch into the
//! session's ledger through `peekRepairBatch`/`takeRepairBatch`. Every field the page sent is in
//! the ledger (the page's own bookkeeping excepted), the declared pair waits for a person, a
//! failed append keeps the page queue, and a second drain appends nothing. The page's script sent
//! all of it (no person's gesture in the Review Overlay), so the findings are `page_script`
//! intake and the drained actions are refused and leave the page. The same bodies then go through
//! the real `repair-endpoint` process: the batch is appended as `page_script` intake and the
//! page's own actions are refused; marked as sent by a person (`sentBy: "human"`, what the overlay
//! sends after a trusted click), they become human events, an invalid one is refused with its
//! code (a final answer, so 200) and a resend changes nothing.

use crate::endpoint::Endpoint;
use crate::mcp_pipe::McpClient;
use crate::page_server::{AppServer, ENDPOINT_PATH};
use crate::support::*;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

/// The page's bookkeeping of its own copy: checked at intake, never stored.
const BOOKKEEPING: [&str; 6] = [
    "protocol", "status", "sequence", "events", "delivery", "sentBy",
];

/// A review page: a boundary with a source hint, then one batch of three findings and three
/// actions sent through the bridge exactly as the Review Overlay sends them.
fn review_page() -> String {
    format!(
        r#"<!doctype html><html><head><title>Checkout review</title></head><body>
<section id="checkout"><h2>Checkout</h2>
<button data-testid="pay">Pay now</button>
<p data-testid="note">Card saved</p></section>
<p id="state">Sending</p>
<script type="module">
import {{ installTestKit }} from "/kit/index.js";
const bridge = installTestKit({{ enabled: true, page: {{ id: "checkout" }}, repairEndpoint: "{ENDPOINT_PATH}" }});
bridge.registerBoundary({{ id: "checkout-form", name: "Checkout", source: {{ file: "src/Checkout.tsx", line: 12, column: 3 }}, roots: () => [document.getElementById("checkout")] }});
const nodes = bridge.snapshot().nodes;
const pay = nodes.find((n) => n.testId === "pay").id;
const note = nodes.find((n) => n.testId === "note").id;
const sent = await bridge.submitRepair([
  {{ id: "finding-layout-compact", target: {{ kind: "node", nodeIds: [pay] }}, instruction: "Make the pay button compact",
    successCriteria: ["Feels lighter", {{ kind: "target_text", equals: "Pay" }}, {{ kind: "target_state", state: "enabled" }}],
    intent: "change", severity: "important", relations: [{{ kind: "conflicts_with", findingId: "finding-layout-expanded" }}] }},
  {{ id: "finding-layout-expanded", target: {{ kind: "region", nodeIds: [], region: {{ x: 0, y: 300, width: 200, height: 80 }}, regionScroll: {{ x: 0, y: 0 }} }},
    instruction: "Make the checkout area wider", successCriteria: [{{ kind: "page_text", contains: "Checkout" }}, {{ kind: "target_visible" }}],
    intent: "fix", severity: "blocking" }},
  {{ id: "finding-note", target: {{ kind: "text", nodeIds: [note], text: "Card saved" }}, instruction: "Say which card was saved",
    successCriteria: [{{ kind: "page_text_absent", contains: "Error" }}, {{ kind: "target_hidden" }}], intent: "question", severity: "suggestion" }},
]);
await bridge.submitRepairAction({{ repairId: "finding-layout-compact", kind: "reply", message: "Keep it compact", requestId: "act-reply" }});
await bridge.submitRepairAction({{ repairId: "finding-layout-expanded", kind: "dismiss", requestId: "act-dismiss" }});
await bridge.submitRepairAction({{ repairId: "finding-note", kind: "accept", requestId: "act-accept" }});
document.getElementById("state").textContent = "Sent: " + sent.delivery;
</script></body></html>"#
    )
}

/// The stored finding of every intake event, by id (and how many intakes each had).
fn stored_findings(root: &Path, session: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(ledger_path(root, session)).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|e| e.get("finding").cloned())
        .collect()
}

/// Every field the page sent is stored with the same value, nothing is invented, and only the
/// page's bookkeeping is left out.
fn assert_nothing_lost(sent: &[Value], stored: &[Value]) {
    assert_eq!(stored.len(), sent.len(), "one intake per finding");
    for page in sent {
        let id = &page["id"];
        let kept = stored
            .iter()
            .find(|s| s["id"] == *id)
            .unwrap_or_else(|| panic!("{id} is not in the ledger"));
        let page = page.as_object().unwrap();
        for (key, value) in page {
            if BOOKKEEPING.contains(&key.as_str()) {
                assert!(
                    kept.get(key).is_none(),
                    "{id}: bookkeeping {key} was stored"
                );
            } else {
                assert_eq!(&kept[key], value, "{id}: field {key} changed or was lost");
            }
        }
        for key in kept.as_object().unwrap().keys() {
            assert!(page.contains_key(key), "{id}: the ledger invented {key}");
        }
    }
}

fn status_of(root: &Path, session: &str, finding: &str) -> Value {
    ok_json(
        root,
        &[
            "agent",
            "repair-inspect",
            finding,
            "--session",
            session,
            "--json",
        ],
    )["status"]
        .clone()
}

/// The review page on its app server and a session on it (aborted when the test ends), once the
/// page has sent its batch and its three actions (one POST each, every one answered 503) and
/// shows that its endpoint failed. Returns the four POST bodies.
fn review_session<'a>(
    root: &'a Path,
    session: &'a str,
) -> (AppServer, AbortOnDrop<'a>, Vec<Value>) {
    let app = AppServer::start(&review_page());
    let guard = start_session(root, &app.origin, session);
    let posts = app.wait_for_posts(4, Duration::from_secs(30));
    ok_json(
        root,
        &[
            "agent",
            "expect-text",
            "Sent: endpoint_failed",
            "--session",
            session,
            "--json",
        ],
    );
    (app, guard, posts)
}

#[test]
fn a_batch_sent_in_chromium_reaches_the_ledger_and_the_endpoint_with_nothing_lost() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let (app, session, posts) = review_session(root, "xl");

    // One POST for the batch, one per action: every one failed, so the page kept them all and
    // each action's POST carried the ones kept before it.
    for (n, post) in posts[1..].iter().enumerate() {
        assert_eq!(post["actions"].as_array().unwrap().len(), n + 1, "{post}");
    }
    let batch = &posts[0];
    let sent = batch["repairs"].as_array().unwrap().clone();
    let ids: Vec<&str> = sent.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "finding-layout-compact",
            "finding-layout-expanded",
            "finding-note"
        ]
    );
    // What the Test Kit produced carries everything the ledger must keep.
    let compact = &sent[0];
    assert_eq!(
        compact["relations"],
        json!([{"kind": "conflicts_with", "findingId": "finding-layout-expanded"}])
    );
    assert_eq!(
        compact["successCriteria"][2],
        json!({"kind": "target_state", "state": "enabled"})
    );
    assert_eq!(compact["context"]["untrusted"], true);
    assert_eq!(
        compact["contextRevision"],
        compact["context"]["contextRevision"]
    );
    let hints = compact["context"]["sourceHints"].as_array().unwrap();
    assert!(
        hints
            .iter()
            .any(|h| h["span"]["file"] == "src/Checkout.tsx"),
        "{hints:?}"
    );
    assert!(sent.iter().all(|r| r["batchId"] == compact["batchId"]));
    // A page script called `submitRepair`: the Test Kit says so.
    assert!(
        sent.iter().all(|r| r["sentBy"] == "page_script"),
        "{sent:?}"
    );

    // A failed append keeps the page queue: the ledger file is a folder, refused before a byte
    // is appended (`repair_unsafe_path`, like a link would be).
    let ledger = ledger_path(root, "xl");
    std::fs::create_dir_all(&ledger).unwrap();
    let failed = run(
        root,
        &["agent", "repair-drain", "--session", "xl", "--json"],
        None,
    );
    assert_eq!(
        failed.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&failed.stdout)
    );
    assert_eq!(
        json(&failed)["error"]["code"],
        "test.session.repair_unsafe_path"
    );
    std::fs::remove_dir(&ledger).unwrap();

    // A drain that stopped after its append (and before its take) is finished, not repeated:
    // one finding is already in the ledger when the drain starts.
    let first = json!({"protocol": "a3s.test.repair/1", "repairs": [compact]}).to_string();
    import(root, "xl", &first);

    let drained = ok_json(
        root,
        &["agent", "repair-drain", "--session", "xl", "--json"],
    );
    assert_eq!(
        drained["accepted"],
        json!(["finding-layout-expanded", "finding-note"]),
        "{drained}"
    );
    assert_eq!(
        drained["duplicates"],
        json!(["finding-layout-compact"]),
        "{drained}"
    );
    assert_eq!(drained["taken"], json!(ids), "{drained}");
    assert_eq!(drained["refused"], json!([]), "{drained}");
    // The page's three actions were drained too: each refused (page code's), each a final
    // answer, so each left the page.
    let drained_actions = drained["actions"].as_array().unwrap();
    assert_eq!(drained_actions.len(), 3, "{drained}");
    for a in drained_actions {
        assert_eq!(a["outcome"], "refused", "{a}");
        assert_eq!(a["error"]["code"], "test.session.repair_invalid_transition");
    }
    let intakes: Vec<Value> = std::fs::read_to_string(&ledger)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e.get("finding").is_some())
        .collect();
    // All three are the page's: the one imported by the CLI keeps the mark the page gave it.
    let actors: Vec<&str> = intakes
        .iter()
        .map(|e| e["actor"].as_str().unwrap())
        .collect();
    assert_eq!(actors, ["page_script", "page_script", "page_script"]);
    let held = crate::common::each_str(&drained["held"], "finding_id");
    // The declared pair, and the note: its source hint names the file the compact finding's
    // does (the checkout boundary's `src/Checkout.tsx`), and both are open.
    assert_eq!(
        held,
        [
            "finding-layout-expanded",
            "finding-layout-compact",
            "finding-note"
        ]
    );
    assert_eq!(
        drained["held"][2]["reason"],
        json!({"kind": "shared_source", "other": "finding-layout-compact", "file": "src/Checkout.tsx"}),
        "{drained}"
    );
    assert_nothing_lost(&sent, &stored_findings(root, "xl"));
    assert_eq!(
        status_of(root, "xl", "finding-layout-compact"),
        "needs_input"
    );
    assert_eq!(
        status_of(root, "xl", "finding-layout-expanded"),
        "needs_input"
    );
    assert_eq!(status_of(root, "xl", "finding-note"), "needs_input");
    let record = ok_json(
        root,
        &[
            "agent",
            "repair-inspect",
            "finding-layout-compact",
            "--session",
            "xl",
            "--json",
        ],
    );
    assert_eq!(
        record["untrusted"]["success_criteria"],
        compact["successCriteria"]
    );
    assert_eq!(
        record["untrusted"]["source_hints"],
        compact["context"]["sourceHints"]
    );
    assert_eq!(record["conflicts_with"], json!(["finding-layout-expanded"]));

    // The page queue is empty now: a second drain takes and appends nothing.
    let lines = std::fs::read_to_string(&ledger).unwrap().lines().count();
    let again = ok_json(
        root,
        &["agent", "repair-drain", "--session", "xl", "--json"],
    );
    assert_eq!(again["taken"], json!([]), "{again}");
    assert_eq!(again["actions"], json!([]), "{again}");
    assert_eq!(
        std::fs::read_to_string(&ledger).unwrap().lines().count(),
        lines
    );
    let groups = session.groups();
    drop(session);
    for g in groups {
        let alive = a3s_test_web::live_group_members(g);
        assert!(
            alive.is_empty(),
            "processes {alive:?} of group {g} survived the abort"
        );
    }

    // The same bodies through the real endpoint process.
    let ep = Endpoint::start_for(root, "ep", &app.origin, 10_000);
    let (status, body) = ep.post_json(&batch.to_string());
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["accepted"], json!(ids));
    assert_nothing_lost(&sent, &stored_findings(root, "ep"));
    let actions = posts[3]["actions"].as_array().unwrap().clone();
    assert_eq!(actions.len(), 3);
    // As the page's script queued them: refused, every one, and nothing appended.
    let before = std::fs::read_to_string(ledger_path(root, "ep")).unwrap();
    let as_queued = json!({"protocol": "a3s.test.repair/1", "actions": actions}).to_string();
    let (status, body) = ep.post_json(&as_queued);
    assert_eq!(status, 200, "{body}");
    assert!(
        body["actions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["outcome"] == "refused"),
        "{body}"
    );
    assert_eq!(
        std::fs::read_to_string(ledger_path(root, "ep")).unwrap(),
        before
    );
    // As the overlay queues them after a person's click.
    let by_person: Vec<Value> = actions
        .iter()
        .map(|a| {
            let mut a = a.clone();
            a["sentBy"] = json!("human");
            a["requestId"] = json!(format!("{}-person", a["requestId"].as_str().unwrap()));
            a
        })
        .collect();
    let document = json!({"protocol": "a3s.test.repair/1", "actions": by_person}).to_string();
    let (status, body) = ep.post_json(&document);
    // The reply re-queues, the dismissal cancels; accepting an unverified finding is refused.
    // Every item got a final answer, so the answer is 200 and the page may drop all three.
    assert_eq!(status, 200, "{body}");
    let answers = |b: &Value| -> Vec<Value> {
        b["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["outcome"].clone())
            .collect()
    };
    assert_eq!(
        answers(&body),
        [json!("applied"), json!("applied"), json!("refused")]
    );
    assert_eq!(body["actions"][0]["result"]["to"], "queued", "{body}");
    assert_eq!(body["actions"][1]["result"]["to"], "cancelled", "{body}");
    assert_eq!(
        body["actions"][2]["error"]["code"],
        "test.session.repair_invalid_transition"
    );
    assert!(body.get("error").is_none(), "{body}");
    assert_eq!(status_of(root, "ep", "finding-layout-compact"), "queued");
    assert_eq!(
        status_of(root, "ep", "finding-layout-expanded"),
        "cancelled"
    );
    assert_eq!(status_of(root, "ep", "finding-note"), "needs_input");
    let events = std::fs::read_to_string(ledger_path(root, "ep")).unwrap();
    let humans = events
        .lines()
        .filter(|l| l.contains("\"actor\":\"human\""))
        .count();
    // Resending the same actions (same request ids) changes nothing.
    let (status, body) = ep.post_json(&document);
    assert_eq!(status, 200);
    assert_eq!(
        answers(&body),
        [json!("duplicate"), json!("duplicate"), json!("refused")]
    );
    assert_eq!(body["actions"][0]["result"]["replayed"], true, "{body}");
    assert_eq!(body["actions"][1]["result"]["replayed"], true, "{body}");
    assert_eq!(
        std::fs::read_to_string(ledger_path(root, "ep")).unwrap(),
        events
    );
    assert_eq!(humans, 2, "two actions by the reviewer");
    let page = events
        .lines()
        .filter(|l| l.contains("\"actor\":\"page_script\""))
        .count();
    assert_eq!(page, 3, "three intakes by the page's script");
}

#[test]
fn an_mcp_client_drains_what_the_reviewer_sent_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let (_app, session, _posts) = review_session(root, "mx");

    let mcp = McpClient::start(root, &["--root".as_ref(), root.as_os_str()], DEADLINE);
    let (report, refused) = mcp.result("test_repair_drain", json!({"session": "mx"}));
    assert!(!refused, "{report}");
    assert_eq!(report["accepted"].as_array().unwrap().len(), 3, "{report}");
    // The page's script sent them (no person's gesture in the overlay): page code's intake,
    // never the MCP client's and never a person's.
    let ledger = std::fs::read_to_string(ledger_path(root, "mx")).unwrap();
    let intakes: Vec<Value> = ledger
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e.get("finding").is_some())
        .collect();
    assert_eq!(intakes.len(), 3);
    assert!(
        intakes.iter().all(|e| e["actor"] == "page_script"),
        "{intakes:?}"
    );
    let inbox = ok_json(
        root,
        &["agent", "repair-inbox", "--session", "mx", "--json"],
    );
    let senders = crate::common::each_str(&inbox["items"], "sent_by");
    assert!(senders.iter().all(|s| *s == "page_script"), "{inbox}");
    // A second drain finds nothing: the page queue was emptied only of what the ledger holds.
    let (again, _) = mcp.result("test_repair_drain", json!({"session": "mx"}));
    assert_eq!(again["taken"], json!([]), "{again}");
    assert_eq!(
        std::fs::read_to_string(ledger_path(root, "mx")).unwrap(),
        ledger
    );
    drop(mcp);
    drop(session);
}
