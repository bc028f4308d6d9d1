//! `--browser-endpoint ws://…`: the run attaches to a browser someone else started, passes, and
//! leaves that browser running — it is not the run's to stop.
//!
//! The test plays "someone else": it starts Chromium headless-shell itself, in its own process
//! group with a fresh profile and the driver's own flags (`--remote-debugging-port=0` among them), reads the DevTools address from the
//! browser's stderr (with a deadline), and kills that group by its pgid when done.

use crate::harness::{free_port, run, run_served, workdir, FixtureServer, RUN_BOUND};
use a3s_test_runner::process_tree::{descendants, ProcessInfo};
use a3s_test_web::{BASE_FLAGS, DEFAULT_BROWSER};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const SUITE: &str = include_str!("../fixtures/suites/attached.acl");

/// A browser the test owns: its process, its group, its profile and its DevTools address.
struct ForeignBrowser {
    child: Child,
    pgid: i32,
    ws_url: String,
    _profile: tempfile::TempDir,
}

impl ForeignBrowser {
    /// Start headless-shell in a new process group and wait (bounded) for its DevTools address.
    fn start() -> ForeignBrowser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = crate::common::spawn_grouped(
            Command::new(DEFAULT_BROWSER)
                .arg("--headless")
                .args(BASE_FLAGS)
                .arg(format!("--user-data-dir={}", profile.path().display()))
                .arg("about:blank")
                .env("XDG_CONFIG_HOME", profile.path())
                .stdout(Stdio::null())
                .stderr(Stdio::piped()),
        );
        let pgid = child.id() as i32;
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        // Keep draining stderr for the browser's whole life (a full pipe would block it).
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                if !sent && line.contains("DevTools listening on") {
                    if let Some(at) = line.find("ws://") {
                        let _ = tx.send(line[at..].trim().to_string());
                        sent = true;
                    }
                }
            }
        });
        let mut browser = ForeignBrowser {
            child,
            pgid,
            ws_url: String::new(),
            _profile: profile,
        };
        browser.ws_url = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the browser reported its DevTools address");
        browser
    }

    /// The browser itself and every helper it started, by PID ancestry.
    fn processes(&self) -> Vec<ProcessInfo> {
        let mut all = descendants(self.pgid);
        all.extend(ProcessInfo::read(self.pgid));
        all
    }
}

/// GET a DevTools HTTP endpoint (`/json/list`, …) and parse its JSON body. Chrome keeps the
/// connection open, so the body is read by its `Content-Length`; the socket has a read deadline.
fn devtools_json(port: u16, path: &str) -> serde_json::Value {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut data = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&data[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|v| v.trim().parse().unwrap())
                .expect("a Content-Length header");
            if data.len() >= end + 4 + length {
                return serde_json::from_slice(&data[end + 4..end + 4 + length]).unwrap();
            }
        }
        let n = stream.read(&mut chunk).expect("DevTools answered in time");
        assert!(n > 0, "DevTools closed the connection early");
        data.extend_from_slice(&chunk[..n]);
    }
}

impl Drop for ForeignBrowser {
    fn drop(&mut self) {
        // SAFETY: SIGKILL the process group this test created; then reap its leader.
        unsafe { libc::killpg(self.pgid, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

#[test]
fn a_run_attached_by_browser_endpoint_passes_and_leaves_the_browser_running() {
    let server = FixtureServer::start();
    let browser = ForeignBrowser::start();
    assert!(
        browser.ws_url.starts_with("ws://127.0.0.1:"),
        "{}",
        browser.ws_url
    );
    let before = browser.processes();
    let port: u16 = browser.ws_url["ws://127.0.0.1:".len()..]
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let work = workdir(&[("attached.acl", SUITE)]);
    // Both forms of the endpoint: the WebSocket address, and the DevTools HTTP address the
    // driver reads it from (`/json/version`). The browser serves both runs in turn.
    for endpoint in [browser.ws_url.clone(), format!("http://127.0.0.1:{port}")] {
        let done = run_served(
            &server,
            work.path(),
            &[
                "attached.acl",
                "--json",
                "--jobs",
                "2",
                "--browser-endpoint",
                &endpoint,
            ],
        );
        assert_eq!(done.code, 0, "{endpoint}\n{}\n{}", done.stdout, done.stderr);
        let json = done.json();
        assert_eq!(json["counts"]["passed"], 2, "{json}");

        // The browser the test started is still there, with the same pid and start time …
        let leader = before.iter().find(|p| p.pid == browser.pgid).unwrap();
        assert!(leader.is_alive(), "the attached browser was stopped");
        // … and the run took its browser contexts (and their pages) with it: only the page the
        // browser started with is left.
        let pages: Vec<serde_json::Value> = devtools_json(port, "/json/list")
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["type"] == "page")
            .cloned()
            .collect();
        assert_eq!(pages.len(), 1, "pages left behind: {pages:?}");
        assert_eq!(pages[0]["url"], "about:blank", "{pages:?}");
    }

    let pgid = browser.pgid;
    drop(browser);
    assert!(
        crate::harness::wait_until_gone(&before, Duration::from_secs(10)),
        "the test's own browser group {pgid} did not go away"
    );
}

#[test]
fn an_unreachable_browser_endpoint_is_an_infrastructure_failure_and_launches_nothing() {
    let port = free_port();
    let endpoint = format!("ws://127.0.0.1:{port}/devtools/browser/none");
    let work = workdir(&[("attached.acl", SUITE)]);
    let done = run(
        &[
            "attached.acl",
            "--json",
            "--base-url",
            "http://127.0.0.1:9/",
            "--browser-endpoint",
            &endpoint,
        ],
        work.path(),
        RUN_BOUND,
    );
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(failure["failure_class"], "infrastructure", "{json}");
    assert_eq!(failure["code"], "test.driver.web.browser_launch", "{json}");
    // The failure names the endpoint: attaching never falls back to launching a browser.
    assert!(
        failure["message"].as_str().unwrap().contains(&endpoint),
        "{json}"
    );
}
