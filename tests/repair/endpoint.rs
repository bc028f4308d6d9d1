//! `a3s-test repair-endpoint` over real HTTP on 127.0.0.1: every bad input is refused with a
//! 4xx JSON error and appends nothing; a good document is appended once.

use crate::support::*;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const ORIGIN: &str = "http://localhost:5173";

/// The set-up of a test in which the Test Kit on an app page posts to a real repair endpoint
/// while an agent session runs: the page server, a fresh project root, and the endpoint of
/// `session` that the page's posts are forwarded to.
pub fn app_with_endpoint(
    page: &str,
    session: &str,
) -> (crate::page_server::AppServer, tempfile::TempDir, Endpoint) {
    let app = crate::page_server::AppServer::start(page);
    let dir = tempfile::tempdir().unwrap();
    let ep = Endpoint::start_for(dir.path(), session, &app.origin, 10_000);
    app.forward_to(ep.addr());
    (app, dir, ep)
}

/// A running `a3s-test repair-endpoint` process (killed and reaped on drop).
pub struct Endpoint {
    child: Child,
    addr: SocketAddr,
    origin: String,
}

impl Endpoint {
    fn start(root: &std::path::Path, timeout_ms: u64) -> Self {
        Endpoint::start_for(root, "s1", ORIGIN, timeout_ms)
    }

