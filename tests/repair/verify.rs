//! `agent repair-verify` end to end, with real parts only: the fixture app
//! (`tests/fixtures/repair-verify/`, served by [`VerifyApp`]) in the session's real Chromium,
//! the real `a3s-test` binary for every step, real check processes from the project's
//! `verification` catalog, and a real edit of the served source file that the page picks up as a
//! hot reload would. Each test drives one finding from the page through drain → claim → edit →
//! complete → verify and asserts the exit code and the ledger status.

use crate::support::*;
use crate::verify_app::{VerifyApp, CHECKOUT};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

const FINDING: &str = "finding-pay";

/// A catalog with a focused check for the app's sources, a focused check for files elsewhere and
/// a regression check; `checkout` is the command of the check that covers `src/`.
fn catalog(checkout: &str) -> String {
    format!(
        r#"project "fixture" {{
    verification {{
        check "lib" {{
            tier = "focused"
            command = ["true"]
            file_prefixes = ["lib/"]
        }}
        check "checkout" {{
            tier = "focused"
            command = {checkout}
            file_prefixes = ["src/"]
            timeout_ms = 20000
        }}
        check "suite" {{
            tier = "regression"
            command = ["true"]
        }}
    }}
}}
"#
    )
}

/// The check that passes: the component the finding maps to is there.
const PASSING: &str = r#"["test", "-f", "src/Checkout.js"]"#;

/// One finding of the fixture app, claimed in a live session (aborted when dropped).
struct Loop<'a> {
    root: &'a Path,
    session: &'a str,
    attempt: String,
    app: VerifyApp,
    _guard: AbortOnDrop<'a>,
}

