//! The CDP client: one WebSocket (chromiumoxide's `Connection`), a router task, sessions, event
//! subscriptions, and a deadline on every command.
//!
//! Why not chromiumoxide's `Browser`/`Handler`: measured on this machine its page set-up (a fixed
//! chain of ~12 sequential commands plus a frame manager waiting for lifecycle events) costs
//! 50–100 ms per context against a 30 ms budget; its handler never ends when the socket closes, so
//! a dead attached browser is only noticed after a 30 s timeout; and its JSON event type loses the
//! `sessionId`. This router keeps chromiumoxide's transport, sends every command as raw JSON (so
//! generated types lagging Chrome never break a step) and decodes only the event fields it needs.
//! Each command is bounded by the smaller of a per-command bound and the scenario deadline and
//! races the browser's death, so a killed browser fails a step in milliseconds (`BrowserCrashed`).

use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::{DriverError, StepFailure};
use chromiumoxide::conn::Connection;
use chromiumoxide::types::{CallId, EventMessage, Message, Method, MethodId};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Default bound for one command that should answer quickly.
pub(crate) const COMMAND_BOUND: Duration = Duration::from_secs(10);

/// Whether the browser is still reachable. Cloned into every context and task.
#[derive(Debug, Clone)]
pub(crate) struct Liveness {
    dead: watch::Receiver<Option<String>>,
}

/// The writing half of [`Liveness`].
#[derive(Debug, Clone)]
pub(crate) struct LivenessSetter(Arc<watch::Sender<Option<String>>>);

impl LivenessSetter {
    /// Mark the browser dead (the first reason wins).
    pub fn mark_dead(&self, reason: impl Into<String>) {
        let reason = reason.into();
        self.0.send_if_modified(|current| {
            if current.is_none() {
                *current = Some(reason);
                true
            } else {
                false
            }
        });
    }
}

impl Liveness {
    /// A fresh, alive flag and its setter.
    pub fn new() -> (Liveness, LivenessSetter) {
        let (tx, rx) = watch::channel(None);
        (Liveness { dead: rx }, LivenessSetter(Arc::new(tx)))
    }

    /// Why the browser is gone, if it is.
    pub fn dead_reason(&self) -> Option<String> {
        self.dead.borrow().clone()
    }

    /// Completes once the browser is gone.
    pub async fn died(&self) -> String {
        let mut rx = self.dead.clone();
        let reason = rx.wait_for(|d| d.is_some()).await.map(|r| r.clone());
        match reason {
            Ok(reason) => reason.unwrap_or_default(),
            Err(_) => std::future::pending().await,
        }
    }
}

/// One CDP event as raw JSON.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Event {
    /// `Domain.event`.
    pub method: MethodId,
    /// The session it belongs to (`None` = the browser session).
    #[serde(rename = "sessionId", default)]
    pub session_id: Option<String>,
    /// The event parameters.
    #[serde(default)]
    pub params: Value,
}

impl Method for Event {
    fn identifier(&self) -> MethodId {
        self.method.clone()
    }
}

impl EventMessage for Event {
    fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }
}

type Reply = Result<Value, (i64, String)>;

struct Outgoing {
    method: &'static str,
    session: Option<String>,
    params: Value,
    reply: oneshot::Sender<Reply>,
}

struct Subscription {
    session: Option<String>,
    methods: &'static [&'static str],
    tx: mpsc::UnboundedSender<Event>,
}

struct Inner {
    tx: mpsc::UnboundedSender<Outgoing>,
    subscriptions: Mutex<Vec<Subscription>>,
    live: Liveness,
}

/// A connection to one browser. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Cdp {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Cdp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cdp")
    }
}

