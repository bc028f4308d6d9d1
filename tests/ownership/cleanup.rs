//! A cleanup that really fails, and the retry that succeeds. `agent abort` kills a recorded group
//! once and then waits (bounded) for its members to go. The test owns a group and puts it in the
//! record of a real session whose supervisor it killed (the supervisor leads a session of its
//! own, so its real groups cannot be joined from outside). One member of that group is held at
//! its exit by the test: it is traced with `PTRACE_O_TRACEEXIT`, so the cleanup's SIGKILL stops
//! it at `PTRACE_EVENT_EXIT` (state `t`, not a zombie) and it dies only when the test lets it go.
//! No race decides the outcome: the member outlives the cleanup's bound for as long as the test
//! holds it, on any machine however loaded. The session must then stay `cleanup_failed`, refuse
//! turns with `test.session.cleanup`, and a later `abort` — once the test let the member die —
//! must stop what else is left of the group and close the session.

use crate::harness::{command, workdir, FixtureServer};
use crate::owned::{new_tag, Tracker, TAG_VAR};
use a3s_test_runner::process_tree::ProcessInfo;
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
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

/// A child this test started, SIGKILLed and reaped when the guard goes (a failed assertion
/// leaves nothing running).
struct Owned(Child);

impl Drop for Owned {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// True while a child is running (not ended, not a zombie).
fn running(child: &Child) -> bool {
    ProcessInfo::read(child.id() as i32).is_some_and(|p| !p.is_zombie())
}

/// A member of `group` that a SIGKILL cannot finish until the test says so: a `sleep` traced
/// (from one thread of its own: ptrace requests come from the tracing thread) with
/// `PTRACE_O_TRACEEXIT`, so a killed tracee stops at its exit instead of becoming a zombie.
/// Dropped, it is killed and let go, and reaped.
struct Held {
    pid: i32,
    release: Option<mpsc::Sender<()>>,
    tracer: Option<std::thread::JoinHandle<bool>>,
}

/// A wait status that is the stop at `PTRACE_EVENT_EXIT`.
fn at_exit_stop(status: i32) -> bool {
    libc::WIFSTOPPED(status) && (status >> 16) == libc::PTRACE_EVENT_EXIT
}

impl Held {
    fn join(group: i32) -> Held {
        let (ready_tx, ready_rx) = mpsc::channel();
        let (release, release_rx) = mpsc::channel::<()>();
        let tracer = std::thread::spawn(move || {
            let mut command = sleeper();
            command.process_group(group);
            // SAFETY: one raw syscall in the forked child before exec.
            unsafe {
                command.pre_exec(|| {
                    if libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) == -1 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
            let child = command.spawn().unwrap();
            let pid = child.id() as i32;
            // Reaped below with waitpid, never through `Child`.
            std::mem::forget(child);
            let mut status = 0;
            // SAFETY: ptrace and waitpid on the tracee this thread started (the tracer).
            unsafe {
                // The tracee stops with SIGTRAP after its exec.
                libc::waitpid(pid, &mut status, 0);
                libc::ptrace(
                    libc::PTRACE_SETOPTIONS,
                    pid,
                    0,
                    libc::PTRACE_O_TRACEEXIT as libc::c_long,
                );
                libc::ptrace(libc::PTRACE_CONT, pid, 0, 0);
            }
            let _ = ready_tx.send(pid);
            // Held until released (or the guard went); then: was it stopped at its exit?
            let _ = release_rx.recv();
            let mut held = false;
            // SAFETY: as above; SIGKILL to our own tracee, then continue it until it is reaped.
            unsafe {
                if libc::waitpid(pid, &mut status, libc::WNOHANG) == pid {
                    held = at_exit_stop(status);
                }
                libc::kill(pid, libc::SIGKILL);
                libc::ptrace(libc::PTRACE_CONT, pid, 0, 0);
                // Every stop from here on is on the way out; the loop ends with its death.
                while libc::waitpid(pid, &mut status, 0) == pid && libc::WIFSTOPPED(status) {
                    libc::ptrace(libc::PTRACE_CONT, pid, 0, 0);
                }
            }
            held
        });
        let pid = ready_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the traced member started");
        Held {
            pid,
            release: Some(release),
            tracer: Some(tracer),
        }
    }

    /// Let it die; true when the cleanup's kill had stopped it at its exit.
    fn release(&mut self) -> bool {
        drop(self.release.take());
        self.tracer
            .take()
            .is_some_and(|t| t.join().unwrap_or(false))
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.release();
    }
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

    // A group this test owns, recorded as the session's browser group, with a member the
    // cleanup's kill cannot finish while the test holds it. The leader stays unreaped until the
    // end: its zombie keeps the group joinable.
    let leader = Owned(sleeper().process_group(0).spawn().unwrap());
    let group = leader.0.id() as i32;
    let start = ProcessInfo::read(group).unwrap().start_time;
    let mut held = Held::join(group);
    assert_eq!(
        ProcessInfo::read(held.pid).map(|p| p.pgid),
        Some(group),
        "the held member is in the recorded group"
    );
    let mut faked = record(d, "c");
    faked["ownership"]["browser_pid"] = group.into();
    faked["ownership"]["browser_pgid"] = group.into();
    faked["ownership"]["browser_start"] = start.into();
    std::fs::write(record_path(d, "c"), serde_json::to_vec(&faked).unwrap()).unwrap();

    let (code, v) = agent(d, &tag, &["abort", "--session", "c", "--json"]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["error"]["code"], "test.session.cleanup", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains(&held.pid.to_string())),
        "the held member is named as the survivor: {v}"
    );
    assert_eq!(record(d, "c")["state"], "cleanup_failed");
    for args in [
        &["observe", "--session", "c", "--json"][..],
        &["click", "@e1", "--session", "c", "--json"][..],
    ] {
        let (code, v) = agent(d, &tag, args);
        assert_eq!(code, 2, "{args:?}: {v}");
        assert_eq!(v["error"]["code"], "test.session.cleanup", "{args:?}: {v}");
    }

    // The test lets the held member die: the retried cleanup stops what else is left of the
    // group (one member that would stay) and closes the session.
    assert!(
        held.release(),
        "the first cleanup's kill reached the held member (stopped at its exit)"
    );
    let stays = Owned(sleeper().process_group(group).spawn().unwrap());
    let (code, v) = agent(d, &tag, &["abort", "--session", "c", "--json"]);
    let stayed = running(&stays.0);
    drop(stays);
    drop(leader);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["cleanup_verified"], true, "{v}");
    assert!(!stayed, "the retried abort left the member that would stay");
    assert_eq!(record(d, "c")["state"], "aborted");
}
