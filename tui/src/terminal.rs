//! [`Terminal`]: one program on its own pseudoterminal, its screen, its input and its evidence —
//! the object a terminal `SurfaceDriver` context or an agent session holds.
//!
//! One reader thread per terminal waits for output with `poll` (event-driven: no timer), feeds
//! it to the emulator and the recording under one lock, sends the emulator's answers to the
//! program's queries, and bumps the revision on a `tokio::sync::watch` channel: that bump is what
//! wakes a waiter ([`crate::wait`]). Output is bounded by a budget: past it the reader stops
//! reading and stops the program's group, and every wait reports `test.driver.tui.output_budget`;
//! memory stays bounded by the screen, the scrollback and the recording's own bound.

use crate::cast::Recording;
use crate::error::{ProgramExit, TuiError};
use crate::keys::{Encode, Key, KeyModes};
use crate::pty::{self, ProgramSpec};
use crate::screen::{Emulator, Screen};
use crate::size::TerminalSize;
use a3s_test_driver::child::{ExitWatch, GroupGuard};
use a3s_test_driver::process;
use rustix::event::{PollFd, PollFlags};
use std::os::fd::OwnedFd;
use std::os::unix::process::ExitStatusExt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// How a terminal is set up; [`Default`] is 80×24 with generous bounds.
#[derive(Debug, Clone)]
pub struct TerminalOptions {
    /// Columns × rows at start.
    pub size: TerminalSize,
    /// Rows kept above the screen once they scroll off.
    pub scrollback_rows: usize,
    /// The most output bytes the program may write before it is stopped.
    pub max_output_bytes: u64,
    /// The most text the recording keeps (past it the recording is marked truncated).
    pub max_recording_bytes: usize,
    /// How long one input write may wait for a program that does not read.
    pub input_timeout: Duration,
}

impl Default for TerminalOptions {
    fn default() -> Self {
        TerminalOptions {
            size: TerminalSize::DEFAULT,
            scrollback_rows: 1000,
            max_output_bytes: 16 * 1024 * 1024,
            max_recording_bytes: 8 * 1024 * 1024,
            input_timeout: Duration::from_secs(5),
        }
    }
}

/// What became of the program's output stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    /// Still open.
    Open,
    /// Every writer closed the terminal (normally: the program ended).
    Ended,
    /// The budget was exceeded; the program's group was stopped.
    OverBudget,
    /// Reading failed with this error.
    Failed(rustix::io::Errno),
}

pub(crate) struct State {
    emulator: Emulator,
    recording: Recording,
    revision: u64,
    /// When `revision` last changed (a quiet-screen wait counts from here).
    changed_at: std::time::Instant,
    output_bytes: u64,
    pub(crate) output: Output,
    /// Answers to queries the reader could not send while an input write held the terminal;
    /// that write sends them when it is done.
    pending_answers: Vec<u8>,
}

impl State {
    /// The change count now.
    pub(crate) fn revision(&self) -> u64 {
        self.revision
    }

    /// How long the screen has not changed.
    pub(crate) fn quiet_for(&self) -> Duration {
        self.changed_at.elapsed()
    }

    /// The visible screen's text now.
    pub(crate) fn text(&self) -> String {
        self.emulator.text()
    }
}

/// What the reader thread and the handle share.
pub(crate) struct Shared {
    state: Mutex<State>,
    pub(crate) changed: watch::Sender<u64>,
    /// One writer at a time: input and the emulator's answers never interleave.
    write_lock: Mutex<()>,
    /// True while the reader holds output it read but has not put on the screen yet (set before
    /// each read, cleared once the chunk is processed): with the bytes still unread on the
    /// master, what [`Terminal::drained`] waits for.
    pub(crate) busy: std::sync::atomic::AtomicBool,
    /// Bumped after every read pass, once `busy` is cleared: wakes a [`Terminal::drained`] wait.
    pub(crate) passes: watch::Sender<u64>,
}

impl Shared {
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn bump(&self, mut state: MutexGuard<'_, State>) {
        state.revision += 1;
        state.changed_at = std::time::Instant::now();
        let revision = state.revision;
        drop(state);
        self.changed.send_replace(revision);
    }
}

/// A program running on a pseudoterminal the engine owns.
///
/// Dropping it stops the program's whole process group and reaps it; so does the owner's death
/// (the parent-death signal armed in `a3s_test_driver::child` for the program, and a
/// [`GroupGuard`] for the rest of its group).
pub struct Terminal {
    pub(crate) shared: Arc<Shared>,
    pub(crate) master: Arc<OwnedFd>,
    pub(crate) exit: ExitWatch,
    pid: u32,
    options: TerminalOptions,
    /// Dropping this ends the reader thread (its poll sees the pipe close).
    _stop_reader: std::io::PipeWriter,
    /// Kills the program's whole group if this process dies (the parent-death signal reaches
    /// the program alone, not its workers); released once [`Terminal`]'s drop stopped it.
    guard: GroupGuard,
}

