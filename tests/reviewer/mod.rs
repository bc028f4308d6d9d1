//! The reviewer's own hands in end-to-end tests: a CDP connection of the test's own to the
//! session's Chromium (its DevTools endpoint from `session.json`), which sends real pointer and
//! key events to the page the way a person's mouse and keyboard do. The session's driver
//! refuses to operate the Review Overlay (the overlay is the reviewer's), so a test that plays
//! the reviewer must not go through `agent …`: it goes through this connection, which never
//! touches the ledger and holds no authority of the tool's.
//!
//! A blocking WebSocket (`tungstenite`) and raw CDP JSON: the reviewer needs five commands
//! (`Target.getTargets`, `Target.attachToTarget`, `Runtime.evaluate`, `Input.*`), and a client
//! that attaches to a page without enabling any domain or emulation leaves the session's page
//! exactly as its driver set it up.
#![allow(dead_code)] // each test binary that includes this module uses part of it

use crate::common::wait_until;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long the reviewer waits for something to appear in the page or the overlay.
const WITHIN: Duration = Duration::from_secs(30);
/// How long one CDP command may take to answer.
const COMMAND: Duration = Duration::from_secs(10);

/// One reviewer at the session's page.
pub struct Reviewer {
    socket: RefCell<WebSocket<MaybeTlsStream<TcpStream>>>,
    session: String,
    next_id: Cell<u64>,
}

/// The element the `find` expression names (`h` is the overlay's shadow root, `d` the
/// document), as `{x, y}` of its centre after scrolling it into view, or `null` while it is not
/// on screen.
fn centre_of(find: &str) -> String {
    with_roots(&format!(
        "const el = {find}; if (!el) return null; el.scrollIntoView({{ block: 'nearest' }}); \
         const r = el.getBoundingClientRect(); \
         return r.width > 0 && r.height > 0 ? {{ x: r.left + r.width / 2, y: r.top + r.height / 2 }} : null;"
    ))
}

/// `body` as an expression with `h` (the overlay's shadow root, if mounted) and `d` in scope.
fn with_roots(body: &str) -> String {
    format!(
        "(() => {{ const host = document.querySelector('a3s-review-overlay'); \
         const h = host && host.shadowRoot; const d = document; {body} }})()"
    )
}

/// The overlay's control with `data-focus="focus"`.
pub fn overlay(focus: &str) -> String {
    format!("h && h.querySelector('[data-focus=\"{focus}\"]')")
}

/// The page's button whose text contains `text`.
pub fn page_button(text: &str) -> String {
    format!("[...d.querySelectorAll('button')].find((b) => b.textContent.includes({text:?}))")
}

