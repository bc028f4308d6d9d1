//! The one place that reads `/proc`, sends signals and reaps processes; every crate of the
//! workspace (driver, runner, the binary) asks here.
//!
//! Why one module: the browser's group, a dev server's group, an agent session's supervisor and
//! the run's whole subtree are all identified the same way — pid *and* start time from
//! `/proc/<pid>/stat`, never the name (another program may run its own Chromium) — and stopped the
//! same way. Signals, process-group kills, `waitpid` and the subreaper flag go through `rustix`,
//! so no `unsafe` FFI call is needed for them.
//!
//! The stop signals (SIGINT, SIGTERM, SIGHUP) are handled through `signal-hook`: its handlers
//! do only async-signal-safe work (an atomic store, a self-pipe write), and it offers the "first
//! signal sets a flag, the next takes the default action" pattern `fmt` needs.
//!
//! Why `/proc/<pid>/stat` is parsed here by hand: only four fields are read (state, ppid, pgid,
//! start time), and the one subtle rule — `comm` sits in parentheses and may contain spaces or
//! parentheses itself, so fields are split after the *last* `)` — fits in a few lines; a procfs
//! crate would add a dependency tree for that.

use rustix::process::{Pid, WaitOptions};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub use rustix::process::Signal;

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
    /// True for a zombie (exited, not yet reaped) or a dead entry.
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
    // `comm` sits in parentheses and may itself contain spaces or parentheses: split after the
    // last `)`.
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

/// Start time of process `pid` (clock ticks since boot, field 22 of `/proc/<pid>/stat`); with the
/// pid it identifies one process across pid reuse. `None` when there is no such process.
pub fn start_time(pid: u32) -> Option<u64> {
    ProcessInfo::read(i32::try_from(pid).ok()?).map(|p| p.start_time)
}

