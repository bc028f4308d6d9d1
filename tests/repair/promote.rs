//! `agent repair-promote` through the binary, on a ledger prepared with the ledger's own API:
//! a proven candidate is written where the reviewer asks, `a3s-test check` admits it and `run`
//! passes it against a loopback page; an
//! unproven one, an existing output without `--force` and a candidate changed since its proof are
//! refused with exit 2 and nothing written; `--force` replaces the file.

use crate::support::{doc, finding, import, json, ok_json, run};
use a3s_test_ledger::verification::{
    CandidateRecord, CheckMode, CheckOutcome, CheckResult, LocatorKind, PageResult, Proof, Scope,
    SliceDecision, TargetResolution, VerificationFailure, VerificationRecord, VerifyStep,
    SLICE_PROTOCOL, VERIFICATION_PROTOCOL,
};
use a3s_test_ledger::{
    Action, Actor, FindingId, Ledger, Request, RequestId, SessionId, SystemClock,
};
use std::path::Path;
use std::sync::Arc;

const SESSION: &str = "s1";

/// The candidate suite, against the page at `origin`.
fn candidate_at(origin: &str) -> String {
    format!(
        r#"suite "f1" {{
    scenario "regression" {{
        surface = "web"
        navigate "open" {{ url = "{origin}/" }}
        expect "target" {{ visible = role("button", "Pay now") }}
        expect "criterion-1" {{ text = "Total" }}
    }}
}}
"#
    )
}

/// Serve a page with the button and the total on a loopback port; its origin.
fn serve_page() -> String {
    let (listener, origin) = crate::common::loopback();
    crate::common::serve_each(listener, |stream| {
        if crate::common::read_request(&stream).is_some() {
            let body = "<!doctype html><p>Total: 12 EUR</p><button>Pay now</button>";
            crate::common::respond(&stream, "200 OK", "text/html", "", body.as_bytes());
        }
    });
    origin
}

/// Take `id` through claim → complete → verification, recording a candidate at
/// `artifacts/repairs/<id>/<attempt>/verify/candidate.acl` whose proof `passed` or not.
fn verified(root: &Path, id: &str, passed: bool, candidate_text: &str) -> String {
    let claimed = ok_json(
        root,
        &[
            "agent",
            "repair-claim",
            id,
            "--session",
            SESSION,
            "--request-id",
            &format!("c-{id}"),
            "--json",
        ],
    );
    let attempt = claimed["result"]["attempt_id"]
        .as_str()
        .unwrap()
        .to_string();
    let on = ["--session", SESSION, "--attempt-id", &attempt, "--json"];
    let step = |verb: &str, extra: &[&str]| {
        let mut args = vec!["agent", verb, id, "--request-id"];
        let rid = format!("{verb}-{id}");
        args.push(&rid);
        args.extend_from_slice(&on);
        args.extend_from_slice(extra);
        ok_json(root, &args);
    };
    step("repair-progress", &[]);
    step("repair-complete", &["--no-changed-files"]);

    let dir = format!("artifacts/repairs/{id}/{attempt}/verify");
    let session_dir = root.join(".a3s-test/agent-sessions").join(SESSION);
    std::fs::create_dir_all(session_dir.join(&dir)).unwrap();
    let path = format!("{dir}/candidate.acl");
    std::fs::write(session_dir.join(&path), candidate_text).unwrap();
    let candidate = CandidateRecord {
        path: path.clone(),
        sha256: a3s_test_ledger::ledger::sha256_digest(candidate_text.as_bytes()),
        proof: Proof {
            passed,
            code: (!passed).then(|| "test.assert.text_mismatch".to_string()),
            message: None,
            duration_ms: 120,
        },
    };
    // A record whose verdict agrees with its facts (the ledger checks that).
    let record = VerificationRecord {
        pinned_checks: None,
        protocol: VERIFICATION_PROTOCOL.into(),
        revision_before: Some(1),
        revision_after: Some(2),
        page: PageResult {
            target: Some(TargetResolution {
                locator: LocatorKind::RoleName,
                acl_target: r#"role("button", "Pay now")"#.into(),
                stable: true,
            }),
            ..PageResult::default()
        },
        slice: Some(SliceDecision {
            protocol: SLICE_PROTOCOL.into(),
            scope: Scope::Focused,
            source_files: vec!["src/App.tsx".into()],
            stable_locator: true,
            prior_acl_proof_passed: None,
            selected_checks: vec!["unit".into()],
            expansion_reasons: vec![],
        }),
        checks: vec![CheckResult {
            id: "unit".into(),
            mode: CheckMode::Executed,
            outcome: CheckOutcome::Passed,
            exit_code: Some(0),
            duration_ms: 10,
            stdout: None,
            stderr: None,
            message: None,
        }],
        candidate: Some(candidate),
        passed,
        failure: (!passed).then(|| VerificationFailure {
            step: VerifyStep::Candidate,
            code: "test.session.repair_candidate_failed".into(),
            message: "the candidate failed in a fresh browser".into(),
        }),
    };
    let ledger = Ledger::open(
        root,
        &SessionId::parse(SESSION).unwrap(),
        Arc::new(SystemClock),
    );
    let request = |action| Request {
        finding_id: FindingId::parse(id).unwrap(),
        actor: Actor::A3sTest,
        request_id: Some(RequestId::parse(&format!("v-{id}")).unwrap()),
        attempt_id: Some(a3s_test_ledger::AttemptId::parse(&attempt).unwrap()),
        action,
    };
    ledger
        .apply(request(Action::VerifyStart {
            changed_files: vec![],
            lease_ms: None,
        }))
        .unwrap();
    let mut result = request(Action::VerifyResult {
        record: Box::new(record),
        changed_files: vec![],
        auto_resolve: None,
    });
    result.request_id = Some(RequestId::parse(&format!("vr-{id}")).unwrap());
    ledger.record_verification(result).unwrap();
    path
}