impl Reviewer {
    /// Connect to the Chromium of the session whose record is `session_json`, at its page whose
    /// URL starts with `url`.
    pub fn at(session_json: &Path, url: &str) -> Reviewer {
        let record: Value = serde_json::from_slice(&std::fs::read(session_json).unwrap()).unwrap();
        let endpoint = record["cdp_endpoint"]
            .as_str()
            .expect("the session records its DevTools endpoint");
        let (socket, _) = tungstenite::connect(endpoint).expect("connect to the session's browser");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream.set_read_timeout(Some(COMMAND)).unwrap();
        }
        let mut reviewer = Reviewer {
            socket: RefCell::new(socket),
            session: String::new(),
            next_id: Cell::new(1),
        };
        let mut target = None;
        let seen = wait_until(WITHIN, || {
            let targets = reviewer.call("Target.getTargets", json!({}));
            target = targets["targetInfos"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|t| {
                    t["type"] == "page" && t["url"].as_str().is_some_and(|u| u.starts_with(url))
                })
                .and_then(|t| t["targetId"].as_str().map(str::to_string));
            target.is_some()
        });
        assert!(seen, "no page at {url} in the session's browser");
        let attached = reviewer.call(
            "Target.attachToTarget",
            json!({ "targetId": target.unwrap(), "flatten": true }),
        );
        reviewer.session = attached["sessionId"].as_str().unwrap().to_string();
        reviewer
    }

    /// One CDP command (on the page's session once attached); its result. Events are skipped.
    fn call(&self, method: &str, params: Value) -> Value {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let mut message = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        let mut socket = self.socket.borrow_mut();
        socket.send(Message::text(message.to_string())).unwrap();
        let until = Instant::now() + COMMAND;
        loop {
            assert!(Instant::now() < until, "{method} did not answer");
            let Message::Text(text) = socket.read().expect("read from the browser") else {
                continue;
            };
            let reply: Value = serde_json::from_str(text.as_str()).unwrap();
            if reply["id"] == id {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply["result"].clone();
            }
        }
    }

    fn eval(&self, expression: &str) -> Value {
        let reply = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        reply["result"]["value"].clone()
    }

    /// Wait until the element `find` names is on screen; its centre.
    fn point(&self, find: &str) -> (f64, f64) {
        let expression = centre_of(find);
        let mut found = Value::Null;
        let seen = wait_until(WITHIN, || {
            found = self.eval(&expression);
            found.is_object()
        });
        assert!(seen, "the reviewer never saw {find}");
        (found["x"].as_f64().unwrap(), found["y"].as_f64().unwrap())
    }

    /// Move the mouse onto the element `find` names and click it.
    pub fn click(&self, find: &str) {
        let (x, y) = self.point(find);
        self.call(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseMoved", "x": x, "y": y }),
        );
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// Move the focus to the element `find` names, as the reviewer's Tab key would.
    pub fn focus(&self, find: &str) {
        self.point(find);
        let expression = with_roots(&format!("const el = {find}; el.focus(); return true;"));
        assert_eq!(self.eval(&expression), Value::Bool(true));
    }

    /// Press and release one letter key (`e`) on whatever has the focus.
    pub fn key(&self, key: &str) {
        let code = format!("Key{}", key.to_uppercase());
        self.call(
            "Input.dispatchKeyEvent",
            json!({ "type": "keyDown", "key": key, "code": code, "text": key }),
        );
        self.call(
            "Input.dispatchKeyEvent",
            json!({ "type": "keyUp", "key": key, "code": code }),
        );
    }

    /// Click into the field `find` names and type `text` into it.
    pub fn type_into(&self, find: &str, text: &str) {
        self.click(find);
        self.call("Input.insertText", json!({ "text": text }));
    }

    /// Choose the option labelled `label` of the `<select>` `find` names. The select's own
    /// list is drawn outside the page, where CDP input does not reach; the choice is made the way
    /// the list makes it (the option selected, then `input` and `change`).
    pub fn choose(&self, find: &str, label: &str) {
        self.click(find);
        let expression = with_roots(&format!(
            "const s = {find}; \
             const o = [...s.options].find((o) => o.textContent.trim() === {label:?}); \
             if (!o) return false; s.value = o.value; \
             s.dispatchEvent(new Event('input', {{ bubbles: true }})); \
             s.dispatchEvent(new Event('change', {{ bubbles: true }})); return true;"
        ));
        assert_eq!(
            self.eval(&expression),
            Value::Bool(true),
            "no option {label:?}"
        );
    }

    /// Wait until the overlay's rendered text satisfies `holds`; that text.
    pub fn overlay_until(&self, holds: impl Fn(&str) -> bool) -> String {
        let expression = with_roots(
            "if (!h) return ''; \
             return [...h.children].map((e) => e.innerText ?? e.textContent ?? '').join('\\n');",
        );
        let mut text = String::new();
        let seen = wait_until(WITHIN, || {
            text = self.eval(&expression).as_str().unwrap_or("").to_string();
            holds(&text)
        });
        assert!(seen, "the overlay never showed it; it shows:\n{text}");
        text
    }

    /// Wait until the page's Test Kit revision (its bridge's `probe()`) is past `revision`: what
    /// the reviewer did has reached the Page Context.
    pub fn revision_past(&self, revision: u64) {
        let expression = "(() => { const b = window[Symbol.for('a3s.test.page-context')]; \
                          return b ? b.probe().revision : 0; })()";
        let mut now = 0;
        let moved = wait_until(WITHIN, || {
            now = self.eval(expression).as_u64().unwrap_or(0);
            now > revision
        });
        assert!(
            moved,
            "the page stayed at revision {now}, not past {revision}"
        );
    }

    /// The viewport box `{x, y, width, height}` of the element `find` names (overlay or page), or
    /// `null` while there is none: where a marker sits, compared with what it marks.
    pub fn rect(&self, find: &str) -> Value {
        self.eval(&with_roots(&format!(
            "const el = {find}; if (!el) return null; const r = el.getBoundingClientRect(); \
             return {{ x: r.left, y: r.top, width: r.width, height: r.height }};"
        )))
    }

    /// The attribute `name` of the overlay's control with `data-focus="focus"`.
    pub fn overlay_attribute(&self, focus: &str, name: &str) -> Option<String> {
        let find = overlay(focus);
        let expression = with_roots(&format!(
            "const el = {find}; return el ? el.getAttribute({name:?}) : null;"
        ));
        self.eval(&expression).as_str().map(str::to_string)
    }
}
