//! The stdio transport under `rmcp`: newline-delimited JSON-RPC on stdin/stdout, read with a
//! bound that holds while reading (`super::lines`).
//!
//! Why not rmcp's own stdio transport: its line codec holds a whole line before deciding, and it
//! has no limit we can set, so one huge line would grow the server by its size. Here each line
//! is bounded, and the envelope is checked before rmcp sees it: an over-long line, invalid JSON,
//! a batch or a wrong `jsonrpc` is answered with the JSON-RPC error it always was (rmcp would
//! end the session); a request other than `initialize` or `ping` before `initialize` is answered
//! with −32002 (rmcp's handshake would refuse it as −32602). Everything else goes to rmcp.

use super::jsonrpc::{self, Response};
use super::lines::{self, Line};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde::Serialize;
use serde_json::Value;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// The methods rmcp parses; a request for another method that rmcp cannot parse is unknown
/// (−32601), one of these with bad params is invalid (−32602).
const KNOWN_METHODS: [&str; 4] = ["initialize", "ping", "tools/list", "tools/call"];

/// Stdout, shared by rmcp's answers and the transport's own error answers (one line each).
#[derive(Clone, Default)]
struct Out(Arc<Mutex<()>>);

impl Out {
    fn write<T: Serialize>(&self, message: &T) -> std::io::Result<()> {
        let text = serde_json::to_string(message).expect("messages serialize");
        let _guard = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let mut out = std::io::stdout().lock();
        writeln!(out, "{text}")?;
        out.flush()
    }
}

/// Stdin/stdout as an rmcp transport.
pub struct Stdio {
    rx: mpsc::Receiver<ClientJsonRpcMessage>,
    out: Out,
    failed: Arc<AtomicBool>,
}

impl Stdio {
    /// Start reading stdin on its own thread (messages of at most `limit` bytes).
    pub fn start(limit: usize) -> Stdio {
        let (tx, rx) = mpsc::channel(16);
        let out = Out::default();
        let failed = Arc::new(AtomicBool::new(false));
        let (reader_out, reader_failed) = (out.clone(), failed.clone());
        std::thread::spawn(move || {
            if let Err(e) = read(&tx, &reader_out, limit) {
                eprintln!("a3s-test mcp: failed to read stdin: {e}");
                reader_failed.store(true, Ordering::SeqCst);
            }
        });
        Stdio { rx, out, failed }
    }

    /// Whether reading stdin failed (rather than reaching its end).
    pub fn read_failed(&self) -> Arc<AtomicBool> {
        self.failed.clone()
    }
}

/// Read, check and forward lines until stdin ends or the service stops listening.
fn read(tx: &mpsc::Sender<ClientJsonRpcMessage>, out: &Out, limit: usize) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    let mut initialized = false;
    loop {
        let message = match lines::read_line(&mut input, &mut line, limit)? {
            None => return Ok(()),
            Some(Line::TooLong) => Err(Response::error(
                Value::Null,
                jsonrpc::PARSE_ERROR,
                format!("message longer than {limit} bytes (skipped)"),
            )),
            Some(Line::Complete) if line.iter().all(u8::is_ascii_whitespace) => continue,
            Some(Line::Complete) => check(&line, &mut initialized),
        };
        match message {
            Ok(Some(message)) => {
                if tx.blocking_send(message).is_err() {
                    return Ok(());
                }
            }
            Ok(None) => {}
            Err(reply) => {
                if out.write(&reply).is_err() {
                    return Ok(());
                }
            }
        }
    }
}

/// One line: a message for rmcp, nothing (a dropped notification), or the error to answer.
fn check(line: &[u8], initialized: &mut bool) -> Result<Option<ClientJsonRpcMessage>, Response> {
    let mut value: Value = serde_json::from_slice(line).map_err(|e| {
        Response::error(
            Value::Null,
            jsonrpc::PARSE_ERROR,
            format!("parse error: {e}"),
        )
    })?;
    let incoming = jsonrpc::parse(value.clone())?;
    let Some(id) = incoming.id else {
        // Notifications are never answered; before initialize, and unknown ones, are ignored.
        return Ok(if *initialized {
            serde_json::from_value(value).ok()
        } else {
            None
        });
    };
    let method = incoming.method.as_str();
    if !*initialized && method != "initialize" && method != "ping" {
        return Err(Response::error(
            id,
            jsonrpc::NOT_INITIALIZED,
            "the server is not initialized: send initialize first",
        ));
    }
    if method == "initialize" {
        // The server always accepted an initialize without `clientInfo` or `capabilities`;
        // rmcp requires both, so the missing ones are filled with empty values.
        if let Some(params) = value.get_mut("params").and_then(Value::as_object_mut) {
            params
                .entry("clientInfo")
                .or_insert_with(|| serde_json::json!({ "name": "unknown", "version": "0" }));
            params
                .entry("capabilities")
                .or_insert_with(|| serde_json::json!({}));
        }
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        Ok(message) => {
            // Requests after a successful initialize are served even if the client never sends
            // `notifications/initialized` (some clients pipeline it).
            *initialized |= method == "initialize";
            Ok(Some(message))
        }
        Err(e) if KNOWN_METHODS.contains(&method) => Err(Response::error(
            id,
            jsonrpc::INVALID_PARAMS,
            format!("invalid params for {method}: {e}"),
        )),
        Err(_) => Err(Response::error(
            id,
            jsonrpc::METHOD_NOT_FOUND,
            format!("method not found: {method}"),
        )),
    }
}

impl Transport<RoleServer> for Stdio {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        std::future::ready(self.out.write(&item))
    }

    fn receive(
        &mut self,
    ) -> impl std::future::Future<Output = Option<ClientJsonRpcMessage>> + Send {
        self.rx.recv()
    }

    fn close(&mut self) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send {
        self.rx.close();
        std::future::ready(Ok(()))
    }
}