impl<'a> Loop<'a> {
    /// Serve the app under `root` (with `project` as `.a3s-test/project.acl`, if any), start a
    /// session on it, wait until the page sent its finding, drain it and claim it.
    fn start(root: &'a Path, session: &'a str, project: Option<&str>) -> Loop<'a> {
        Self::start_with(root, session, project, |_| {})
    }

    /// [`Loop::start`] with the passing catalog, then the agent's repair: the component
    /// rewritten with a button labelled `label`, hot-reloaded, and completed.
    fn repaired(root: &'a Path, session: &'a str, label: &str) -> Loop<'a> {
        let l = Self::start(root, session, Some(&catalog(PASSING)));
        l.app.edit(label, "");
        l.complete(&[CHECKOUT]);
        l
    }

    /// [`Loop::start`], running `before_drain` on the app once the page has sent its finding
    /// and before A3S Test drains it (and records its baseline).
    fn start_with(
        root: &'a Path,
        session: &'a str,
        project: Option<&str>,
        before_drain: impl FnOnce(&VerifyApp),
    ) -> Loop<'a> {
        if let Some(text) = project {
            crate::common::write(root, ".a3s-test/project.acl", text);
        }
        let app = VerifyApp::start(root);
        let guard = start_session(root, &app.origin, session);
        wait_until_sent(root, session);
        before_drain(&app);
        let drained = ok_json(
            root,
            &["agent", "repair-drain", "--session", session, "--json"],
        );
        assert_eq!(
            drained["accepted"],
            serde_json::json!([FINDING]),
            "{drained}"
        );
        let claim = ok_json(root, &on(session, "repair-claim", "r-claim", &[]));
        let attempt = claim["result"]["attempt_id"].as_str().unwrap().to_owned();
        let looped = Loop {
            root,
            session,
            attempt,
            app,
            _guard: guard,
        };
        let progress = looped.agent("repair-progress", "r-progress", &[]);
        assert_eq!(progress["result"]["to"], "repairing");
        looped
    }

    /// An agent command on the finding with the attempt id; expects success.
    fn agent(&self, verb: &str, rid: &str, extra: &[&str]) -> Value {
        let mut args = on(self.session, verb, rid, &["--attempt-id", &self.attempt]);
        args.extend(extra.iter().map(|s| s.to_string()));
        ok_json(self.root, &args)
    }

    /// `repair-complete` with `files` (none: `--no-changed-files`).
    fn complete(&self, files: &[&str]) {
        self.complete_with(files, &[]);
    }

    /// `repair-complete` with `files` and `extra` arguments; expects `verifying`.
    fn complete_with(&self, files: &[&str], extra: &[&str]) {
        let mut args = changed(files);
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let v = self.agent("repair-complete", "r-complete", &args);
        assert_eq!(v["result"]["to"], "verifying", "{v}");
    }

    /// `repair-verify` with `files` and `extra`; the raw output.
    fn verify(&self, rid: &str, files: &[&str], extra: &[&str]) -> Output {
        let mut args = on(
            self.session,
            "repair-verify",
            rid,
            &["--attempt-id", &self.attempt],
        );
        args.extend(changed(files));
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(self.root, &args, None)
    }

    /// Fix the label, complete, verify: the verification fails at step 7 with `code`, no
    /// candidate is made and the finding is `verification_failed`. Returns the check's result.
    fn fails_at_its_check(&self, code: &str) -> Value {
        self.app.edit("Pay", "");
        self.complete(&[CHECKOUT]);
        let v = self.verify_fails(&[CHECKOUT], &[], "checks", code);
        assert!(
            v["record"]["candidate"].is_null(),
            "no candidate after a failed check"
        );
        v["record"]["checks"][0].clone()
    }

    /// Complete with no render since the claim, and verify with a short revision wait: the
    /// verification fails at step 1.
    fn completed_without_a_render(&self) -> Value {
        self.complete(&[CHECKOUT]);
        self.verify_fails(
            &[CHECKOUT],
            &["--revision-timeout-ms", "500"],
            "revision",
            "test.session.repair_no_new_revision",
        )
    }

    /// `repair-verify` (request `r-verify`) that must fail at `step` with `code`: exit code 1,
    /// that failure in the record, the finding `verification_failed`. The JSON answer.
    fn verify_fails(&self, files: &[&str], extra: &[&str], step: &str, code: &str) -> Value {
        let (exit, v) = verdict(&self.verify("r-verify", files, extra));
        assert_eq!(exit, Some(1), "{v}");
        assert_eq!(failure(&v), (step, code), "{v}");
        assert_eq!(self.status(), "verification_failed");
        v
    }

    /// The finding's status in the ledger.
    fn status(&self) -> Value {
        self.inspect()["status"].clone()
    }

    /// `repair-inspect` of the finding: its loop record.
    fn inspect(&self) -> Value {
        let args = [
            "agent",
            "repair-inspect",
            FINDING,
            "--session",
            self.session,
            "--json",
        ];
        ok_json(self.root, &args)
    }

    /// Every event of the session's ledger, in order.
    fn events(&self) -> Vec<Value> {
        std::fs::read_to_string(ledger_path(self.root, self.session))
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// The session folder.
    fn folder(&self) -> std::path::PathBuf {
        self.root
            .join(".a3s-test/agent-sessions")
            .join(self.session)
    }
}

