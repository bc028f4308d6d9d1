//! A cleanup that really fails, and the retry that succeeds. `agent abort` kills a recorded group
//! once and then waits (bounded) for its members to go; a group that keeps gaining members — here
//! one that another process of the same terminal session keeps joining, as a forking helper would
//! — outlives that bound. The test owns such a group and puts it in the record of a real session
//! whose supervisor it killed (the supervisor leads a session of its own, so its real groups
//! cannot be joined from outside). The session must then stay `cleanup_failed`, refuse turns with
//! `test.session.cleanup`, and a later `abort` — once the group stops growing — must stop it and
//! close the session.

use crate::harness::{command, workdir, FixtureServer};
use crate::owned::{new_tag, Tracker, TAG_VAR};
use a3s_test_runner::process_tree::ProcessInfo;
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Deadline of one CLI command (a failing cleanup waits out its own bound first).
const TURN: Duration = Duration::from_secs(90);

/// `a3s-test agent …` in `dir`, bounded: (exit code, stdout as JSON).
fn agent(dir: &Path, tag: &str, args: &[&str]) -> (i32, Value) {
    let child = command("agent", args, dir)
        .env(TAG_VAR, tag)
        .spawn()
        .unwrap();
    let out = crate::common::wait_output(child, TURN);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), json)
}

fn record_path(dir: &Path, id: &str) -> std::path::PathBuf {
    dir.join(".a3s-test/agent-sessions")
        .join(id)
        .join("session.json")
}

fn record(dir: &Path, id: &str) -> Value {
    serde_json::from_slice(&std::fs::read(record_path(dir, id)).unwrap()).unwrap()
}

fn sleeper() -> Command {
    let mut c = Command::new("sleep");
    c.arg("600")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

/// A member that leaves by itself soon after it joined.
fn brief() -> Command {
    let mut c = Command::new("sleep");
    c.arg("0.2")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

/// True while a child is running (not ended, not a zombie).
fn running(child: &Child) -> bool {
    ProcessInfo::read(child.id() as i32).is_some_and(|p| !p.is_zombie())
}

#[test]
fn a_cleanup_that_cannot_finish_keeps_the_session_in_cleanup_until_abort_retries() {
    let server = FixtureServer::start();
    let work = workdir(&[]);
    let d = work.path();
    let tag = new_tag("cleanup-failed");
    let mut tracker = Tracker::new(&tag);
    let url = format!("{}/", server.base_url);
    let (code, v) = agent(d, &tag, &["start", &url, "--session", "c", "--json"]);
    assert_eq!(code, 0, "{v}");

    // The supervisor dies (its browser with it): what the session recorded is all that is left.
    let o = record(d, "c")["ownership"].clone();
    let pid = o["supervisor_pid"].as_i64().unwrap() as i32;
    assert!(
        tracker.tagged().iter().any(|p| p.pid == pid),
        "the recorded supervisor is this test's"
    );
    // SAFETY: the supervisor this test's `agent start` launched (tag checked above).
    unsafe { libc::kill(pid, libc::SIGKILL) };
    let left = tracker.wait_none(Duration::from_secs(2));
    assert!(left.is_empty(), "the killed supervisor left {left:?}");

    // A group this test owns, recorded as the session's browser group, that keeps being joined.
    let leader = sleeper().process_group(0).spawn().unwrap();
    let group = leader.id() as i32;
    let start = ProcessInfo::read(group).unwrap().start_time;
    let growing = Arc::new(AtomicBool::new(true));
    let joiner = {
        let growing = growing.clone();
        std::thread::spawn(move || {
            let mut joined = 0usize;
            let mut members: Vec<Child> = Vec::new();
            // A new member every millisecond, each living a fifth of a second: at any moment some
            // joined after the cleanup's kill. Bounded by the flag and a count.
            while growing.load(Ordering::SeqCst) && joined < 60_000 {
                members.push(brief().process_group(group).spawn().unwrap());
                joined += 1;
                // Reap the members that ended (never the leader: it keeps the group alive).
                members.retain_mut(|m| !matches!(m.try_wait(), Ok(Some(_))));
                // The pace of joining, not a wait for anything.
                std::thread::sleep(Duration::from_millis(1));
            }
            (leader, members, joined)
        })
    };
    let mut faked = record(d, "c");
    faked["ownership"]["browser_pid"] = group.into();
    faked["ownership"]["browser_pgid"] = group.into();
    faked["ownership"]["browser_start"] = start.into();
    std::fs::write(record_path(d, "c"), serde_json::to_vec(&faked).unwrap()).unwrap();

    let (code, v) = agent(d, &tag, &["abort", "--session", "c", "--json"]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["error"]["code"], "test.session.cleanup", "{v}");
    assert_eq!(record(d, "c")["state"], "cleanup_failed");
    for args in [
        &["observe", "--session", "c", "--json"][..],
        &["click", "@e1", "--session", "c", "--json"][..],
    ] {
        let (code, v) = agent(d, &tag, args);
        assert_eq!(code, 2, "{args:?}: {v}");
        assert_eq!(v["error"]["code"], "test.session.cleanup", "{args:?}: {v}");
    }

    // The group stops growing: the retried cleanup stops what is left and closes the session.
    growing.store(false, Ordering::SeqCst);
    let (mut leader, mut members, joined) = joiner.join().unwrap();
    assert!(joined >= 2, "members joined the group");
    // One member that would stay: the retried cleanup has to stop it.
    let stays = sleeper().process_group(group).spawn().unwrap();
    members.push(stays);
    let (code, v) = agent(d, &tag, &["abort", "--session", "c", "--json"]);
    let still: Vec<u32> = members
        .iter()
        .filter(|m| running(m))
        .map(|m| m.id())
        .collect();
    for m in members.iter_mut().chain(std::iter::once(&mut leader)) {
        let _ = m.kill();
        let _ = m.wait();
    }
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["cleanup_verified"], true, "{v}");
    assert!(still.is_empty(), "the retried abort left {still:?}");
    assert_eq!(record(d, "c")["state"], "aborted");
}
