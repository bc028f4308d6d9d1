//! The processes this run started, found by PID ancestry in `/proc` — never by name.
//!
//! Why: another program on the machine may run its own Chromium, so "kill every chromium" is never
//! acceptable. At the start of a run the binary makes itself a *child subreaper*
//! (`PR_SET_CHILD_SUBREAPER`): a browser helper whose parent dies is re-parented to us instead of
//! init, so everything the run started stays in our subtree. At the end, [`sweep`] waits a bounded
//! time for that subtree to empty, kills whatever is still alive and reports it as a cleanup
//! failure; the second Ctrl+C uses [`kill_descendants`] to stop the whole tree at once.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// One process as read from `/proc/<pid>/stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessInfo {
    /// Process id.
    pub pid: i32,
    /// Parent process id.
    pub ppid: i32,
    /// Process group id.
    pub pgid: i32,
    /// State letter (`R`, `S`, `Z` …).
    pub state: char,
    /// Start time in clock ticks since boot: with `pid`, identifies the process across PID reuse.
    pub start_time: u64,
}

impl ProcessInfo {
    /// True for a zombie (exited, not yet reaped).
    pub fn is_zombie(&self) -> bool {
        self.state == 'Z' || self.state == 'X'
    }

    /// Read one process; `None` when it does not exist (any more).
    pub fn read(pid: i32) -> Option<ProcessInfo> {
        parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
    }

    /// True while this exact process (same pid *and* start time) exists and is not a zombie.
    pub fn is_alive(&self) -> bool {
        ProcessInfo::read(self.pid)
            .is_some_and(|p| p.start_time == self.start_time && !p.is_zombie())
    }
}

fn parse_stat(stat: &str) -> Option<ProcessInfo> {
    // `comm` sits in parentheses and may itself contain spaces or parentheses: split after the last `)`.
    let (head, rest) = stat.rsplit_once(')')?;
    let pid = head.split_once(' ')?.0.trim().parse().ok()?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(ProcessInfo {
        pid,
        state: fields.first()?.chars().next()?,
        ppid: fields.get(1)?.parse().ok()?,
        pgid: fields.get(2)?.parse().ok()?,
        start_time: fields.get(19)?.parse().ok()?,
    })
}

/// Every process on the machine (that `/proc` shows us).
pub fn all_processes() -> Vec<ProcessInfo> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(ProcessInfo::read)
        .collect()
}

/// Every descendant of `root` (children, grandchildren, …), zombies included.
pub fn descendants(root: i32) -> Vec<ProcessInfo> {
    let all = all_processes();
    let mut children: HashMap<i32, Vec<ProcessInfo>> = HashMap::new();
    for p in all {
        children.entry(p.ppid).or_default().push(p);
    }
    let mut out = Vec::new();
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        for child in children.get(&pid).into_iter().flatten() {
            if child.pid != root {
                out.push(*child);
                queue.push(child.pid);
            }
        }
    }
    out
}

/// Make this process a child subreaper, so orphans it started stay in its subtree.
pub fn become_subreaper() -> std::io::Result<()> {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one integer argument and touches no memory.
    let rc = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Send `signal` to one process; a process that is already gone is not an error.
pub fn signal(pid: i32, signal: i32) {
    // SAFETY: kill(2) has no memory effects; pid comes from our own subtree.
    unsafe {
        libc::kill(pid, signal);
    }
}

/// SIGKILL every live descendant of this process at once (the second Ctrl+C).
pub fn kill_descendants() -> Vec<ProcessInfo> {
    let me = std::process::id() as i32;
    let live: Vec<ProcessInfo> = descendants(me)
        .into_iter()
        .filter(|p| !p.is_zombie())
        .collect();
    for p in &live {
        signal(p.pid, libc::SIGKILL);
    }
    live
}

/// Reap zombies that are our own children and that nobody else will wait for (orphans
/// re-parented to us as subreaper). Only the given pids are waited for, never `-1`, so a child a
/// tokio `Child` handle still owns is not stolen from it.
pub fn reap(zombies: &[ProcessInfo]) {
    let me = std::process::id() as i32;
    for z in zombies.iter().filter(|z| z.ppid == me && z.is_zombie()) {
        let mut status = 0;
        // SAFETY: waitpid on a specific zombie child of ours with WNOHANG; `status` is a valid out-pointer.
        unsafe {
            libc::waitpid(z.pid, &mut status, libc::WNOHANG);
        }
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
                signal(p.pid, libc::SIGKILL);
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
    fn parses_stat_with_awkward_comm() {
        let stat =
            "4242 (a b) c)) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10";
        let p = parse_stat(stat).unwrap();
        assert_eq!(
            (p.pid, p.state, p.ppid, p.pgid, p.start_time),
            (4242, 'S', 1, 4242, 987654)
        );
    }

    #[test]
    fn finds_and_reaps_a_child_subtree() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let me = std::process::id() as i32;
        let found = descendants(me)
            .into_iter()
            .find(|p| p.pid == pid)
            .expect("child is a descendant");
        assert!(found.is_alive());
        signal(pid, libc::SIGKILL);
        child.wait().unwrap();
        assert!(!found.is_alive());
    }
}
