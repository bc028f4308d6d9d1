//! One tab: its CDP session, the event listener task that feeds console, page errors, dialogs,
//! network activity, HAR entries and routed requests, and the frame the next step acts in.
//!
//! Listeners are subscribed *before* any domain is enabled and before the first navigation, so
//! nothing the page does at load time is missed. The listener task owns no element handles; it
//! only records facts the steps read later.

use super::cdp::{Cdp, Event, Session, COMMAND_BOUND};
use super::har::HarRecorder;
use super::route::{self, Route};
use a3s_test_driver::StepFailure;
use serde_json::{json, Value};
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Events every tab listens to.
const TAB_EVENTS: &[&str] = &[
    "Runtime.consoleAPICalled",
    "Runtime.exceptionThrown",
    "Page.javascriptDialogOpening",
    "Page.javascriptDialogClosed",
    "Page.lifecycleEvent",
    "Network.requestWillBeSent",
    "Network.responseReceived",
    "Network.loadingFinished",
    "Network.loadingFailed",
    // A step trace's bodies: the raw headers (cookies included) and decoded sizes. Chromium
    // sends them once `Network` is enabled whether or not anyone listens.
    "Network.requestWillBeSentExtraInfo",
    "Network.responseReceivedExtraInfo",
    "Network.dataReceived",
    "Fetch.requestPaused",
    "Fetch.authRequired",
    "Runtime.executionContextCreated",
    "Runtime.executionContextDestroyed",
    "Runtime.executionContextsCleared",
    super::screencast::FRAME_EVENT,
];

/// How many recently loaded documents a tab remembers (to match a navigation to its load).
const RECENT_LOADS: usize = 16;

/// An open JavaScript dialog.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DialogInfo {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    pub kind: String,
    /// The dialog's message (untrusted page text).
    pub message: String,
    /// The default prompt text.
    pub default_prompt: Option<String>,
}

/// Facts shared by every tab of one context.
#[derive(Debug, Default)]
pub(crate) struct ContextShared {
    /// Console messages, in arrival order.
    pub console: Mutex<Vec<Value>>,
    /// Uncaught page errors, in arrival order.
    pub page_errors: Mutex<Vec<Value>>,
    /// Active request routes, newest last.
    pub routes: Mutex<Vec<Route>>,
    /// The HAR recording, while one is running.
    pub har: Mutex<Option<HarRecorder>>,
    /// The requests of a step trace (`run --trace`), once the runner started one.
    pub trace: Mutex<Option<HarRecorder>>,
    /// Agent sessions: requests whose URL this refuses are failed in the browser (all tabs).
    pub network_filter: Mutex<Option<a3s_test_driver::api::NetworkFilter>>,
    /// URLs the network filter blocked, in order.
    pub blocked: Mutex<Vec<String>>,
    /// The context options applied, for tabs adopted later (`emulation.rs`).
    pub emulation: Mutex<Option<Arc<super::emulation::Remembered>>>,
    /// `http_credentials`: answers authentication challenges (`Fetch.authRequired`).
    pub credentials: Mutex<Option<super::emulation::Credentials>>,
    /// Requests whose authentication challenge was answered once (a second challenge cancels).
    pub auth_answered: Mutex<HashSet<String>>,
    /// Requests and responses for network waits, with the mark of the current action.
    pub network_log: Mutex<super::network_log::NetworkLog>,
    /// The clock script registered for new documents, and its identifier (`clock.rs`).
    pub clock: Mutex<Option<super::clock::ClockState>>,
}

/// Network activity of one tab, for `wait { load = "networkidle" }`.
#[derive(Debug)]
pub(crate) struct NetworkActivity {
    /// Requests in flight.
    pub inflight: HashSet<String>,
    /// When the in-flight set last changed.
    pub last_change: Instant,
}

