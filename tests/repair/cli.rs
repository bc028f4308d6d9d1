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
    // A bound refused by the flag's type is the command's coded refusal, as any other.
    assert_eq!(
        json(&out)["error"]["code"],
        "test.session.repair_invalid_input"
    );
    assert!(
        json(&out)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--limit <LIMIT> must be at most 100 (got 101)"),
        "{}",
        json(&out)
    );
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

#[test]
fn sessions_and_their_ledgers_share_one_id_rule() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let message =
        "invalid session id \"-x\": use 1-64 characters of A-Z a-z 0-9 _ - (not starting with -)";
    // A session verb refuses a leading dash however it is spelled, before anything starts…
    for args in [
        vec![
            "agent",
            "start",
            "http://127.0.0.1:9/",
            "--session",
            "-x",
            "--json",
        ],
        vec![
            "agent",
            "start",
            "http://127.0.0.1:9/",
            "--session=-x",
            "--json",
        ],
        vec!["agent", "observe", "--session", "-x", "--json"],
    ] {
        let out = run(root, &args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let refusal = json(&out);
        assert_eq!(refusal["error"]["code"], "test.session.invalid_input");
        assert_eq!(refusal["error"]["message"], message, "{args:?}");
    }
    assert!(!root.join(".a3s-test").exists(), "nothing was created");
    // … and the repair verbs refuse it with the same message, in their own code family.
    let out = run(
        root,
        &["agent", "repair-inbox", "--session=-x", "--json"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let refusal = json(&out);
    assert_eq!(refusal["error"]["code"], "test.session.repair_invalid_id");
    assert_eq!(refusal["error"]["message"], message);

    // An id at the edge of the rule is one the session verbs accept (no such session yet)…
    let id = "_x-";
    let out = run(root, &["agent", "observe", "--session", id, "--json"], None);
    assert_eq!(json(&out)["error"]["code"], "test.session.unknown");
    // … and its ledger takes findings, lists them and lets them be claimed.
    let imported = import(root, id, &doc(&[finding("f1", "Make the button blue")]));
    assert_eq!(imported["accepted"], serde_json::json!(["f1"]));
    let inbox = json(&run(
        root,
        &["agent", "repair-inbox", "--session", id, "--json"],
        None,
    ));
    assert_eq!(inbox["items"].as_array().unwrap().len(), 1, "{inbox}");
    let claimed = json(&run(root, &turn("repair-claim", "f1", id, "c1"), None));
    assert_eq!(claimed["result"]["to"], "claimed", "{claimed}");
}
