//! The processes this run started, found by PID ancestry in `/proc` — never by name.
//!
//! Why: another program on the machine may run its own Chromium, so "kill every chromium" is never
//! acceptable. At the start of a run the binary makes itself a *child subreaper*
//! (`PR_SET_CHILD_SUBREAPER`): a browser helper whose parent dies is re-parented to us instead of
//! init, so everything the run started stays in our subtree. At the end, [`sweep`] waits a bounded
//! time for that subtree to empty, kills whatever is still alive and reports it as a cleanup
//! failure; the second Ctrl+C uses [`kill_descendants`] to stop the whole tree at once. Reading
//! `/proc` and sending signals is [`a3s_test_driver::process`]'s; this module only walks the subtree.

use std::time::{Duration, Instant};

pub use a3s_test_driver::process::{
    all_processes, become_subreaper, descendants, signal, ProcessInfo, Signal,
};

/// SIGKILL every live descendant of this process at once (the second Ctrl+C).
pub fn kill_descendants() -> Vec<ProcessInfo> {
    let me = std::process::id() as i32;
    let live: Vec<ProcessInfo> = descendants(me)
        .into_iter()
        .filter(|p| !p.is_zombie())
        .collect();
    for p in &live {
        signal(p.pid, Signal::KILL);
    }
    live
}

/// Reap zombies that are our own children and that nobody else will wait for (orphans
/// re-parented to us as subreaper). Only the given pids are waited for, never `-1`, so a child a
/// tokio `Child` handle still owns is not stolen from it.
pub fn reap(zombies: &[ProcessInfo]) {
    let me = std::process::id() as i32;
    for z in zombies.iter().filter(|z| z.ppid == me && z.is_zombie()) {
        a3s_test_driver::process::reap(z.pid as u32);
    }
}

/// Wait up to `grace` for every descendant to exit (browser helpers die shortly after the browser),
/// then SIGKILL the survivors and reap. Returns the processes that had to be killed: each is a
/// cleanup failure of the run.
pub fn sweep(grace: Duration) -> Vec<ProcessInfo> {
    let me = std::process::id() as i32;
    let deadline = Instant::now() + grace;
    loop {
        let tree = descendants(me);
        reap(&tree);
        let live: Vec<ProcessInfo> = tree.into_iter().filter(|p| !p.is_zombie()).collect();
        if live.is_empty() {
            return Vec::new();
        }
        if Instant::now() >= deadline {
            for p in &live {
                signal(p.pid, Signal::KILL);
            }
            wait_gone(&live, Duration::from_secs(2));
            reap(&descendants(me));
            return live;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Poll until none of `processes` is alive, or `bound` passes. Returns true when all are gone.
pub fn wait_gone(processes: &[ProcessInfo], bound: Duration) -> bool {
    let deadline = Instant::now() + bound;
    loop {
        let me = std::process::id() as i32;
        reap(&descendants(me));
        if !processes.iter().any(ProcessInfo::is_alive) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaps_only_our_own_zombies_and_sweeps_nothing_when_clean() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id() as i32;
        // Wait for the zombie without reaping it (waitid with WNOWAIT would be the same poll).
        let zombie = loop {
            match ProcessInfo::read(pid) {
                Some(p) if p.is_zombie() => break p,
                Some(_) => std::thread::yield_now(),
                None => panic!("the child was reaped by someone else"),
            }
        };
        reap(&[zombie]);
        assert!(ProcessInfo::read(pid).is_none(), "reaped");
        // Already reaped: std's wait reports ECHILD.
        assert!(child.wait().is_err());
    }
}
