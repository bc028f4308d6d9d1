//! The CLI side of `start`, `finish` and `abort`: creating the session folder, starting the
//! supervisor in its own session/process group and waiting (bounded) for its ready line, and
//! verifying afterwards that no process the session owned survives.

use super::code::{SessionCode, SessionError};
use super::file::{
    check_session_id, now_ms, random_token, session_dir, Budgets, Ownership, Policy, SessionFile,
    SessionState, FORMAT_VERSION,
};
use a3s_test_driver::web::live_group_members;
use std::io::BufRead;
use std::os::unix::process::CommandExt;
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
    /// The session id.
    pub id: String,
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
}

/// Create the session folder and start its supervisor (`exe agent supervise …`); returns the
/// record once the browser is up on the start URL.
pub fn start(exe: &Path, root: &Path, request: StartRequest) -> Result<SessionFile, SessionError> {
    check_session_id(&request.id)?;
    let dir = session_dir(root, &request.id);
    if dir.join("session.json").exists() {
        return Err(SessionError::new(
            SessionCode::AlreadyExists,
            format!(
                "session {} already exists at {}; pick another id",
                request.id,
                dir.display()
            ),
        ));
    }
    let io = |e: std::io::Error| {
        SessionError::new(
            SessionCode::Io,
            format!("failed to create {}: {e}", dir.display()),
        )
    };
    std::fs::create_dir_all(dir.join("artifacts")).map_err(io)?;
    let dir = dir.canonicalize().map_err(io)?;
    let socket = socket_path(&dir, &request.id)?;
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
        next_turn: 1,
        next_observation: 1,
        actions: 0,
        latest: None,
        refs: Vec::new(),
        steps: Vec::new(),
        closed_reason: None,
        page_context: None,
    };
    file.save(&dir)?;
    let log = std::fs::File::create(dir.join("artifacts").join("supervisor.log")).map_err(io)?;
    let mut command = Command::new(exe);
    command
        .args(["agent", "supervise", "--session-dir"])
        .arg(&dir)
        .arg("--workdir")
        .arg(root)
        .args(["--token", &token])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log));
    // SAFETY: setsid is async-signal-safe; the child becomes the leader of a new session and
    // process group, so it outlives this CLI turn and its group is the session's to reap.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().map_err(|e| {
        SessionError::new(
            SessionCode::Supervisor,
            format!("failed to start the supervisor: {e}"),
        )
    })?;
    let pid = child.id();
    let stdout = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = match rx.recv_timeout(START_TIMEOUT) {
        Ok(line) => line,
        Err(_) => {
            kill_group(pid);
            return Err(SessionError::new(
                SessionCode::Supervisor,
                format!(
                    "the supervisor did not report ready within {} s",
                    START_TIMEOUT.as_secs()
                ),
            ));
        }
    };
    let ready: serde_json::Value = serde_json::from_str(&line).unwrap_or(serde_json::Value::Null);
    if ready["ok"] != serde_json::json!(true) {
        // It reported a failure (or died): make sure nothing of its group is left.
        let _ = wait_group_gone(pid, EXIT_TIMEOUT);
        kill_group(pid);
        let _ = child.wait();
        let err = serde_json::from_value::<serde_json::Value>(ready["error"].clone()).ok();
        let message = err
            .as_ref()
            .and_then(|e| e["message"].as_str())
            .map(str::to_string)
            .unwrap_or_else(|| {
                "the supervisor exited before it was ready (see artifacts/supervisor.log)".into()
            });
        return Err(SessionError::new(SessionCode::Supervisor, message));
    }
    // The supervisor outlives a CLI turn (then whoever inherits it reaps it); in a long-lived
    // process such as `a3s-test mcp` this thread reaps it, so no zombie piles up.
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    SessionFile::load(&dir)
}

/// The supervisor socket: inside the session folder when the path fits `sun_path`, else in the
/// temp folder under a name derived from the session.
fn socket_path(dir: &Path, id: &str) -> Result<PathBuf, SessionError> {
    let inside = dir.join("supervisor.sock");
    if inside.as_os_str().len() < 100 {
        return Ok(inside);
    }
    Ok(std::env::temp_dir().join(format!("a3s-test-{id}-{}.sock", &random_token()[..8])))
}

fn kill_group(pgid: u32) {
    if pgid > 1 {
        // SAFETY: a process group this code created (setsid on our child).
        unsafe { libc::killpg(pgid as libc::pid_t, libc::SIGKILL) };
    }
}

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

/// True when `pid` is alive and its command line carries `token` (the ownership marker).
pub fn owns(pid: u32, token: &str) -> bool {
    if pid <= 1 || token.is_empty() {
        return false;
    }
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| String::from_utf8_lossy(&c).contains(token))
        .unwrap_or(false)
}

/// After a close: wait until the supervisor's and the browser's groups are empty. If the
/// supervisor is still there (and provably ours) it is killed with its group, then the browser's
/// group if its leader's parent was that supervisor. Returns the survivors, if any.
pub fn verify_closed(file: &SessionFile) -> Vec<u32> {
    let o = &file.ownership;
    let mut survivors = wait_group_gone(o.supervisor_pgid, EXIT_TIMEOUT);
    if !survivors.is_empty() && owns(o.supervisor_pid, &o.token) {
        let browser_is_ours = parent_of(o.browser_pid) == Some(o.supervisor_pid);
        kill_group(o.supervisor_pgid);
        if browser_is_ours {
            kill_group(o.browser_pgid);
        }
        survivors = wait_group_gone(o.supervisor_pgid, EXIT_TIMEOUT);
    }
    survivors.extend(wait_group_gone(o.browser_pgid, EXIT_TIMEOUT));
    survivors
}

/// Force-close a session whose supervisor does not answer: kill its group (ownership checked by
/// token) and the browser group it parents, then mark the record aborted.
pub fn force_abort(dir: &Path, reason: &str) -> Result<(SessionFile, Vec<u32>), SessionError> {
    let mut file = SessionFile::load(dir)?;
    let survivors = verify_closed(&file);
    if !file.state.is_closed() {
        file.state = SessionState::Aborted;
        file.closed_reason = Some(reason.to_string());
        file.save(dir)?;
    }
    Ok((file, survivors))
}

fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}