/// Per-tab state written by the listener task.
#[derive(Debug)]
pub(crate) struct TabState {
    /// The open dialog, if any.
    pub dialog: watch::Sender<Option<DialogInfo>>,
    /// In-flight requests.
    pub network: Mutex<NetworkActivity>,
    /// Bumped on every network change.
    pub network_changed: watch::Sender<u64>,
    /// Loader ids of main-frame documents whose `load` fired, most recent last.
    pub loads: watch::Sender<VecDeque<String>>,
    /// Loader ids whose `DOMContentLoaded` fired.
    pub dom_ready: watch::Sender<VecDeque<String>>,
    /// The main frame's page-world execution context, `None` between documents. Resolver calls
    /// run there; a change means the document was replaced.
    pub main_world: watch::Sender<Option<i64>>,
    /// The resolver function compiled once in `main_world`: (context id, remote object id).
    /// Compiling the resolver per call cost more than the call itself.
    pub resolver: Mutex<Option<(i64, String)>>,
    /// Lengths of the context's console and page-error logs when the main frame's current
    /// document got its page world: the entries after them (of this tab) are "since the document
    /// loaded", which is what a repair baseline and its verification compare.
    pub document_start: Mutex<(usize, usize)>,
    /// The last flush marker the listener task has handled (see [`Tab::flush_events`]).
    pub flushed: watch::Sender<u64>,
    /// The last flush marker sent.
    pub flush_sent: AtomicU64,
    /// Modifier keys a pointer action or a chord put down and could not release yet (a dialog
    /// opened during the press): released before the next input, or once the dialog is handled.
    pub held_modifiers: Mutex<Vec<a3s_test_lang::ir::Modifier>>,
    /// Whether this tab's screencast runs (`web/src/screencast.rs`; started by a trace).
    pub screencast_started: AtomicBool,
    /// The newest screencast frame.
    pub frame: watch::Sender<Option<Arc<super::screencast::Frame>>>,
    /// What the last trace capture of this tab handed back.
    pub last_shot: Mutex<Option<super::screencast::LastShot>>,
}

/// One tab of a context.
pub(crate) struct Tab {
    /// Its CDP session.
    pub session: Session,
    /// Its target id (also the main frame id).
    pub target_id: String,
    /// The label given by `tab { operation = "new" label = … }`.
    pub label: Option<String>,
    /// CSS selectors from the top document to the current frame (`frame` steps).
    pub frames: Vec<String>,
    /// What the listener task recorded.
    pub state: Arc<TabState>,
    /// A sender into the listener's own event channel, for flush markers.
    events: mpsc::UnboundedSender<Event>,
    listener: JoinHandle<()>,
}

impl Drop for Tab {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl Tab {
    /// Create a tab on `about:blank` in `browser_context`, attach, subscribe, enable domains.
    pub async fn create(
        cdp: &Cdp,
        browser_context: &str,
        viewport: (u32, u32),
        shared: &Arc<ContextShared>,
        deadline: Instant,
    ) -> Result<Tab, StepFailure> {
        let created = cdp
            .call(
                None,
                "Target.createTarget",
                json!({
                    "url": "about:blank",
                    "browserContextId": browser_context,
                    "width": viewport.0,
                    "height": viewport.1,
                }),
                COMMAND_BOUND,
                deadline,
            )
            .await?;
        let target_id = str_field(&created, "targetId")?;
        Tab::attach(cdp, &target_id, shared, deadline).await
    }

    /// Attach to an existing page target (a popup) and start listening.
    pub async fn attach(
        cdp: &Cdp,
        target_id: &str,
        shared: &Arc<ContextShared>,
        deadline: Instant,
    ) -> Result<Tab, StepFailure> {
        let attached = cdp
            .call(
                None,
                "Target.attachToTarget",
                json!({ "targetId": target_id, "flatten": true }),
                COMMAND_BOUND,
                deadline,
            )
            .await?;
        let session = Session {
            cdp: cdp.clone(),
            id: str_field(&attached, "sessionId")?,
        };
        let (events_tx, events) = cdp.subscribe_with_sender(Some(&session.id), TAB_EVENTS);
        let state = Arc::new(TabState {
            dialog: watch::channel(None).0,
            network: Mutex::new(NetworkActivity {
                inflight: HashSet::new(),
                last_change: Instant::now(),
            }),
            network_changed: watch::channel(0).0,
            loads: watch::channel(VecDeque::new()).0,
            dom_ready: watch::channel(VecDeque::new()).0,
            main_world: watch::channel(None).0,
            resolver: Mutex::new(None),
            document_start: Mutex::new((0, 0)),
            flushed: watch::channel(0).0,
            flush_sent: AtomicU64::new(0),
            held_modifiers: Mutex::new(Vec::new()),
            screencast_started: AtomicBool::new(false),
            frame: watch::channel(None).0,
            last_shot: Mutex::new(None),
        });
        // Enabling is pipelined: the commands are independent.
        let b = COMMAND_BOUND;
        let page = session.call("Page.enable", json!({}), b, deadline);
        let runtime = session.call("Runtime.enable", json!({}), b, deadline);
        let network = session.call("Network.enable", json!({}), b, deadline);
        let lifecycle = session.call(
            "Page.setLifecycleEventsEnabled",
            json!({ "enabled": true }),
            b,
            deadline,
        );
        let (p, r, n, l) = tokio::join!(page, runtime, network, lifecycle);
        p?;
        r?;
        n?;
        l?;
        let listener = tokio::spawn(listen(
            events,
            session.clone(),
            target_id.to_string(),
            state.clone(),
            shared.clone(),
        ));
        let tab = Tab {
            session,
            target_id: target_id.to_string(),
            label: None,
            frames: Vec::new(),
            state,
            events: events_tx,
            listener,
        };
        // Routes added before this tab existed apply to it too, and so do the context options
        // and the clock.
        route::apply_patterns(&tab, shared, deadline).await?;
        super::emulation::apply_remembered(&tab.session, shared, deadline).await?;
        super::clock::register_remembered(&tab.session, shared, deadline).await?;
        Ok(tab)
    }

