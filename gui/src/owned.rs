//! A process group the tool owns: every desktop process (and each program on the desktop) is
//! started into one, and the whole group is stopped together.
//!
//! Why a group led by a `GroupWatchdog` (`a3s_test_driver::child`): the accessibility bus
//! launcher starts the accessibility bus's own `dbus-daemon` itself, a grandchild the
//! parent-death signal never reaches. Every process joins the watchdog's group before it runs
//! (`Group::Join`), so its children are in the group too, and however the owner dies (a clean
//! stop, a panic, `kill -9`) the watchdog stops the group; each direct child also gets SIGKILL
//! from the kernel at once (the parent-death signal). The owner's normal stop sends SIGKILL to
//! the group and waits — bounded — until no live member is left, identified by group id in
//! `/proc`, never by name.

use a3s_test_driver::child::{self, ExitWatch, Group, GroupWatchdog, OnOwnerDeath};
use a3s_test_driver::process;
use std::process::Command;
use std::time::{Duration, Instant};

/// How long a stop waits for the group's members to be gone.
pub(crate) const STOP_WITHIN: Duration = Duration::from_secs(5);

/// One started member of an [`OwnedGroup`].
#[derive(Debug, Clone)]
pub(crate) struct Member {
    /// Its pid.
    pub pid: u32,
    /// Its exit, published by its reaper thread.
    pub exit: ExitWatch,
}

/// A process group the tool owns (see the module doc).
#[derive(Debug)]
pub(crate) struct OwnedGroup {
    watchdog: GroupWatchdog,
    stopped: bool,
}

impl OwnedGroup {
    /// Start the group's watchdog; members join with [`OwnedGroup::spawn`].
    pub fn start() -> std::io::Result<OwnedGroup> {
        Ok(OwnedGroup {
            watchdog: GroupWatchdog::start()?,
            stopped: false,
        })
    }

    /// The group's id.
    pub fn pgid(&self) -> u32 {
        self.watchdog.pgid()
    }

    /// Start `command` in the group, with the parent-death signal, reaped by a thread of its own.
    pub fn spawn(&self, command: Command) -> std::io::Result<Member> {
        let child = child::spawn(command, Group::Join(self.pgid()), OnOwnerDeath::Kill)?;
        Ok(Member {
            pid: child.id(),
            exit: ExitWatch::new(child),
        })
    }

    /// Pids of the group's live members (the watchdog included until the group is stopped).
    pub fn live(&self) -> Vec<u32> {
        if self.stopped {
            return Vec::new();
        }
        process::live_group_members(self.pgid())
    }

    /// SIGKILL the whole group and wait (bounded by [`STOP_WITHIN`]) until no member lives.
    /// True when the group is empty. Stopping twice does nothing the second time: a group id
    /// whose members are all gone may be reused, so it is signalled once only.
    pub fn stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.stopped = true;
        let pgid = self.pgid();
        process::kill_group(pgid);
        let until = Instant::now() + STOP_WITHIN;
        // The watchdog leads the group and died with it: once it is reaped the signal has
        // landed, and the first look through `/proc` (a read of every process) usually finds
        // the group empty instead of catching its members still dying.
        let _ = self.watchdog.exit().wait_blocking(STOP_WITHIN);
        loop {
            if process::live_group_members(pgid).is_empty() {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for OwnedGroup {
    fn drop(&mut self) {
        self.stop();
    }
}