/// Wait until the page shows that it sent its finding.
fn wait_until_sent(root: &Path, session: &str) {
    wait_for(root, session, r#"wait { visible = text("Sent") }"#);
}

/// Run one `wait` step (which waits up to its action timeout) until it passes, within an overall
/// deadline for a slow, shared machine.
fn wait_for(root: &Path, session: &str, step: &str) {
    let until = std::time::Instant::now() + DEADLINE;
    loop {
        let out = run(
            root,
            &["agent", "exec", step, "--session", session, "--json"],
            None,
        );
        if out.status.success() {
            return;
        }
        assert!(
            std::time::Instant::now() < until,
            "{step} never passed: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

/// `agent <verb> finding-pay --session S --request-id R <extra> --json`.
fn on(session: &str, verb: &str, rid: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "agent",
        verb,
        FINDING,
        "--session",
        session,
        "--request-id",
        rid,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push("--json".into());
    args
}

fn changed(files: &[&str]) -> Vec<String> {
    if files.is_empty() {
        return vec!["--no-changed-files".into()];
    }
    files
        .iter()
        .flat_map(|f| ["--changed-file".to_string(), f.to_string()])
        .collect()
}

/// The exit code and the JSON answer of a verification.
fn verdict(out: &Output) -> (Option<i32>, Value) {
    (out.status.code(), json(out))
}

/// The failure code of a failed verification's record.
fn failure(v: &Value) -> (&str, &str) {
    let f = &v["record"]["failure"];
    (
        f["step"].as_str().unwrap_or(""),
        f["code"].as_str().unwrap_or(""),
    )
}

#[test]
fn a_real_edit_verifies_to_review_ready_with_a_focused_slice_and_a_proven_candidate() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::repaired(dir.path(), "vhappy", "Pay");
    let (code, v) = verdict(&l.verify("r-verify", &[CHECKOUT], &[]));
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["passed"], true, "{v}");
    assert_eq!(v["result"]["to"], "review_ready");
    assert!(
        v["resolution"].is_null(),
        "no auto-resolve without the flag"
    );
    let record = &v["record"];
    assert_eq!(record["protocol"], "a3s.test.repair-verification/1");
    assert!(
        record["revisionAfter"].as_u64() > record["revisionBefore"].as_u64(),
        "{record}"
    );
    assert_eq!(record["target"]["stable"], true, "{record}");
    let slice = &record["slice"];
    assert_eq!(slice["protocol"], "a3s.test.repair-verification-slice/1");
    assert_eq!(slice["scope"], "focused", "{slice}");
    assert_eq!(slice["sourceFiles"], serde_json::json!([CHECKOUT]));
    assert_eq!(slice["selectedChecks"], serde_json::json!(["checkout"]));
    assert_eq!(slice["expansionReasons"], serde_json::json!([]));
    assert_eq!(record["checks"][0]["id"], "checkout");
    assert_eq!(record["checks"][0]["mode"], "executed");
    assert_eq!(record["checks"][0]["outcome"], "passed");
    let candidate = &record["candidate"];
    assert_eq!(candidate["proof"]["passed"], true, "{candidate}");
    let path = l.folder().join(candidate["path"].as_str().unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"Pay\""), "{text}");
    // The candidate is evidence of the session, never a file of the application.
    assert!(path.starts_with(l.folder()));
    // Every evidence file is where the record says, with the digest it names.
    for e in record["evidence"].as_array().unwrap() {
        let bytes = std::fs::read(l.folder().join(e["path"].as_str().unwrap())).unwrap();
        assert_eq!(e["bytes"].as_u64(), Some(bytes.len() as u64), "{e}");
    }
    // The page's checked UI understanding is evidence too, and the record cites its @uN facts.
    let ui = record["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "ui_understanding")
        .unwrap_or_else(|| panic!("no UI evidence in {record}"));
    let file: Value = serde_json::from_slice(
        &std::fs::read(l.folder().join(ui["path"].as_str().unwrap())).unwrap(),
    )
    .unwrap();
    assert_eq!(file["untrusted"], true, "{file}");
    let cited = record["uiFacts"].as_array().cloned().unwrap_or_default();
    let filed = file["ui"]["refs"].as_array().unwrap();
    assert_eq!(cited.len(), filed.len().min(24), "{record}");
    for (line, fact) in cited.iter().zip(filed) {
        assert!(
            line.as_str()
                .unwrap()
                .starts_with(&format!("{} ", fact["ref"].as_str().unwrap())),
            "{line}"
        );
    }
    assert_eq!(l.status(), "review_ready");
    // The verification's lease covers every check of the catalog run to its timeout (two at
    // the default 120 s, one at 20 s) and the page steps (the default 30 s revision wait, 20 s
    // of steps): longer than the default five-minute lease.
    let start = l
        .events()
        .into_iter()
        .find(|e| e["action"].get("verify_start").is_some())
        .expect("a verify_start event");
    let lease = &start["lease"];
    let length =
        lease["expires_at_ms"].as_u64().unwrap() - lease["renewed_at_ms"].as_u64().unwrap();
    let checks_and_page = 2 * 120_000 + 20_000 + 30_000 + 20_000;
    assert!(length >= checks_and_page, "{start}");
    assert_eq!(
        start["action"]["verify_start"]["lease_ms"], length,
        "{start}"
    );
    // Dismissing a verified repair needs the reviewer's reason; without one nothing changes.
    let reject_args = on(l.session, "repair-reject", "r-reject", &[]);
    let reject_args: Vec<&str> = reject_args.iter().map(String::as_str).collect();
    let reject = run(l.root, &reject_args, None);
    let (code, refusal) = verdict(&reject);
    assert_eq!(code, Some(2), "{refusal}");
    assert_eq!(
        refusal["error"]["code"],
        "test.session.repair_invalid_input"
    );
    assert_eq!(l.status(), "review_ready");
    // The reviewer promotes the proven candidate; the suite is admitted and passes against the
    // app, in a browser of its own.
    std::fs::create_dir_all(l.root.join("suites")).unwrap();
    let suite = l.root.join("suites/pay.acl");
    let suite_arg = suite.to_str().unwrap();
    let promote = [
        "agent",
        "repair-promote",
        FINDING,
        "--session",
        l.session,
        "--output",
        suite_arg,
        "--request-id",
        "r-promote",
        "--json",
    ];
    ok_json(l.root, &promote);
    for args in [["check", suite_arg], ["run", suite_arg]] {
        let out = crate::common::output_within(
            std::process::Command::new(BIN)
                .args(args)
                .current_dir(l.root),
            None,
            DEADLINE,
        );
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Asking again with the same request id returns the recorded verdict; nothing runs twice.
    let ledger = std::fs::read(ledger_path(l.root, l.session)).unwrap();
    let (code, again) = verdict(&l.verify("r-verify", &[CHECKOUT], &[]));
    assert_eq!(code, Some(0), "{again}");
    assert_eq!(again["result"]["replayed"], true);
    assert_eq!(again["record"], v["record"]);
    assert_eq!(
        std::fs::read(ledger_path(l.root, l.session)).unwrap(),
        ledger
    );
}

#[test]
fn without_a_newer_revision_the_verification_fails_at_step_one() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::start(dir.path(), "vstale", Some(&catalog(PASSING)));
    // The file changes on disk but the page is never told: no newer revision arrives.
    crate::common::write(l.root, CHECKOUT, "export function render() {}\n");
    let v = l.completed_without_a_render();
    assert_eq!(v["result"]["to"], "verification_failed");
}

#[test]
fn a_page_that_changed_only_before_the_drain_does_not_pass_for_a_repaired_one() {
    let dir = tempfile::tempdir().unwrap();
    // After the reviewer sent the finding, and before any repair, the page re-renders: its
    // revision is now past the finding's. The baseline A3S Test takes at the drain sees that.
    let l = Loop::start_with(dir.path(), "vearly", Some(&catalog(PASSING)), |app| {
        app.edit("Pay soon", "");
        wait_for(
            dir.path(),
            "vearly",
            r#"wait { visible = text("Pay soon") }"#,
        );
    });
    // The agent completes without a render after its claim: step 1 has nothing newer to see.
    let v = l.completed_without_a_render();
    // The wait started from the baseline's revision, which is past the finding's own.
    let marked = l
        .events()
        .iter()
        .find_map(|e| e["finding"]["contextRevision"].as_u64())
        .expect("the sent finding has a context revision");
    let inspected = l.inspect();
    let baseline = inspected["baseline"]["baseline"]["revision"].as_u64();
    let before = v["record"]["revisionBefore"].as_u64();
    assert!(baseline > Some(marked), "{inspected}");
    assert_eq!(before, baseline, "{}", v["record"]);
}

#[test]
fn a_false_criterion_fails_and_is_never_auto_resolved() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::repaired(dir.path(), "vcrit", "Pay later");
    let v = l.verify_fails(
        &[CHECKOUT],
        &["--auto-resolve-repairs"],
        "criteria",
        "test.session.repair_criterion_failed",
    );
    let criteria = v["record"]["criteria"].as_array().unwrap();
    let text = criteria
        .iter()
        .find(|c| c["criterion"]["kind"] == "target_text")
        .unwrap();
    assert_eq!(text["passed"], false, "{text}");
    let prose = criteria
        .iter()
        .find(|c| c["criterion"].is_string())
        .unwrap();
    assert_eq!(prose["verifiable"], false, "{prose}");
    assert!(v["resolution"].is_null());
}

#[test]
fn a_new_uncaught_page_error_fails_the_verification() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::start(dir.path(), "vboom", Some(&catalog(PASSING)));
    l.app.edit(
        "Pay",
        "queueMicrotask(() => { throw new Error('checkout exploded'); });",
    );
    l.complete(&[CHECKOUT]);
    let v = l.verify_fails(
        &[CHECKOUT],
        &[],
        "errors",
        "test.session.repair_new_page_error",
    );
    assert!(
        v["record"]["errors"]["newPageErrors"].as_u64() >= Some(1),
        "{v}"
    );
}

