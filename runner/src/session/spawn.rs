//! The CLI side of `start`: creating the session folder (exclusively), starting the supervisor in
//! its own session/process group, waiting (bounded, interruptible) for its ready line and handing
//! the session over. Stopping what a session recorded lives in [`super::cleanup`].

use super::code::{SessionCode, SessionError};
use super::file::{
    now_ms, random_token, sessions_dir, Budgets, Ownership, Policy, SessionFile, SessionState,
    FORMAT_VERSION,
};
use a3s_test_driver::child::{self, ExitWatch, Group, OnOwnerDeath};
use a3s_test_driver::process::{kill_group, live_group_members, signal_group, Signal};
use a3s_test_fsroot::{Access, Dir, PRIVATE};
use a3s_test_ledger::SessionId;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long the supervisor may take to launch the browser and open the start URL.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the owned processes may take to disappear after a close.
pub const EXIT_TIMEOUT: Duration = Duration::from_secs(10);

/// What `agent start` was asked for.
#[derive(Debug, Clone)]
pub struct StartRequest {
    /// The session id (parsed by the ledger's one id parser, so the session can use its ledger).
    pub id: SessionId,
    /// The start URL.
    pub url: String,
    /// The policy built from the URL and the allow lists.
    pub policy: Policy,
    /// `--goal`.
    pub goal: Option<String>,
    /// `--success`.
    pub success: Vec<String>,
    /// Limits.
    pub budgets: Budgets,
    /// Show the browser window (`a3s-test dev --headed`, or a display is available there).
    pub headed: bool,
    /// Reopen the folder of a *closed* session with this id instead of refusing it
    /// (`a3s-test dev` run again: the ledger and the artifacts in the folder are kept, and a
    /// failed start leaves them in place).
    pub reopen: bool,
    /// Keep the supervisor dying with this process after the start returned (`a3s-test dev`,
    /// whose session lives exactly as long as the command): the hand-over is
    /// [`HANDOVER_TIED`], so a `kill -9` of the command takes the supervisor, and through it the
    /// browser, along instead of leaving them to the idle timeout.
    pub tied: bool,
    /// A terminal session's program (`agent start --tui`): the supervisor then owns it on a
    /// pseudoterminal instead of a browser.
    pub terminal: Option<super::file::TerminalProgram>,
    /// A desktop session's program (`agent start --gui`): the supervisor then owns a desktop
    /// (X server, buses) with the program on it instead of a browser.
    pub desktop: Option<super::file::DesktopProgram>,
    /// The project's browser context options, applied to the session's context before the start
    /// URL opens (empty for a terminal session).
    pub context: a3s_test_lang::ir::ContextSettings,
    /// The project's `storage_state`, loaded into the context before the start URL opens.
    pub storage_state: Option<a3s_test_lang::ir::StatePath>,
    /// `agent start --trace`: capture the page after each statement for `finish --trace`.
    pub trace: bool,
}

/// The line `agent start` writes to the supervisor's stdin once it has read the ready line: the
/// session is handed over, so the supervisor stops dying with this command.
pub const HANDOVER: &str = "handover";
/// The hand-over of a [`StartRequest::tied`] start: the supervisor takes the session over but
/// keeps its parent-death signal, so it still dies with the command that started it.
pub const HANDOVER_TIED: &str = "handover-tied";
/// The line the supervisor answers once it no longer dies with `agent start`.
pub const RELEASED: &str = "released";

