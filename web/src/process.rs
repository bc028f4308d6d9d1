//! The Chromium process the driver launched: spawning it in its own process group, reading its
//! DevTools address, watching it die, and reaping the whole group.
//!
//! Why by hand and not `chromiumoxide::Browser::launch`: the tool must own the process *group*
//! (renderers, GPU and zygote helpers inherit it), kill exactly that group on shutdown, on drop and
//! on timeouts, and never touch a browser it did not start. Other programs on the machine may run
//! their own Chromium, so nothing here ever looks a process up by name.

use super::profile;
use a3s_test_driver::child::{self, ExitWatch, Group, OnOwnerDeath};
use a3s_test_driver::failure::FailureCode;
pub use a3s_test_driver::process::live_group_members;
use a3s_test_driver::process::{kill_group, reap};
use a3s_test_driver::DriverError;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::ChildStderr;
use tokio::time::Instant;

/// The default browser binary (Debian's `chromium-headless-shell` package).
pub const DEFAULT_BROWSER: &str = "/usr/lib/chromium/chromium-headless-shell";
/// Environment variable that overrides the browser binary.
pub const BROWSER_ENV: &str = "A3S_TEST_BROWSER";
/// How many trailing stderr lines are kept for launch and crash messages.
const STDERR_TAIL_LINES: usize = 40;

/// Flags every launch uses (they work as root and offline). Never add
/// `--disable-crashpad-for-testing`: every navigation then hangs under CDP. Public so tests that
/// start a browser of their own (to attach to it) start it the same way.
pub const BASE_FLAGS: &[&str] = &[
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--no-default-browser-check",
    "--remote-debugging-port=0",
    "--window-size=1280,720",
];

/// Lets the renderer draw frames back to back instead of at the display rate. Halves the
/// frame-bound latency of one interactive turn (an agent's click: ~20 ms instead of ~30 ms), but a
/// whole suite run measured 25 % slower with it (more frames drawn while pages load, on cores the
/// other scenarios need), so only agent sessions ask for it ([`LaunchOptions`]).
pub const UNLIMITED_FRAME_RATE_FLAG: &str = "--disable-frame-rate-limit";

pub use a3s_test_driver::api::BrowserProcess;

/// A launched browser: its group, its profile folder and an exit watch.
#[derive(Debug)]
pub(crate) struct OwnedBrowser {
    pub ids: BrowserProcess,
    /// The browser's exit status, once it has exited.
    pub exited: ExitWatch,
    /// The fresh profile (and `XDG_CONFIG_HOME`) folder, removed after the group is gone.
    profile: Mutex<Option<tempfile::TempDir>>,
    /// Last lines the browser wrote to stderr.
    pub stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Set once the group has been killed and the browser reaped.
    reaped: std::sync::atomic::AtomicBool,
}

/// Groups to kill if the process exits without dropping their driver (e.g. `std::process::exit`,
/// or a driver kept in a `static`), with their profile folders.
static EXIT_REAPED: Mutex<Vec<(u32, PathBuf)>> = Mutex::new(Vec::new());
static EXIT_HOOK: std::sync::Once = std::sync::Once::new();

