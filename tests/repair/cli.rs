//! `a3s-test agent repair-*` end to end.

use crate::support::*;
use serde_json::Value;

/// `agent <verb> <id> --session <session> --request-id <rid> --json`.
fn turn<'a>(verb: &'a str, id: &'a str, session: &'a str, rid: &'a str) -> [&'a str; 8] {
    [
        "agent",
        verb,
        id,
        "--session",
        session,
        "--request-id",
        rid,
        "--json",
    ]
}

/// [`turn`] in session `s1` followed by `extra`, owned, for the caller to extend further.
fn common(verb: &str, id: &str, rid: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = turn(verb, id, "s1", rid).map(String::from).to_vec();
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

#[test]
fn a_finding_goes_round_the_loop_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let document = doc(&[finding("f1", "Make the button blue")]);
    let imported = import(root, "s1", &document);
    assert_eq!(imported["accepted"], serde_json::json!(["f1"]));

    let inbox = json(&run(root, &["agent", "repair-inbox", "--json"], None));
    assert_eq!(inbox["protocol"], "a3s.test.repair-inbox/1");
    let next = &inbox["items"][0]["next_action"];
    assert_eq!(next["kind"], "claim");
    // Run the generated command exactly as given (argv without the program name).
    let argv: Vec<String> = next["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
    let claimed = json(&run(root, &args, None));
    assert_eq!(claimed["result"]["to"], "claimed");
    let attempt = claimed["result"]["attempt_id"].as_str().unwrap().to_owned();
    // Replaying the same generated command is idempotent.
    let again = json(&run(root, &args, None));
    assert_eq!(again["result"]["replayed"], true);
    assert_eq!(again["result"]["attempt_id"], attempt.as_str());

    let progress = common(
        "repair-progress",
        "f1",
        "p1",
        &["--attempt-id", &attempt, "--message", "editing"],
    );
    let v = ok_json(root, &progress);
    assert_eq!(v["result"]["to"], "repairing");
    // Complete without a change list fails closed.
    let mut complete = common("repair-complete", "f1", "c1", &["--attempt-id", &attempt]);
    let out = run(
        root,
        &complete.iter().map(String::as_str).collect::<Vec<_>>(),
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        json(&out)["error"]["code"],
        "test.session.repair_invalid_input"
    );
    complete.extend([
        "--changed-file".into(),
        "src/b.tsx".into(),
        "--changed-file".into(),
        "src/a.css".into(),
    ]);
    let v = ok_json(root, &complete);
    assert_eq!(v["result"]["to"], "verifying");
    assert_eq!(v["next_action"]["kind"], "await_verification");

    let rec = ok_json(
        root,
        &["agent", "repair-inspect", "f1", "--session", "s1", "--json"],
    );
    assert_eq!(rec["protocol"], "a3s.test.repair-loop-record/1");
    assert_eq!(
        rec["changed_files"],
        serde_json::json!(["src/b.tsx", "src/a.css"])
    );
    assert_eq!(rec["untrusted"]["instruction"], "Make the button blue");
}

#[test]
fn refusals_are_coded_and_exit_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let document = doc(&[finding("f1", "x")]);
    import(root, "s1", &document);
    let claim = turn("repair-claim", "f1", "s1", "a");
    assert!(run(root, &claim, None).status.success());
    let other = turn("repair-claim", "f1", "s1", "b");
    let out = run(root, &other, None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        json(&out)["error"]["code"],
        "test.session.repair_invalid_transition"
    );
    let conflict = turn("repair-reject", "f1", "s1", "a");
    let out = run(root, &conflict, None);
    assert_eq!(
        json(&out)["error"]["code"],
        "test.session.repair_idempotency_conflict"
    );
    for bad in [
        turn("repair-claim", "f1;id", "s1", "c"),
        turn("repair-claim", "f1", "../x", "c"),
        turn("repair-claim", "f1", "s1", "$(id)"),
    ] {
        let out = run(root, &bad, None);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            json(&out)["error"]["code"],
            "test.session.repair_invalid_id"
        );
    }
    let out = run(
        root,
        &["agent", "repair-inbox", "--limit", "101", "--json"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    // Human output goes to stderr with the code.
    let out = run(root, &other[..7], None);
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("error[test.session.repair_invalid_transition]"));
}

#[test]
fn hostile_instruction_text_stays_data() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let hostile =
        "'; rm -rf / #\n$(curl evil) `id` && a3s-test agent repair-accept f1 --session s1";
    let document = doc(&[finding("f1", hostile)]);
    import(root, "s1", &document);
    let inbox = json(&run(root, &["agent", "repair-inbox", "--json"], None));
    let item = &inbox["items"][0];
    assert_eq!(item["page_text"]["untrusted"], true);
    let command = item["next_action"]["command"].as_str().unwrap();
    for bad in ["rm", "curl", "`", "$(", ";", "'", "&&", "repair-accept"] {
        assert!(!command.contains(bad), "{bad} leaked into {command}");
    }
    let human = String::from_utf8(run(root, &["agent", "repair-inbox"], None).stdout).unwrap();
    assert!(!human
        .lines()
        .any(|l| l.contains("next") && l.contains("rm -rf")));
    let rec = json(&run(
        root,
        &["agent", "repair-inspect", "f1", "--session", "s1", "--json"],
        None,
    ));
    assert_eq!(
        rec["untrusted"]["instruction"],
        Value::String(hostile.into())
    );
    assert!(!rec["next_action"]["command"]
        .as_str()
        .unwrap()
        .contains("rm"));
}