impl Cdp {
    /// Connect to `ws_url` and start the router task. The task marks the browser dead when the
    /// socket closes.
    pub async fn connect(
        ws_url: &str,
        live: Liveness,
        setter: LivenessSetter,
        timeout: Duration,
    ) -> Result<(Cdp, JoinHandle<()>), DriverError> {
        let connect = Connection::<Event>::connect(ws_url);
        let conn = match tokio::time::timeout(timeout, connect).await {
            Ok(Ok(conn)) => conn,
            Ok(Err(e)) => {
                return Err(DriverError::new(
                    FailureCode::BrowserLaunch,
                    format!("failed to connect to {ws_url}: {e}"),
                ))
            }
            Err(_) => {
                return Err(DriverError::new(
                    FailureCode::BrowserLaunch,
                    format!(
                        "connecting to {ws_url} took longer than {} ms",
                        timeout.as_millis()
                    ),
                ))
            }
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let inner = Arc::new(Inner {
            tx,
            subscriptions: Mutex::new(Vec::new()),
            live,
        });
        let task = tokio::spawn(route(conn, rx, inner.clone(), setter));
        Ok((Cdp { inner }, task))
    }

    /// The browser's liveness.
    pub fn live(&self) -> &Liveness {
        &self.inner.live
    }

    /// Receive every event of `methods` (all when empty) for `session` (`None` = browser session).
    pub fn subscribe(
        &self,
        session: Option<&str>,
        methods: &'static [&'static str],
    ) -> mpsc::UnboundedReceiver<Event> {
        self.subscribe_with_sender(session, methods).1
    }

    /// Like [`Cdp::subscribe`], also returning a sender into the same channel: what it sends
    /// arrives after every event the router delivered before, which is how a listener is told
    /// "you have seen everything up to here" (see `Tab::flush_events`).
    pub fn subscribe_with_sender(
        &self,
        session: Option<&str>,
        methods: &'static [&'static str],
    ) -> (mpsc::UnboundedSender<Event>, mpsc::UnboundedReceiver<Event>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut subs = self.inner.subscriptions.lock().expect("subscriptions lock");
        subs.push(Subscription {
            session: session.map(str::to_string),
            methods,
            tx: tx.clone(),
        });
        (tx, rx)
    }

    /// Send one command and wait for its answer, bounded by `bound` and `deadline`.
    pub async fn call(
        &self,
        session: Option<&str>,
        method: &'static str,
        params: Value,
        bound: Duration,
        deadline: Instant,
    ) -> Result<Value, StepFailure> {
        let live = &self.inner.live;
        if let Some(reason) = live.dead_reason() {
            return Err(crashed(&reason));
        }
        let (reply, answer) = oneshot::channel();
        let outgoing = Outgoing {
            method,
            session: session.map(str::to_string),
            params,
            reply,
        };
        if self.inner.tx.send(outgoing).is_err() {
            return Err(crashed("the CDP connection is closed"));
        }
        let by_bound = Instant::now() + bound;
        let (until, scenario_limited) = if deadline < by_bound {
            (deadline, true)
        } else {
            (by_bound, false)
        };
        let sent = Instant::now();
        let result = tokio::select! {
            biased;
            outcome = tokio::time::timeout_at(until, answer) => match outcome {
                Ok(Ok(Ok(value))) => Ok(value),
                Ok(Ok(Err((code, message)))) => Err(StepFailure::new(
                    FailureCode::Protocol,
                    format!("{method} failed: {message} (code {code})"),
                )),
                Ok(Err(_)) => Err(crashed(&live.dead_reason().unwrap_or_else(|| {
                    "the CDP connection closed".to_string()
                }))),
                Err(_) if scenario_limited => Err(StepFailure::new(
                    FailureCode::Timeout,
                    format!("{DEADLINE_PASSED}{method}"),
                )),
                Err(_) => Err(StepFailure::new(
                    FailureCode::CommandTimeout,
                    format!("{method} did not answer within {} ms", bound.as_millis()),
                )),
            },
            reason = live.died() => Err(crashed(&reason)),
        };
        if trace_enabled() {
            eprintln!(
                "cdp {:>9.2} {:>8.2} ms {method} {}",
                trace_origin().elapsed().as_secs_f64() * 1000.0,
                sent.elapsed().as_secs_f64() * 1000.0,
                if result.is_ok() { "ok" } else { "err" }
            );
        }
        result
    }
}

/// How a command whose caller's deadline passed before its own bound fails (with the method
/// after it); [`waited_for`] reads the method back.
const DEADLINE_PASSED: &str = "the scenario deadline passed while waiting for ";

/// The CDP method a failure was still waiting for when its caller's deadline passed, for a
/// caller whose deadline is not the scenario's (a context's preparation bound) to say so in its
/// own terms.
pub(crate) fn waited_for(failure: &StepFailure) -> Option<&str> {
    if failure.code != FailureCode::Timeout {
        return None;
    }
    failure.message.strip_prefix(DEADLINE_PASSED)
}

/// The environment variable that makes every CDP command print its round-trip time to stderr
/// (`A3S_TEST_CDP_TRACE=1`): where a step's milliseconds go, without a profiler.
pub(crate) const TRACE_ENV: &str = "A3S_TEST_CDP_TRACE";

