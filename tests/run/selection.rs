//! `--list` (the plan, nothing run, no browser) and `--last-failed` (only what did not pass in the
//! previous run, from `.a3s-test/last-run.json`) through the binary.

use crate::harness::{run, run_served, scenario_ids as ids, workdir, FixtureServer};
use std::time::Duration;

const SUITE: &str = include_str!("../fixtures/suites/pick.acl");

/// A bound for commands that start no browser.
const QUICK: Duration = Duration::from_secs(30);

#[test]
fn list_prints_the_plan_and_starts_nothing() {
    let work = workdir(&[("pick.acl", SUITE)]);
    // A browser that does not exist: listing never needs one.
    let args = ["pick.acl", "--list", "--browser", "/nonexistent/chromium"];
    let human = run(&args, work.path(), QUICK);
    assert_eq!(human.code, 0, "{}", human.stderr);
    insta::assert_snapshot!("list_human", human.stdout);
    assert_eq!(
        human.stderr.trim(),
        "3 scenarios planned; nothing was run (--list)"
    );
    let tagged = run(
        &["pick.acl", "--list", "--json", "--tag", "smoke"],
        work.path(),
        QUICK,
    );
    assert_eq!(tagged.code, 0, "{}", tagged.stderr);
    insta::assert_json_snapshot!("list_json", tagged.json());
    assert!(
        !work.path().join(".a3s-test").exists(),
        "no run folder and no last-run record for a listing"
    );
}

#[test]
fn last_failed_reruns_only_what_failed_and_everything_without_a_record() {
    let server = FixtureServer::start();
    let work = workdir(&[("pick.acl", SUITE)]);
    let with = |extra: &[&str]| {
        let args = [&["pick.acl", "--json"], extra].concat();
        run_served(&server, work.path(), &args)
    };

    // No record yet: said so, and everything runs (as Playwright does).
    let first = with(&["--last-failed"]);
    assert_eq!(first.code, 1, "{}", first.stderr);
    assert!(
        first.stderr.contains("no record of a previous run"),
        "{}",
        first.stderr
    );
    assert_eq!(ids(&first.json()).len(), 3);
    let record: serde_json::Value = serde_json::from_slice(
        &std::fs::read(work.path().join(".a3s-test/last-run.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(record["format_version"], 1);
    assert_eq!(record["run_id"], first.json()["run_id"]);
    assert_eq!(
        record["not_passed"],
        serde_json::json!([{ "id": "pick/fails", "status": "failed" }])
    );

    // The record selects the failed scenario; `--list` shows it without running it.
    let listed = with(&["--last-failed", "--list"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert_eq!(ids(&listed.json()), ["pick/fails"]);
    assert_eq!(listed.json()["skipped"], 2);
    let again = with(&["--last-failed"]);
    assert_eq!(again.code, 1, "{}", again.stderr);
    let json = again.json();
    assert_eq!(ids(&json), ["pick/fails"]);
    assert_eq!(json["skipped"], 2);
    assert!(
        again.stderr.contains("1 scenario did not pass"),
        "{}",
        again.stderr
    );

    // A run where everything passed leaves an empty record: `--last-failed` selects nothing.
    let passing = with(&["--tag", "smoke"]);
    assert_eq!(passing.code, 0, "{}", passing.stderr);
    let none = with(&["--last-failed"]);
    assert_eq!(none.code, 0, "{}", none.stderr);
    assert!(ids(&none.json()).is_empty());
    assert_eq!(none.json()["skipped"], 3);
}

#[test]
fn more_jobs_than_the_machine_holds_run_at_the_cap_and_say_so() {
    let server = FixtureServer::start();
    let work = workdir(&[("pick.acl", SUITE)]);
    let done = run_served(
        &server,
        work.path(),
        &["pick.acl", "--json", "--jobs", "65535"],
    );
    // `pick/fails` fails on purpose; the run itself is whole.
    assert_eq!(done.code, 1, "{}", done.stderr);
    assert!(
        done.stderr
            .contains("warning: --jobs 65535 is more than this machine runs at once; running "),
        "{}",
        done.stderr
    );
    assert_eq!(ids(&done.json()).len(), 3);
}
