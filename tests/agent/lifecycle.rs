//! Sessions are owned state: a supervisor killed or hung up is aborted cleanly, concurrent starts
//! of one id make one session, an interrupted start leaves no session, a session in cleanup
//! refuses turns until `abort` retries, and a recycled pid is never touched. Processes are counted
//! by a tag the test sets on the commands it runs (`tests/owned.rs`), never by name.

use crate::owned::{new_tag, Tracker, TAG_VAR};
use crate::support::{page_and_project, project, session_json, Out, Server, TURN};
use a3s_test_runner::process_tree::ProcessInfo;
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// How long everything of a session may take to disappear once it is closed or its owner died.
const GONE: Duration = Duration::from_secs(2);

fn command(dir: &Path, tag: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_a3s-test"));
    command
        .args(args)
        .current_dir(dir)
        .env(TAG_VAR, tag)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Wait for a spawned command with a deadline and collect its output.
fn collect(child: Child) -> Out {
    crate::common::wait_output(child, TURN).into()
}

fn a3s(dir: &Path, tag: &str, args: &[&str]) -> Out {
    crate::common::output_within(&mut command(dir, tag, args), None, TURN).into()
}

fn ok(dir: &Path, tag: &str, args: &[&str]) -> Value {
    let out = a3s(dir, tag, args);
    assert_eq!(out.code, 0, "{args:?}: {}\n{}", out.stdout, out.stderr);
    out.json()
}

fn assert_none_left(tracker: &mut Tracker, what: &str) {
    let left = tracker.killed_after(GONE);
    assert!(left.is_empty(), "{what}: processes {left:?} survived");
}

/// A page with a button on a loopback server, a fresh project, and the page's URL.
fn page() -> (Server, tempfile::TempDir, String) {
    page_and_project("<h1>Home</h1><button>Go</button>")
}

#[test]
fn a_killed_or_hung_up_supervisor_is_aborted_cleanly() {
    let (_server, dir, url) = page();
    let d = dir.path();
    for (i, sig) in [libc::SIGKILL, libc::SIGHUP, libc::SIGKILL, libc::SIGHUP]
        .into_iter()
        .enumerate()
    {
        let tag = new_tag("supervisor");
        let mut tracker = Tracker::new(&tag);
        let id = format!("sup{i}");
        ok(
            d,
            &tag,
            &["agent", "start", &url, "--session", &id, "--json"],
        );
        let pid = session_json(d, &id)["ownership"]["supervisor_pid"]
            .as_u64()
            .unwrap() as i32;
        let supervisor = ProcessInfo::read(pid).expect("the supervisor runs");
        assert!(
            tracker
                .tagged()
                .iter()
                .any(|p| (p.pid, p.start_time) == (supervisor.pid, supervisor.start_time)),
            "the recorded supervisor is the one this test started"
        );
        // SAFETY: the supervisor this test started (pid and start time checked above).
        unsafe { libc::kill(pid, sig) };
        let out = a3s(d, &tag, &["agent", "abort", "--session", &id, "--json"]);
        assert_eq!(out.code, 0, "signal {sig}: {}\n{}", out.stdout, out.stderr);
        assert_eq!(out.json()["cleanup_verified"], true, "{}", out.stdout);
        assert_none_left(&mut tracker, &format!("signal {sig} then abort"));
        assert_eq!(session_json(d, &id)["state"], "aborted");
    }
}

#[test]
fn ten_concurrent_starts_of_one_id_make_exactly_one_session_with_one_browser() {
    let (_server, dir, url) = page();
    let d = dir.path();
    let tag = new_tag("concurrent");
    let mut tracker = Tracker::new(&tag);
    let starts: Vec<Child> = (0..10)
        .map(|_| {
            command(
                d,
                &tag,
                &["agent", "start", &url, "--session", "one", "--json"],
            )
            .spawn()
            .unwrap()
        })
        .collect();
    let outs: Vec<Out> = starts.into_iter().map(collect).collect();
    let won: Vec<&Out> = outs.iter().filter(|o| o.code == 0).collect();
    assert_eq!(won.len(), 1, "{outs:?}");
    for lost in outs.iter().filter(|o| o.code != 0) {
        assert_eq!(lost.code, 2, "{lost:?}");
        assert_eq!(
            lost.json()["error"]["code"],
            "test.session.exists",
            "{lost:?}"
        );
    }
    let o = &session_json(d, "one")["ownership"];
    let groups = [
        o["supervisor_pgid"].as_i64().unwrap() as i32,
        o["browser_pgid"].as_i64().unwrap() as i32,
    ];
    let live = tracker.live();
    assert!(!live.is_empty());
    assert!(
        live.iter().all(|p| groups.contains(&p.pgid)),
        "one supervisor and one browser only: {live:?} vs groups {groups:?}"
    );
    ok(d, &tag, &["agent", "abort", "--session", "one", "--json"]);
    assert_none_left(&mut tracker, "after abort");
}

/// When to interrupt a start.
#[derive(Debug, Clone, Copy)]
enum Moment {
    /// As soon as its supervisor exists.
    Supervisor,
    /// As soon as its browser exists.
    Browser,
}

#[test]
fn an_interrupted_start_leaves_no_session_and_no_process() {
    let (_server, dir, url) = page();
    let d = dir.path();
    let trials = [
        (libc::SIGINT, Moment::Supervisor),
        (libc::SIGTERM, Moment::Browser),
        (libc::SIGHUP, Moment::Supervisor),
        (libc::SIGINT, Moment::Browser),
        (libc::SIGKILL, Moment::Browser),
        (libc::SIGKILL, Moment::Supervisor),
    ];
    for (i, (sig, moment)) in trials.into_iter().enumerate() {
        let tag = new_tag("interrupted");
        let mut tracker = Tracker::new(&tag);
        let id = format!("int{i}");
        let child = command(
            d,
            &tag,
            &["agent", "start", &url, "--session", &id, "--json"],
        )
        .process_group(0)
        .spawn()
        .unwrap();
        let pid = child.id() as i32;
        // Looked at often: the moment to signal may be short.
        let reached = crate::common::wait_until_every(
            Duration::from_millis(2),
            Duration::from_secs(60),
            || {
                let tagged = tracker.tagged();
                let supervisor = tagged.iter().find(|p| p.ppid == pid);
                let browser = supervisor
                    .and_then(|s| tagged.iter().find(|p| p.ppid == s.pid && p.pgid == p.pid));
                match moment {
                    Moment::Supervisor => supervisor.is_some(),
                    Moment::Browser => browser.is_some(),
                }
            },
        );
        assert!(reached, "trial {i}: {moment:?} never appeared");
        // SAFETY: the `agent start` this test spawned.
        unsafe { libc::kill(pid, sig) };
        let out = collect(child);
        assert_none_left(
            &mut tracker,
            &format!("trial {i}: signal {sig} at {moment:?}"),
        );
        let folder = d.join(".a3s-test/agent-sessions").join(&id);
        if sig == libc::SIGKILL {
            // No handler ran: the record may stay (`starting`), with nothing running; abort
            // settles it.
            if folder.join("session.json").exists() {
                ok(d, &tag, &["agent", "abort", "--session", &id, "--json"]);
            }
        } else {
            assert_eq!(out.code, 130, "trial {i}: {}\n{}", out.stdout, out.stderr);
            assert_eq!(
                out.json()["error"]["code"],
                "test.session.interrupted",
                "{}",
                out.stdout
            );
            assert!(!folder.exists(), "trial {i}: the session folder is left");
        }
    }
}

#[test]
fn a_session_in_cleanup_refuses_turns_until_abort_retries_the_cleanup() {
    let (_server, dir, url) = page();
    let d = dir.path();
    let tag = new_tag("cleanup");
    let mut tracker = Tracker::new(&tag);
    ok(
        d,
        &tag,
        &["agent", "start", &url, "--session", "c", "--json"],
    );
    // A cleanup that failed earlier left this state (the processes are still running).
    let path = d.join(".a3s-test/agent-sessions/c/session.json");
    let mut record = session_json(d, "c");
    record["state"] = "cleanup_failed".into();
    std::fs::write(&path, serde_json::to_vec(&record).unwrap()).unwrap();
    for args in [
        &["agent", "observe", "--session", "c", "--json"][..],
        &["agent", "click", "@e1", "--session", "c", "--json"][..],
    ] {
        let out = a3s(d, &tag, args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stdout);
        assert_eq!(
            out.json()["error"]["code"],
            "test.session.cleanup",
            "{}",
            out.stdout
        );
    }
    assert!(
        !tracker.live().is_empty(),
        "the session's processes still run"
    );
    let v = ok(d, &tag, &["agent", "abort", "--session", "c", "--json"]);
    assert_eq!(v["cleanup_verified"], true, "{v}");
    assert_none_left(&mut tracker, "after the retried cleanup");
    assert_eq!(session_json(d, "c")["state"], "aborted");
}

#[test]
fn abort_never_touches_a_recycled_pid() {
    let dir = project();
    let d = dir.path();
    // An unrelated process that happens to have the pid a dead session recorded.
    let mut unrelated = Command::new("sleep")
        .arg("600")
        .process_group(0)
        .spawn()
        .unwrap();
    let pid = unrelated.id();
    let real = ProcessInfo::read(pid as i32).unwrap();
    let folder = d.join(".a3s-test/agent-sessions/old");
    std::fs::create_dir_all(folder.join("artifacts")).unwrap();
    let record = serde_json::json!({
        "format_version": 1, "id": "old", "state": "active", "start_url": "http://127.0.0.1:9/",
        "goal": null, "success": [],
        "policy": { "origins": ["http://127.0.0.1:9"], "domains": [] },
        "budgets": { "max_actions": 1, "session_ms": 60000, "evidence_bytes": 1, "idle_ms": 60000 },
        "cdp_endpoint": null, "socket": folder.join("supervisor.sock"),
        "ownership": { "supervisor_pid": pid, "supervisor_pgid": pid,
            "supervisor_start": real.start_time + 1, "browser_pid": pid, "browser_pgid": pid,
            "browser_start": real.start_time.saturating_sub(1), "token": "t" },
        "started_at_ms": 0, "last_turn_at_ms": 0, "next_turn": 1, "next_observation": 1,
        "actions": 0, "latest": null, "refs": [], "steps": [], "closed_reason": null
    });
    std::fs::write(
        folder.join("session.json"),
        serde_json::to_vec(&record).unwrap(),
    )
    .unwrap();
    let out = a3s(
        d,
        "recycled",
        &["agent", "abort", "--session", "old", "--json"],
    );
    let alive = real.is_alive();
    // SAFETY: the `sleep` this test started.
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    unrelated.wait().unwrap();
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        alive,
        "abort killed an unrelated process with a recycled pid"
    );
    assert_eq!(session_json(d, "old")["state"], "aborted");
}
