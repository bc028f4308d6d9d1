//! The session folder `.a3s-test/agent-sessions/<id>/` and its records: `session.json` (state,
//! endpoints, ownership marker, next ids, latest observation, ref table, promotable steps),
//! `events.jsonl` (one line per turn, with a format version), `report.json` and `artifacts/`.
//!
//! `session.json` is replaced atomically (write a sibling, then rename) so a reader never sees
//! half a file; only the supervisor writes it while the session runs.
//!
//! The folder is in the workspace a coding agent edits, so it is never reached through a link:
//! from the project folder down, `.a3s-test`, `agent-sessions`, the session folder and every
//! file in it are opened through `a3s_test_fsroot` (one component at a time, no link followed,
//! regular files only), and the session code holds the open folder ([`Dir`]), not a path to
//! walk again. A link anywhere is `test.session.unsafe_path`, before anything is read or written.

use super::code::{SessionCode, SessionError};
use super::observation::RefEntry;
use a3s_test_fsroot::{Access, Dir, PRIVATE};
use a3s_test_lang::ir::Target;
use a3s_test_ledger::SessionId;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The longest `finish` summary, in characters: a person's few sentences, kept in `report.json`
/// and shown by `show`; the MCP schema states it.
pub const MAX_SUMMARY_CHARS: usize = 8192;

/// Format version of `session.json` and `events.jsonl` lines.
pub const FORMAT_VERSION: u32 = 1;

/// Largest `session.json` read back (its ref table and steps are bounded far below this).
const MAX_SESSION_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Where sessions live, and the folder of one: the ledger's one definition (the ledger file is
/// in the same folder), anchored at the project root and walked from `.a3s-test` down without
/// following links.
pub use a3s_test_ledger::{session_dir, sessions_dir};

/// Open the folder of session `id` (which must exist): a missing folder is
/// `test.session.unknown`, a link on the way `test.session.unsafe_path`.
pub fn open_session_dir(root: &Path, id: &SessionId) -> Result<Dir, SessionError> {
    let location = session_dir(root, id);
    location.open_dir().map_err(|e| {
        if e.is_not_found() {
            SessionError::new(
                SessionCode::UnknownSession,
                format!("no session at {}", location.path().display()),
            )
        } else {
            SessionError::fs(&e)
        }
    })
}

/// Parse a session id read from anywhere but a typed parameter (a file, a folder name) with the
/// ledger's one parser ([`SessionId`]); a refusal is `test.session.invalid_input`.
pub fn parse_session_id(id: &str) -> Result<SessionId, SessionError> {
    Ok(SessionId::new(id.to_owned())?)
}

/// The lifecycle of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionState {
    /// The supervisor is launching the browser.
    Starting,
    /// The browser is up and turns are served.
    Active,
    /// `finish` closed it.
    Finished,
    /// `abort` closed it.
    Aborted,
    /// The idle timeout or the session deadline closed it.
    Expired,
    /// The supervisor failed to start or lost the browser.
    Failed,
    /// Closing could not prove every owned process gone: observations and actions are refused,
    /// and the next `finish` or `abort` retries the cleanup.
    CleanupFailed,
}

impl SessionState {
    /// The state as its JSON spells it (`aborted`, `cleanup_failed` …), for human lines.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionState::Starting => "starting",
            SessionState::Active => "active",
            SessionState::Finished => "finished",
            SessionState::Aborted => "aborted",
            SessionState::Expired => "expired",
            SessionState::Failed => "failed",
            SessionState::CleanupFailed => "cleanup_failed",
        }
    }

    /// True once the session can serve no more turns.
    pub fn is_closed(self) -> bool {
        !matches!(self, SessionState::Starting | SessionState::Active)
    }
}

/// The processes a session owns, and the token that proves a supervisor is ours.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ownership {
    /// The supervisor's pid (it leads its own session and process group).
    pub supervisor_pid: u32,
    /// The supervisor's process group.
    pub supervisor_pgid: u32,
    /// The browser's pid.
    pub browser_pid: u32,
    /// The browser's process group.
    pub browser_pgid: u32,
    /// The supervisor's start time (`/proc/<pid>/stat`, clock ticks since boot): with the pid,
    /// proves a live process is that supervisor and not a recycled pid. 0 = not recorded.
    #[serde(default)]
    pub supervisor_start: u64,
    /// The browser's start time, as for `supervisor_start`.
    #[serde(default)]
    pub browser_start: u64,
    /// A random token also present in the supervisor's command line.
    pub token: String,
}