/// Under [`TRACE_ENV`], print a point in time (an event a step waits for) on the same clock.
/// `what` is only built when tracing is on.
pub(crate) fn trace_mark(what: impl FnOnce() -> String) {
    if trace_enabled() {
        eprintln!(
            "cdp {:>9.2}             {}",
            trace_origin().elapsed().as_secs_f64() * 1000.0,
            what()
        );
    }
}

fn trace_origin() -> Instant {
    static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

fn trace_enabled() -> bool {
    static ENABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var_os(TRACE_ENV).is_some_and(|v| v == "1"))
}

/// The failure for a browser that went away.
pub(crate) fn crashed(reason: &str) -> StepFailure {
    StepFailure::new(
        FailureCode::BrowserCrashed,
        format!("the browser is gone: {reason}"),
    )
}

/// The next event of a subscription before `deadline`, for a step that waits on events (a
/// download, a trace): the connection closing is a crash (`closed` says during what), the
/// deadline a scenario timeout (`late` says what did not finish).
pub(crate) async fn next_event(
    events: &mut mpsc::UnboundedReceiver<Event>,
    deadline: Instant,
    closed: &str,
    late: &str,
) -> Result<Event, StepFailure> {
    match tokio::time::timeout_at(deadline, events.recv()).await {
        Ok(Some(event)) => Ok(event),
        Ok(None) => Err(crashed(closed)),
        Err(_) => Err(StepFailure::new(FailureCode::Timeout, late)),
    }
}

/// The router: submits outgoing commands, answers callers, fans events out to subscribers.
async fn route(
    mut conn: Connection<Event>,
    mut rx: mpsc::UnboundedReceiver<Outgoing>,
    inner: Arc<Inner>,
    setter: LivenessSetter,
) {
    let mut pending: HashMap<CallId, (oneshot::Sender<Reply>, &'static str)> = HashMap::new();
    let reason = loop {
        tokio::select! {
            outgoing = rx.recv() => {
                let Some(out) = outgoing else { break "the driver closed the connection".to_string() };
                let session = out.session.map(Into::into);
                match conn.submit_command(out.method.into(), session, out.params) {
                    Ok(id) => { pending.insert(id, (out.reply, out.method)); }
                    Err(e) => { let _ = out.reply.send(Err((-1, format!("failed to encode: {e}")))); }
                }
            }
            message = conn.next() => match message {
                Some(Ok(Message::Response(response))) => {
                    if let Some((reply, _)) = pending.remove(&response.id) {
                        let answer = match (response.result, response.error) {
                            (_, Some(error)) => Err((error.code, error.message)),
                            (Some(result), None) => Ok(result),
                            (None, None) => Ok(Value::Null),
                        };
                        let _ = reply.send(answer);
                    }
                }
                Some(Ok(Message::Event(event))) => dispatch(&inner, event),
                // A message that is not valid CDP JSON: skip it, the connection is still fine.
                Some(Err(chromiumoxide::error::CdpError::InvalidMessage(..))) => {}
                Some(Err(e)) => break format!("the CDP connection failed: {e}"),
                None => break "the CDP connection closed".to_string(),
            }
        }
    };
    setter.mark_dead(reason);
    // Dropping `pending` and the subscriptions wakes every waiter.
    drop(pending);
    inner
        .subscriptions
        .lock()
        .expect("subscriptions lock")
        .clear();
}

fn dispatch(inner: &Inner, event: Event) {
    let mut subs = inner.subscriptions.lock().expect("subscriptions lock");
    subs.retain(|sub| {
        let wanted = sub.session.as_deref() == event.session_id.as_deref()
            && (sub.methods.is_empty() || sub.methods.contains(&event.method.as_ref()));
        if wanted {
            sub.tx.send(event.clone()).is_ok()
        } else {
            !sub.tx.is_closed()
        }
    });
}

/// A CDP session attached to one target (a tab).
#[derive(Debug, Clone)]
pub(crate) struct Session {
    /// The connection.
    pub cdp: Cdp,
    /// The flattened session id.
    pub id: String,
}

impl Session {
    /// Send a command in this session.
    pub async fn call(
        &self,
        method: &'static str,
        params: Value,
        bound: Duration,
        deadline: Instant,
    ) -> Result<Value, StepFailure> {
        self.cdp
            .call(Some(&self.id), method, params, bound, deadline)
            .await
    }
}
