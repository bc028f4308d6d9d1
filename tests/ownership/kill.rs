//! Death follows the owner: `kill -9` of `a3s-test run` — the way CI runners end overdue jobs, no
//! handler runs — at different moments (at once, while the browser starts, mid-scenario) leaves
//! no process of that run alive within 2 s, and the next launch removes the profile it left.

use crate::harness::{
    command, dev_server_project, run_served, wait_for_request, workdir, FixtureServer, HOLD,
};
use crate::owned::{new_tag, profile_of, Tracker, TAG_VAR};
use std::process::Stdio;
use std::time::Duration;

const QUICK: &str = include_str!("../fixtures/suites/quick.acl");

/// Trials per run of this test: the bar of 20, rounded up to seven of each moment.
const TRIALS: usize = 21;

/// When the run is killed.
#[derive(Debug, Clone, Copy)]
enum Moment {
    /// Right after it was spawned (before or while it launches anything).
    AtOnce,
    /// As soon as its browser process exists (the browser is still starting).
    BrowserStarting,
    /// While the scenario waits on a page that never answers.
    MidScenario,
}

/// A project whose dev server ignores SIGTERM and has a worker of its own (a grandchild of the
/// run); it is "ready" at once: the fixture server answers its URL.
fn project(url: &str) -> String {
    dev_server_project(url, &["sh", "-c", "trap '' TERM; sleep 600 & wait"])
}

#[test]
fn kill_9_of_run_at_any_moment_leaves_nothing_and_the_next_start_removes_the_profile() {
    let server = FixtureServer::start();
    let work = workdir(&[
        ("hold.acl", HOLD),
        ("quick.acl", QUICK),
        (".a3s-test/project.acl", &project(&server.base_url)),
    ]);
    let moments = [Moment::AtOnce, Moment::BrowserStarting, Moment::MidScenario];
    let mut profiles = Vec::new();
    for trial in 0..TRIALS {
        let moment = moments[trial % moments.len()];
        let tag = new_tag("run-kill");
        let mut tracker = Tracker::new(&tag);
        let requests = server.watch();
        let args = ["hold.acl", "--jobs", "1", "--base-url", &server.base_url];
        let mut child = command("run", &args, work.path())
            .env(TAG_VAR, &tag)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        match moment {
            Moment::AtOnce => {}
            Moment::BrowserStarting => {
                // The browser: a tagged process leading its own group with a `--user-data-dir`.
                // Looked at often: the moment to kill is while it starts.
                let appeared = crate::common::wait_until_every(
                    Duration::from_millis(2),
                    Duration::from_secs(60),
                    || {
                        tracker
                            .tagged()
                            .iter()
                            .any(|p| p.pid == p.pgid && p.pid != pid && profile_of(p.pid).is_some())
                    },
                );
                assert!(appeared, "trial {trial}: no browser appeared");
            }
            Moment::MidScenario => {
                wait_for_request(&requests, "/hang", Duration::from_secs(60));
            }
        }
        let seen = tracker.tagged();
        profiles.extend(seen.iter().filter_map(|p| profile_of(p.pid)));
        // SAFETY: SIGKILL to the run this test spawned (its pid, not its group).
        unsafe { libc::kill(pid, libc::SIGKILL) };
        child.wait().unwrap();
        let left = tracker.wait_none(Duration::from_secs(2));
        if !left.is_empty() {
            tracker.kill_all();
        }
        assert!(
            left.is_empty(),
            "trial {trial} ({moment:?}): processes {left:?} outlived the killed run (seen {seen:?})"
        );
    }
    assert!(
        !profiles.is_empty(),
        "at least the mid-scenario trials saw a browser"
    );
    // The next launch sweeps the profiles whose owner died.
    let done = run_served(&server, work.path(), &["quick.acl"]);
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let kept: Vec<_> = profiles.iter().filter(|p| p.exists()).collect();
    assert!(kept.is_empty(), "profiles left behind: {kept:?}");
}
