//! The supervisor: a small process in its own session and process group (started by
//! `a3s-test agent start` as the hidden `agent supervise` subcommand) that owns the session's
//! browser and serves turns over a Unix socket until `finish`/`abort`, the idle timeout or the
//! session deadline. When it leaves, the browser's group goes with it (the driver reaps it on
//! shutdown and, failing that, at process exit; a SIGKILLed supervisor takes the browser along
//! through the browser's parent-death signal, see `a3s_test_driver::child`). Until `agent start`
//! hands the session over ([`super::spawn::HANDOVER`]), the supervisor itself dies with that
//! command — for good when `a3s-test dev` started it ([`super::spawn::HANDOVER_TIED`]: that
//! session lives exactly as long as the command); SIGTERM, SIGINT and SIGHUP close the session
//! like `abort` at any moment.
//!
//! Why a supervisor instead of attaching to the browser on every CLI turn: the tab's listeners
//! (dialogs, console, network activity), the domain interception and the browser context (created
//! `disposeOnDetach`) all live on one CDP connection; a per-turn attach would drop them between
//! turns. The CDP endpoint is still recorded in `session.json` for diagnostics.
//!
//! A terminal session (`agent start --tui`) is served by the same loop ([`serve_terminal`]):
//! what the supervisor owns is then the program's process group on its pseudoterminal, with the
//! same guarantees (the parent-death signal, stop signals closing it like `abort`).

use super::code::{SessionCode, SessionError};
use super::engine::Engine;
use super::event::{ExpiryReason, SessionEvent};
use super::file::{append_event, SessionFile, SessionState};
use super::page_context::repair_watch::Waited;
use super::protocol::{self, Envelope, Replied, Request, RequestLine};
use super::ready::Ready;
use super::spawn;
use crate::executor::DriverLauncher;
use crate::exit::Exit;
use a3s_test_driver::{AgentDriver, DesktopAgentDriver, TerminalAgentDriver};
use a3s_test_ledger::SessionId;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixListener;
use tokio::sync::Notify;

/// How long a connected client may take to send its request.
const REQUEST_READ: Duration = Duration::from_secs(10);
/// How long `agent start` may take to hand the session over after the ready line.
const HANDOVER_READ: Duration = Duration::from_secs(30);

/// The first line the supervisor prints on stdout: ready or not.
fn ready_line(ready: Ready) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", ready.line());
    let _ = out.flush();
}

/// What a supervisor serves: a started session engine — a browser's ([`Engine`]) or a terminal
/// program's ([`super::terminal::TerminalEngine`]). The serving loop (socket, hand-over,
/// signals, idle timeout and deadline) is the same for both, so it is written once, here.
pub trait Served {
    /// The session record.
    fn file(&self) -> &SessionFile;

    /// The session folder (open, verified).
    fn dir(&self) -> &a3s_test_fsroot::Dir;

    /// Serve one request; the answer has `closing` set when the session ended.
    fn handle(&mut self, request: Request) -> impl std::future::Future<Output = Envelope<Replied>>;

    /// Close the session: stop every owned process, verify it is gone, write `report.json`.
    fn close(
        &mut self,
        state: SessionState,
        status: &str,
        summary: Option<String>,
    ) -> impl std::future::Future<Output = Result<super::reply::Closing, SessionError>>;
}

impl<D: AgentDriver> Served for Engine<D> {
    fn file(&self) -> &SessionFile {
        &self.file
    }

    fn dir(&self) -> &a3s_test_fsroot::Dir {
        Engine::dir(self)
    }

    async fn handle(&mut self, request: Request) -> Envelope<Replied> {
        Engine::handle(self, request).await
    }

    async fn close(
        &mut self,
        state: SessionState,
        status: &str,
        summary: Option<String>,
    ) -> Result<super::reply::Closing, SessionError> {
        Engine::close(self, state, status, summary).await
    }
}

/// Run the supervisor of a browser session `session` under the project `root` until it closes
/// (its folder is opened once, without following links, and held open); returns the process
/// exit code (success, `InvalidInput` when the session could not start, `Interrupted` when
/// `agent start` went away before handing over).
/// `launcher` starts the browser: the concrete driver is chosen by whoever starts the supervisor
/// process (the hidden `agent supervise` command), never in this module.
pub async fn serve<L>(launcher: L, session: SessionId, root: PathBuf, token: String) -> Exit
where
    L: DriverLauncher,
    L::Driver: AgentDriver,
{
    serve_with(
        |dir, root, token| Engine::start(launcher, dir, root, token),
        session,
        root,
        token,
    )
    .await
}

/// [`serve`] for a terminal session: `launcher` starts the terminal driver, whose context runs
/// the session's program on its own pseudoterminal ([`super::terminal::TerminalEngine`]).
pub async fn serve_terminal<L>(
    launcher: L,
    session: SessionId,
    root: PathBuf,
    token: String,
) -> Exit
where
    L: DriverLauncher,
    L::Driver: TerminalAgentDriver,
{
    serve_with(
        |dir, root, token| super::terminal::TerminalEngine::start(launcher, dir, root, token),
        session,
        root,
        token,
    )
    .await
}

