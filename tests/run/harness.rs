//! Shared helpers: the loopback fixture server, running the binary with a deadline, and process
//! bookkeeping by PID (never by name).
//!
//! Besides the fixture files the server answers `/hang` (never) and `/counter?key=K` (how many
//! times `K` was asked for, this request included, as text), so a page can behave differently on
//! a scenario's second attempt (`flaky.html`), `/headers` (the request's headers as
//! `name: value` lines, names in lower case) and `/basic-auth` (200 for the Basic credentials
//! `ada` / `open-sesame`, else 401 with a challenge).

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

/// Per-key request counts of `/counter`.
type Counters = Arc<Mutex<std::collections::HashMap<String, u64>>>;

impl FixtureServer {
    /// Start serving `tests/fixtures/web` on a free port.
    pub fn start() -> FixtureServer {
        let (listener, base_url) = crate::common::loopback();
        let requests: Arc<Mutex<Vec<mpsc::Sender<String>>>> = Arc::default();
        let root = repo().join("tests/fixtures/web");
        let listeners = requests.clone();
        let counters = Counters::default();
        crate::common::serve_each(listener, move |stream| {
            serve(stream, &root, &listeners, &counters)
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

fn serve(
    stream: TcpStream,
    root: &Path,
    listeners: &Mutex<Vec<mpsc::Sender<String>>>,
    counters: &Counters,
) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" || line == "\n" {
                break;
            }
            if let Some((name, value)) = line.trim_end().split_once(':') {
                headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
            }
        }
        let target = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .to_string();
        let path = target.split('?').next().unwrap_or("/").to_string();
        // A posted body is read whole, so the connection stays usable for the next request.
        let length = headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .and_then(|(_, v)| v.parse::<usize>().ok())
            .unwrap_or(0);
        let mut posted = vec![0u8; length];
        if reader.read_exact(&mut posted).is_err() {
            return;
        }
        for tx in listeners.lock().unwrap().iter() {
            let _ = tx.send(path.clone());
        }
        if path == "/hang" {
            // Never answer: hold the connection until the client goes away.
            let mut sink = [0u8; 64];
            let _ = reader.get_mut().read(&mut sink);
            return;
        }
        if path == "/headers" || path == "/basic-auth" {
            let (status, body) = if path == "/headers" {
                let lines: Vec<String> = headers.iter().map(|(n, v)| format!("{n}: {v}")).collect();
                ("200 OK", lines.join("\n"))
            } else if headers
                .iter()
                .any(|(n, v)| n == "authorization" && v == "Basic YWRhOm9wZW4tc2VzYW1l")
            {
                ("200 OK", "signed in as ada".to_string())
            } else {
                ("401 Unauthorized", "who are you?".to_string())
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nCache-Control: no-store\r\nWWW-Authenticate: Basic realm=\"a3s\"\r\nContent-Length: {}\r\n\r\n",
                body.len()
            );
            if !answer(&mut writer, &head, body.as_bytes()) {
                return;
            }
            continue;
        }
        if let Some((head, body)) = exchange(&path, &posted) {
            if !answer(&mut writer, &head, body.as_bytes()) {
                return;
            }
            continue;
        }
        if path == "/counter" {
            let key = target
                .split_once("key=")
                .map(|(_, k)| k.split('&').next().unwrap_or(""))
                .unwrap_or("")
                .to_string();
            let count = {
                let mut counters = counters.lock().unwrap();
                let n = counters.entry(key).or_default();
                *n += 1;
                *n
            };
            let body = count.to_string();
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nCache-Control: no-store\r\nContent-Length: {}\r\n\r\n",
                body.len()
            );
            if !answer(&mut writer, &head, body.as_bytes()) {
                return;
            }
            continue;
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

/// Write one answer; `false` when the client went away.
fn answer(writer: &mut TcpStream, head: &str, body: &[u8]) -> bool {
    writer
        .write_all(head.as_bytes())
        .and_then(|_| writer.write_all(body))
        .is_ok()
}

/// The answers a traced step's bodies are checked against (`tests/run/trace_bodies.rs`):
/// `/echo` answers JSON naming what was posted, `/cookie` sets a cookie beside a JSON answer,
/// `/big.json` is a JSON answer over the trace's 8 KiB limit.
fn exchange(path: &str, posted: &[u8]) -> Option<(String, String)> {
    let (extra, body) = match path {
        "/echo" => (
            "",
            serde_json::json!({ "echo": String::from_utf8_lossy(posted) }).to_string(),
        ),
        "/cookie" => (
            "Set-Cookie: session=opaque-7; Path=/cookie\r\n",
            r#"{"signed":"in"}"#.to_string(),
        ),
        "/big.json" => ("", format!(r#"{{"pad":"{}"}}"#, "x".repeat(10_000))),
        _ => return None,
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    );
    Some((head, body))
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

/// `a3s-test <subcommand> …` in `cwd`, in its own process group, both outputs piped, with no
/// colour and no browser chosen by the environment: every suite here builds its command this way
/// and adds what it needs (an environment variable, other pipes) before spawning.
pub fn command(subcommand: &str, args: &[&str], cwd: &Path) -> Command {
    let mut command = Command::new(binary());
    command
        .arg(subcommand)
        .args(args)
        .current_dir(cwd)
        .env_remove("A3S_TEST_BROWSER")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    command
}

/// `a3s-test run …` as a child in its own process group.
pub fn spawn_run(args: &[&str], cwd: &Path) -> Child {
    command("run", args, cwd).spawn().unwrap()
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
pub fn finish(child: Child, bound: Duration) -> Finished {
    let started = Instant::now();
    // A caller that reads a stream itself (to wait for a line) has taken it: that one is empty here.
    let out = crate::common::wait_output(child, bound);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {:?}\n{stdout}\n{stderr}", out.status));
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

/// `a3s-test run <args…> --base-url <server>` in `work`, bounded by [`RUN_BOUND`]: how most tests
/// run their suite against the fixture pages.
pub fn run_served(server: &FixtureServer, work: &Path, args: &[&str]) -> Finished {
    let mut args = args.to_vec();
    args.extend(["--base-url", server.base_url.as_str()]);
    run(&args, work, RUN_BOUND)
}

/// One run of `args` against a fixture server of its own, in a new working folder holding `files`:
/// for tests that run once. The folder is returned with the result, for the reports written there.
pub fn run_once(files: &[(&str, &str)], args: &[&str]) -> (Finished, tempfile::TempDir) {
    let server = FixtureServer::start();
    let work = workdir(files);
    let done = run_served(&server, work.path(), args);
    (done, work)
}

/// The trace file a scenario's (or an attempt's) `--json` summary names, under `work`, read.
pub fn trace_file(work: &Path, summary: &serde_json::Value) -> serde_json::Value {
    let path = summary["trace"]["path"]
        .as_str()
        .unwrap_or_else(|| panic!("no trace: {summary:#}"));
    serde_json::from_slice(&std::fs::read(work.join(path)).unwrap()).unwrap()
}

/// The scenario `id` of a `--json` result (a panic naming the result when there is none).
pub fn scenario<'a>(json: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no scenario {id} in {json}"))
}

/// The scenario ids of a `--json` result, in its order.
pub fn scenario_ids(json: &serde_json::Value) -> Vec<String> {
    json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

/// A loopback port nobody listens on (bound, then freed).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A suite `name` whose first scenario, `greets`, fails its `expect "welcome"` on line 8, column 9
/// (`test.assert.text_mismatch`) and whose second, `opens`, passes: the failure that reports of
/// every kind are checked against.
pub fn failing_suite(name: &str) -> String {
    format!(
        r#"
suite "{name}" {{
    scenario "greets" {{
        surface = "web"
        timeout_ms = 20000
        navigate "open" {{ url = "/forms.html" }}
        fill "name" {{ target = label("Name")  value = "Ada" }}
        expect "welcome" {{ text = "Welcome, Ada" }}
    }}
    scenario "opens" {{
        surface = "web"
        navigate "open" {{ url = "/forms.html" }}
        expect "title" {{ visible = role("heading", "Contact form") }}
    }}
}}
"#
    )
}

/// A suite whose first scenario waits on `/hang` (which never answers) for up to a minute, so a
/// test can signal or kill the run while it is busy; its second would only open the index.
pub const HOLD: &str = include_str!("../fixtures/suites/hold.acl");

/// A project whose dev server runs `command` and is ready once `url` answers (a script that
/// ignores SIGTERM makes the runner spend its whole grace period stopping it).
pub fn dev_server_project(url: &str, command: &[&str]) -> String {
    let command: Vec<String> = command.iter().map(|c| format!("\"{c}\"")).collect();
    format!(
        r#"project "p" {{
    dev_server {{
        command = [{}]
        url = "{url}/"
        startup_timeout_ms = 10000
    }}
}}
"#,
        command.join(", ")
    )
}

/// Wait until the run's browser is up: a child of `pid` that leads its own process group and has
/// helper processes of its own (a dev server, also a group leader, may sit beside it).
pub fn wait_for_browser(pid: i32, bound: Duration) -> ProcessInfo {
    let mut browser = None;
    crate::common::wait_until(bound, || {
        let tree = descendants(pid);
        browser = tree
            .iter()
            .find(|p| {
                p.ppid == pid
                    && p.pgid == p.pid
                    && !p.is_zombie()
                    && tree.iter().any(|c| c.ppid == p.pid)
            })
            .copied();
        browser.is_some()
    });
    browser.unwrap_or_else(|| {
        panic!("no browser with helpers appeared under pid {pid} within {bound:?}")
    })
}

/// Poll until none of `processes` is alive (zombies count as gone), up to `bound`. Never reaps:
/// tests run in parallel in one process, and a `waitpid` here could steal another test's child.
pub fn wait_until_gone(processes: &[ProcessInfo], bound: Duration) -> bool {
    crate::common::wait_until(bound, || !processes.iter().any(ProcessInfo::is_alive))
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

pub use crate::common::workdir;

/// Generous bound for one run of a few scenarios on a 2-core machine.
pub const RUN_BOUND: Duration = Duration::from_secs(90);

/// What a JUnit report holds, counted from its elements (not from its own attributes).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct JunitCounts {
    /// `<testsuite>` elements.
    pub suites: usize,
    /// `<testcase>` elements.
    pub cases: usize,
    /// `<failure>` elements.
    pub failures: usize,
    /// `<error>` elements.
    pub errors: usize,
}

/// Read the JUnit report at `path` and count it with [`junit_counts`]; the XML comes back too, for
/// failure messages and further checks.
pub fn read_junit(path: &Path) -> (JunitCounts, String) {
    let xml = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("no JUnit report at {}: {e}", path.display()));
    (junit_counts(&xml), xml)
}

/// Parse a JUnit report with a real XML parser and check its structure: well-formed, one
/// `<testsuites>` root, `<testcase>` only inside `<testsuite>`, `<failure>`/`<error>` only inside
/// `<testcase>`, and each suite's `tests`/`failures`/`errors` attributes equal to what it holds.
pub fn junit_counts(xml: &str) -> JunitCounts {
    use quick_xml::events::{BytesStart, Event};
    fn attr(e: &BytesStart, name: &str) -> Option<usize> {
        e.attributes()
            .flatten()
            .find(|a| a.key.as_ref() == name.as_bytes())
            .and_then(|a| String::from_utf8(a.value.into_owned()).ok())
            .and_then(|v| v.parse().ok())
    }
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut stack: Vec<String> = Vec::new();
    let mut total = JunitCounts::default();
    // Per open suite: (declared tests, failures, errors), counted (tests, failures, errors).
    let mut suite = ((0, 0, 0), (0, 0, 0));
    loop {
        let event = reader
            .read_event()
            .unwrap_or_else(|e| panic!("the JUnit report is not well-formed XML: {e}\n{xml}"));
        let (start, empty) = match &event {
            Event::Start(e) => (Some(e.clone()), false),
            Event::Empty(e) => (Some(e.clone()), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
            let parent = stack.last().map(String::as_str);
            match name.as_str() {
                "testsuites" => assert_eq!(parent, None, "testsuites is the root"),
                "testsuite" => {
                    assert_eq!(parent, Some("testsuites"), "{xml}");
                    total.suites += 1;
                    let declared = (
                        attr(&e, "tests").expect("tests attribute"),
                        attr(&e, "failures").expect("failures attribute"),
                        attr(&e, "errors").expect("errors attribute"),
                    );
                    suite = (declared, (0, 0, 0));
                }
                "testcase" => {
                    assert_eq!(parent, Some("testsuite"), "{xml}");
                    total.cases += 1;
                    suite.1 .0 += 1;
                }
                "failure" | "error" => {
                    assert_eq!(parent, Some("testcase"), "{xml}");
                    if name == "failure" {
                        total.failures += 1;
                        suite.1 .1 += 1;
                    } else {
                        total.errors += 1;
                        suite.1 .2 += 1;
                    }
                }
                _ => {}
            }
            if name == "testsuite" && empty {
                assert_eq!(suite.0, suite.1, "suite attributes match its cases:\n{xml}");
            }
            if !empty {
                stack.push(name);
            }
        }
        match event {
            Event::End(e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                if name == "testsuite" {
                    assert_eq!(suite.0, suite.1, "suite attributes match its cases:\n{xml}");
                }
                assert_eq!(stack.pop().as_deref(), Some(name.as_str()));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(stack.is_empty(), "unclosed elements {stack:?}");
    total
}