    /// The endpoint of `session` for an app on `origin`.
    pub fn start_for(root: &std::path::Path, session: &str, origin: &str, timeout_ms: u64) -> Self {
        let mut child = crate::common::spawn_grouped(
            Command::new(BIN)
                .args([
                    "repair-endpoint",
                    "--listen",
                    "127.0.0.1:0",
                    "--session",
                    session,
                    "--app-origin",
                    origin,
                ])
                .args(["--request-timeout-ms", &timeout_ms.to_string(), "--root"])
                .arg(root)
                .stdout(Stdio::piped())
                .stderr(Stdio::null()),
        );
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(DEADLINE)
            .expect("the endpoint prints its address");
        let ready: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(ready["event"], "listening");
        let addr = ready["address"].as_str().unwrap().parse().unwrap();
        Endpoint {
            child,
            addr,
            origin: origin.to_owned(),
        }
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// POST `body` as the app would (its Origin, JSON); return (status, JSON body).
    pub fn post_json(&self, body: &str) -> (u16, Value) {
        let origin = self.origin.clone();
        self.post(
            &[
                ("origin", origin.as_str()),
                ("content-type", "application/json"),
            ],
            body,
        )
    }

    /// Send raw bytes; return (status, JSON body).
    fn send(&self, raw: &[u8]) -> (u16, Value) {
        let mut s = TcpStream::connect(self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s.write_all(raw).unwrap();
        let mut resp = Vec::new();
        s.read_to_end(&mut resp).unwrap();
        parse_response(&resp)
    }

    fn post(&self, headers: &[(&str, &str)], body: &str) -> (u16, Value) {
        let req = crate::common::post_request("localhost:5173", "/__a3s/repairs", headers, body);
        self.send(req.as_bytes())
    }
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_response(resp: &[u8]) -> (u16, Value) {
    let text = String::from_utf8_lossy(resp);
    let (head, body) = text.split_once("\r\n\r\n").expect("a full response");
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(head
        .to_ascii_lowercase()
        .contains("content-type: application/json"));
    (status, serde_json::from_str(body).unwrap())
}

const GOOD: [(&str, &str); 2] = [("origin", ORIGIN), ("content-type", "application/json")];

#[test]
fn every_bad_request_is_refused_and_appends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ep = Endpoint::start(dir.path(), 10_000);
    let ledger = ledger_path(dir.path(), "s1");
    let good = doc(&[finding("f1", "blue")]);
    let cases: Vec<(&str, (u16, Value), u16, &str)> = vec![
        (
            "GET",
            ep.send(b"GET /__a3s/repairs HTTP/1.1\r\nhost: x\r\norigin: http://localhost:5173\r\n\r\n"),
            405,
            "test.session.repair_endpoint_method",
        ),
        (
            "OPTIONS",
            ep.send(b"OPTIONS / HTTP/1.1\r\norigin: http://localhost:5173\r\n\r\n"),
            405,
            "test.session.repair_endpoint_method",
        ),
        (
            "no origin",
            ep.post(&[("content-type", "application/json")], &good),
            403,
            "test.session.repair_endpoint_origin",
        ),
        (
            "foreign origin",
            ep.post(&[("origin", "http://evil.test"), ("content-type", "application/json")], &good),
            403,
            "test.session.repair_endpoint_origin",
        ),
        (
            "cross-site fetch",
            ep.post(&[GOOD[0], GOOD[1], ("sec-fetch-site", "cross-site")], &good),
            403,
            "test.session.repair_endpoint_origin",
        ),
        (
            "text/plain",
            ep.post(&[("origin", ORIGIN), ("content-type", "text/plain")], &good),
            415,
            "test.session.repair_endpoint_content_type",
        ),
        (
            "form",
            ep.post(&[("origin", ORIGIN), ("content-type", "application/x-www-form-urlencoded")], &good),
            415,
            "test.session.repair_endpoint_content_type",
        ),
        (
            "too large",
            ep.send(format!(
                "POST / HTTP/1.1\r\norigin: {ORIGIN}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                1024 * 1024 + 1
            ).as_bytes()),
            413,
            "test.session.repair_endpoint_too_large",
        ),
        (
            "chunked",
            ep.send(format!(
                "POST / HTTP/1.1\r\norigin: {ORIGIN}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n"
            ).as_bytes()),
            411,
            "test.session.repair_endpoint_length_required",
        ),
        (
            "malformed JSON",
            ep.post(&GOOD, "{\"protocol\": \"a3s.test.repair/1\", \"repairs\": ["),
            400,
            "test.session.repair_malformed_document",
        ),
        (
            "wrong protocol",
            ep.post(&GOOD, &good.replace("a3s.test.repair/1", "a3s.test.repair/9")),
            400,
            "test.session.repair_unsupported_protocol",
        ),
        (
            "bad finding",
            ep.post(&GOOD, &good.replace("\"f1\"", "\"../../etc/passwd\"")),
            422,
            "test.session.repair_invalid_document",
        ),
        (
            "absolute-form target",
            ep.send(format!("POST http://evil/x HTTP/1.1\r\norigin: {ORIGIN}\r\n\r\n").as_bytes()),
            400,
            "test.session.repair_endpoint_bad_request",
        ),
        (
            "huge head",
            ep.send(format!("POST / HTTP/1.1\r\nx-pad: {}\r\n\r\n", "a".repeat(20_000)).as_bytes()),
            431,
            "test.session.repair_endpoint_header_too_large",
        ),
    ];
    for (name, (status, body), want_status, want_code) in cases {
        assert_eq!(status, want_status, "{name}: {body}");
        assert_eq!(body["error"]["code"], want_code, "{name}");
        assert!((400..500).contains(&status), "{name} is a 4xx");
        assert!(!ledger.exists(), "{name} appended something");
    }
    // The good request is appended, once.
    let (status, body) = ep.post(
        &[GOOD[0], GOOD[1], ("sec-fetch-site", "same-origin")],
        &good,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["accepted"], serde_json::json!(["f1"]));
    let (status, body) = ep.post(
        &[
            ("origin", ORIGIN),
            ("content-type", "application/json; charset=utf-8"),
        ],
        &good,
    );
    assert_eq!(status, 200);
    assert_eq!(body["duplicates"], serde_json::json!(["f1"]));
    let text = std::fs::read_to_string(&ledger).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(!text.contains("localhost:5173"), "no header is stored");
}

#[test]
fn an_app_origin_with_a_zero_padded_port_matches_the_browsers_origin() {
    // `--app-origin http://127.0.0.1:080` is port 80, which a browser leaves out of `Origin`:
    // the endpoint must accept `http://127.0.0.1` (it used to keep `:080` and refuse it).
    let dir = tempfile::tempdir().unwrap();
    let ep = Endpoint::start_for(dir.path(), "s1", "http://127.0.0.1:080", 10_000);
    let good = doc(&[finding("f1", "blue")]);
    let json = ("content-type", "application/json");
    let (status, body) = ep.post(&[("origin", "http://127.0.0.1"), json], &good);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["accepted"], serde_json::json!(["f1"]));
    let (status, body) = ep.post(&[("origin", "http://127.0.0.1:080"), json], &good);
    assert_eq!(status, 403, "{body}");
}

#[test]
fn a_slow_client_is_cut_off_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let ep = Endpoint::start(dir.path(), 500);
    let started = Instant::now();
    let mut s = TcpStream::connect(ep.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(b"POST / HTTP/1.1\r\norigin: http://localhost:5173\r\n")
        .unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).unwrap();
    let (status, body) = parse_response(&resp);
    assert_eq!(status, 408);
    assert_eq!(
        body["error"]["code"],
        "test.session.repair_endpoint_timeout"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    // A body that never finishes arriving is cut off too, and appends nothing.
    let mut s = TcpStream::connect(ep.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(format!("POST / HTTP/1.1\r\norigin: {ORIGIN}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{{\"pro").as_bytes()).unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).unwrap();
    assert_eq!(parse_response(&resp).0, 408);
    assert!(!ledger_path(dir.path(), "s1").exists());
}

#[test]
fn idle_connections_do_not_starve_a_real_request() {
    // Issue 16 case 8: 32 sockets that connect and send nothing made every POST a 503 until
    // the request deadline. With a 30 s deadline, 64 of them are held open here while the
    // real request is sent: it must be served, not refused.
    let dir = tempfile::tempdir().unwrap();
    let ep = Endpoint::start(dir.path(), 30_000);
    let idle: Vec<TcpStream> = (0..64)
        .map(|_| TcpStream::connect(ep.addr).unwrap())
        .collect();
    let good = doc(&[finding("f1", "blue")]);
    let (status, body) = ep.post(&GOOD, &good);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["accepted"], serde_json::json!(["f1"]));
    // And again: the slot of a served request is given back.
    let (status, body) = ep.post(&GOOD, &good);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["duplicates"], serde_json::json!(["f1"]));
    drop(idle);
}

