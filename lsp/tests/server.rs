//! The main loop over an in-memory connection: the handshake, ordering, cancellation, refusals
//! with their JSON-RPC codes, debounced diagnostics and shutdown/exit. Every wait has a deadline.

use a3s_test_lsp::server::{serve, Exit, DEBOUNCE};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{json, Value};
use std::thread::JoinHandle;
use std::time::Duration;

/// The longest any answer may take.
const DEADLINE: Duration = Duration::from_secs(20);

struct Client {
    conn: Connection,
    server: Option<JoinHandle<Result<Exit, a3s_test_lsp::ServeError>>>,
}

impl Client {
    fn start() -> Self {
        let (server_side, client_side) = Connection::memory();
        let server = std::thread::spawn(move || serve(&server_side, Vec::new()));
        Client {
            conn: client_side,
            server: Some(server),
        }
    }

    fn initialized() -> Self {
        let client = Client::start();
        client.request(1, "initialize", json!({ "capabilities": {} }));
        let answer = client.response();
        assert!(answer.result.is_some(), "{answer:?}");
        client.notify("initialized", json!({}));
        client
    }

    fn request(&self, id: i32, method: &str, params: Value) {
        let request = Request::new(RequestId::from(id), method.to_string(), params);
        self.conn.sender.send(request.into()).unwrap();
    }

    fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.to_string(), params);
        self.conn.sender.send(n.into()).unwrap();
    }

    fn next(&self) -> Message {
        self.conn
            .receiver
            .recv_timeout(DEADLINE)
            .expect("the server answers within the deadline")
    }

    fn response(&self) -> Response {
        loop {
            if let Message::Response(r) = self.next() {
                return r;
            }
        }
    }

    fn notification(&self, method: &str) -> Notification {
        loop {
            if let Message::Notification(n) = self.next() {
                if n.method == method {
                    return n;
                }
            }
        }
    }

    fn open(&self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "acl", "version": 1, "text": text } }),
        );
    }

    fn exit(mut self) -> Exit {
        self.notify("exit", json!(null));
        let server = self.server.take().unwrap();
        let until = std::time::Instant::now() + DEADLINE;
        while !server.is_finished() {
            assert!(
                std::time::Instant::now() < until,
                "the server did not stop on exit"
            );
            std::thread::yield_now();
        }
        server.join().unwrap().unwrap()
    }
}

const URI: &str = "file:///project/suites/a.acl";
const BROKEN: &str = "suite \"s\" {\n    scenario \"a\" {\n        surface = \"web\"\n        navigate \"open\" { urll = \"/x\" }\n    }\n}\n";

#[test]
fn a_request_before_initialize_is_refused_then_the_handshake_works() {
    let client = Client::start();
    client.request(7, "textDocument/hover", json!({}));
    let refused = client.response();
    assert_eq!(refused.error.unwrap().code, -32002, "ServerNotInitialized");
    client.request(1, "initialize", json!({ "capabilities": {} }));
    let caps = client.response().result.unwrap();
    assert_eq!(caps["serverInfo"]["name"], "a3s-test");
    assert_eq!(
        caps["capabilities"]["textDocumentSync"]["change"], 2,
        "incremental"
    );
    client.notify("initialized", json!({}));
    client.request(2, "shutdown", json!(null));
    assert_eq!(client.response().result, Some(Value::Null));
    assert!(client.exit().after_shutdown);
}

