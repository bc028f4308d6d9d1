//! The supervisor's `repair_prove` request in a real session: the candidate is written under the
//! session's repair evidence root with its digest and proven in a fresh context of the session's
//! own Chromium (a passing and a failing candidate), a folder outside that root is refused, and
//! the session's browser keeps serving turns afterwards.

use crate::support::{assert_gone, ok, session_json, session_on};
use a3s_test_ledger::verification::{CandidateRecord, LocatorKind, TargetResolution};
use a3s_test_ledger::Finding;
use a3s_test_runner::repair::candidate;
use a3s_test_runner::session::client;
use a3s_test_runner::session::protocol::RepairProve;
use std::path::Path;
use std::time::Duration;

const PAGE: &str = r#"<!doctype html><html><head><title>Pay</title></head><body>
<p>Total: 12 EUR</p><button type="button">Pay now</button></body></html>"#;

fn candidate_for(origin: &str, criteria: &str) -> String {
    let finding: Finding = serde_json::from_str(&format!(
        r#"{{"id":"f1","target":{{"kind":"node","nodeIds":["n1"]}},"instruction":"x",
            "successCriteria":{criteria},"intent":"change","severity":"important"}}"#
    ))
    .unwrap();
    let resolved = TargetResolution {
        locator: LocatorKind::RoleName,
        acl_target: r#"role("button", "Pay now")"#.into(),
        stable: true,
    };
    candidate::generate(&finding, &resolved, &format!("{origin}/"))
        .unwrap()
        .unwrap()
}

fn prove(dir: &Path, candidate: &str, folder: &str) -> serde_json::Value {
    let socket = session_json(dir, "prove")["socket"]
        .as_str()
        .unwrap()
        .to_string();
    let request = RepairProve {
        candidate: candidate.into(),
        dir: folder.into(),
    };
    match client::call(Path::new(&socket), request, Duration::from_secs(60)) {
        Ok(record) => serde_json::json!({ "ok": true, "body": record }),
        Err(error) => serde_json::json!({ "ok": false, "body": error }),
    }
}

#[test]
fn candidates_are_proven_in_a_fresh_context_of_the_sessions_browser() {
    let (server, dir, groups) = session_on(&[("/", PAGE)], "prove", &[]);
    let dir = dir.path();
    let session = dir.join(".a3s-test/agent-sessions/prove");

    let passing = candidate_for(
        &server.origin,
        r#"[{"kind":"page_text","contains":"Total: 12"}]"#,
    );
    let folder = "artifacts/repairs/f1/a1/verify";
    let answer = prove(dir, &passing, folder);
    assert_eq!(answer["ok"], true, "{answer}");
    let record: CandidateRecord = serde_json::from_value(answer["body"].clone()).unwrap();
    assert!(record.proof.passed, "{record:?}");
    assert_eq!(record.path, format!("{folder}/candidate.acl"));
    let written = std::fs::read(session.join(&record.path)).unwrap();
    assert_eq!(written, passing.as_bytes());
    assert_eq!(
        record.sha256,
        a3s_test_ledger::ledger::sha256_digest(&written)
    );
    assert!(session.join(folder).join("proof.json").is_file());

    let failing = candidate_for(
        &server.origin,
        r#"[{"kind":"page_text","contains":"Paid, thank you"}]"#,
    );
    let answer = prove(dir, &failing, "artifacts/repairs/f1/a2/verify");
    let record: CandidateRecord = serde_json::from_value(answer["body"].clone()).unwrap();
    assert!(!record.proof.passed, "{record:?}");
    assert_eq!(
        record.proof.code.as_deref(),
        Some("test.assert.text_mismatch")
    );

    // Evidence goes below the session's repair root only.
    let refused = prove(dir, &passing, "../escape");
    assert_eq!(refused["ok"], false, "{refused}");
    assert_eq!(refused["body"]["code"], "test.session.policy", "{refused}");

    // The session's own tab still works: the proof borrowed a context, not the browser.
    let observed = ok(dir, &["agent", "observe", "--session", "prove", "--json"]);
    assert!(observed.to_string().contains("Pay now"), "{observed}");
    ok(dir, &["agent", "abort", "--session", "prove", "--json"]);
    assert_gone(groups);
}