fn promote(root: &Path, id: &str, output: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "agent",
        "repair-promote",
        id,
        "--session",
        SESSION,
        "--output",
        output,
        "--json",
    ];
    args.extend_from_slice(extra);
    run(root, &args, None)
}

fn refused_with(out: &std::process::Output, code: &str) {
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        json(out)["error"]["code"],
        code,
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_proven_candidate_is_promoted_and_refusals_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    import(
        root,
        SESSION,
        &doc(&[finding("f1", "Say pay now"), finding("f2", "Say total")]),
    );
    let origin = serve_page();
    let text = candidate_at(&origin);
    let candidate = verified(root, "f1", true, &text);
    verified(root, "f2", false, &text);
    let output = root.join("suites/promoted.acl");
    std::fs::create_dir_all(output.parent().unwrap()).unwrap();
    let output = output.to_str().unwrap();

    // Without a passing proof nothing is written.
    refused_with(
        &promote(root, "f2", output, &[]),
        "test.session.repair_not_proven",
    );
    assert!(!Path::new(output).exists());

    // The proven candidate lands where asked, byte for byte, and `check` admits it.
    let out = promote(root, "f1", output, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let promoted = json(&out);
    assert_eq!(promoted["overwritten"], false);
    assert_eq!(promoted["candidate"], candidate.as_str());
    assert_eq!(promoted["result"]["op"], "promote", "{promoted}");
    assert_eq!(std::fs::read_to_string(output).unwrap(), text);
    let check = run(root, &["check", output], None);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    // … and `run` passes it in real Chromium against the page it was proven on.
    let ran = crate::common::output_within(
        std::process::Command::new(crate::support::BIN)
            .args(["run", output])
            .current_dir(root)
            .env("A3S_TEST_ROOT", root),
        None,
        crate::support::DEADLINE,
    );
    assert!(
        ran.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr)
    );

    // An existing file is never replaced without --force.
    std::fs::write(output, "# the reviewer's own edits\n").unwrap();
    refused_with(
        &promote(root, "f1", output, &[]),
        "test.session.repair_output_exists",
    );
    assert_eq!(
        std::fs::read_to_string(output).unwrap(),
        "# the reviewer's own edits\n"
    );

    // --force replaces it.
    let out = promote(root, "f1", output, &["--force"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(json(&out)["overwritten"], true);
    assert_eq!(std::fs::read_to_string(output).unwrap(), text);

    // A candidate edited after its proof is not the proven one.
    let session_dir = root.join(".a3s-test/agent-sessions").join(SESSION);
    std::fs::write(session_dir.join(&candidate), text.replace("Total", "Other")).unwrap();
    let elsewhere = root.join("suites/other.acl");
    refused_with(
        &promote(root, "f1", elsewhere.to_str().unwrap(), &[]),
        "test.session.repair_not_proven",
    );
    assert!(!elsewhere.exists());
}
