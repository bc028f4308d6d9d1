//! The browser half of repair verification in real Chromium, through the real supervisor: a
//! finding a page sends with the real Test Kit is drained, and the drain records the tool's own
//! before baseline (screenshot, bounded Page Context, console and page errors, each a file
//! under `artifacts/repairs/<finding>/baseline/` whose SHA-256 the ledger keeps). Then
//! `RepairObserve` requests (steps 1–5 of a verification) go to the session's socket: with no
//! newer revision it fails with its code within the timeout; after the page changes it finds
//! the target by role+name and the criteria hold; a false criterion, a target that is gone, an
//! ambiguous locator and a new uncaught page error each fail with their own step and code.

use crate::page_server::{AppServer, ENDPOINT_PATH};
use crate::support::*;
use a3s_test_ledger::verification::{Baseline, EvidenceRef};
use a3s_test_runner::session::repair_page::evidence::digest;
use a3s_test_runner::session::repair_page::locate::{locators_of_context, PageLocator};
use a3s_test_runner::session::repair_page::{ObserveRequest, PageVerification};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SESSION: &str = "rp";
const FINDING: &str = "finding-pay";

/// A checkout page: one console error at boot, one finding sent on the pay button, then two
/// buttons that change the page (one cleanly, one with an uncaught error).
fn page() -> String {
    format!(
        r#"<!doctype html><html><head><title>Order</title></head><body>
<main><h2>Order</h2>
<button data-testid="pay">Pay now</button>
<p id="note">Card pending</p>
<button id="fix">Apply fix</button>
<button id="break">Break it</button>
<p id="state">Sending</p></main>
<script>console.error("boot warning");</script>
<script type="module">
import {{ installTestKit }} from "/kit/index.js";
const bridge = installTestKit({{ enabled: true, page: {{ id: "order" }}, repairEndpoint: "{ENDPOINT_PATH}" }});
const pay = bridge.snapshot().nodes.find((n) => n.testId === "pay").id;
document.getElementById("fix").addEventListener("click", () => {{
  document.getElementById("note").textContent = "Card saved";
}});
document.getElementById("break").addEventListener("click", () => {{
  document.getElementById("note").textContent = "Card lost";
  throw new Error("the repair broke checkout");
}});
const sent = await bridge.submitRepair([
  {{ id: "{FINDING}", target: {{ kind: "node", nodeIds: [pay] }}, instruction: "Say when the card is saved",
    successCriteria: ["Reads calmly", {{ kind: "page_text", contains: "Card saved" }}], intent: "fix", severity: "important" }},
]);
document.getElementById("state").textContent = "Sent: " + sent.delivery;
</script></body></html>"#
    )
}

fn session_dir(root: &Path) -> PathBuf {
    root.join(".a3s-test/agent-sessions").join(SESSION)
}

