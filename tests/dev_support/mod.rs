//! `a3s-test dev --json` driven by a test: the command in a process group of its own whose JSON
//! event lines arrive on a channel, a guard that kills that group if the test fails before the
//! command exited, and the `/proc` view of processes the command reported. Shared by the dev
//! command's own test (`tests/dev.rs`) and the whole review → repair → verify loop on the example
//! app (`tests/dev_loop.rs`).
#![allow(dead_code)]

use crate::common::{loopback, spawn_grouped};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// `a3s-test dev --json` running in a folder, its stdout lines on a channel. Dropped before it
/// exited (a failed assertion), its whole process group is killed and reaped, so nothing it
/// started keeps the test's stderr open.
pub struct Dev {
    /// The command itself (the leader of its process group).
    pub child: Child,
    lines: Receiver<String>,
    /// Every event read so far, for the failure message of [`Dev::event`].
    pub seen: Vec<Value>,
    reaped: bool,
}

/// How long a dropped [`Dev`] may take to stop what it started after Ctrl+C before it is killed.
const STOP_WITHIN: Duration = Duration::from_secs(15);

impl Drop for Dev {
    fn drop(&mut self) {
        if !self.reaped {
            self.abandon();
        }
    }
}

/// A process group the test started, killed and reaped when the guard goes.
pub struct Group(pub Child);

impl Drop for Group {
    fn drop(&mut self) {
        // SAFETY: kills the process group of our own child, not yet reaped.
        unsafe { libc::kill(-(self.0.id() as i32), libc::SIGKILL) };
        let _ = self.0.wait();
    }
}

impl Dev {
    /// Start `a3s-test dev --json` in `dir`, headless, with the environment the test runs in.
    pub fn start(dir: &Path) -> Dev {
        Dev::start_with(dir, &[])
    }

    /// [`Dev::start`] with `env` set for the command (and so for everything it starts).
    pub fn start_with(dir: &Path, env: &[(&str, &str)]) -> Dev {
        let mut command = Command::new(env!("CARGO_BIN_EXE_a3s-test"));
        command
            .args(["dev", "--json"])
            .current_dir(dir)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("A3S_TEST_ROOT")
            // A developer's machine: under `CI` the dev server rule refuses to attach to a
            // server that already answers, which one test here relies on.
            .env_remove("CI")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = spawn_grouped(&mut command);
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Dev {
            child,
            lines,
            seen: Vec::new(),
            reaped: false,
        }
    }

    /// The next event matching `want`, within `within` (events before it are kept in `seen`).
    pub fn event(&mut self, within: Duration, want: impl Fn(&Value) -> bool) -> Value {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                self.abandon();
                panic!("no matching event within {within:?}; saw {:#?}", self.seen)
            });
            let event: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("not a JSON event ({e}): {line}"));
            self.seen.push(event.clone());
            if want(&event) {
                return event;
            }
        }
    }

    /// Ctrl+C, as a terminal would send it to the command.
    pub fn interrupt(&self) {
        // SAFETY: signals our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
    }

    /// The test gives up on the command: Ctrl+C first, so it stops the browser, the supervisor
    /// and the dev server (each in a process group of its own, which killing the command's
    /// group would miss); past [`STOP_WITHIN`], kill its group.
    pub fn abandon(&mut self) {
        use wait_timeout::ChildExt;
        self.interrupt();
        if let Ok(Some(_)) = self.child.wait_timeout(STOP_WITHIN) {
            self.reaped = true;
            return;
        }
        self.kill();
    }

    /// Kill the command's whole process group and reap the command.
    pub fn kill(&mut self) {
        // SAFETY: kills the process group of our own child, not yet reaped.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
        self.reaped = true;
    }

    /// Wait (bounded) for the command to exit; its status code.
    pub fn exit(mut self, within: Duration) -> Option<i32> {
        use wait_timeout::ChildExt;
        match self.child.wait_timeout(within).unwrap() {
            Some(status) => {
                self.reaped = true;
                status.code()
            }
            None => {
                self.kill();
                panic!("a3s-test dev did not exit within {within:?}");
            }
        }
    }
}

/// A free loopback port (bound, then released for the dev server to take).
pub fn free_port() -> u16 {
    let (listener, _) = loopback();
    listener.local_addr().unwrap().port()
}

/// Whether `pid` runs; a zombie is gone for our purpose (`/proc/<pid>/stat`'s third field is
/// the state).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit(')')
                .next()
                .map(|r| !r.trim_start().starts_with('Z'))
        })
        .unwrap_or(false)
}

/// Wait (bounded) until none of `pids` is alive; the survivors.
pub fn gone(pids: &[u32], within: Duration) -> Vec<u32> {
    // Watching processes that are not our children: /proc is the only view.
    crate::common::wait_until_every(Duration::from_millis(20), within, || {
        pids.iter().all(|p| !alive(*p))
    });
    pids.iter().copied().filter(|p| alive(*p)).collect()
}

/// The process ids in a JSON array of numbers (the ready event's `server_pids`).
pub fn pids(v: &Value) -> Vec<u32> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_u64().map(|p| p as u32))
                .collect()
        })
        .unwrap_or_default()
}