impl std::fmt::Debug for Terminal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Terminal").field("pid", &self.pid).finish()
    }
}

impl Terminal {
    /// Open a pseudoterminal of `options.size` and start `spec` on it, owned (own session and
    /// group, parent-death signal), with a reader thread feeding the screen.
    pub fn spawn(spec: &ProgramSpec, options: TerminalOptions) -> Result<Terminal, TuiError> {
        let mut guard = GroupGuard::start().map_err(TuiError::SpawnFailed)?;
        let (master, child) = pty::spawn(spec, options.size)?;
        let pid = child.id();
        // If arming fails the guard is gone: the program still has its parent-death signal.
        let _ = guard.arm(pid);
        let exit = ExitWatch::new(child);
        let master = Arc::new(master);
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                emulator: Emulator::new(options.size, options.scrollback_rows),
                recording: Recording::new(options.size, options.max_recording_bytes),
                revision: 0,
                changed_at: std::time::Instant::now(),
                output_bytes: 0,
                output: Output::Open,
                pending_answers: Vec::new(),
            }),
            changed: watch::channel(0).0,
            write_lock: Mutex::new(()),
            busy: std::sync::atomic::AtomicBool::new(false),
            passes: watch::channel(0).0,
        });
        let (stop_reader, stop_writer) = std::io::pipe().map_err(TuiError::SpawnFailed)?;
        let reader = Reader {
            shared: shared.clone(),
            master: master.clone(),
            stop: stop_reader,
            budget: options.max_output_bytes,
            pgid: pid,
            exit: exit.clone(),
            input_timeout: options.input_timeout,
        };
        let started = std::thread::Builder::new()
            .name("a3s-test-tui-reader".into())
            .spawn(move || reader.run());
        let terminal = Terminal {
            shared,
            master,
            exit,
            pid,
            options,
            _stop_reader: stop_writer,
            guard,
        };
        // On failure the terminal is dropped here, which stops the program.
        started.map_err(TuiError::SpawnFailed)?;
        Ok(terminal)
    }

    /// The program's pid, which is also its process group and session id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// A copy of the screen now.
    pub fn screen(&self) -> Screen {
        let state = self.shared.lock();
        state.emulator.snapshot(state.revision)
    }

    /// The output budget this terminal was started with.
    pub fn max_output_bytes(&self) -> u64 {
        self.options.max_output_bytes
    }

    /// The change count of the screen now (cheaper than [`Terminal::screen`]).
    pub fn revision(&self) -> u64 {
        self.shared.lock().revision
    }

    /// Output bytes the program wrote so far (counted even past the budget).
    pub fn output_bytes(&self) -> u64 {
        self.shared.lock().output_bytes
    }

    /// How the program ended, once it has.
    pub fn exit_status(&self) -> Option<ProgramExit> {
        self.exit.status().map(|status| match status.signal() {
            Some(signal) => ProgramExit::Signal(signal),
            None => ProgramExit::Code(status.code().unwrap_or(-1)),
        })
    }

    /// Send raw bytes to the program, after refusing if it has ended.
    fn send(&self, bytes: &[u8]) -> Result<(), TuiError> {
        if let Some(exit) = self.exit_status() {
            return Err(TuiError::NotRunning { exit });
        }
        let written = {
            let _one_writer = self
                .shared
                .write_lock
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            pty::write_all(&self.master, bytes, self.options.input_timeout)
        };
        self.flush_pending_answers();
        written.map_err(|e| match (self.exit_status(), &e) {
            (Some(exit), TuiError::Io { .. }) => TuiError::NotRunning { exit },
            _ => e,
        })
    }

    /// Send the answers the reader left while an input write held the terminal. Only the reader
    /// leaves answers, and only while a write holds the lock; every write calls this after
    /// releasing it, so none is left behind (if another write holds the lock now, it sends them).
    fn flush_pending_answers(&self) {
        while let Ok(_one_writer) = self.shared.write_lock.try_lock() {
            let pending = std::mem::take(&mut self.shared.lock().pending_answers);
            if pending.is_empty() {
                return;
            }
            let _ = pty::write_all(&self.master, &pending, self.options.input_timeout);
        }
    }

    /// Type text: its UTF-8 bytes as they are (a newline is sent as a newline).
    pub fn type_text(&self, text: &str) -> Result<(), TuiError> {
        self.send(text.as_bytes())
    }

    /// Press one key, encoded for the terminal's current modes (application cursor keys).
    pub fn press(&self, key: Key) -> Result<(), TuiError> {
        let modes = KeyModes {
            application_cursor: self.shared.lock().emulator.modes().application_cursor,
        };
        self.send(&key.encode(modes))
    }

    /// Paste text as a terminal does: newlines become carriage returns, and in bracketed-paste
    /// mode the text is wrapped in `ESC [ 200 ~` … `ESC [ 201 ~` (an end marker inside the text
    /// is removed, so pasted text cannot end the paste early).
    pub fn paste(&self, text: &str) -> Result<(), TuiError> {
        let text = text.replace("\r\n", "\r").replace('\n', "\r");
        let bracketed = self.shared.lock().emulator.modes().bracketed_paste;
        let bytes = if bracketed {
            format!("\x1b[200~{}\x1b[201~", text.replace("\x1b[201~", ""))
        } else {
            text
        };
        self.send(bytes.as_bytes())
    }

    /// Resize the terminal: the emulator's grid, then the pseudoterminal (`TIOCSWINSZ`, which
    /// sends `SIGWINCH` to the program's foreground group).
    pub fn resize(&self, size: TerminalSize) -> Result<(), TuiError> {
        let mut state = self.shared.lock();
        state.emulator.resize(size);
        state.recording.resize(size);
        pty::set_size(&self.master, size)?;
        self.shared.bump(state);
        Ok(())
    }

    /// The session so far as an asciicast v2 document.
    pub fn recording(&self) -> String {
        self.shared.lock().recording.to_asciicast()
    }

    /// Whether the recording reached its bound and left output out.
    pub fn recording_truncated(&self) -> bool {
        self.shared.lock().recording.truncated()
    }

    /// The screen now as an SVG document.
    pub fn svg(&self) -> String {
        crate::svg::render(&self.screen())
    }

    /// Stop the program's whole process group now — its workers too, even once the program
    /// itself has exited (the group lives on while any member does) — and wait (bounded) until
    /// the program is reaped.
    pub fn kill(&self) {
        process::kill_group(self.pid);
        let _ = self.exit.wait_blocking(Duration::from_secs(5));
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.kill();
        self.guard.release(Duration::from_secs(5));
    }
}

