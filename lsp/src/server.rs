//! The main loop: one ordered pass over the client's messages on an `lsp-server` connection.
//!
//! Requests are answered in the order they arrive, on this thread, from the core. Before a
//! request is answered, every message already waiting is read, so a `$/cancelRequest` sent
//! behind it is seen and the request answered `RequestCancelled` instead. Diagnostics are
//! published at once when a document opens; an edit marks it due [`DEBOUNCE`] later, so a burst
//! of keystrokes is checked once. Requests before `initialize` get `ServerNotInitialized` (from `lsp-server`),
//! unknown methods `MethodNotFound`, requests after `shutdown` `InvalidRequest`; `exit` ends the
//! loop (status 0 after `shutdown`, 1 without, as the protocol says).

use crate::core::store::Store;
use crate::protocol::{self, DocEvent, Refusal};
use a3s_test_lang::ir::Library;
use crossbeam_channel::RecvTimeoutError;
use lsp_server::{
    Connection, ErrorCode, Message, Notification, ProtocolError, Request, RequestId, Response,
};
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// How long after the last edit a document's diagnostics are computed.
pub const DEBOUNCE: Duration = Duration::from_millis(80);

/// Most cancelled ids remembered for requests not seen yet.
const MAX_CANCELLED: usize = 1024;

/// Why serving stopped other than by `exit`.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The handshake or the stream broke the protocol.
    #[error("protocol error: {0}")]
    Protocol(#[from] ProtocolError),
    /// The client went away without `exit`.
    #[error("the client closed the connection without `exit`")]
    Disconnected,
    /// Reading or writing the stream failed (e.g. a message that is not UTF-8).
    #[error("the client's stream failed: {0}")]
    Io(#[from] std::io::Error),
}

/// How the loop ended on `exit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    /// True when `shutdown` came before `exit`.
    pub after_shutdown: bool,
}

/// Serve on standard input and output until `exit`; documents may `use` the groups of
/// `libraries` (the project's included `library` files, read by the caller).
pub fn serve_stdio(libraries: Vec<(String, Library)>) -> Result<Exit, ServeError> {
    let (connection, io_threads) = Connection::stdio();
    let served = serve(&connection, libraries);
    drop(connection);
    let joined = io_threads.join();
    let exit = served?;
    joined?;
    Ok(exit)
}

/// Serve one connection: the handshake, then the loop until `exit`.
pub fn serve(
    connection: &Connection,
    libraries: Vec<(String, Library)>,
) -> Result<Exit, ServeError> {
    let (id, _client) = connection.initialize_start()?;
    connection.initialize_finish(id, protocol::initialize_result())?;
    Loop {
        connection,
        pending: VecDeque::new(),
        store: Store::with_libraries(libraries),
        due: BTreeMap::new(),
        cancelled: HashSet::new(),
        shut_down: false,
    }
    .run()
}

struct Loop<'a> {
    connection: &'a Connection,
    /// Messages read ahead while looking for cancellations, in arrival order.
    pending: VecDeque<Message>,
    store: Store,
    /// Documents whose diagnostics are due, and when.
    due: BTreeMap<String, Instant>,
    cancelled: HashSet<RequestId>,
    shut_down: bool,
}