/// Create the session folder and start its supervisor (`exe agent supervise …`); returns the
/// record once the browser is up on the start URL.
///
/// The folder is created exclusively (of concurrent starts with one id, exactly one proceeds; the
/// others get `test.session.exists`). Until the supervisor confirms the hand-over, it dies with
/// this process (SIGKILL included), and `interrupted` is polled: when it turns true, the
/// supervisor's whole tree is killed and the folder removed, so an interrupted start leaves no
/// session behind.
pub fn start(
    exe: &Path,
    root: &Path,
    request: StartRequest,
    interrupted: &dyn Fn() -> bool,
) -> Result<SessionFile, SessionError> {
    let fs = |e: a3s_test_fsroot::FsError| SessionError::fs(&e);
    // The folders on the way are opened without following links; the session folder itself is
    // created exclusively inside the verified `agent-sessions` folder.
    let sessions = sessions_dir(root).create_dir_all().map_err(fs)?;
    let mut previous: Option<SessionFile> = None;
    let dir = match sessions.create_dir(&request.id) {
        Ok(dir) => dir,
        Err(e) if e.io_kind() == Some(std::io::ErrorKind::AlreadyExists) && request.reopen => {
            let dir = sessions.open_dir(&request.id).map_err(fs)?;
            let old = SessionFile::load(&dir)?;
            if !old.state.is_closed() || old.state == SessionState::CleanupFailed {
                return Err(SessionError::new(
                    SessionCode::AlreadyExists,
                    format!(
                        "session {} is still {:?} at {}; stop it first or pick another id",
                        request.id,
                        old.state,
                        dir.path().display()
                    )
                    .to_lowercase(),
                ));
            }
            previous = Some(old);
            dir
        }
        Err(e) if e.io_kind() == Some(std::io::ErrorKind::AlreadyExists) => {
            return Err(SessionError::new(
                SessionCode::AlreadyExists,
                format!(
                    "session {} already exists at {}; pick another id",
                    request.id,
                    e.path().display()
                ),
            ))
        }
        Err(e) => return Err(fs(e)),
    };
    // From here on this call owns the folder: every early exit removes it.
    let mut guard = StartGuard {
        sessions,
        id: request.id.clone(),
        dir: dir.clone(),
        supervisor: None,
        armed: true,
        keep_dir: previous.is_some(),
    };
    dir.create_dir_all("artifacts").map_err(fs)?;
    let socket = socket_path(root, &request.id)?;
    let token = random_token();
    let file = SessionFile {
        format_version: FORMAT_VERSION,
        id: request.id.clone(),
        state: SessionState::Starting,
        start_url: request.url,
        goal: request.goal,
        success: request.success,
        policy: request.policy,
        budgets: request.budgets,
        cdp_endpoint: None,
        socket,
        ownership: Ownership {
            token: token.clone(),
            ..Ownership::default()
        },
        started_at_ms: now_ms(),
        last_turn_at_ms: now_ms(),
        // A reopened session goes on numbering, so new turns never reuse an old turn's folder.
        next_turn: previous.as_ref().map_or(1, |p| p.next_turn),
        next_observation: previous.as_ref().map_or(1, |p| p.next_observation),
        actions: 0,
        latest: None,
        refs: Vec::new(),
        steps: Vec::new(),
        closed_reason: None,
        page_context: None,
        terminal: request.terminal,
        desktop: request.desktop,
        screen_revision: None,
        context: request.context,
        storage_state: request.storage_state,
        trace: request.trace,
    };
    file.save(&dir)?;
    if interrupted() {
        return Err(interrupted_error());
    }
    let log = dir
        .open_file("artifacts/supervisor.log", Access::Replace, PRIVATE)
        .map_err(fs)?;
    let mut command = Command::new(exe);
    command
        .args(["agent", "supervise", "--session", &request.id])
        .arg("--workdir")
        .arg(root)
        .args(["--token", &token])
        .args(request.headed.then_some("--headed"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log));
    // A new session and group (the terminal's signals must not reach it), SIGKILL if this
    // command dies before the hand-over.
    let mut child = child::spawn(command, Group::NewSession, OnOwnerDeath::Kill).map_err(|e| {
        SessionError::new(
            SessionCode::Supervisor,
            format!("failed to start the supervisor: {e}"),
        )
    })?;
    let pid = child.id();
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    guard.supervisor = Some((pid, ExitWatch::new(child)));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = std::io::BufReader::new(stdout);
        loop {
            let mut line = String::new();
            let n = reader.read_line(&mut line).unwrap_or(0);
            if tx.send(line).is_err() || n == 0 {
                return;
            }
        }
    });
    let until = Instant::now() + START_TIMEOUT;
    let line = next_line(&rx, until, interrupted)?;
    if let Err(e) = super::ready::Ready::read(&line) {
        // It reported a failure (or died): its record says why; nothing of its tree may stay.
        guard.stop_supervisor();
        guard.armed = false;
        return Err(e);
    }
    let handover = if request.tied {
        HANDOVER_TIED
    } else {
        HANDOVER
    };
    let handed = writeln!(stdin, "{handover}").and_then(|_| stdin.flush());
    drop(stdin);
    let released = match handed {
        Ok(()) => next_line(&rx, Instant::now() + EXIT_TIMEOUT, interrupted)?,
        Err(_) => String::new(),
    };
    if released.trim() != RELEASED {
        return Err(SessionError::new(
            SessionCode::Supervisor,
            "the supervisor did not take the session over (see artifacts/supervisor.log)",
        ));
    }
    // Committed: the supervisor outlives this command; in a long-lived process (`a3s-test mcp`)
    // the reaper thread of its exit watch collects it, so no zombie piles up.
    guard.armed = false;
    SessionFile::load(&dir)
}