    /// Fail when a dialog is open (page scripts are blocked behind it).
    pub fn fail_if_dialog(&self) -> Result<(), StepFailure> {
        match &*self.state.dialog.borrow() {
            Some(d) => Err(super::script::dialog_blocking(&describe_dialog(d))),
            None => Ok(()),
        }
    }

    /// Completes (with a description) when a dialog opens.
    pub async fn dialog_opened(&self) -> String {
        let mut rx = self.state.dialog.subscribe();
        let opened = rx
            .wait_for(|d| d.is_some())
            .await
            .map(|d| d.as_ref().map(describe_dialog));
        match opened {
            Ok(d) => d.unwrap_or_default(),
            Err(_) => std::future::pending().await,
        }
    }

    /// The open dialog, if any.
    pub fn dialog(&self) -> Option<DialogInfo> {
        self.state.dialog.borrow().clone()
    }

    /// Make sure every event the renderer sent before now has been recorded (console messages,
    /// page errors, requests an action started). The renderer sends one session's events in
    /// order, so once a trivial evaluation answers, everything before it has reached this tab's
    /// event channel; a marker sent into that channel after the answer then reaches the listener
    /// task after all of them, and the wait for it ends once they are recorded (the answer alone
    /// does not say the listener task has handled them). Nothing to do behind an open dialog
    /// (the page cannot run, so it sends nothing new).
    pub(crate) async fn flush_events(&self, deadline: Instant) -> Result<(), StepFailure> {
        if self.dialog().is_some() {
            return Ok(());
        }
        let params = json!({ "expression": "0", "returnByValue": true });
        self.session
            .call("Runtime.evaluate", params, COMMAND_BOUND, deadline)
            .await?;
        self.flush_received(deadline).await;
        Ok(())
    }

    /// The second half of [`Tab::flush_events`], for a caller whose own command to this tab
    /// just answered (that answer orders the events as the trivial evaluation would): wait
    /// until every event received so far has been recorded. One round trip fewer.
    pub(crate) async fn flush_received(&self, deadline: Instant) {
        let seq = self.state.flush_sent.fetch_add(1, Ordering::Relaxed) + 1;
        let marker = Event {
            method: FLUSH_MARKER.into(),
            session_id: None,
            params: json!(seq),
        };
        if self.events.send(marker).is_err() {
            return;
        }
        let mut flushed = self.state.flushed.subscribe();
        let bound = (Instant::now() + COMMAND_BOUND).min(deadline);
        let _ = tokio::time::timeout_at(bound, flushed.wait_for(|n| *n >= seq)).await;
    }

    /// Wait until the document with `loader_id` fired `load` (or `DOMContentLoaded`).
    pub async fn wait_loaded(
        &self,
        loader_id: &str,
        dom_content_only: bool,
        deadline: Instant,
    ) -> Result<(), ()> {
        let mut rx = if dom_content_only {
            self.state.dom_ready.subscribe()
        } else {
            self.state.loads.subscribe()
        };
        let mut dialog = self.state.dialog.subscribe();
        let wait = async {
            tokio::select! {
                r = async { rx.wait_for(|l| l.iter().any(|id| id == loader_id)).await.map(|_| ()) } => r.map_err(|_| ()),
                // An alert during load blocks `load`: the navigation is done as far as a step can tell.
                _ = async { dialog.wait_for(|d| d.is_some()).await.map(|_| ()) } => Ok(()),
            }
        };
        tokio::time::timeout_at(deadline, wait)
            .await
            .map_err(|_| ())?
    }
}

/// `alert "message"`.
pub(crate) fn describe_dialog(d: &DialogInfo) -> String {
    format!("{} {:?}", d.kind, d.message)
}

fn str_field(value: &Value, field: &str) -> Result<String, StepFailure> {
    value
        .get(field)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| {
            StepFailure::new(
                a3s_test_driver::FailureCode::Protocol,
                format!("the browser answered without `{field}`: {value}"),
            )
        })
}