/// Network and navigation policy.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// The exact-origin set: the start URL's origin plus every `--allow-origin`.
    pub origins: Vec<String>,
    /// Extra hosts the page may fetch from (`--allow-domain`); never navigable.
    pub domains: Vec<String>,
}

/// Limits checked by the budget gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budgets {
    /// Most statements dispatched to the browser.
    pub max_actions: u32,
    /// The session's whole lifetime, in ms.
    pub session_ms: u64,
    /// Most bytes of evidence under `artifacts/`.
    pub evidence_bytes: u64,
    /// Close after this long without a turn, in ms.
    pub idle_ms: u64,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            max_actions: 200,
            session_ms: 30 * 60 * 1000,
            evidence_bytes: 64 * 1024 * 1024,
            idle_ms: 5 * 60 * 1000,
        }
    }
}

/// The latest observation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObservationRecord {
    /// Its id (`N`).
    pub id: u64,
    /// The document URL it came from.
    pub url: String,
    /// The main frame's loader id (the document it came from).
    pub loader_id: String,
    /// False once an action or a failed observation ended it.
    pub open: bool,
}

/// A statement that ran successfully, kept for promotion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// The turn number.
    pub turn: u64,
    /// The statement as the agent sent it — except a value typed into a private field, which
    /// is written as `env("NAME")` (`private`).
    pub statement: String,
    /// Each ref it used and the durable target it was dispatched through.
    pub resolved: Vec<(String, Target)>,
    /// For `navigate`: the absolute URL it loaded (a relative URL resolves against the page).
    #[serde(default)]
    pub navigated: Option<String>,
    /// The environment variable the session wrote in place of a value the agent typed into a
    /// private field (`super::private_input`); a promoted suite reads it from the environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private: Option<String>,
}

/// `session.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionFile {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The session id.
    pub id: SessionId,
    /// Lifecycle state.
    pub state: SessionState,
    /// The URL the session started on.
    pub start_url: String,
    /// The person's goal, if given (`--goal`).
    pub goal: Option<String>,
    /// Success criteria (`--success`).
    pub success: Vec<String>,
    /// Origins and domains.
    pub policy: Policy,
    /// Limits.
    pub budgets: Budgets,
    /// The browser's CDP WebSocket endpoint (diagnostics; turns go through the supervisor).
    pub cdp_endpoint: Option<String>,
    /// The supervisor's Unix socket.
    pub socket: PathBuf,
    /// Who owns the processes.
    pub ownership: Ownership,
    /// Unix ms when the session started.
    pub started_at_ms: u64,
    /// Unix ms of the last turn.
    pub last_turn_at_ms: u64,
    /// The next turn number.
    pub next_turn: u64,
    /// The next observation id.
    pub next_observation: u64,
    /// Statements dispatched so far.
    pub actions: u32,
    /// The latest observation, if any.
    pub latest: Option<ObservationRecord>,
    /// Refs of the latest observation.
    pub refs: Vec<RefEntry>,
    /// Successful statements, for `promote`.
    pub steps: Vec<StepRecord>,
    /// Why the session closed, once it has.
    pub closed_reason: Option<String>,
    /// Test Kit Page Context state (`@cN` refs as fingerprints), when the page has a bridge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_context: Option<super::page_context::refs::PageContextState>,
    /// The program of a terminal session (`agent start --tui`); absent for a browser session.
    /// Its presence is what makes the session a terminal one ([`SessionFile::surface`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminal: Option<TerminalProgram>,
    /// The program of a desktop session (`agent start --gui`); its presence makes the session a
    /// desktop one ([`SessionFile::surface`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desktop: Option<DesktopProgram>,
    /// The screen revision of the latest terminal observation (the terminal gate compares the
    /// screen with it before any input is sent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen_revision: Option<u64>,
    /// The project's browser context options (locale, time zone, media features, viewport,
    /// device, …) the session's context was opened with, as `run` applies them to every web
    /// scenario: what an agent explores is what the suites it promotes will see.
    #[serde(
        default,
        skip_serializing_if = "a3s_test_lang::ir::ContextSettings::is_empty"
    )]
    pub context: a3s_test_lang::ir::ContextSettings,
    /// The project's `storage_state`, loaded into the context before the start URL opens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_state: Option<a3s_test_lang::ir::StatePath>,
    /// `agent start --trace`: the page is captured after every dispatched statement, for the
    /// trace `agent finish --trace` writes ([`super::trace`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trace: bool,
}

/// The program a terminal session runs on its own pseudoterminal, as `agent start --tui --
/// PROGRAM ARGS…` or the project's `tui { … }` block gave it (an argument vector: no shell).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerminalProgram {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Its working directory (absolute).
    pub cwd: PathBuf,
    /// Variables set for it on top of the session's environment.
    #[serde(default)]
    pub env: Vec<(String, String)>,
    /// Columns at start.
    pub columns: u16,
    /// Rows at start.
    pub rows: u16,
}