#[test]
fn clients_trickling_their_bodies_do_not_hold_every_slot() {
    // Issue 28: 32 clients that send a whole head and then trickle the body held every slot
    // for the whole request deadline (30 s here), so real POSTs got 503. A body that takes longer
    // than the grace gives its slot up to a newcomer: the real POST is served well before the
    // tricklers' deadline (retried while they are still inside their grace).
    let dir = tempfile::tempdir().unwrap();
    let ep = Endpoint::start(dir.path(), 30_000);
    // `expect: 100-continue` makes the endpoint say when it has read each head, so every
    // trickler is known to be in its body before the real request is sent.
    let head = format!(
        "POST /__a3s/repairs HTTP/1.1\r\norigin: {ORIGIN}\r\ncontent-type: application/json\r\n\
         expect: 100-continue\r\ncontent-length: 100\r\n\r\n"
    );
    let tricklers: Vec<TcpStream> = (0..32)
        .map(|_| {
            let mut s = TcpStream::connect(ep.addr).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
            s.write_all(head.as_bytes()).unwrap();
            let mut answer = [0u8; 25];
            s.read_exact(&mut answer).unwrap();
            assert_eq!(&answer, b"HTTP/1.1 100 Continue\r\n\r\n");
            s.write_all(b"{\"pro").unwrap();
            s
        })
        .collect();
    let good = doc(&[finding("f1", "blue")]);
    let give_up = std::time::Instant::now() + Duration::from_secs(10);
    let (status, body) = loop {
        let (status, body) = ep.post(&GOOD, &good);
        if status != 503 || std::time::Instant::now() > give_up {
            break (status, body);
        }
    };
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["accepted"], serde_json::json!(["f1"]));
    drop(tricklers);
}

#[test]
fn bare_line_feeds_get_a_prompt_bad_request() {
    // Issue 16 case 8: LF-only line ends never make the CRLF blank line, so the request used
    // to wait for its whole deadline and get 408. The client here gives up long before the
    // endpoint's 30 s deadline: only a prompt answer passes.
    let dir = tempfile::tempdir().unwrap();
    let ep = Endpoint::start(dir.path(), 30_000);
    let mut s = TcpStream::connect(ep.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    s.write_all(
        format!(
            "POST /__a3s/repairs HTTP/1.1\norigin: {ORIGIN}\ncontent-type: application/json\n\n"
        )
        .as_bytes(),
    )
    .unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp)
        .expect("an answer before the client gives up");
    let (status, body) = parse_response(&resp);
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["error"]["code"],
        "test.session.repair_endpoint_bad_request"
    );
    assert!(!ledger_path(dir.path(), "s1").exists());
}

#[test]
fn the_endpoint_refuses_to_listen_beyond_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "repair-endpoint",
            "--listen",
            "0.0.0.0:0",
            "--session",
            "s1",
            "--app-origin",
            ORIGIN,
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        dir.path(),
        &[
            "repair-endpoint",
            "--listen",
            "127.0.0.1:0",
            "--session",
            "s1",
            "--app-origin",
            "http://x/path",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
}