#[test]
fn a_replacement_declared_at_completion_is_admitted_and_resolved_in_place_of_the_locators() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::start(dir.path(), "vreplace", Some(&catalog(PASSING)));
    // The repair renames the button's test id too: the finding's own locators no longer name it.
    l.app.edit(
        "Pay",
        r#"root.innerHTML = '<button data-testid="pay-now">Pay</button>';"#,
    );
    // A replacement that is not one ACL target is refused at completion; nothing is appended.
    let ledger = std::fs::read(ledger_path(l.root, l.session)).unwrap();
    let mut refused = on(
        l.session,
        "repair-complete",
        "r-complete",
        &["--attempt-id", &l.attempt, "--replacement", "@e1"],
    );
    refused.extend(changed(&[CHECKOUT]));
    let refused: Vec<&str> = refused.iter().map(String::as_str).collect();
    let (code, v) = verdict(&run(l.root, &refused, None));
    assert_eq!(code, Some(2), "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("--replacement"),
        "{v}"
    );
    assert_eq!(
        std::fs::read(ledger_path(l.root, l.session)).unwrap(),
        ledger
    );
    assert_eq!(l.status(), "repairing");
    // Declared at completion (in the printer's form), it is what step 2 resolves.
    l.complete_with(&[CHECKOUT], &["--replacement", r#"testid(  "pay-now" )"#]);
    let inspect = l.inspect();
    assert_eq!(
        inspect["attempts"][0]["replacement"], r#"testid("pay-now")"#,
        "{inspect}"
    );
    let (code, v) = verdict(&l.verify("r-verify", &[CHECKOUT], &[]));
    assert_eq!(code, Some(0), "{v}");
    let target = &v["record"]["target"];
    assert_eq!(target["locator"], "replacement", "{target}");
    assert_eq!(target["aclTarget"], r#"testid("pay-now")"#, "{target}");
    assert_eq!(target["stable"], true, "{target}");
    let candidate = &v["record"]["candidate"];
    assert_eq!(candidate["proof"]["passed"], true, "{candidate}");
    let text =
        std::fs::read_to_string(l.folder().join(candidate["path"].as_str().unwrap())).unwrap();
    assert!(text.contains(r#"testid("pay-now")"#), "{text}");
    assert_eq!(l.status(), "review_ready");
}

#[test]
fn a_changed_file_mismatch_is_refused_before_the_browser_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::repaired(dir.path(), "vmismatch", "Pay");
    let events = std::fs::read(l.folder().join("events.jsonl")).unwrap();
    let ledger = std::fs::read(ledger_path(l.root, l.session)).unwrap();
    let (code, v) = verdict(&l.verify("r-verify", &["src/Other.js"], &[]));
    assert_eq!(code, Some(2), "{v}");
    assert_eq!(v["error"]["code"], "test.session.repair_change_mismatch");
    // No supervisor turn was taken (the session logs every one) and nothing was appended.
    assert_eq!(
        std::fs::read(l.folder().join("events.jsonl")).unwrap(),
        events
    );
    assert_eq!(
        std::fs::read(ledger_path(l.root, l.session)).unwrap(),
        ledger
    );
    assert_eq!(l.status(), "verifying");
}

#[test]
fn a_check_that_exits_1_fails_the_verification() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::start(dir.path(), "vcheck", Some(&catalog(r#"["false"]"#)));
    let check = l.fails_at_its_check("test.session.repair_check_failed");
    assert_eq!(check["outcome"], "failed", "{check}");
    assert_eq!(check["exitCode"], 1);
}

#[test]
fn an_expanded_slice_with_an_empty_catalog_fails_closed() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::start(dir.path(), "vempty", None);
    l.app.edit("Pay", "");
    l.complete(&[]);
    let v = l.verify_fails(&[], &[], "slice", "test.session.repair_slice_empty");
    let slice = &v["record"]["slice"];
    assert_eq!(slice["scope"], "expanded", "{slice}");
    assert!(slice["expansionReasons"]
        .as_array()
        .unwrap()
        .contains(&Value::from("no_changed_files")));
    assert_eq!(slice["selectedChecks"], serde_json::json!([]));
}

#[test]
fn auto_resolve_resolves_only_after_the_persisted_pass() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::repaired(dir.path(), "vauto", "Pay");
    let out = l.verify("r-verify", &[CHECKOUT], &["--auto-resolve-repairs"]);
    let (code, v) = verdict(&out);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["result"]["to"], "review_ready");
    assert_eq!(v["resolution"]["op"], "auto_resolve");
    assert_eq!(v["resolution"]["to"], "resolved");
    let text = std::fs::read_to_string(ledger_path(l.root, l.session)).unwrap();
    let tail: Vec<(String, String)> = text
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|e| e["finding_id"] == FINDING)
        .map(|e| {
            (
                e["to"].as_str().unwrap().into(),
                e["actor"].as_str().unwrap().into(),
            )
        })
        .collect();
    let last: Vec<(&str, &str)> = tail[tail.len() - 2..]
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(
        last,
        [("review_ready", "a3s-test"), ("resolved", "a3s-test")],
        "the pass is its own persisted event before the resolution"
    );
    assert_eq!(l.status(), "resolved");
}

#[test]
fn a_candidate_that_fails_in_a_fresh_browser_keeps_the_finding_from_review_ready() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::start(dir.path(), "vproof", Some(&catalog(PASSING)));
    // The live page hot-reloads the fix, but the file on disk goes back to the old label: the
    // session's page passes steps 1–7, a fresh browser loading the files does not.
    //
    // The wait is for exactly "Pay": names match as case-insensitive substrings, so a plain
    // `role("button", "Pay")` already matches the unrepaired "Pay now" and passed before the
    // page had imported the edit; the revert could then land on disk before the page's
    // hot-reload import read the file, and the live page rendered "Pay now" (the verification
    // failed at `criteria`). Once the live page shows exactly "Pay" it holds the edited module,
    // and the unannounced revert bumps no version, so nothing makes that page import it again.
    l.app.edit("Pay", "");
    wait_for(
        l.root,
        l.session,
        r#"wait { visible = role("button", "Pay", exact = true) }"#,
    );
    l.app.revert_unannounced();
    l.complete(&[CHECKOUT]);
    let v = l.verify_fails(
        &[CHECKOUT],
        &[],
        "candidate",
        "test.session.repair_candidate_failed",
    );
    assert_eq!(v["record"]["checks"][0]["outcome"], "passed");
    assert_eq!(v["record"]["candidate"]["proof"]["passed"], false, "{v}");
}