/// [`serve`] for a desktop session: `launcher` starts the desktop driver, whose context owns a
/// desktop with the session's program on it ([`super::desktop::DesktopEngine`]).
pub async fn serve_desktop<L>(launcher: L, session: SessionId, root: PathBuf, token: String) -> Exit
where
    L: DriverLauncher,
    L::Driver: DesktopAgentDriver,
{
    serve_with(
        |dir, root, token| super::desktop::DesktopEngine::start(launcher, dir, root, token),
        session,
        root,
        token,
    )
    .await
}

/// The serving loop of any engine `start` makes (see [`serve`]).
async fn serve_with<E, F, S>(start: F, session: SessionId, root: PathBuf, token: String) -> Exit
where
    E: Served,
    F: FnOnce(a3s_test_fsroot::Dir, PathBuf, String) -> S,
    S: std::future::Future<Output = Result<E, SessionError>>,
{
    let dir = match super::file::open_session_dir(&root, &session) {
        Ok(dir) => dir,
        Err(e) => {
            ready_line(Ready::Failed { error: e });
            return Exit::InvalidInput;
        }
    };
    // Handlers first: SIGTERM, SIGINT or SIGHUP at any moment close the browser instead of
    // killing the supervisor by the default action (its browser would then only die by its
    // parent-death signal, leaving the session record `active`). The tool's one signal path
    // (`a3s_test_driver::process::on_stop_signals`) catches every one of them for as long as the
    // process lives; a signal that arrives while no one waits is kept as the notify's permit.
    let terminate = Arc::new(Notify::new());
    let installed = {
        let terminate = terminate.clone();
        a3s_test_driver::process::on_stop_signals(move |_| terminate.notify_one()).is_ok()
    };
    let terminate = installed.then_some(terminate);
    let started = tokio::select! {
        started = start(dir.clone(), root, token) => started,
        _ = next_signal(&terminate) => Err(SessionError::new(
            // Dropping the half-started engine kills the browser's group.
            SessionCode::Interrupted,
            "the supervisor was stopped by a signal while starting",
        )),
    };
    let mut engine = match started {
        Ok(e) => e,
        Err(e) => {
            if let Ok(mut file) = SessionFile::load(&dir) {
                file.state = SessionState::Failed;
                file.closed_reason = Some(e.message.clone());
                let _ = file.save(&dir);
            }
            ready_line(Ready::Failed { error: e });
            return Exit::InvalidInput;
        }
    };
    let socket = engine.file().socket.clone();
    remove_socket(engine.dir(), &socket);
    let listener = match UnixListener::bind(bind_path(engine.dir(), &socket)) {
        Ok(l) => l,
        Err(e) => {
            let err = SessionError::new(
                SessionCode::Supervisor,
                format!("failed to listen on {}: {e}", socket.display()),
            );
            let _ = engine
                .close(SessionState::Failed, "failed", Some(err.message.clone()))
                .await;
            ready_line(Ready::Failed { error: err });
            return Exit::InvalidInput;
        }
    };
    // Only this user may drive the session. `chmod` follows links, so a socket in the session
    // folder is changed only while that name is still the socket just bound (not a link).
    let in_folder = socket.file_name() == Some(std::ffi::OsStr::new(spawn::SOCKET_FILE));
    let bound_here = !in_folder
        || engine.dir().kind_of(spawn::SOCKET_FILE).ok().flatten()
            == Some(a3s_test_fsroot::EntryKind::Other);
    if bound_here {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o600));
    }
    ready_line(Ready::Started {
        session: engine.file().id.clone(),
    });
    // Until `agent start` hands the session over, this process dies with it (SIGKILL included);
    // a start that goes away without handing over (interrupted, killed) takes the session along.
    let handed = tokio::select! {
        handed = take_over() => handed,
        _ = next_signal(&terminate) => false,
    };
    if !handed {
        let _ = append_event(engine.dir(), &SessionEvent::StartAbandoned);
        let _ = engine
            .close(
                SessionState::Aborted,
                "aborted",
                Some("agent start did not return".into()),
            )
            .await;
        drop(listener);
        remove_socket(engine.dir(), &socket);
        return Exit::Interrupted;
    }
    let idle = Duration::from_millis(engine.file().budgets.idle_ms.max(1));
    // A connection that arrived while a `repair_wait` was in progress: served next.
    let mut preempted_by: Option<tokio::net::UnixStream> = None;
    loop {
        let left = engine
            .file()
            .deadline_at_ms()
            .saturating_sub(super::file::now_ms());
        let wait = idle.min(Duration::from_millis(left.max(1)));
        let accepted = tokio::select! {
            a = next_connection(&listener, &mut preempted_by) => a,
            _ = next_signal(&terminate) => {
                // SIGTERM/SIGINT/SIGHUP: close like `abort`, so the browser group goes first.
                let _ = append_event(engine.dir(), &SessionEvent::Terminated);
                let _ = engine.close(SessionState::Aborted, "aborted", Some("supervisor terminated by a signal".into())).await;
                break;
            }
            _ = tokio::time::sleep(wait) => {
                let reason = if left as u128 <= wait.as_millis() {
                    ExpiryReason::SessionDeadline
                } else {
                    ExpiryReason::IdleTimeout
                };
                let _ = append_event(engine.dir(), &SessionEvent::Expired { reason });
                let _ = engine
                    .close(SessionState::Expired, "expired", Some(reason.as_str().to_string()))
                    .await;
                break;
            }
        };
        let Ok(stream) = accepted else { continue };
        let (read, mut write) = stream.into_split();
        let mut line = String::new();
        let mut reader = BufReader::new(read);
        let got = tokio::time::timeout(REQUEST_READ, reader.read_line(&mut line)).await;
        let answer = match got {
            Ok(Ok(n)) if n > 0 => match RequestLine::read(&line) {
                // A wait gives way to any other client: the newcomer is served next and the
                // waiter is told to ask again.
                Ok(request @ Request::RepairWait(_)) => tokio::select! {
                    r = engine.handle(request) => r,
                    a = listener.accept() => {
                        preempted_by = a.ok().map(|(s, _)| s);
                        Envelope::reply(Replied::Waited(Waited::Preempted))
                    }
                },
                Ok(request) => engine.handle(request).await,
                // Another protocol version: told in a form its client reads too.
                Err(e) if e.code == SessionCode::Supervisor => {
                    let mut text = protocol::foreign_answer(&e);
                    text.push(b'\n');
                    let _ = tokio::time::timeout(REQUEST_READ, write.write_all(&text)).await;
                    continue;
                }
                Err(e) => Envelope::error(e, None),
            },
            _ => continue,
        };
        let mut text = answer.to_line();
        text.push(b'\n');
        let _ = tokio::time::timeout(REQUEST_READ, write.write_all(&text)).await;
        if answer.closing {
            break;
        }
    }
    drop(listener);
    remove_socket(engine.dir(), &socket);
    Exit::Success
}

