//! Every child process A3S Test launches (the browser, a project's dev server, an agent session's
//! supervisor) is started here, so that it dies with its owner however the owner dies — a clean
//! exit, a panic, or a `kill -9` from a CI runner that no handler can catch.
//!
//! How: the child asks the kernel for the parent-death signal (`PR_SET_PDEATHSIG` = SIGKILL) in
//! `pre_exec`, then compares `getppid()` with the pid that forked it — if the owner already left
//! between `fork` and the `prctl`, the child fails to start instead of running as an orphan.
//!
//! The kernel sends that signal when the *thread* that forked the child ends, not the process.
//! Tokio forks from whichever worker or blocking-pool thread runs `spawn`, and blocking-pool
//! threads end after a few idle seconds, which would kill a healthy browser. So every spawn is
//! handed to one dedicated thread ([`spawn`]) that lives as long as the process: the signal then
//! fires exactly when the owning process ends. Exit statuses are collected by one small waiter
//! thread per child ([`ExitWatch`]), since a child forked on a plain thread is not a tokio child.
//!
//! Why not only `--remote-debugging-pipe` for Chromium: it would tie the browser to its owner just
//! as well, but it replaces the WebSocket transport every CDP command runs over, and the dev
//! server and the supervisor need the parent-death signal anyway. Grandchildren do not inherit
//! the signal; Chromium's own helpers (zygote, renderers, GPU/utility processes) exit on their
//! own within ~0.1 s of the browser dying (measured on these machines), so the browser's death
//! takes its whole group with it. A dev server is arbitrary: its leader gets SIGTERM on owner
//! death (so it can stop its own workers), and a [`GroupWatchdog`] in its group stops the whole
//! group even when the leader ignores SIGTERM or its workers are grandchildren. A program on a
//! pseudoterminal leads a session of its own, so it cannot join a watchdog's group; a
//! [`GroupGuard`] started before it is told the group once it exists and kills that group when
//! the owner dies, unless the owner released it after stopping the group itself.
//!
//! Processes are identified by pid *and* start time ([`start_time`], from [`crate::process`]),
//! never by name, so a recycled pid is never mistaken for one of ours.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};
use tokio::sync::watch;

pub use crate::process::{is_alive, start_time};

/// What the child's own process group and session should be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Lead a new process group (`setpgid(0, 0)`): the browser and the dev server.
    NewGroup,
    /// Lead a new session and process group (`setsid`): the session supervisor, which must not
    /// get the terminal's signals.
    NewSession,
    /// Join the group a [`GroupWatchdog`] leads: the dev server.
    Join(u32),
    /// Lead a new session and process group whose controlling terminal is the child's standard
    /// input (`setsid`, then `TIOCSCTTY` on fd 0): a program on a pseudoterminal (`a3s-test-tui`)
    /// whose slave the caller passed as stdin/stdout/stderr. Job control, `SIGWINCH` on resize
    /// and the terminal's `SIGHUP` then reach the program's group, as in a real terminal.
    NewSessionWithTerminal,
}

/// Which signal the child receives when its owner dies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnOwnerDeath {
    /// SIGKILL: nothing to save (the browser, the supervisor).
    Kill,
    /// SIGTERM: a dev server gets the chance to stop its own workers.
    Terminate,
}

type Job = (Command, mpsc::Sender<io::Result<Child>>);

/// The spawner thread's inbox; the thread never ends (its sender lives in this static).
fn spawner() -> &'static Mutex<mpsc::Sender<Job>> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("a3s-test-spawner".into())
            .spawn(move || {
                for (mut command, reply) in rx {
                    let _ = reply.send(command.spawn());
                }
            })
            .expect("the spawner thread starts");
        Mutex::new(tx)
    })
}