extern "C" fn reap_at_exit() {
    // try_lock: never block process exit on a lock some other thread held when it stopped.
    let Ok(mut groups) = EXIT_REAPED.try_lock() else {
        return;
    };
    for (pgid, profile) in groups.drain(..) {
        kill_group(pgid);
        let until = std::time::Instant::now() + Duration::from_secs(2);
        while std::time::Instant::now() < until && !live_group_members(pgid).is_empty() {
            // The group leader is our own child: reap it once it is a zombie.
            reap(pgid);
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = std::fs::remove_dir_all(profile);
    }
}

fn reap_group_at_exit(pgid: u32, profile: &Path) {
    EXIT_HOOK.call_once(|| {
        // SAFETY: registers a plain `extern "C"` function once per process.
        unsafe { libc::atexit(reap_at_exit) };
    });
    EXIT_REAPED
        .lock()
        .expect("exit registry lock")
        .push((pgid, profile.to_path_buf()));
}

fn forget_group_at_exit(pgid: u32) {
    if let Ok(mut groups) = EXIT_REAPED.lock() {
        groups.retain(|(g, _)| *g != pgid);
    }
}

/// The executable to launch: explicit option, then `A3S_TEST_BROWSER`, then the default.
pub(crate) fn browser_executable(explicit: Option<&Path>) -> PathBuf {
    if let Some(path) = explicit {
        return path.to_path_buf();
    }
    match std::env::var_os(BROWSER_ENV) {
        Some(value) if !value.is_empty() => PathBuf::from(value),
        _ => PathBuf::from(DEFAULT_BROWSER),
    }
}

impl OwnedBrowser {
    /// Spawn the browser in its own process group and wait (until `timeout`) for its DevTools
    /// WebSocket address on stderr.
    pub async fn spawn(
        executable: &Path,
        headed: bool,
        unlimited_frame_rate: bool,
        extra_args: &[String],
        timeout: Duration,
        reap_at_exit: bool,
    ) -> Result<(OwnedBrowser, String), DriverError> {
        let launch_error = |message: String| DriverError::new(FailureCode::BrowserLaunch, message);
        // Profiles of owners that died without cleaning up (SIGKILL) go first.
        profile::sweep_stale();
        let (profile, marker) = profile::create()
            .map_err(|e| launch_error(format!("failed to create a browser profile folder: {e}")))?;
        let mut command = std::process::Command::new(executable);
        if !headed {
            command.arg("--headless");
        }
        command
            .args(BASE_FLAGS)
            .args(unlimited_frame_rate.then_some(UNLIMITED_FRAME_RATE_FLAG))
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(extra_args)
            .arg("about:blank")
            .env("XDG_CONFIG_HOME", profile.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // Its own group, SIGKILL when this process dies (a3s_test_driver::child explains why that covers
        // the helpers too).
        let mut child =
            child::spawn(command, Group::NewGroup, OnOwnerDeath::Kill).map_err(|e| {
                launch_error(format!(
                    "failed to start browser {}: {e}",
                    executable.display()
                ))
            })?;
        let pid = child.id();
        let ids = BrowserProcess { pid, pgid: pid };
        marker.with_browser(pid).write(profile.path());
        if reap_at_exit {
            reap_group_at_exit(pid, profile.path());
        }
        let stderr = child.stderr.take().expect("stderr is piped");
        // The watcher thread owns the child: it reaps it as soon as it exits.
        let exited = ExitWatch::new(child);
        let stderr = match ChildStderr::from_std(stderr) {
            Ok(stderr) => stderr,
            Err(e) => {
                kill_group(pid);
                forget_group_at_exit(pid);
                return Err(launch_error(format!(
                    "failed to read the browser's stderr: {e}"
                )));
            }
        };
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let owned = OwnedBrowser {
            ids,
            exited,
            profile: Mutex::new(Some(profile)),
            stderr_tail: tail.clone(),
            reaped: std::sync::atomic::AtomicBool::new(false),
        };
        let deadline = Instant::now() + timeout;
        match read_devtools_url(stderr, tail.clone(), deadline).await {
            Ok(url) => Ok((owned, url)),
            Err(reason) => {
                let stderr_text = owned.stderr_text();
                owned.kill_and_reap(Duration::from_secs(2)).await;
                Err(launch_error(format!(
                    "browser {} did not report a DevTools address: {reason}; stderr: {stderr_text}",
                    executable.display()
                )))
            }
        }
    }

    /// The kept stderr lines, joined.
    pub fn stderr_text(&self) -> String {
        let tail = self.stderr_tail.lock().expect("stderr tail lock");
        tail.iter().cloned().collect::<Vec<_>>().join(" | ")
    }

    /// True once the browser process has exited.
    pub fn has_exited(&self) -> bool {
        self.exited.status().is_some()
    }

    /// SIGKILL the whole group, wait (bounded) until the browser is reaped and no member of the
    /// group is alive, then remove the profile folder. Returns what could not be cleaned up.
    pub async fn kill_and_reap(&self, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut problems = Vec::new();
        kill_group(self.ids.pgid);
        let reaped = tokio::time::timeout_at(deadline, self.exited.exited()).await;
        if reaped.is_err() {
            problems.push(format!(
                "browser pid {} was not reaped in time",
                self.ids.pid
            ));
        }
        // Helpers are re-parented when the browser dies; wait until none of the group is alive.
        loop {
            let alive = live_group_members(self.ids.pgid);
            if alive.is_empty() {
                break;
            }
            if Instant::now() >= deadline {
                problems.push(format!(
                    "processes {alive:?} of group {} survived",
                    self.ids.pgid
                ));
                break;
            }
            kill_group(self.ids.pgid);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        self.reaped.store(true, std::sync::atomic::Ordering::SeqCst);
        forget_group_at_exit(self.ids.pgid);
        let profile = self.profile.lock().expect("profile lock").take();
        if let Some(profile) = profile {
            let path = profile.path().to_path_buf();
            if let Err(e) = profile.close() {
                problems.push(format!("failed to remove profile {}: {e}", path.display()));
            }
        }
        problems
    }
}

impl Drop for OwnedBrowser {
    /// Best effort when the driver is dropped without `shutdown()`: kill the whole group and reap
    /// the browser synchronously (bounded), so no browser outlives its owner.
    fn drop(&mut self) {
        if self.reaped.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        kill_group(self.ids.pgid);
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        loop {
            // Our own child; not being a child any more (the watcher reaped it) also ends the loop.
            let gone = reap(self.ids.pid) || self.has_exited();
            if gone && live_group_members(self.ids.pgid).is_empty() {
                break;
            }
            if std::time::Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        forget_group_at_exit(self.ids.pgid);
    }
}

/// Read stderr lines until `DevTools listening on ws://…`, then keep draining stderr into the
/// tail buffer in the background (a full pipe would block the browser).
async fn read_devtools_url(
    stderr: ChildStderr,
    tail: Arc<Mutex<VecDeque<String>>>,
    deadline: Instant,
) -> Result<String, String> {
    let mut lines = BufReader::new(stderr).lines();
    let found = tokio::time::timeout_at(deadline, async {
        loop {
            match lines.next_line().await {
                Ok(Some(line)) => {
                    push_tail(&tail, &line);
                    if let Some(at) = line.find("ws://") {
                        if line.contains("DevTools listening on") {
                            return Ok(line[at..].trim().to_string());
                        }
                    }
                }
                Ok(None) => return Err("the browser exited before it was ready".to_string()),
                Err(e) => return Err(format!("failed to read browser stderr: {e}")),
            }
        }
    })
    .await
    .map_err(|_| "timed out waiting for the DevTools address".to_string())??;
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            push_tail(&tail, &line);
        }
    });
    Ok(found)
}

fn push_tail(tail: &Mutex<VecDeque<String>>, line: &str) {
    let mut tail = tail.lock().expect("stderr tail lock");
    if tail.len() == STDERR_TAIL_LINES {
        tail.pop_front();
    }
    tail.push_back(line.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn executable_precedence_is_option_then_env_then_default() {
        // The only test in this crate that touches the variable.
        std::env::remove_var(BROWSER_ENV);
        assert_eq!(browser_executable(None), PathBuf::from(DEFAULT_BROWSER));
        std::env::set_var(BROWSER_ENV, "/opt/chromium/chrome");
        assert_eq!(
            browser_executable(None),
            PathBuf::from("/opt/chromium/chrome")
        );
        assert_eq!(
            browser_executable(Some(Path::new("/x/y"))),
            PathBuf::from("/x/y")
        );
        std::env::remove_var(BROWSER_ENV);
    }
}