/// Where to bind the socket: a socket in the session folder is bound through the folder the
/// supervisor holds open (`/proc/self/fd/<fd>/supervisor.sock`, Linux's name for that very
/// folder), so it is created there even if a folder on its plain path was swapped for a link
/// (`bind` takes a path only; there is no `bindat`). Elsewhere, or without `/proc`, the plain path.
fn bind_path(dir: &a3s_test_fsroot::Dir, socket: &std::path::Path) -> std::path::PathBuf {
    use std::os::fd::{AsFd, AsRawFd};
    let through = std::path::PathBuf::from(format!("/proc/self/fd/{}", dir.as_fd().as_raw_fd()));
    let in_folder = socket.file_name() == Some(std::ffi::OsStr::new(spawn::SOCKET_FILE));
    if in_folder && through.is_dir() {
        through.join(spawn::SOCKET_FILE)
    } else {
        socket.to_path_buf()
    }
}

/// Remove the socket file: through the open session folder when it lives there (a link swapped
/// in for the folder is not followed), else the temp folder's one.
fn remove_socket(dir: &a3s_test_fsroot::Dir, socket: &std::path::Path) {
    if socket.file_name() == Some(std::ffi::OsStr::new(spawn::SOCKET_FILE)) {
        let _ = dir.remove_file(spawn::SOCKET_FILE);
    } else {
        let _ = std::fs::remove_file(socket);
    }
}

/// The connection a preempted wait left waiting, else the next one to arrive.
async fn next_connection(
    listener: &UnixListener,
    preempted_by: &mut Option<tokio::net::UnixStream>,
) -> std::io::Result<tokio::net::UnixStream> {
    match preempted_by.take() {
        Some(stream) => Ok(stream),
        None => listener.accept().await.map(|(s, _)| s),
    }
}

/// Read the hand-over line from `agent start` (bounded), stop dying with that command (unless
/// the hand-over is [`spawn::HANDOVER_TIED`]) and confirm. False when the start went away or sent something else.
async fn take_over() -> bool {
    let mut line = String::new();
    let mut stdin = BufReader::new(tokio::io::stdin());
    let read = tokio::time::timeout(HANDOVER_READ, stdin.read_line(&mut line)).await;
    if !matches!(read, Ok(Ok(n)) if n > 0) {
        return false;
    }
    match line.trim() {
        spawn::HANDOVER => {
            if a3s_test_driver::child::release_from_owner().is_err() {
                return false;
            }
        }
        // `a3s-test dev`: the session is handed over, but this process still dies with it.
        spawn::HANDOVER_TIED => {}
        _ => return false,
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", spawn::RELEASED).is_ok() && out.flush().is_ok()
}

/// Completes when a stop signal arrives (never, when the handlers could not be installed).
async fn next_signal(terminate: &Option<Arc<Notify>>) {
    match terminate {
        Some(notify) => notify.notified().await,
        None => std::future::pending().await,
    }
}
