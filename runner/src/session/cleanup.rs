//! Stopping what a session recorded, with or without its supervisor: the supervisor's group and
//! the browser's group, each only after proving its leader is the very process the session
//! started (pid *and* start time from `/proc/<pid>/stat`; never the name), so a recycled pid is
//! never touched. A cleanup that cannot prove everything gone leaves the session in
//! [`SessionState::CleanupFailed`], which refuses turns until a later `finish`/`abort` retries.

use super::code::{SessionCode, SessionError};
use super::file::{SessionFile, SessionState};
use super::spawn::EXIT_TIMEOUT;
use crate::process_tree::{all_processes, ProcessInfo};
use a3s_test_driver::process::kill_group;
use a3s_test_fsroot::Dir;
use std::time::{Duration, Instant};

/// One recorded process group: its leader's pid and start time (0 = not recorded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordedGroup {
    /// The leader's pid (= the group id).
    pub pid: u32,
    /// The leader's start time in clock ticks since boot.
    pub start: u64,
}

impl RecordedGroup {
    /// The live members that provably belong to this group as the session started it: with a
    /// live leader of the recorded start time, every member; with the leader gone, members that
    /// started no earlier than it (a group outlives its leader only through its helpers); with a
    /// live leader of another start time (a recycled pid), none.
    pub fn members(&self) -> Vec<ProcessInfo> {
        if self.pid <= 1 || self.start == 0 {
            return Vec::new();
        }
        let all = all_processes();
        let leader = all.iter().find(|p| p.pid == self.pid as i32);
        if leader.is_some_and(|l| !l.is_zombie() && l.start_time != self.start) {
            return Vec::new();
        }
        all.into_iter()
            .filter(|p| p.pgid == self.pid as i32 && !p.is_zombie() && p.start_time >= self.start)
            .collect()
    }

    /// SIGKILL the proven members (the whole group while its leader is the recorded one).
    fn kill(&self) {
        let members = self.members();
        if members.iter().any(|p| p.pid == self.pid as i32) {
            kill_group(self.pid);
        }
        for p in &members {
            crate::process_tree::signal(p.pid, crate::process_tree::Signal::KILL);
        }
    }

    /// Wait until no proven member is alive, up to `within`; returns the survivors' pids.
    fn wait_gone(&self, within: Duration) -> Vec<u32> {
        let until = Instant::now() + within;
        loop {
            let alive: Vec<u32> = self.members().iter().map(|p| p.pid as u32).collect();
            if alive.is_empty() || Instant::now() >= until {
                return alive;
            }
            // Not our children: polling /proc is the only way to watch them.
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The supervisor's and the browser's recorded groups.
pub fn recorded(file: &SessionFile) -> [RecordedGroup; 2] {
    let o = &file.ownership;
    [
        RecordedGroup {
            pid: o.supervisor_pgid,
            start: o.supervisor_start,
        },
        RecordedGroup {
            pid: o.browser_pgid,
            start: o.browser_start,
        },
    ]
}

/// After a close: give the supervisor `grace` to leave by itself, then kill what is left of both
/// recorded groups. Returns the survivors (empty = cleanup verified).
pub fn stop_recorded(file: &SessionFile, grace: Duration) -> Vec<u32> {
    let [supervisor, browser] = recorded(file);
    if !supervisor.wait_gone(grace).is_empty() {
        supervisor.kill();
    }
    // With the supervisor gone the browser dies by its parent-death signal; make sure of it.
    browser.kill();
    let mut survivors = supervisor.wait_gone(EXIT_TIMEOUT);
    survivors.extend(browser.wait_gone(EXIT_TIMEOUT));
    survivors
}

/// Record the outcome of a cleanup: `done` when nothing survived, else
/// [`SessionState::CleanupFailed`] (turns refused; the next `finish`/`abort` retries).
pub fn settle(
    dir: &Dir,
    file: &mut SessionFile,
    done: SessionState,
    survivors: &[u32],
) -> Result<(), SessionError> {
    let state = if survivors.is_empty() {
        done
    } else {
        SessionState::CleanupFailed
    };
    if file.state != state {
        file.state = state;
        file.save(dir)?;
    }
    Ok(())
}

/// Close a session whose supervisor does not answer (or a session in cleanup): stop both recorded
/// groups at once and settle the state.
pub fn force_close(
    dir: &Dir,
    done: SessionState,
    reason: &str,
) -> Result<(SessionFile, Vec<u32>), SessionError> {
    let mut file = SessionFile::load(dir)?;
    let survivors = stop_recorded(&file, Duration::ZERO);
    if !file.state.is_closed() {
        file.closed_reason = Some(reason.to_string());
    }
    // A closed session keeps its state (finished stays finished); only a live one or one in
    // cleanup moves.
    let target = if matches!(
        file.state,
        SessionState::Starting | SessionState::Active | SessionState::CleanupFailed
    ) {
        done
    } else {
        file.state
    };
    settle(dir, &mut file, target, &survivors)?;
    Ok((file, survivors))
}

/// The coded error of a cleanup that left `survivors`.
pub fn failed(session: &str, survivors: &[u32]) -> SessionError {
    SessionError::new(
        SessionCode::Cleanup,
        format!(
            "processes {survivors:?} of session {session} survived; the session stays in cleanup \
             and the next finish or abort retries"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;

    #[test]
    fn a_recycled_leader_is_never_a_member() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .unwrap();
        let pid = child.id();
        let start = ProcessInfo::read(pid as i32).unwrap().start_time;
        let recycled = RecordedGroup {
            pid,
            start: start + 1,
        };
        assert!(recycled.members().is_empty());
        recycled.kill();
        assert!(ProcessInfo::read(pid as i32).is_some_and(|p| p.is_alive()));
        let ours = RecordedGroup { pid, start };
        assert_eq!(ours.members().len(), 1);
        ours.kill();
        child.wait().unwrap();
        assert!(ours.members().is_empty());
    }
}
