//! Counting the processes one test started, never by name: the test sets a unique tag in the
//! environment of the `a3s-test` command it runs; every process the tool launches directly (the
//! supervisor, the browser, a dev server) inherits it, and the browser's helpers (which Chromium
//! starts with an environment of its own) are found through the process groups of tagged
//! processes. Shared by `tests/run` and `tests/agent`.
#![allow(dead_code)]

use a3s_test_runner::process_tree::{all_processes, ProcessInfo};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// The environment variable carrying the tag.
pub const TAG_VAR: &str = "A3S_TEST_OWNERSHIP_TAG";

/// A tag no other test (or machine user) uses.
pub fn new_tag(label: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{label}-{}-{}-{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

fn carries(pid: i32, tag: &str) -> bool {
    let needle = format!("{TAG_VAR}={tag}");
    std::fs::read(format!("/proc/{pid}/environ"))
        .map(|env| env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes()))
        .unwrap_or(false)
}

/// Follows one tag: every group a tagged process ever led or joined is remembered, so helpers
/// still count after their tagged leader is gone.
#[derive(Debug, Default)]
pub struct Tracker {
    tag: String,
    groups: BTreeSet<i32>,
}

impl Tracker {
    /// Track `tag`.
    pub fn new(tag: &str) -> Tracker {
        Tracker {
            tag: tag.to_string(),
            groups: BTreeSet::new(),
        }
    }

    /// Live processes carrying the tag or in a group a tagged process was seen in (the test
    /// process's own group never counts).
    pub fn live(&mut self) -> Vec<ProcessInfo> {
        let all: Vec<ProcessInfo> = all_processes()
            .into_iter()
            .filter(|p| !p.is_zombie())
            .collect();
        // SAFETY: getpgid(0) reads this test process's own group.
        let own = unsafe { libc::getpgid(0) };
        for p in &all {
            if p.pgid != own && carries(p.pid, &self.tag) {
                self.groups.insert(p.pgid);
            }
        }
        all.into_iter()
            .filter(|p| {
                p.pgid != own && (self.groups.contains(&p.pgid) || carries(p.pid, &self.tag))
            })
            .collect()
    }

    /// The tagged processes only.
    pub fn tagged(&mut self) -> Vec<ProcessInfo> {
        let tag = self.tag.clone();
        self.live()
            .into_iter()
            .filter(|p| carries(p.pid, &tag))
            .collect()
    }

    /// Poll until nothing of the tag is alive, up to `within`; returns what still lives.
    pub fn wait_none(&mut self, within: Duration) -> Vec<ProcessInfo> {
        let until = Instant::now() + within;
        loop {
            let live = self.live();
            if live.is_empty() || Instant::now() >= until {
                return live;
            }
            // These processes are not our children: /proc is the only thing to watch.
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// [`Tracker::wait_none`], then kill what still lives (a failed test must not leave a
    /// browser behind); returns what had to be killed.
    pub fn killed_after(&mut self, within: Duration) -> Vec<ProcessInfo> {
        let left = self.wait_none(within);
        if !left.is_empty() {
            self.kill_all();
        }
        left
    }

    /// Kill whatever of the tag is alive (a failed test must not leave a browser behind).
    pub fn kill_all(&mut self) {
        for p in self.live() {
            // SAFETY: processes this test's command started (tag or group proven above).
            unsafe { libc::kill(p.pid, libc::SIGKILL) };
        }
    }
}

/// The `--user-data-dir` of a live process (the browser's profile folder).
pub fn profile_of(pid: i32) -> Option<std::path::PathBuf> {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    cmdline
        .split(|b| *b == 0)
        .filter_map(|a| std::str::from_utf8(a).ok())
        .find_map(|a| a.strip_prefix("--user-data-dir="))
        .map(std::path::PathBuf::from)
}