/// A catalog whose only check covers `src/` with `command` and `timeout_ms`.
fn one_check(command: &str, timeout_ms: u64) -> String {
    format!(
        r#"project "fixture" {{
    verification {{
        check "checkout" {{
            tier = "focused"
            command = {command}
            file_prefixes = ["src/"]
            timeout_ms = {timeout_ms}
        }}
    }}
}}
"#
    )
}

#[test]
fn a_check_past_its_timeout_fails_the_verification() {
    let dir = tempfile::tempdir().unwrap();
    let project = one_check(r#"["sleep", "30"]"#, 300);
    let l = Loop::start(dir.path(), "vslow", Some(&project));
    let check = l.fails_at_its_check("test.session.repair_check_timeout");
    assert_eq!(check["outcome"], "timed_out", "{check}");
}

#[test]
fn a_check_that_leaves_a_double_forked_child_fails_and_nothing_is_left_running() {
    let dir = tempfile::tempdir().unwrap();
    // The check exits 0 at once but leaves a `sleep` behind (its pid in the project root).
    let project = one_check(
        r#"["sh", "-c", "(sleep 60 & echo $! > survivor.pid); exit 0"]"#,
        20_000,
    );
    let l = Loop::start(dir.path(), "vfork", Some(&project));
    let check = l.fails_at_its_check("test.session.repair_check_survivor");
    assert_eq!(check["outcome"], "surviving_descendant", "{check}");
    assert_eq!(check["exitCode"], 0, "the check's own process exited 0");
    let pid: i32 = std::fs::read_to_string(l.root.join("survivor.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // Stopped before the verdict was recorded: gone, or a zombie its new parent has not reaped.
    assert!(
        a3s_test_driver::process::ProcessInfo::read(pid).is_none_or(|p| p.is_zombie()),
        "the double-forked sleep {pid} is still running"
    );
}

#[test]
fn a_replayed_request_id_cannot_change_what_was_asked() {
    let dir = tempfile::tempdir().unwrap();
    let l = Loop::repaired(dir.path(), "vreplay", "Pay");
    let (code, v) = verdict(&l.verify("r-verify", &[CHECKOUT], &[]));
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["result"]["to"], "review_ready");
    let before = std::fs::read(ledger_path(l.root, l.session)).unwrap();
    // The request id of the person's verification, replayed with auto-resolution asked for:
    // refused, nothing appended, the finding still waits for a reviewer.
    let (code, v) = verdict(&l.verify("r-verify", &[CHECKOUT], &["--auto-resolve-repairs"]));
    assert_eq!(code, Some(2), "{v}");
    assert_eq!(
        v["error"]["code"], "test.session.repair_idempotency_conflict",
        "{v}"
    );
    assert_eq!(
        std::fs::read(ledger_path(l.root, l.session)).unwrap(),
        before
    );
    assert_eq!(l.status(), "review_ready");
    // The very same request again is answered from the ledger.
    let (code, v) = verdict(&l.verify("r-verify", &[CHECKOUT], &[]));
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["result"]["replayed"], true, "{v}");
    assert_eq!(
        std::fs::read(ledger_path(l.root, l.session)).unwrap(),
        before
    );
}

#[test]
fn the_checks_that_verify_a_repair_are_the_ones_pinned_at_claim() {
    let dir = tempfile::tempdir().unwrap();
    // The person's catalog: the check covering `src/` fails.
    let l = Loop::start(dir.path(), "vpinned", Some(&catalog(r#"["false"]"#)));
    let claim = l
        .events()
        .into_iter()
        .find(|e| e["action"]["claim"].is_object())
        .expect("a claim event");
    assert_eq!(
        claim["action"]["claim"]["pinned"]["checks"][1]["command"],
        serde_json::json!(["false"]),
        "{claim}"
    );
    // The agent rewrites the catalog so its check passes, without declaring it.
    crate::common::write(l.root, ".a3s-test/project.acl", catalog(r#"["true"]"#));
    l.app.edit("Pay", "");
    l.complete(&[CHECKOUT]);
    let v = l.verify_fails(
        &[CHECKOUT],
        &[],
        "slice",
        "test.session.repair_checks_changed",
    );
    let message = v["record"]["failure"]["message"].as_str().unwrap();
    assert!(message.contains("`checkout` changed"), "{message}");
    assert_eq!(v["record"]["pinnedChecks"]["declared"], false, "{v}");
    assert!(
        v["record"]["checks"].as_array().unwrap().is_empty(),
        "no check ran"
    );
}

#[test]
fn a_declared_change_to_the_checks_still_runs_the_pinned_ones() {
    let dir = tempfile::tempdir().unwrap();
    // Declaring the project file widens the slice to the regression check, which fails as the
    // person configured it; the agent's edit would make it pass.
    let regression = |command: &str| {
        catalog(r#"["true"]"#).replace(
            "tier = \"regression\"\n            command = [\"true\"]",
            &format!("tier = \"regression\"\n            command = {command}"),
        )
    };
    let l = Loop::start(dir.path(), "vdeclared", Some(&regression(r#"["false"]"#)));
    crate::common::write(l.root, ".a3s-test/project.acl", regression(r#"["true"]"#));
    l.app.edit("Pay", "");
    let files = [CHECKOUT, ".a3s-test/project.acl"];
    l.complete(&files);
    // The pinned `["false"]` ran, not the edited `["true"]`.
    let v = l.verify_fails(&files, &[], "checks", "test.session.repair_check_failed");
    assert_eq!(
        v["record"]["slice"]["selectedChecks"],
        serde_json::json!(["suite"])
    );
    assert_eq!(v["record"]["pinnedChecks"]["declared"], true, "{v}");
    assert_eq!(
        v["record"]["pinnedChecks"]["changes"],
        serde_json::json!(["`suite` changed"])
    );
}