#[test]
fn diagnostics_come_with_codes_after_open_and_after_each_burst_of_changes() {
    let client = Client::initialized();
    client.open(URI, BROKEN);
    let first = client.notification("textDocument/publishDiagnostics");
    assert_eq!(
        first.params["diagnostics"][0]["code"],
        "test.spec.unknown_attribute"
    );
    assert_eq!(first.params["version"], 1);
    // Three keystrokes, one diagnostics pass: `urll` → `url` by deleting one `l`, then two no-op
    // edits; the publish carries the last version.
    for version in 2..=4 {
        let edit = if version == 2 {
            json!({ "range": { "start": { "line": 3, "character": 29 }, "end": { "line": 3, "character": 30 } }, "text": "" })
        } else {
            json!({ "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } }, "text": "" })
        };
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": [edit] }),
        );
    }
    let after = client.notification("textDocument/publishDiagnostics");
    assert_eq!(after.params["version"], 4);
    assert_eq!(after.params["diagnostics"], json!([]));
    assert!(DEBOUNCE < DEADLINE);
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": URI } }),
    );
    let cleared = client.notification("textDocument/publishDiagnostics");
    assert_eq!(cleared.params["diagnostics"], json!([]));
    assert!(!client.exit().after_shutdown);
}

#[test]
fn refusals_carry_their_codes() {
    let client = Client::initialized();
    client.request(3, "textDocument/unknownThing", json!({}));
    assert_eq!(
        client.response().error.unwrap().code,
        -32601,
        "MethodNotFound"
    );
    client.request(4, "textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(
        client.response().error.unwrap().code,
        -32602,
        "InvalidParams"
    );
    client.request(
        5,
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///never-opened.acl" }, "position": { "line": 0, "character": 0 } }),
    );
    let not_open = client.response().error.unwrap();
    assert_eq!(not_open.code, -32602);
    assert!(
        not_open.message.contains("not open"),
        "{}",
        not_open.message
    );
    // A change for a document never opened: a notification has no answer, so a logged warning.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": "file:///never-opened.acl", "version": 2 }, "contentChanges": [{ "text": "x" }] }),
    );
    let log = client.notification("window/logMessage");
    assert!(log.params["message"].as_str().unwrap().contains("not open"));
    // A cancellation read before its request: the request is answered RequestCancelled.
    client.notify("$/cancelRequest", json!({ "id": 6 }));
    client.request(
        6,
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": URI } }),
    );
    let cancelled = client.response();
    assert_eq!(cancelled.id, RequestId::from(6));
    assert_eq!(cancelled.error.unwrap().code, -32800, "RequestCancelled");
    client.request(8, "shutdown", json!(null));
    assert!(client.response().error.is_none());
    client.request(9, "textDocument/hover", json!({}));
    assert_eq!(
        client.response().error.unwrap().code,
        -32600,
        "InvalidRequest after shutdown"
    );
    assert!(client.exit().after_shutdown);
}

#[test]
fn a_file_over_one_mebibyte_is_answered_with_its_diagnostic() {
    let client = Client::initialized();
    let big = format!("suite \"s\" {{\n# {}\n}}\n", "x".repeat(1024 * 1024));
    client.open(URI, &big);
    let published = client.notification("textDocument/publishDiagnostics");
    assert_eq!(
        published.params["diagnostics"][0]["code"],
        "test.spec.file_too_large"
    );
    for (id, method) in [
        (2, "textDocument/formatting"),
        (3, "textDocument/documentSymbol"),
        (4, "textDocument/semanticTokens/full"),
    ] {
        client.request(id, method, json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } }));
        let answer = client.response();
        assert!(answer.error.is_none(), "{method}: {answer:?}");
    }
    client.request(5, "shutdown", json!(null));
    client.response();
    assert!(client.exit().after_shutdown);
}

#[test]
fn requests_are_answered_in_order() {
    let client = Client::initialized();
    client.open(URI, BROKEN);
    let methods = [
        "textDocument/documentSymbol",
        "textDocument/foldingRange",
        "textDocument/semanticTokens/full",
        "textDocument/formatting",
    ];
    for (i, method) in methods.iter().enumerate() {
        client.request(10 + i as i32, method, json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } }));
    }
    for i in 0..methods.len() {
        let answer = client.response();
        assert_eq!(answer.id, RequestId::from(10 + i as i32));
        assert!(answer.error.is_none(), "{answer:?}");
    }
    client.request(20, "shutdown", json!(null));
    client.response();
    assert!(client.exit().after_shutdown);
}