fn push_recent(tx: &watch::Sender<VecDeque<String>>, id: &str) {
    tx.send_modify(|recent| {
        if recent.len() == RECENT_LOADS {
            recent.pop_front();
        }
        recent.push_back(id.to_string());
    });
}

/// The method name of a flush marker: never a CDP event name (CDP's are `Domain.event`).
const FLUSH_MARKER: &str = "a3s-test:flushed";

/// The listener task: records every event the steps need.
async fn listen(
    mut events: tokio::sync::mpsc::UnboundedReceiver<Event>,
    session: Session,
    target_id: String,
    state: Arc<TabState>,
    shared: Arc<ContextShared>,
) {
    while let Some(event) = events.recv().await {
        let p = &event.params;
        match event.method.as_ref() {
            FLUSH_MARKER => {
                let seq = p.as_u64().unwrap_or_default();
                state.flushed.send_if_modified(|n| {
                    let newer = seq > *n;
                    if newer {
                        *n = seq;
                    }
                    newer
                });
            }
            "Runtime.consoleAPICalled" => {
                let text = p
                    .get("args")
                    .and_then(Value::as_array)
                    .map(|args| args.iter().map(remote_text).collect::<Vec<_>>().join(" "))
                    .unwrap_or_default();
                let frame = p.pointer("/stackTrace/callFrames/0");
                let entry = json!({
                    "type": p.get("type").cloned().unwrap_or(Value::Null),
                    "text": text,
                    "timestamp": p.get("timestamp").cloned().unwrap_or(Value::Null),
                    "url": frame.and_then(|f| f.get("url")).cloned().unwrap_or(Value::Null),
                    "line": frame.and_then(|f| f.get("lineNumber")).cloned().unwrap_or(Value::Null),
                    "tab": target_id,
                    "untrusted": true,
                });
                shared.console.lock().expect("console lock").push(entry);
            }
            "Runtime.exceptionThrown" => {
                let d = p.get("exceptionDetails").cloned().unwrap_or(Value::Null);
                let message = d
                    .pointer("/exception/description")
                    .and_then(Value::as_str)
                    .or_else(|| d.get("text").and_then(Value::as_str))
                    .unwrap_or("")
                    .to_string();
                let entry = json!({
                    "message": message,
                    "url": d.get("url").cloned().unwrap_or(Value::Null),
                    "line": d.get("lineNumber").cloned().unwrap_or(Value::Null),
                    "column": d.get("columnNumber").cloned().unwrap_or(Value::Null),
                    "timestamp": p.get("timestamp").cloned().unwrap_or(Value::Null),
                    "tab": target_id,
                    "untrusted": true,
                });
                shared
                    .page_errors
                    .lock()
                    .expect("page errors lock")
                    .push(entry);
            }
            "Page.javascriptDialogOpening" => {
                let info = DialogInfo {
                    kind: p
                        .get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("alert")
                        .to_string(),
                    message: p
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    default_prompt: p
                        .get("defaultPrompt")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                };
                state.dialog.send_replace(Some(info));
            }
            "Page.javascriptDialogClosed" => {
                state.dialog.send_replace(None);
            }
            "Page.lifecycleEvent"
                if p.get("frameId").and_then(Value::as_str) == Some(target_id.as_str()) =>
            {
                let loader = p.get("loaderId").and_then(Value::as_str).unwrap_or("");
                super::cdp::trace_mark(|| {
                    let name = p.get("name").and_then(Value::as_str);
                    format!("lifecycle {}", name.unwrap_or(""))
                });
                match p.get("name").and_then(Value::as_str) {
                    Some("load") => push_recent(&state.loads, loader),
                    Some("DOMContentLoaded") => push_recent(&state.dom_ready, loader),
                    _ => {}
                }
            }
            "Runtime.executionContextCreated" => {
                let context = p.get("context").unwrap_or(&Value::Null);
                let aux = context.get("auxData").unwrap_or(&Value::Null);
                let default = aux.get("isDefault") == Some(&Value::Bool(true));
                let main = aux.get("frameId").and_then(Value::as_str) == Some(target_id.as_str());
                if let (true, true, Some(id)) =
                    (default, main, context.get("id").and_then(Value::as_i64))
                {
                    // The same task records console and page errors, so the marks and the logs
                    // agree on what came before this document.
                    let console = shared.console.lock().expect("console lock").len();
                    let errors = shared.page_errors.lock().expect("page errors lock").len();
                    *state.document_start.lock().expect("document start lock") = (console, errors);
                    state.main_world.send_replace(Some(id));
                }
            }
            "Runtime.executionContextDestroyed" => {
                let gone = p.get("executionContextId").and_then(Value::as_i64);
                state
                    .main_world
                    .send_if_modified(|current| match (*current, gone) {
                        (Some(c), Some(g)) if c == g => {
                            *current = None;
                            true
                        }
                        _ => false,
                    });
            }
            "Runtime.executionContextsCleared" => {
                state.main_world.send_replace(None);
            }
            "Network.requestWillBeSent"
            | "Network.responseReceived"
            | "Network.loadingFinished"
            | "Network.loadingFailed"
            | "Network.requestWillBeSentExtraInfo"
            | "Network.responseReceivedExtraInfo" => {
                super::cdp::trace_mark(|| {
                    let url = p.pointer("/request/url").and_then(Value::as_str);
                    format!("{} {}", event.method.as_ref(), url.unwrap_or(""))
                });
                network_event(&event, &state, &shared, &target_id);
            }
            // One per chunk of every answer, used only by a step trace (an answer's decoded
            // size before its body is read): no network wait or HAR lock is taken for it.
            "Network.dataReceived" => {
                if let Some(trace) = shared.trace.lock().expect("trace lock").as_mut() {
                    trace.record(event.method.as_ref(), &target_id, p);
                }
            }
            super::screencast::FRAME_EVENT => super::screencast::on_frame(p, &session, &state),
            "Fetch.authRequired" => {
                let session = session.clone();
                let shared = shared.clone();
                let params = p.clone();
                tokio::spawn(async move { route::handle_auth(&session, &shared, &params).await });
            }
            "Fetch.requestPaused" => {
                let session = session.clone();
                let shared = shared.clone();
                let params = p.clone();
                tokio::spawn(async move { route::handle_paused(&session, &shared, &params).await });
            }
            _ => {}
        }
    }
}