impl TerminalProgram {
    /// The command line as a person reads it (`bc -q`), for `list`, messages and the promoted
    /// suite's comment.
    pub fn display(&self) -> String {
        self.command.join(" ")
    }
}

/// The program a desktop session runs on a desktop its supervisor owns, as `agent start --gui --
/// PROGRAM ARGS…` or the project's `gui { … }` block gave it (an argument vector: no shell).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DesktopProgram {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Its working directory (absolute).
    pub cwd: PathBuf,
    /// Variables set for it on top of the desktop's environment.
    #[serde(default)]
    pub env: Vec<(String, String)>,
    /// Screen width in pixels.
    pub width: u16,
    /// Screen height in pixels.
    pub height: u16,
}

impl DesktopProgram {
    /// The command line as a person reads it, for `list`, messages and the promoted suite.
    pub fn display(&self) -> String {
        self.command.join(" ")
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

fn io(what: &str, path: &Path, e: impl std::fmt::Display) -> SessionError {
    SessionError::new(
        SessionCode::Io,
        format!("failed to {what} {}: {e}", path.display()),
    )
}

impl SessionFile {
    /// Read `session.json` of the session in `dir`.
    pub fn load(dir: &Dir) -> Result<SessionFile, SessionError> {
        let bytes = dir
            .read("session.json", MAX_SESSION_FILE_BYTES)
            .map_err(|e| {
                if e.is_not_found() {
                    SessionError::new(
                        SessionCode::UnknownSession,
                        format!("no session at {}", dir.path().display()),
                    )
                } else {
                    SessionError::fs(&e)
                }
            })?;
        serde_json::from_slice(&bytes).map_err(|e| io("parse", &dir.path().join("session.json"), e))
    }

    /// The surface the session drives: a terminal when it records a program, else the Web.
    pub fn surface(&self) -> a3s_test_lang::ir::Surface {
        match (&self.terminal, &self.desktop) {
            (Some(_), _) => a3s_test_lang::ir::Surface::Tui,
            (None, Some(_)) => a3s_test_lang::ir::Surface::Gui,
            (None, None) => a3s_test_lang::ir::Surface::Web,
        }
    }

    /// Unix ms of the session deadline (`started_at_ms` + the `session_ms` budget, saturating).
    pub fn deadline_at_ms(&self) -> u64 {
        self.started_at_ms.saturating_add(self.budgets.session_ms)
    }

    /// Replace `session.json` atomically.
    pub fn save(&self, dir: &Dir) -> Result<(), SessionError> {
        write_json_atomic(dir, "session.json", self)
    }
}

/// Write a JSON document `name` in `dir` atomically (a temporary file of its own per writer,
/// fsync, rename; owner-only).
pub fn write_json_atomic<T: Serialize + ?Sized>(
    dir: &Dir,
    name: &str,
    value: &T,
) -> Result<(), SessionError> {
    let text =
        serde_json::to_vec_pretty(value).map_err(|e| io("encode", &dir.path().join(name), e))?;
    dir.write_atomic(name, &text, PRIVATE)
        .map_err(|e| SessionError::fs(&e))
}

/// Append one event line to `events.jsonl` (the format version and the time are added here).
pub fn append_event(dir: &Dir, event: &super::event::SessionEvent) -> Result<(), SessionError> {
    let mut event = serde_json::to_value(event).expect("session events serialize");
    if let Some(map) = event.as_object_mut() {
        map.insert("format_version".into(), FORMAT_VERSION.into());
        map.insert("at_ms".into(), now_ms().into());
    }
    let mut line = serde_json::to_vec(&event).expect("JSON values serialize");
    line.push(b'\n');
    let mut file = dir
        .open_file("events.jsonl", Access::Append, PRIVATE)
        .map_err(|e| SessionError::fs(&e))?;
    file.write_all(&line)
        .map_err(|e| io("append to", &dir.path().join("events.jsonl"), e))
}

/// Total size of regular files under `dir`, recursively (links are not followed).
pub fn folder_bytes(dir: &Dir) -> u64 {
    dir.tree_bytes()
}

/// A fresh random hex token (16 bytes from the OS's random source, through `getrandom`).
pub fn random_token() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No OS random source: fall back to time and pid (uniqueness, not secrecy, is what
        // matters for the names and the socket token's single local peer).
        let seed = now_ms() as u128 ^ ((std::process::id() as u128) << 64);
        bytes = seed.to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
