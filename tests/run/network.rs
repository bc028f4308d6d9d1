//! Routes and network waits through the binary in real Chromium (`tests/fixtures/suites/
//! network.acl`): a regex route with headers answers once, then the fixture server does; the
//! response waits after each click see the answer that came during it; a wait whose response
//! never comes fails with `test.assert.network_not_seen` within the expect timeout.

use crate::harness::{command, finish, workdir, FixtureServer, RUN_BOUND};

const SUITE: &str = include_str!("../fixtures/suites/network.acl");

#[test]
fn routes_and_network_waits_run_through_the_binary() {
    let server = FixtureServer::start();
    let work = workdir(&[("network.acl", SUITE)]);
    let args = [
        "network.acl",
        "--json",
        "--base-url",
        server.base_url.as_str(),
    ];
    let done = finish(
        command("run", &args, work.path()).spawn().unwrap(),
        RUN_BOUND,
    );
    let json = done.json();
    let scenarios = json["scenarios"].as_array().unwrap();
    let by_id = |id: &str| {
        scenarios
            .iter()
            .find(|s| s["id"].as_str().is_some_and(|i| i.ends_with(id)))
            .unwrap_or_else(|| panic!("{id} missing: {json}"))
    };
    let routed = by_id("routed-once-then-real");
    assert_eq!(routed["status"], "passed", "{routed}\n{}", done.stderr);
    let never = by_id("never-answered");
    assert_eq!(never["status"], "failed", "{never}");
    let failure = never["failure"].to_string();
    assert!(
        failure.contains("test.assert.network_not_seen"),
        "{failure}"
    );
    assert!(
        failure.contains(r#"no response \"**/api/cart\" since the previous action began"#),
        "{failure}"
    );
    assert!(failure.contains("(the expect timeout)"), "{failure}");
    assert_eq!(done.code, 1, "{}", done.stderr);
}