/// Ends one read pass when dropped: the chunk is on the screen (or there was none), so a
/// [`Terminal::drained`] wait may look again.
struct PassDone<'a>(&'a Shared);

impl Drop for PassDone<'_> {
    fn drop(&mut self) {
        self.0
            .busy
            .store(false, std::sync::atomic::Ordering::SeqCst);
        self.0.passes.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// The reader thread's state.
struct Reader {
    shared: Arc<Shared>,
    master: Arc<OwnedFd>,
    stop: std::io::PipeReader,
    budget: u64,
    pgid: u32,
    exit: ExitWatch,
    input_timeout: Duration,
}

impl Reader {
    fn run(self) {
        let mut buffer = vec![0u8; 64 * 1024];
        let end = loop {
            let mut fds = [
                PollFd::new(&*self.master, PollFlags::IN),
                PollFd::new(&self.stop, PollFlags::IN),
            ];
            match rustix::event::poll(&mut fds, None) {
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(e) => break Output::Failed(e),
            }
            if !fds[1].revents().is_empty() {
                // The handle is gone; it stops the program itself.
                return;
            }
            self.shared
                .busy
                .store(true, std::sync::atomic::Ordering::SeqCst);
            let read = rustix::io::read(&*self.master, &mut buffer);
            let _pass = PassDone(&self.shared);
            match read {
                Ok(0) | Err(rustix::io::Errno::IO) => break Output::Ended,
                Ok(n) => {
                    if !self.take(&buffer[..n]) {
                        process::kill_group(self.pgid);
                        // Reaped before the budget is reported, so whoever reads the error
                        // also reads how the program ended.
                        let _ = self.exit.wait_blocking(Duration::from_secs(5));
                        break Output::OverBudget;
                    }
                }
                Err(rustix::io::Errno::AGAIN | rustix::io::Errno::INTR) => {}
                Err(e) => break Output::Failed(e),
            }
        };
        let mut state = self.shared.lock();
        state.output = end;
        self.shared.bump(state);
    }

    /// Process one chunk within the budget; `false` once the budget is exceeded.
    fn take(&self, bytes: &[u8]) -> bool {
        let mut state = self.shared.lock();
        let allowed = self.budget.saturating_sub(state.output_bytes);
        let kept = bytes
            .len()
            .min(usize::try_from(allowed).unwrap_or(usize::MAX));
        state.output_bytes += bytes.len() as u64;
        state.emulator.advance(&bytes[..kept]);
        state.recording.output(&bytes[..kept]);
        let mut answers = std::mem::take(&mut state.pending_answers);
        answers.extend(state.emulator.take_answers());
        if kept < bytes.len() {
            self.shared.bump(state);
            return false;
        }
        if answers.is_empty() {
            self.shared.bump(state);
            return true;
        }
        // Never wait behind an input write (it may wait for the program, which may wait for
        // this thread to read its output): leave the answers to that write instead.
        match self.shared.write_lock.try_lock() {
            Ok(_one_writer) => {
                self.shared.bump(state);
                // A program that asks and then stops reading loses its answer, nothing more.
                let _ = pty::write_all(&self.master, &answers, self.input_timeout);
            }
            Err(_) => {
                state.pending_answers = answers;
                self.shared.bump(state);
            }
        }
        true
    }
}
