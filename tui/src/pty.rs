//! The pseudoterminal a program runs on, and the program's owned start.
//!
//! Why not `portable-pty`: it forks the program itself (from whichever thread calls it) and has
//! no hook to run code in the child before `exec`, so it cannot arm the parent-death signal or
//! fork from the process-lifetime spawner thread — the two things that make every child of this
//! project die with its owner, even on `kill -9` (see `a3s_test_driver::child`). So the terminal
//! is opened here with `rustix::pty` (`posix_openpt`, `grantpt`, `unlockpt`, `ptsname`), and the
//! program is started through `a3s_test_driver::child::spawn` with
//! [`Group::NewSessionWithTerminal`]: a new session and process group whose controlling terminal
//! is the slave, given as stdin, stdout and stderr. The parent keeps only the master (close-on-
//! exec, so no other child inherits it); when the owner dies the program gets SIGKILL from the
//! kernel, and the terminal's `GroupGuard` (`crate::terminal`) kills the rest of its group —
//! workers that ignore the hang-up included.
//!
//! The master is non-blocking: the reader waits for it with `poll`, and input is written with a
//! deadline, so a program that stops reading its input cannot block the engine forever.

use crate::error::TuiError;
use crate::size::TerminalSize;
use a3s_test_driver::child::{self, Group, OnOwnerDeath};
use rustix::event::{PollFd, PollFlags};
use rustix::fs::{Mode, OFlags};
use rustix::pty::OpenptFlags;
use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The terminal type programs are told they run on: what the emulator implements.
pub const TERM: &str = "xterm-256color";

/// What to start on a terminal: an argument vector (no shell), its folder and environment.
#[derive(Debug, Clone)]
pub struct ProgramSpec {
    /// The program: a path, or a name looked up on `PATH`.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Its working directory (the caller's when `None`).
    pub cwd: Option<PathBuf>,
    /// Variables set for it on top of the inherited environment; `TERM` is set to [`TERM`]
    /// unless given here.
    pub env: Vec<(OsString, OsString)>,
    /// Start from an empty environment (only `TERM` and `env`).
    pub clear_env: bool,
}

impl ProgramSpec {
    /// A program with arguments, in the caller's folder and environment.
    pub fn new<I, S>(program: impl Into<OsString>, args: I) -> ProgramSpec
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        ProgramSpec {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            cwd: None,
            env: Vec::new(),
            clear_env: false,
        }
    }
}

/// Tell the terminal (and so, by `SIGWINCH`, the program's foreground group) its size.
pub(crate) fn set_size(master: &OwnedFd, size: TerminalSize) -> Result<(), TuiError> {
    let winsize = rustix::termios::Winsize {
        ws_row: size.rows(),
        ws_col: size.columns(),
        ws_xpixel: size.columns().saturating_mul(crate::svg::CELL_WIDTH as u16),
        ws_ypixel: size.rows().saturating_mul(crate::svg::CELL_HEIGHT as u16),
    };
    rustix::termios::tcsetwinsize(master, winsize).map_err(|e| TuiError::Io {
        action: "resize",
        source: e.into(),
    })
}

/// Open a pseudoterminal of `size` and start `spec` on it; returns the master and the child.
pub(crate) fn spawn(spec: &ProgramSpec, size: TerminalSize) -> Result<(OwnedFd, Child), TuiError> {
    if let Some(cwd) = &spec.cwd {
        if !cwd.is_dir() {
            return Err(TuiError::WorkingDirectory {
                path: cwd.display().to_string(),
            });
        }
    }
    let failed = |e: rustix::io::Errno| TuiError::SpawnFailed(e.into());
    let master =
        rustix::pty::openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)
            .map_err(failed)?;
    rustix::pty::grantpt(&master).map_err(failed)?;
    rustix::pty::unlockpt(&master).map_err(failed)?;
    let name = rustix::pty::ptsname(&master, Vec::new()).map_err(failed)?;
    let slave = rustix::fs::open(
        name.as_c_str(),
        OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(failed)?;
    set_size(&master, size)?;

    let mut command = Command::new(&spec.program);
    command.args(&spec.args);
    if let Some(cwd) = &spec.cwd {
        command.current_dir(cwd);
    }
    if spec.clear_env {
        command.env_clear();
    }
    command.env("TERM", TERM);
    for (name, value) in &spec.env {
        command.env(name, value);
    }
    let dup = |fd: &OwnedFd| fd.try_clone().map_err(TuiError::SpawnFailed);
    command
        .stdin(Stdio::from(dup(&slave)?))
        .stdout(Stdio::from(dup(&slave)?))
        .stderr(Stdio::from(slave));
    let child =
        child::spawn(command, Group::NewSessionWithTerminal, OnOwnerDeath::Kill).map_err(|e| {
            match e.kind() {
                std::io::ErrorKind::NotFound => TuiError::ProgramNotFound {
                    program: spec.program.to_string_lossy().into_owned(),
                },
                _ => TuiError::SpawnFailed(e),
            }
        })?;
    // Only now: the slave copies went to the child with the command (dropped by the spawner).
    rustix::io::ioctl_fionbio(&master, true).map_err(failed)?;
    Ok((master, child))
}

/// Write all of `bytes` to the non-blocking master, waiting for room at most until `within`
/// has passed.
pub(crate) fn write_all(master: &OwnedFd, bytes: &[u8], within: Duration) -> Result<(), TuiError> {
    let started = Instant::now();
    let mut rest = bytes;
    while !rest.is_empty() {
        match rustix::io::write(master, rest) {
            Ok(n) => rest = &rest[n..],
            Err(rustix::io::Errno::INTR) => {}
            Err(rustix::io::Errno::AGAIN) => {
                let left = within.saturating_sub(started.elapsed());
                if left.is_zero() {
                    return Err(TuiError::InputBlocked {
                        waited_ms: started.elapsed().as_millis(),
                    });
                }
                let timeout =
                    rustix::event::Timespec::try_from(left).unwrap_or(rustix::event::Timespec {
                        tv_sec: 1,
                        tv_nsec: 0,
                    });
                let mut fds = [PollFd::new(master, PollFlags::OUT)];
                match rustix::event::poll(&mut fds, Some(&timeout)) {
                    Ok(_) | Err(rustix::io::Errno::INTR) => {}
                    Err(e) => {
                        return Err(TuiError::Io {
                            action: "write",
                            source: e.into(),
                        })
                    }
                }
            }
            Err(e) => {
                return Err(TuiError::Io {
                    action: "write",
                    source: e.into(),
                })
            }
        }
    }
    Ok(())
}
