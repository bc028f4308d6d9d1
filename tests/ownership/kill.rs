//! Death follows the owner: `kill -9` of `a3s-test run` — the way CI runners end overdue jobs, no
//! handler runs — at different moments (at once, while the browser starts, mid-scenario) leaves
//! no process of that run alive within 2 s, and the next launch removes the profile it left.
//! `kill -9` of `a3s-test dev` takes its dev server, supervisor and browser along, and the next
//! `dev` reopens the session the killed one could not close.

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
/// run): Python's HTTP server on a free port of its own, so every run starts it and waits for it
/// (a URL that already answers would be reused, and nothing of the dev server would be owned).
fn project() -> String {
    let port = crate::harness::free_port();
    let serve =
        format!("trap '' TERM; sleep 600 & exec python3 -m http.server {port} --bind 127.0.0.1");
    dev_server_project(&format!("http://127.0.0.1:{port}"), &["sh", "-c", &serve])
}

#[test]
fn kill_9_of_run_at_any_moment_leaves_nothing_and_the_next_start_removes_the_profile() {
    let server = FixtureServer::start();
    let work = workdir(&[
        ("hold.acl", HOLD),
        ("quick.acl", QUICK),
        (".a3s-test/project.acl", &project()),
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
        let left = tracker.killed_after(Duration::from_secs(2));
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

/// `a3s-test dev --json` in `dir` carrying `tag`, and its stdout lines on a channel.
fn dev(dir: &std::path::Path, tag: &str) -> (Owned, std::sync::mpsc::Receiver<String>) {
    let mut child = command("dev", &["--json"], dir)
        .env(TAG_VAR, tag)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("A3S_TEST_ROOT")
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    (Owned(child), rx)
}

/// The first event named `name` within a minute.
fn event(lines: &std::sync::mpsc::Receiver<String>, name: &str) -> serde_json::Value {
    let until = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let left = until.saturating_duration_since(std::time::Instant::now());
        let line = lines
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no {name} event within a minute"));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        if v["event"] == name {
            return v;
        }
    }
}

/// A child this test started, killed with its group and reaped when the guard goes.
struct Owned(std::process::Child);

impl Drop for Owned {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            // SAFETY: the group of our own child (spawned in a group of its own), not yet reaped.
            unsafe { libc::kill(-(self.0.id() as i32), libc::SIGKILL) };
        }
        let _ = self.0.wait();
    }
}

#[test]
fn kill_9_of_dev_takes_everything_along_and_the_next_dev_reopens_its_session() {
    let work = crate::matrix::dev_project(crate::harness::free_port());
    let d = work.path();
    let tag = new_tag("dev-kill");
    let mut tracker = Tracker::new(&tag);
    let (mut first, lines) = dev(d, &tag);
    let ready = event(&lines, "ready");
    assert_eq!(ready["server"], "started", "{ready}");
    // SAFETY: SIGKILL to the `dev` this test spawned (its pid, not its group).
    unsafe { libc::kill(first.0.id() as i32, libc::SIGKILL) };
    first.0.wait().unwrap();
    let left = tracker.killed_after(Duration::from_secs(2));
    assert!(
        left.is_empty(),
        "processes {left:?} outlived the killed dev"
    );
    // The record it could not close is settled by the next `dev`, which reopens the session.
    let (again, lines) = dev(d, &tag);
    let ready = event(&lines, "ready");
    assert_eq!(ready["server"], "started", "{ready}");
    // SAFETY: SIGINT to the second `dev` this test spawned.
    unsafe { libc::kill(again.0.id() as i32, libc::SIGINT) };
    event(&lines, "stopped");
    let mut again = again;
    let status = wait_timeout::ChildExt::wait_timeout(&mut again.0, Duration::from_secs(30))
        .unwrap()
        .expect("the second dev exits");
    assert_eq!(status.code(), Some(0));
    let left = tracker.wait_none(Duration::from_secs(2));
    assert!(
        left.is_empty(),
        "processes {left:?} outlived the stopped dev"
    );
}
