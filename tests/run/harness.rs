//! Shared helpers: the loopback fixture server, running the binary with a deadline, and process
//! bookkeeping by PID (never by name).

use a3s_test_runner::process_tree::{descendants, ProcessInfo};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The repository root (the root crate's manifest folder).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The binary under test.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_a3s-test"))
}

/// A loopback HTTP server over the fixture pages, running on threads of the test process.
pub struct FixtureServer {
    /// `http://127.0.0.1:<port>`.
    pub base_url: String,
    requests: Arc<Mutex<Vec<mpsc::Sender<String>>>>,
}

impl FixtureServer {
    /// Start serving `tests/fixtures/web` on a free port.
    pub fn start() -> FixtureServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base_url = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let requests: Arc<Mutex<Vec<mpsc::Sender<String>>>> = Arc::default();
        let root = repo().join("tests/fixtures/web");
        let listeners = requests.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let (root, listeners) = (root.clone(), listeners.clone());
                std::thread::spawn(move || serve(stream, &root, &listeners));
            }
        });
        FixtureServer { base_url, requests }
    }

    /// A receiver of every request path from now on.
    pub fn watch(&self) -> mpsc::Receiver<String> {
        let (tx, rx) = mpsc::channel();
        self.requests.lock().unwrap().push(tx);
        rx
    }
}

fn serve(stream: TcpStream, root: &Path, listeners: &Mutex<Vec<mpsc::Sender<String>>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" || line == "\n" {
                break;
            }
        }
        let target = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .to_string();
        let path = target.split('?').next().unwrap_or("/").to_string();
        for tx in listeners.lock().unwrap().iter() {
            let _ = tx.send(path.clone());
        }
        if path == "/hang" {
            // Never answer: hold the connection until the client goes away.
            let mut sink = [0u8; 64];
            let _ = reader.get_mut().read(&mut sink);
            return;
        }
        let rel = path.trim_start_matches('/');
        let file = if rel.is_empty() {
            root.join("index.html")
        } else {
            root.join(rel)
        };
        let (status, body) = match (!rel.contains(".."))
            .then(|| std::fs::read(&file).ok())
            .flatten()
        {
            Some(body) => ("200 OK", body),
            None => ("404 Not Found", b"not found".to_vec()),
        };
        let content_type = match file.extension().and_then(|e| e.to_str()) {
            Some("html") => "text/html; charset=utf-8",
            Some("json") => "application/json",
            Some("txt") => "text/plain",
            _ => "application/octet-stream",
        };
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        if writer
            .write_all(head.as_bytes())
            .and_then(|_| writer.write_all(&body))
            .is_err()
        {
            return;
        }
    }
}

/// Wait for a request to `path`, up to `bound`.
pub fn wait_for_request(rx: &mpsc::Receiver<String>, path: &str, bound: Duration) {
    let deadline = Instant::now() + bound;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(p) if p == path => return,
            Ok(_) => continue,
            Err(_) => panic!("the browser never requested {path} within {bound:?}"),
        }
    }
}

/// `a3s-test run …` as a child in its own process group.
pub fn spawn_run(args: &[&str], cwd: &Path) -> Child {
    let mut command = Command::new(binary());
    command
        .arg("run")
        .args(args)
        .current_dir(cwd)
        .env_remove("A3S_TEST_BROWSER")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    command.spawn().unwrap()
}

/// What a finished run printed and returned.
#[derive(Debug)]
pub struct Finished {
    /// Exit code.
    pub code: i32,
    /// Stdout.
    pub stdout: String,
    /// Stderr.
    pub stderr: String,
    /// How long it took.
    pub elapsed: Duration,
}

impl Finished {
    /// Stdout parsed as JSON (for `--json` runs).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}):\n{}\n{}",
                self.stdout, self.stderr
            )
        })
    }
}

/// Wait for `child` up to `bound`; on overrun, kill its group and fail the test.
pub fn finish(mut child: Child, bound: Duration) -> Finished {
    let started = Instant::now();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > bound {
            // SAFETY: kill the process group this test created.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            panic!("a3s-test run did not finish within {bound:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = out.join().unwrap();
    let stderr = err.join().unwrap();
    let code = status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {status:?}\n{stdout}\n{stderr}"));
    Finished {
        code,
        stdout,
        stderr,
        elapsed: started.elapsed(),
    }
}

/// Run to completion with a deadline.
pub fn run(args: &[&str], cwd: &Path, bound: Duration) -> Finished {
    finish(spawn_run(args, cwd), bound)
}

/// Wait until the run's browser is up: a child of `pid` that leads its own process group.
pub fn wait_for_browser(pid: i32, bound: Duration) -> ProcessInfo {
    let deadline = Instant::now() + bound;
    loop {
        if let Some(p) = descendants(pid)
            .into_iter()
            .find(|p| p.ppid == pid && p.pgid == p.pid && !p.is_zombie())
        {
            return p;
        }
        assert!(
            Instant::now() < deadline,
            "no browser appeared under pid {pid} within {bound:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Assert that none of `processes` (pid + start time) and no member of `pgid` is alive.
pub fn assert_none_left(processes: &[ProcessInfo], pgid: i32) {
    let alive: Vec<_> = processes.iter().filter(|p| p.is_alive()).collect();
    assert!(alive.is_empty(), "processes left behind: {alive:?}");
    let group_members: Vec<_> = a3s_test_runner::process_tree::all_processes()
        .into_iter()
        .filter(|p| p.pgid == pgid && !p.is_zombie())
        .collect();
    assert!(
        group_members.is_empty(),
        "browser process group {pgid} still has members: {group_members:?}"
    );
}

/// A temporary working folder with the given suite files.
pub fn workdir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// Generous bound for one run of a few scenarios on a 2-core machine.
pub const RUN_BOUND: Duration = Duration::from_secs(90);