fn interrupted_error() -> SessionError {
    SessionError::new(
        SessionCode::Interrupted,
        "agent start was interrupted; the session was torn down",
    )
}

/// The next stdout line of the supervisor, polling `interrupted` until `until`.
fn next_line(
    rx: &std::sync::mpsc::Receiver<String>,
    until: Instant,
    interrupted: &dyn Fn() -> bool,
) -> Result<String, SessionError> {
    loop {
        if interrupted() {
            return Err(interrupted_error());
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(SessionError::new(
                SessionCode::Supervisor,
                format!(
                    "the supervisor did not report ready within {} s",
                    START_TIMEOUT.as_secs()
                ),
            ));
        }
        match rx.recv_timeout(left.min(POLL)) {
            Ok(line) => return Ok(line),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(String::new()),
        }
    }
}

/// How often a waiting `start` looks at its interruption flag.
const POLL: Duration = Duration::from_millis(20);

/// What a `start` that has not returned owns: the folder and, once spawned, the supervisor.
struct StartGuard {
    /// The verified `agent-sessions` folder and the session's name in it (removal goes through
    /// it, so a link swapped in later is not followed).
    sessions: Dir,
    id: SessionId,
    dir: Dir,
    supervisor: Option<(u32, ExitWatch)>,
    /// True until the start succeeded or handed its record over to a reported failure.
    armed: bool,
    /// A reopened folder: its ledger and artifacts stay whatever happens.
    keep_dir: bool,
}

impl StartGuard {
    /// SIGKILL the supervisor's session group and every process of its tree (the browser and its
    /// helpers, identified by pid and start time), then wait (bounded) until all are gone.
    fn stop_supervisor(&mut self) {
        let Some((pid, watch)) = self.supervisor.take() else {
            return;
        };
        // Frozen first: a stopped supervisor forks nothing more, so the tree read next holds
        // every child it started (a browser in its own group still runs and may fork, but
        // into that group, which is killed whole below). A browser forked between the read
        // and the kill would be missed: its own process dies by its parent-death signal, but
        // the helpers it already started only when they notice, seconds later under load.
        signal_group(pid, Signal::STOP);
        let tree = crate::process_tree::descendants(pid as i32);
        kill_group(pid);
        for p in tree.iter().filter(|p| p.is_alive()) {
            crate::process_tree::signal(p.pid, crate::process_tree::Signal::KILL);
            if p.pgid == p.pid {
                kill_group(p.pgid as u32);
            }
        }
        let _ = watch.wait_blocking(EXIT_TIMEOUT);
        let _ = wait_group_gone(pid, EXIT_TIMEOUT);
        let until = Instant::now() + EXIT_TIMEOUT;
        while tree.iter().any(|p| p.is_alive()) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for StartGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        self.stop_supervisor();
        if !self.keep_dir {
            let _ = self.sessions.remove_dir_all(&self.id);
        } else if let Ok(mut file) = SessionFile::load(&self.dir) {
            // The folder stays; its record must not claim a live session.
            if !file.state.is_closed() {
                file.state = SessionState::Aborted;
                file.closed_reason = Some("the start did not complete".into());
                let _ = file.save(&self.dir);
            }
        }
    }
}

/// The supervisor socket: inside the session folder when the path fits `sun_path`, else in the
/// temp folder under a name derived from the session. The project folder is resolved once (it is
/// the person's); the part below it was just opened without following links.
fn socket_path(root: &Path, id: &SessionId) -> Result<PathBuf, SessionError> {
    let root = root.canonicalize().map_err(|e| {
        SessionError::new(
            SessionCode::Io,
            format!("failed to resolve {}: {e}", root.display()),
        )
    })?;
    let inside = super::file::session_dir(&root, id).path().join(SOCKET_FILE);
    if inside.as_os_str().len() < 100 {
        return Ok(inside);
    }
    Ok(std::env::temp_dir().join(format!("a3s-test-{id}-{}.sock", &random_token()[..8])))
}

/// The supervisor socket's name when it lives in the session folder.
pub const SOCKET_FILE: &str = "supervisor.sock";

/// Wait (bounded) until no live process of `pgid` remains; returns the survivors.
pub fn wait_group_gone(pgid: u32, within: Duration) -> Vec<u32> {
    if pgid <= 1 {
        return Vec::new();
    }
    let until = Instant::now() + within;
    loop {
        let alive = live_group_members(pgid);
        if alive.is_empty() || Instant::now() >= until {
            return alive;
        }
        // Polling /proc is the only way to watch a process that is not our child.
        std::thread::sleep(Duration::from_millis(5));
    }
}