/// Start `command` as an owned child: in its own group ([`Group`]), with the parent-death signal
/// set (checked against an owner that already left), forked from the process-lifetime spawner
/// thread. The caller reaps it (e.g. through [`ExitWatch::new`]).
pub fn spawn(mut command: Command, group: Group, on_death: OnOwnerDeath) -> io::Result<Child> {
    let owner = rustix::process::getpid();
    let signal = match on_death {
        OnOwnerDeath::Kill => rustix::process::Signal::KILL,
        OnOwnerDeath::Terminate => rustix::process::Signal::TERM,
    };
    // SAFETY: the closure runs in the forked child before exec and only makes raw syscalls
    // (setsid/setpgid, ioctl, prctl, getppid) through rustix: no allocation, no locks.
    unsafe {
        command.pre_exec(move || {
            match group {
                Group::NewSession => {
                    rustix::process::setsid()?;
                }
                Group::NewSessionWithTerminal => {
                    rustix::process::setsid()?;
                    // std has already moved the slave onto fd 0 (stdio is set up before
                    // `pre_exec` runs); it becomes the new session's controlling terminal.
                    // fd 0 stays open for the rest of this (pre-exec) child: borrowing it is sound.
                    let stdin = std::os::fd::BorrowedFd::borrow_raw(0);
                    rustix::process::ioctl_tiocsctty(stdin)?;
                }
                Group::NewGroup => rustix::process::setpgid(None, None)?,
                Group::Join(pgid) => {
                    let pgid = rustix::process::Pid::from_raw(pgid as i32)
                        .ok_or_else(|| io::Error::from(rustix::io::Errno::INVAL))?;
                    rustix::process::setpgid(None, Some(pgid))?
                }
            }
            rustix::process::set_parent_process_death_signal(Some(signal))?;
            if rustix::process::getppid() != Some(owner) {
                // The owner died before the signal was armed: do not start at all.
                return Err(io::Error::from(rustix::io::Errno::SRCH));
            }
            Ok(())
        });
    }
    fork_on_spawner(command)
}

/// Hand `command` to the process-lifetime spawner thread and wait for its `spawn` result.
fn fork_on_spawner(command: Command) -> io::Result<Child> {
    let (tx, rx) = mpsc::channel();
    spawner()
        .lock()
        .map_err(|_| io::Error::other("the spawner lock is poisoned"))?
        .send((command, tx))
        .map_err(|_| io::Error::other("the spawner thread is gone"))?;
    rx.recv()
        .map_err(|_| io::Error::other("the spawner thread is gone"))?
}

/// Keeps a whole process group tied to its owner: a `sh` that leads the group (the owned process
/// then joins it with [`Group::Join`], so no moment exists where the group is unwatched) and
/// blocks reading a pipe only the owner holds open. However the owner dies, the kernel closes its end; the read
/// returns and the watchdog sends SIGTERM to the group, then SIGKILL half a second later (itself
/// included). For groups whose members may ignore the parent-death signal or be grandchildren
/// (a dev server's workers). Dropping the watchdog (the owner's normal stop) does the same.
#[derive(Debug)]
pub struct GroupWatchdog {
    _owner_end: std::io::PipeWriter,
    pgid: u32,
    exit: ExitWatch,
}

/// The watchdog's script: ignore the group's SIGTERM itself, wait for the owner to go, stop all.
const WATCHDOG: &str = "trap '' TERM; read _ignored; kill -TERM 0; sleep 0.5; kill -KILL 0";

impl GroupWatchdog {
    /// Start a watchdog leading a new process group; [`GroupWatchdog::pgid`] is the group to join.
    pub fn start() -> io::Result<GroupWatchdog> {
        // Both ends are close-on-exec: no other child inherits the owner's end.
        let (reader, writer) = std::io::pipe()?;
        let mut command = Command::new("sh");
        command
            .args(["-c", WATCHDOG])
            .stdin(reader)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .process_group(0);
        // Forked from the spawner thread too, but without the parent-death signal: it must
        // outlive the owner to do its job.
        let child = fork_on_spawner(command)?;
        Ok(GroupWatchdog {
            _owner_end: writer,
            pgid: child.id(),
            exit: ExitWatch::new(child),
        })
    }

    /// The group it leads (its pid).
    pub fn pgid(&self) -> u32 {
        self.pgid
    }

    /// The watchdog's exit (it ends with its group).
    pub fn exit(&self) -> &ExitWatch {
        &self.exit
    }
}

/// Ties a process group that leads its own session (a program on a pseudoterminal, which cannot
/// join a [`GroupWatchdog`]'s group) to its owner. A `sh` started *before* the program blocks on a
/// pipe only the owner holds: [`GroupGuard::arm`] writes the group's id, and when the owner dies
/// however it dies the read returns and the guard sends SIGKILL to that group — the program's
/// workers included, which the parent-death signal (sent to the program alone) never reaches and
/// which may ignore the terminal's hang-up. The owner's normal stop kills the group itself and
/// then [`GroupGuard::release`]s the guard, which exits without signalling anything.
///
/// A group id is not reused while any member of the group lives (the kernel keeps it), so the
/// guard's kill reaches the program's group or nothing.
#[derive(Debug)]
pub struct GroupGuard {
    owner_end: Option<std::io::PipeWriter>,
    exit: ExitWatch,
}