/// Every referenced file exists under the session folder with the recorded size and digest.
fn assert_pinned(root: &Path, evidence: &[EvidenceRef], prefix: &str, kinds: &[&str]) {
    let names: Vec<String> = evidence
        .iter()
        .map(|e| {
            serde_json::to_value(e.kind)
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(names, kinds, "{evidence:?}");
    for e in evidence {
        assert!(
            e.path.starts_with(prefix),
            "{} is not under {prefix}",
            e.path
        );
        let bytes = std::fs::read(session_dir(root).join(&e.path)).unwrap();
        assert_eq!(bytes.len() as u64, e.bytes, "{}", e.path);
        assert_eq!(digest(&bytes), e.sha256, "{}", e.path);
    }
}

/// One `RepairObserve` turn on the session's socket; the typed answer.
fn observe(root: &Path, request: ObserveRequest) -> PageVerification {
    repair_observe(root, SESSION, request)
}

fn exec(root: &Path, statement: &str) {
    ok_json(
        root,
        &["agent", "exec", statement, "--session", SESSION, "--json"],
    );
}

/// The revision the page is at now (from a fresh observation).
fn current_revision(root: &Path) -> u64 {
    let seen = ok_json(root, &["agent", "observe", "--session", SESSION, "--json"]);
    seen["page_context"]["revision"]
        .as_u64()
        .expect("a Test Kit revision")
}

fn failure_of(v: &PageVerification) -> (String, String) {
    failure_code(v).expect("a failure")
}

#[test]
fn the_drain_records_a_baseline_and_observe_runs_steps_one_to_five_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let app = AppServer::start(&page());
    let _guard = start_session(root, &app.origin, SESSION);
    app.wait_for_posts(1, Duration::from_secs(30));
    exec(root, r#"wait "state" { text = "Sent: endpoint_failed" }"#);

    // The drain appends the finding and records the tool's own baseline for it.
    let drained = ok_json(
        root,
        &["agent", "repair-drain", "--session", SESSION, "--json"],
    );
    assert_eq!(drained["accepted"], json!([FINDING]), "{drained}");
    assert_eq!(
        drained["baselines"],
        json!([{ "finding_id": FINDING, "recorded": true }]),
        "{drained}"
    );
    let ledger = std::fs::read_to_string(ledger_path(root, SESSION)).unwrap();
    let events: Vec<Value> = ledger
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let baseline: Baseline = events
        .iter()
        .find_map(|e| e.pointer("/action/baseline/baseline").cloned())
        .map(|b| serde_json::from_value(b).unwrap())
        .unwrap_or_else(|| panic!("no baseline event in {ledger}"));
    assert!(baseline.url.starts_with(&app.origin), "{baseline:?}");
    assert_eq!((baseline.console_errors, baseline.page_errors), (1, 0));
    let base_dir = format!("artifacts/repairs/{FINDING}/baseline/");
    let all = [
        "screenshot",
        "page_context",
        "ui_understanding",
        "console",
        "page_errors",
    ];
    assert_pinned(root, &baseline.evidence, &base_dir, &all);
    let console: Value = serde_json::from_slice(
        &std::fs::read(session_dir(root).join(&baseline.evidence[3].path)).unwrap(),
    )
    .unwrap();
    assert_eq!(console["entries"][0]["text"], "boot warning", "{console}");
    let finding = events
        .iter()
        .find_map(|e| e.get("finding").cloned())
        .expect("the intake event");
    let context_revision = finding["contextRevision"].as_u64().unwrap();
    let locators = locators_of_context(&finding["context"]);
    assert!(
        matches!(&locators[0], PageLocator::Role { name, .. } if name == "Pay now"),
        "{locators:?}"
    );
    let request = |dir: &str, criteria: Value| ObserveRequest {
        after_revision: Some(context_revision),
        revision_timeout_ms: 10_000,
        locators: locators.clone(),
        replacement: None,
        criteria: serde_json::from_value(criteria).unwrap(),
        baseline: Some(baseline.clone()),
        layout: None,
        dir: format!("artifacts/repairs/{FINDING}/{dir}/verify"),
    };

    // 1. Nothing changed since the page's current revision: the wait ends with its code, in time.
    let now = current_revision(root);
    let started = Instant::now();
    let stale = observe(
        root,
        ObserveRequest {
            after_revision: Some(now),
            revision_timeout_ms: 500,
            ..request("a0", json!([]))
        },
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        failure_of(&stale),
        (
            "revision".into(),
            "test.session.repair_no_new_revision".into()
        )
    );
    assert_eq!(stale.revision, Some(now));

    // The "repair" lands: the page changes, so there is a newer ready revision.
    exec(root, r##"click { target = css("#fix") }"##);
    let criteria = json!([
        "Reads calmly",
        { "kind": "target_text", "equals": "Pay  now" },
        { "kind": "page_text", "contains": "Card saved" },
        { "kind": "page_text_absent", "contains": "pending" },
        { "kind": "target_visible" },
        { "kind": "target_state", "state": "enabled" },
    ]);
    let passed = observe(root, request("a1", criteria));
    assert_eq!(passed.failure, None, "{passed:?}");
    assert!(passed.revision.unwrap() > context_revision);
    let target = passed.page.target.as_ref().unwrap();
    assert_eq!(target.acl_target, r#"role("button", "Pay now")"#);
    assert!(target.stable);
    assert_eq!(passed.page.criteria.len(), 6);
    assert!(!passed.page.criteria[0].verifiable);
    assert!(
        passed.page.criteria[1..]
            .iter()
            .all(|c| c.passed == Some(true)),
        "{passed:?}"
    );
    let errors = passed.page.errors.as_ref().unwrap();
    assert_eq!(
        (
            errors.new_console_errors,
            errors.new_page_errors,
            errors.baseline
        ),
        (0, 0, true)
    );
    let verify_dir = format!("artifacts/repairs/{FINDING}/a1/verify/");
    assert_pinned(root, &passed.page.evidence, &verify_dir, &all);

    // 3. A criterion that does not hold.
    let wrong = observe(
        root,
        request(
            "a2",
            json!([{ "kind": "target_text", "equals": "Pay later" }]),
        ),
    );
    assert_eq!(
        failure_of(&wrong),
        (
            "criteria".into(),
            "test.session.repair_criterion_failed".into()
        )
    );
    assert_eq!(wrong.page.criteria[0].observed.as_deref(), Some("Pay now"));
    assert_eq!(
        wrong.page.evidence.len(),
        5,
        "evidence is captured for a failed verification too"
    );

    // 2. A target no locator names any more, and a locator that names several elements.
    let gone = vec![
        PageLocator::Role {
            role: "button".into(),
            name: "Pay later".into(),
        },
        PageLocator::TestId {
            value: "pay-later".into(),
        },
    ];
    let missing = observe(
        root,
        ObserveRequest {
            locators: gone,
            ..request("a3", json!([]))
        },
    );
    assert_eq!(
        failure_of(&missing),
        ("target".into(), "test.session.repair_target_missing".into())
    );
    let several = vec![PageLocator::Css {
        value: "button".into(),
        shadow_hosts: vec![],
    }];
    let ambiguous = observe(
        root,
        ObserveRequest {
            locators: several,
            ..request("a4", json!([]))
        },
    );
    assert_eq!(
        failure_of(&ambiguous),
        (
            "target".into(),
            "test.session.repair_target_ambiguous".into()
        )
    );
    // A declared replacement is resolved instead of the locators.
    let replaced = observe(
        root,
        ObserveRequest {
            replacement: Some(r#"role("button", "Apply fix")"#.into()),
            ..request("a5", json!([{ "kind": "target_visible" }]))
        },
    );
    assert_eq!(replaced.failure, None, "{replaced:?}");
    assert_eq!(
        serde_json::to_value(replaced.page.target.unwrap().locator).unwrap(),
        "replacement"
    );

    // 4. A repair that throws an uncaught error fails on the error delta.
    exec(root, r##"click { target = css("#break") }"##);
    let broken = observe(root, request("a6", json!([])));
    assert_eq!(
        failure_of(&broken),
        ("errors".into(), "test.session.repair_new_page_error".into())
    );
    assert_eq!(broken.page.errors.unwrap().new_page_errors, 1);
    let page_errors = broken
        .page
        .evidence
        .iter()
        .find(|e| e.path.ends_with("page-errors.json"))
        .unwrap();
    let text = std::fs::read_to_string(session_dir(root).join(&page_errors.path)).unwrap();
    assert!(text.contains("the repair broke checkout"), "{text}");
}