fn actions_doc(items: &[Value]) -> String {
    serde_json::json!({ "protocol": "a3s.test.repair/1", "actions": items }).to_string()
}

/// An action as the Review Overlay queues it after a person's click (`sentBy: "human"`).
fn action(id: &str, finding: &str, kind: &str) -> Value {
    serde_json::json!({ "id": id, "repairId": finding, "kind": kind, "requestId": format!("req-{id}"), "sentBy": "human" })
}

/// POST `actions` to the endpoint, expect HTTP `status`, and return the body.
fn post_actions(ep: &Endpoint, actions: &[Value], status: u16) -> Value {
    let (got, body) = ep.post_json(&actions_doc(actions));
    assert_eq!(got, status, "{body}");
    body
}

const INVALID_TRANSITION: &str = "test.session.repair_invalid_transition";

/// POST the actions (id, finding, kind), expect HTTP `status` and each action's answer
/// (outcome, error code or new state) in order; returns the body.
/// An action (id, finding, kind) and the answer it must get (outcome, error code or new state).
type Exchange<'a> = ((&'a str, &'a str, &'a str), (&'a str, &'a str));

fn exchange(ep: &Endpoint, status: u16, items: &[Exchange]) -> Value {
    let actions: Vec<Value> = items
        .iter()
        .map(|((id, finding, kind), _)| action(id, finding, kind))
        .collect();
    let body = post_actions(ep, &actions, status);
    let expected: Vec<(String, String)> = items
        .iter()
        .map(|(_, (a, b))| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(outcomes(&body), expected, "{body}");
    body
}

fn outcomes(body: &Value) -> Vec<(String, String)> {
    body["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let detail = o["error"]["code"]
                .as_str()
                .or(o["result"]["to"].as_str())
                .unwrap_or("")
                .to_owned();
            (o["outcome"].as_str().unwrap().to_owned(), detail)
        })
        .collect()
}

#[test]
fn actions_get_a_final_answer_each_and_only_ledger_failures_ask_for_a_retry() {
    let dir = tempfile::tempdir().unwrap();
    let ep = Endpoint::start(dir.path(), 10_000);
    let (status, _) = ep.post_json(&doc(&[finding("f1", "blue"), finding("f2", "red")]));
    assert_eq!(status, 200);
    let ledger = ledger_path(dir.path(), "s1");
    // Applied, refused by the state machine, refused for an unknown finding: all final, so 200.
    let body = exchange(
        &ep,
        200,
        &[
            (("a1", "f1", "dismiss"), ("applied", "cancelled")),
            (("a2", "f2", "accept"), ("refused", INVALID_TRANSITION)),
            (
                ("a3", "zz", "reopen"),
                ("refused", "test.session.repair_unknown_finding"),
            ),
        ],
    );
    assert!(body.get("error").is_none(), "{body}");
    let after_first = std::fs::read_to_string(&ledger).unwrap();
    // The page resends the dismissal (its answer was lost) with a new action: a duplicate, an
    // applied reopen, and the same refusal as before.
    let body = exchange(
        &ep,
        200,
        &[
            (("a1", "f1", "dismiss"), ("duplicate", "cancelled")),
            (("a4", "f1", "reopen"), ("applied", "reopened")),
            (("a2", "f2", "accept"), ("refused", INVALID_TRANSITION)),
        ],
    );
    assert_eq!(body["actions"][0]["result"]["replayed"], true);
    let text = std::fs::read_to_string(&ledger).unwrap();
    assert_eq!(
        text.lines().count(),
        after_first.lines().count() + 1,
        "only the reopen was appended"
    );
    // The ledger cannot be written (a folder in its place is refused before anything is read):
    // nothing was judged, so the answer is not 2xx and every item is to be retried.
    std::fs::rename(&ledger, dir.path().join("kept.jsonl")).unwrap();
    std::fs::create_dir(&ledger).unwrap();
    let body = exchange(
        &ep,
        500,
        &[(
            ("a5", "f2", "dismiss"),
            ("retry", "test.session.repair_unsafe_path"),
        )],
    );
    assert_eq!(body["error"]["code"], "test.session.repair_unsafe_path");
    // A document-level problem is refused as a whole, with no per-item answers.
    let reply = serde_json::json!({
        "id": "a6", "repairId": "f2", "kind": "reply", "requestId": "req-a6"
    });
    let body = post_actions(&ep, &[reply], 422);
    assert!(body.get("actions").is_none());
}
