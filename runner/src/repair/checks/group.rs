//! The process group one check runs in, owned by this process from before the check starts
//! until nothing of it is left.
//!
//! The group is led by a [`GroupWatchdog`] (`a3s_test_driver::child`) and the check joins it, so
//! the group exists before the check does and keeps its id while the watchdog lives: a pid the
//! kernel recycled can never be mistaken for the group, even after the check's main process was
//! reaped. If this process dies — Ctrl+C with the default action, a panic, `kill -9` — the
//! watchdog's pipe closes and it stops the whole group, grandchildren included; the check's main
//! process also gets the parent-death signal. The members that count are every live process of
//! the group except the watchdog itself.

use a3s_test_driver::child::GroupWatchdog;
use a3s_test_driver::process::{self, Signal};
use std::time::Duration;
use tokio::time::Instant;

/// How often a condition on the group's members is looked at again while waiting for it.
const POLL: Duration = Duration::from_millis(5);

/// How a stop of the group ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Stop {
    /// Every member is gone.
    Stopped,
    /// These pids survived SIGTERM and SIGKILL within the cleanup bounds.
    StillRunning(Vec<u32>),
}

/// A process group this process created for one check.
#[derive(Debug)]
pub(super) struct OwnedGroup {
    watchdog: Option<GroupWatchdog>,
    pgid: u32,
}

impl OwnedGroup {
    /// Create the group (its watchdog leader starts now).
    pub fn create() -> std::io::Result<OwnedGroup> {
        let watchdog = GroupWatchdog::start()?;
        let pgid = watchdog.pgid();
        Ok(OwnedGroup {
            watchdog: Some(watchdog),
            pgid,
        })
    }

    /// The group id to join.
    pub fn pgid(&self) -> u32 {
        self.pgid
    }

    /// Live members other than the watchdog.
    pub fn members(&self) -> Vec<u32> {
        let mut pids: Vec<u32> = process::live_group_members(self.pgid)
            .into_iter()
            .filter(|&pid| pid != self.pgid)
            .collect();
        pids.sort_unstable();
        pids
    }

    /// Wait up to `within` until no member (other than the watchdog) is alive; true if so.
    pub async fn wait_empty(&self, within: Duration) -> bool {
        wait_until(within, || self.members().is_empty()).await
    }

    /// Stop every member: SIGTERM to the group (the watchdog ignores it), up to `cleanup` for
    /// the members to leave, then SIGKILL to the whole group (the watchdog included) and up to
    /// `cleanup` again for it to be empty.
    pub async fn stop(&mut self, cleanup: Duration) -> Stop {
        if self.members().is_empty() {
            return Stop::Stopped;
        }
        process::signal_group(self.pgid, Signal::TERM);
        if self.wait_empty(cleanup).await {
            return Stop::Stopped;
        }
        self.kill_all(cleanup).await
    }

    /// SIGKILL the whole group, watchdog included, and wait up to `within` for it to be gone.
    /// Called last for every check, so not even the watchdog outlives it.
    pub async fn kill_all(&mut self, within: Duration) -> Stop {
        process::kill_group(self.pgid);
        let pgid = self.pgid;
        let gone = wait_until(within, || process::live_group_members(pgid).is_empty()).await;
        if let Some(watchdog) = self.watchdog.take() {
            // Its reaper thread publishes the exit; the group kill above ended it.
            let _ = tokio::time::timeout(within, watchdog.exit().exited()).await;
        }
        if gone {
            Stop::Stopped
        } else {
            let mut left = process::live_group_members(pgid);
            left.sort_unstable();
            Stop::StillRunning(left)
        }
    }
}

impl Drop for OwnedGroup {
    fn drop(&mut self) {
        if self.watchdog.is_some() {
            // A run abandoned half-way (its future dropped): the last-resort kill of our group.
            process::kill_group(self.pgid);
        }
    }
}

/// Wait up to `within` for `done` to hold, looking again every [`POLL`]; true once it holds.
async fn wait_until(within: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + within;
    loop {
        if done() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(POLL.min(deadline - Instant::now())).await;
    }
}