/// Drive findings `ids` of session `s1` to `verifying` (claim, progress, complete with one
/// changed file `src/a.css`) and return each attempt id.
fn to_verifying(root: &std::path::Path, ids: &[&str]) -> Vec<String> {
    let items: Vec<Value> = ids.iter().map(|id| finding(id, "Fix it")).collect();
    import(root, "s1", &doc(&items));
    let mut attempts = Vec::new();
    for id in ids {
        let claim = common("repair-claim", id, &format!("claim-{id}"), &[]);
        let attempt = ok_json(root, &claim)["result"]["attempt_id"]
            .as_str()
            .unwrap()
            .to_owned();
        let with_attempt = ["--attempt-id", attempt.as_str()];
        ok_json(
            root,
            &common("repair-progress", id, &format!("prog-{id}"), &with_attempt),
        );
        let changed = [&with_attempt[..], &["--changed-file", "src/a.css"]].concat();
        let complete = common("repair-complete", id, &format!("done-{id}"), &changed);
        let v = ok_json(root, &complete);
        assert_eq!(v["result"]["to"], "verifying");
        attempts.push(attempt);
    }
    attempts
}

/// `--auto-resolve-repairs` acts only after a persisted passing `review_ready`: a pass is appended
/// first and then resolved in its own event; a failure is never resolved; a changed-files
/// mismatch is refused before anything is appended; a replay changes nothing.
#[test]
fn verify_result_auto_resolves_only_a_persisted_pass() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let attempts = to_verifying(root, &["f1", "f2", "f3"]);
    let verify = |id: &str, attempt: &str, rid: &str, extra: &[&str]| {
        let mut args = turn("repair-verify-result", id, "s1", rid).to_vec();
        args.extend(["--attempt-id", attempt]);
        args.extend_from_slice(extra);
        run(root, &args, None)
    };
    let auto = ["--changed-file", "src/a.css", "--auto-resolve-repairs"];

    // A mismatching change list is refused and appends nothing.
    let before = std::fs::read(ledger_path(root, "s1")).unwrap();
    let out = verify(
        "f1",
        &attempts[0],
        "v0",
        &[
            "--passed",
            "--changed-file",
            "src/other.css",
            "--auto-resolve-repairs",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        json(&out)["error"]["code"],
        "test.session.repair_change_mismatch"
    );
    assert_eq!(std::fs::read(ledger_path(root, "s1")).unwrap(), before);

    // A pass with the flag: review_ready is persisted, then resolved by a3s-test.
    let mut pass = vec!["--passed", "--evidence-digest"];
    let digest = format!("sha256:{}", "ab".repeat(32));
    pass.push(&digest);
    pass.extend(auto);
    let v = json(&verify("f1", &attempts[0], "v1", &pass));
    assert_eq!(v["result"]["op"], "verify_pass");
    assert_eq!(v["result"]["to"], "review_ready");
    assert_eq!(v["resolution"]["op"], "auto_resolve");
    assert_eq!(v["resolution"]["to"], "resolved");
    let ledger = std::fs::read_to_string(ledger_path(root, "s1")).unwrap();
    let lines: Vec<Value> = ledger
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|e: &Value| e["finding_id"] == "f1")
        .collect();
    let tail: Vec<(&str, &str)> = lines[lines.len() - 2..]
        .iter()
        .map(|e| (e["to"].as_str().unwrap(), e["actor"].as_str().unwrap()))
        .collect();
    assert_eq!(
        tail,
        [("review_ready", "a3s-test"), ("resolved", "a3s-test")],
        "the pass is its own persisted event before the resolution"
    );
    // Replaying the same request changes nothing and resolves nothing twice.
    let size = ledger.len();
    let again = json(&verify("f1", &attempts[0], "v1", &pass));
    assert_eq!(again["result"]["replayed"], true);
    assert!(again["resolution"].is_null());
    assert_eq!(
        std::fs::read_to_string(ledger_path(root, "s1"))
            .unwrap()
            .len(),
        size
    );

    // A failure with the flag is never resolved.
    let mut fail = vec!["--failed", "--summary", "button still red"];
    fail.extend(auto);
    let v = json(&verify("f2", &attempts[1], "v2", &fail));
    assert_eq!(v["result"]["to"], "verification_failed");
    assert!(v["resolution"].is_null());

    // A pass without the flag waits for the reviewer.
    let v = json(&verify(
        "f3",
        &attempts[2],
        "v3",
        &["--passed", "--changed-file", "src/a.css"],
    ));
    assert_eq!(v["result"]["to"], "review_ready");
    assert!(v["resolution"].is_null());
    assert_eq!(v["next_action"]["kind"], "accept");

    // A verdict is required (usage error, exit 2), and only from `verifying`.
    let out = verify("f3", &attempts[2], "v4", &["--changed-file", "src/a.css"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = verify("f3", &attempts[2], "v5", &pass);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
}
