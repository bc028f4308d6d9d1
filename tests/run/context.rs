//! Context options and the clock through the binary in real Chromium (`docs/acl.md` §2.4):
//! `tests/fixtures/suites/context.acl` opens a loopback page that prints what it sees —
//! `navigator.language`, the time zone, `matchMedia`, `navigator.onLine`, the geolocation, the
//! user agent, the width, touch, the headers the server received, `Date` and a timer — and each
//! scenario expects what its options make of it. Header and password values come from the run's
//! environment and appear in nothing the run prints.

use crate::harness::{command, finish, workdir, FixtureServer, RUN_BOUND};

const SUITE: &str = include_str!("../fixtures/suites/context.acl");
const HEADER: &str = "header-from-env";
const PASSWORD: &str = "open-sesame";

#[test]
fn the_page_sees_what_the_context_options_and_the_clock_say() {
    let server = FixtureServer::start();
    let work = workdir(&[("context.acl", SUITE)]);
    let args = [
        "context.acl",
        "--json",
        "--base-url",
        server.base_url.as_str(),
    ];
    let mut run = command("run", &args, work.path());
    run.env("A3S_TEST_HEADER", HEADER)
        .env("A3S_TEST_PASSWORD", PASSWORD);
    let done = finish(run.spawn().unwrap(), RUN_BOUND);
    let json = done.json();
    let failed: Vec<String> = json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] != "passed")
        .map(|s| format!("{}: {}", s["id"], s["failure"]))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}\n{}", done.stderr);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(json["scenarios"].as_array().unwrap().len(), 5);
    for output in [&done.stdout, &done.stderr] {
        assert!(!output.contains(PASSWORD), "the password was written out");
    }
}

#[test]
fn an_unset_header_variable_fails_before_the_first_step_naming_it() {
    let server = FixtureServer::start();
    let work = workdir(&[("context.acl", SUITE)]);
    let args = [
        "context.acl",
        "--json",
        "--filter",
        "context/desk",
        "--base-url",
        server.base_url.as_str(),
    ];
    let mut run = command("run", &args, work.path());
    run.env_remove("A3S_TEST_HEADER");
    let done = finish(run.spawn().unwrap(), RUN_BOUND);
    let json = done.json();
    let scenario = &json["scenarios"][0];
    assert_eq!(scenario["failure"]["code"], "test.spec.env_unset", "{json}");
    assert!(
        scenario["failure"]["message"]
            .as_str()
            .unwrap()
            .contains("A3S_TEST_HEADER"),
        "{json}"
    );
    assert_eq!(
        scenario["steps"].as_array().map_or(0, Vec::len),
        0,
        "{json}"
    );
}

#[test]
fn refused_credentials_fail_the_expectation_without_writing_the_password() {
    let server = FixtureServer::start();
    let work = workdir(&[("context.acl", SUITE)]);
    let args = [
        "context.acl",
        "--json",
        "--filter",
        "context/credentials",
        "--base-url",
        server.base_url.as_str(),
    ];
    let wrong = "not-the-password-3f9a";
    let mut run = command("run", &args, work.path());
    run.env("A3S_TEST_PASSWORD", wrong)
        .env("A3S_TEST_HEADER", HEADER);
    let done = finish(run.spawn().unwrap(), RUN_BOUND);
    let json = done.json();
    let scenario = &json["scenarios"][0];
    assert_eq!(done.code, 1, "{json}");
    assert_eq!(
        scenario["failure"]["code"], "test.assert.text_mismatch",
        "the server answered 401: {json}"
    );
    for output in [&done.stdout, &done.stderr] {
        assert!(!output.contains(wrong), "the password was written out");
    }
}