/// The guard's script: read the group, then wait for the owner's word or its death; a group
/// that is not a number is never signalled (the owner died before arming it).
const GUARD: &str = "trap '' INT TERM HUP; read group || exit 0; \
case $group in ''|*[!0-9]*) exit 0;; esac; read word; \
[ \"$word\" = released ] || kill -KILL -\"$group\" 2>/dev/null; exit 0";

impl GroupGuard {
    /// Start a guard in a process group of its own (so a terminal's Ctrl+C to the tool's group
    /// does not reach it), before the program it will guard.
    pub fn start() -> io::Result<GroupGuard> {
        let (reader, writer) = std::io::pipe()?;
        let mut command = Command::new("sh");
        command
            .args(["-c", GUARD])
            .stdin(reader)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .process_group(0);
        // No parent-death signal: it must outlive the owner to do its job.
        let child = fork_on_spawner(command)?;
        Ok(GroupGuard {
            owner_end: Some(writer),
            exit: ExitWatch::new(child),
        })
    }

    /// Name the group to kill if the owner dies.
    pub fn arm(&mut self, pgid: u32) -> io::Result<()> {
        use std::io::Write;
        match &mut self.owner_end {
            Some(end) => writeln!(end, "{pgid}"),
            None => Err(io::Error::other("the guard was already released")),
        }
    }

    /// The owner stopped the group itself: let the guard exit without signalling, and reap it
    /// (bounded by `within`).
    pub fn release(&mut self, within: std::time::Duration) {
        use std::io::Write;
        if let Some(mut end) = self.owner_end.take() {
            let _ = writeln!(end, "released");
        }
        let _ = self.exit.wait_blocking(within);
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        // Dropped without a release (the owner's own unwinding): the guard kills the group, as
        // on the owner's death.
        self.owner_end.take();
    }
}

/// Stop receiving the parent-death signal: for a supervisor once `agent start` handed the
/// session over (from then on the session, not that command, owns it).
pub fn release_from_owner() -> io::Result<()> {
    rustix::process::set_parent_process_death_signal(None).map_err(io::Error::from)
}

/// The exit status of an owned child, published by a waiter thread that reaps it.
#[derive(Debug, Clone)]
pub struct ExitWatch {
    rx: watch::Receiver<Option<ExitStatus>>,
}

impl ExitWatch {
    /// Reap `child` on a thread of its own and publish its status.
    pub fn new(mut child: Child) -> ExitWatch {
        let (tx, rx) = watch::channel(None);
        let waiter = move || {
            // An error (ECHILD: someone else reaped it) still means the child is gone.
            let status = child
                .wait()
                .unwrap_or_else(|_| std::os::unix::process::ExitStatusExt::from_raw(9));
            let _ = tx.send(Some(status));
        };
        if let Err(e) = std::thread::Builder::new()
            .name("a3s-test-reaper".into())
            .spawn(waiter)
        {
            eprintln!("a3s-test: failed to start a reaper thread: {e}");
        }
        ExitWatch { rx }
    }

    /// The status once the child exited.
    pub fn status(&self) -> Option<ExitStatus> {
        *self.rx.borrow()
    }

    /// Wait until the child exited.
    pub async fn exited(&self) -> Option<ExitStatus> {
        let mut rx = self.rx.clone();
        rx.wait_for(Option::is_some).await.ok().and_then(|s| *s)
    }

    /// Wait (blocking, bounded) until the child exited.
    pub fn wait_blocking(&self, within: std::time::Duration) -> Option<ExitStatus> {
        let until = std::time::Instant::now() + within;
        loop {
            if let Some(status) = self.status() {
                return Some(status);
            }
            if std::time::Instant::now() >= until {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_child_asked_for_by_a_short_lived_thread_outlives_that_thread_and_leads_its_group() {
        let mut command = Command::new("sleep");
        command.arg("30");
        // Spawn from a short-lived thread: the spawner thread, not this one, forks.
        let child = std::thread::spawn(move || spawn(command, Group::NewGroup, OnOwnerDeath::Kill))
            .join()
            .unwrap()
            .unwrap();
        let pid = child.id();
        let start = start_time(pid).unwrap();
        let watch = ExitWatch::new(child);
        // The thread that asked is gone; the child must still run.
        assert!(is_alive(pid, start));
        assert!(watch.wait_blocking(Duration::from_millis(200)).is_none());
        let pgid = crate::process::ProcessInfo::read(pid as i32).unwrap().pgid;
        assert_eq!(pgid as u32, pid, "the child leads its own group");
        crate::process::signal(pid as i32, crate::process::Signal::KILL);
        assert!(watch.wait_blocking(Duration::from_secs(5)).is_some());
        assert!(!is_alive(pid, start));
    }
}