/// True while the process `pid` that started at `start` exists and is not a zombie.
pub fn is_alive(pid: u32, start: u64) -> bool {
    i32::try_from(pid).is_ok_and(|pid| {
        ProcessInfo {
            pid,
            ppid: 0,
            pgid: 0,
            state: 'R',
            start_time: start,
        }
        .is_alive()
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
    let mut children: HashMap<i32, Vec<ProcessInfo>> = HashMap::new();
    for p in all_processes() {
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

/// Pids of processes in group `pgid` that are alive (zombies excluded).
pub fn live_group_members(pgid: u32) -> Vec<u32> {
    all_processes()
        .into_iter()
        .filter(|p| !p.is_zombie() && i64::from(p.pgid) == i64::from(pgid))
        .map(|p| p.pid as u32)
        .collect()
}

/// Every other process with an open file descriptor on the pipe whose inode is `inode`: how a
/// check's helper that left its process group (`setsid`) is still found — it holds the output
/// pipe only the check was given. Processes whose `/proc/<pid>/fd` is not readable are skipped.
pub fn pipe_holders(inode: u64) -> Vec<ProcessInfo> {
    let me = std::process::id() as i32;
    let target = std::ffi::OsString::from(format!("pipe:[{inode}]"));
    all_processes()
        .into_iter()
        .filter(|p| p.pid != me && !p.is_zombie())
        .filter(|p| {
            std::fs::read_dir(format!("/proc/{}/fd", p.pid)).is_ok_and(|fds| {
                fds.filter_map(Result::ok)
                    .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == target))
            })
        })
        .collect()
}

/// The process group this process belongs to.
pub fn own_pgid() -> u32 {
    rustix::process::getpgrp().as_raw_nonzero().get() as u32
}

/// Send `signal` to one process; a process that is already gone is not an error, and pids 0, 1
/// and negative ones (groups, init) are never signalled through here.
pub fn signal(pid: i32, signal: Signal) {
    if pid > 1 {
        if let Some(pid) = Pid::from_raw(pid) {
            let _ = rustix::process::kill_process(pid, signal);
        }
    }
}

/// Send `signal` to every process of group `pgid`; group 0 or 1 is never signalled.
pub fn signal_group(pgid: u32, signal: Signal) {
    if pgid > 1 {
        if let Some(pgid) = i32::try_from(pgid).ok().and_then(Pid::from_raw) {
            let _ = rustix::process::kill_process_group(pgid, signal);
        }
    }
}

/// SIGKILL every process of group `pgid` (a group this program created).
pub fn kill_group(pgid: u32) {
    signal_group(pgid, Signal::KILL);
}

/// Reap `pid` if it is a child of ours that has exited, without blocking. True when it was
/// reaped now, or is not (any more) a child of ours.
pub fn reap(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
        return true;
    };
    !matches!(
        rustix::process::waitpid(Some(pid), WaitOptions::NOHANG),
        Ok(None)
    )
}

/// Make this process a child subreaper (`PR_SET_CHILD_SUBREAPER`), so orphans it started are
/// re-parented to it instead of init and stay in its subtree.
pub fn become_subreaper() -> std::io::Result<()> {
    rustix::process::set_child_subreaper(Some(rustix::process::getpid())).map_err(Into::into)
}

/// The signals that ask a3s-test to stop: Ctrl+C, `kill`'s default, and a closed terminal (which
/// would otherwise end the process at once and orphan what it started).
pub const STOP_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// Call `on_signal(n)` on a thread of its own for the `n`-th stop signal (1, 2, …) this process
/// receives, for as long as it lives. Runs ordinary code (locks, allocation, `exit`), unlike a
/// signal handler.
pub fn on_stop_signals(mut on_signal: impl FnMut(u32) + Send + 'static) -> std::io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new(STOP_SIGNALS)?;
    std::thread::Builder::new()
        .name("a3s-test-signals".into())
        .spawn(move || {
            let mut received = 0u32;
            for _ in signals.forever() {
                received += 1;
                on_signal(received);
            }
        })?;
    Ok(())
}

/// A flag the first stop signal sets; a second one takes the signal's default action (ends the
/// process), so a stuck command can still be left. A signal this process was told to ignore (a
/// background job of a non-interactive shell) stays ignored. Returns the flag.
pub fn stop_flag() -> std::io::Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    for signal in STOP_SIGNALS {
        if is_ignored(signal) {
            continue;
        }
        // Registered first, so it sees the flag before this signal's own `register` sets it.
        signal_hook::flag::register_conditional_default(signal, flag.clone())?;
        signal_hook::flag::register(signal, flag.clone())?;
    }
    Ok(flag)
}

/// True when `signal`'s disposition is "ignore" (inherited from the parent).
fn is_ignored(signal: i32) -> bool {
    // SAFETY: queries the disposition only (a null new action) into a zeroed out-struct.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
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
    fn a_wrong_start_time_is_not_alive() {
        let me = std::process::id();
        let start = start_time(me).unwrap();
        assert!(is_alive(me, start));
        assert!(!is_alive(me, start + 1));
        assert!(start_time(u32::MAX - 1).is_none());
    }

    #[test]
    fn group_scan_finds_only_live_members() {
        let me = std::process::id();
        assert!(live_group_members(own_pgid()).contains(&me));
        assert!(live_group_members(u32::MAX - 1).is_empty());
    }

    #[test]
    fn finds_signals_and_reaps_a_child() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = child.id();
        let found = descendants(std::process::id() as i32)
            .into_iter()
            .find(|p| p.pid == pid as i32)
            .expect("child is a descendant");
        assert!(found.is_alive());
        assert!(!reap(pid), "a running child is not reaped");
        signal(pid as i32, Signal::KILL);
        child.wait().unwrap();
        assert!(!found.is_alive());
        assert!(reap(pid), "a child already waited for counts as reaped");
    }

    #[test]
    fn stop_signals_are_the_three_that_end_a_terminal_command() {
        assert_eq!(STOP_SIGNALS, [libc::SIGINT, libc::SIGTERM, libc::SIGHUP]);
        assert!(!is_ignored(libc::SIGTERM));
    }
}