fn network_event(event: &Event, state: &TabState, shared: &ContextShared, target_id: &str) {
    let p = &event.params;
    let Some(id) = p.get("requestId").and_then(Value::as_str) else {
        return;
    };
    let changed = {
        let mut net = state.network.lock().expect("network lock");
        let changed = match event.method.as_ref() {
            "Network.requestWillBeSent" => net.inflight.insert(id.to_string()),
            "Network.loadingFinished" | "Network.loadingFailed" => net.inflight.remove(id),
            _ => false,
        };
        if changed {
            net.last_change = Instant::now();
        }
        changed
    };
    if changed {
        state.network_changed.send_modify(|n| *n += 1);
    }
    log_for_waits(event.method.as_ref(), p, shared);
    if let Some(har) = shared.har.lock().expect("har lock").as_mut() {
        har.record(event.method.as_ref(), target_id, p);
    }
    if let Some(trace) = shared.trace.lock().expect("trace lock").as_mut() {
        trace.record(event.method.as_ref(), target_id, p);
    }
}

/// Log a request sent or a response received for the network waits.
fn log_for_waits(method: &str, p: &Value, shared: &ContextShared) {
    use super::network_log::NetEntry;
    use a3s_test_lang::ir::NetworkEvent;
    let text = |pointer: &str| {
        p.pointer(pointer)
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let entry = match method {
        "Network.requestWillBeSent" => text("/request/url").map(|url| NetEntry {
            event: NetworkEvent::Request,
            url,
            status: None,
        }),
        "Network.responseReceived" => text("/response/url").map(|url| NetEntry {
            event: NetworkEvent::Response,
            url,
            status: p
                .pointer("/response/status")
                .and_then(Value::as_u64)
                .and_then(|s| u16::try_from(s).ok()),
        }),
        _ => None,
    };
    if let Some(entry) = entry {
        shared
            .network_log
            .lock()
            .expect("network log lock")
            .push(entry);
    }
}

/// A console argument as text.
fn remote_text(arg: &Value) -> String {
    match arg.get("value") {
        Some(Value::String(s)) => s.clone(),
        Some(v) if !v.is_null() => v.to_string(),
        _ => arg
            .get("unserializableValue")
            .or_else(|| arg.get("description"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| {
                arg.get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("undefined")
                    .to_string()
            }),
    }
}

/// How long the network must be quiet for `networkidle`.
pub(crate) const NETWORK_IDLE: Duration = Duration::from_millis(500);