impl Loop<'_> {
    fn run(mut self) -> Result<Exit, ServeError> {
        loop {
            let Some(message) = self.next()? else {
                continue;
            };
            match message {
                Message::Request(request) => self.request(request),
                Message::Notification(n) if n.method == "exit" => {
                    return Ok(Exit {
                        after_shutdown: self.shut_down,
                    })
                }
                Message::Notification(n) => self.notification(n),
                Message::Response(_) => {} // the server sends no requests
            }
        }
    }

    /// The next message, or `None` after publishing diagnostics that fell due while waiting.
    fn next(&mut self) -> Result<Option<Message>, ServeError> {
        if let Some(message) = self.pending.pop_front() {
            return Ok(Some(message));
        }
        let Some(when) = self.due.values().min().copied() else {
            return self
                .connection
                .receiver
                .recv()
                .map(Some)
                .map_err(|_| ServeError::Disconnected);
        };
        match self.connection.receiver.recv_deadline(when) {
            Ok(message) => Ok(Some(message)),
            Err(RecvTimeoutError::Timeout) => {
                self.publish_due();
                Ok(None)
            }
            Err(RecvTimeoutError::Disconnected) => Err(ServeError::Disconnected),
        }
    }

    fn publish_due(&mut self) {
        let now = Instant::now();
        let ready: Vec<String> = self
            .due
            .iter()
            .filter(|(_, when)| **when <= now)
            .map(|(uri, _)| uri.clone())
            .collect();
        for uri in ready {
            self.due.remove(&uri);
            self.publish(&uri);
        }
    }

    fn publish(&self, uri: &str) {
        if let Some((method, params)) = protocol::publish_diagnostics(&self.store, uri) {
            self.send(Notification::new(method.to_string(), params).into());
        }
    }

    fn send(&self, message: Message) {
        // A closed writer means the client is gone; the next read says so.
        let _ = self.connection.sender.send(message);
    }

    /// Read every message already waiting, noting cancellations.
    fn read_ahead(&mut self) {
        while let Ok(message) = self.connection.receiver.try_recv() {
            if let Message::Notification(n) = &message {
                if n.method == "$/cancelRequest" {
                    self.note_cancel(n);
                    continue;
                }
            }
            self.pending.push_back(message);
        }
    }

    fn note_cancel(&mut self, n: &Notification) {
        let id = n
            .params
            .get("id")
            .cloned()
            .and_then(|id| serde_json::from_value(id).ok());
        if let Some(id) = id {
            if self.cancelled.len() >= MAX_CANCELLED {
                self.cancelled.clear();
            }
            self.cancelled.insert(id);
        }
    }

    fn request(&mut self, request: Request) {
        self.read_ahead();
        let id = request.id.clone();
        if self.cancelled.remove(&id) {
            return self.error(
                id,
                ErrorCode::RequestCanceled,
                "the client cancelled this request",
            );
        }
        if self.shut_down {
            return self.error(
                id,
                ErrorCode::InvalidRequest,
                "the server is shut down; only `exit` is accepted",
            );
        }
        if request.method == "shutdown" {
            self.shut_down = true;
            return self.send(Response::new_ok(id, ()).into());
        }
        let answered = catch_unwind(AssertUnwindSafe(|| {
            protocol::handle_request(&self.store, &request.method, request.params)
        }));
        match answered {
            Ok(Ok(value)) => self.send(Response::new_ok(id, value).into()),
            Ok(Err(refusal)) => {
                let code = match &refusal {
                    Refusal::UnknownMethod(_) => ErrorCode::MethodNotFound,
                    Refusal::InvalidParams { .. } | Refusal::NotOpen(_) => ErrorCode::InvalidParams,
                    Refusal::Failed(_) => ErrorCode::RequestFailed,
                };
                self.error(id, code, &refusal.to_string());
            }
            Err(_) => self.error(
                id,
                ErrorCode::InternalError,
                "the server failed on this request",
            ),
        }
    }

    fn error(&self, id: RequestId, code: ErrorCode, message: &str) {
        self.send(Response::new_err(id, code as i32, message.to_string()).into());
    }

    fn notification(&mut self, n: Notification) {
        if n.method == "$/cancelRequest" {
            return self.note_cancel(&n);
        }
        match protocol::handle_notification(&mut self.store, &n.method, n.params) {
            Ok(DocEvent::Opened(uri)) => {
                self.due.remove(&uri);
                self.publish(&uri);
            }
            Ok(DocEvent::Edited(uri)) => {
                self.due.insert(uri, Instant::now() + DEBOUNCE);
            }
            Ok(DocEvent::Closed(uri)) => {
                self.due.remove(&uri);
                self.publish(&uri);
            }
            Ok(DocEvent::Nothing) => {}
            Err(refusal) => self.log(&refusal.to_string()),
        }
    }

    /// A `window/logMessage` warning: what a notification that cannot be answered gets.
    fn log(&self, message: &str) {
        let params = serde_json::json!({ "type": 2, "message": message });
        self.send(Notification::new("window/logMessage".to_string(), params).into());
    }
}
