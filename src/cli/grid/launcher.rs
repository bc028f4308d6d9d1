//! The web launcher of `run --grid`: reads the Grid's free slots, opens that many sessions (up to
//! the number wanted), attaches the Web driver to each session's `se:cdp` endpoint, and hands the
//! executor one [`Pool`] of them. Each member's shutdown closes its contexts and deletes its
//! session; [`super::sessions::Sessions::release_all`] catches whatever was opened but never
//! attached.

use super::client::GridError;
use super::sessions::Sessions;
use a3s_test_driver::{Capabilities, ContextOptions, DriverError, FailureCode, SurfaceDriver};
use a3s_test_runner::executor::DriverLauncher;
use a3s_test_runner::pool::Pool;
use a3s_test_web::{WebContext, WebDriver};
use std::sync::Arc;
use std::time::Duration;
use tokio::task::JoinHandle;

/// Bound on `GET /status` and on a keep-alive request.
pub const STATUS_BOUND: Duration = Duration::from_secs(10);
/// Bound on connecting to a session's CDP endpoint through the Grid.
const ATTACH_BOUND: Duration = Duration::from_secs(15);
/// Bound on deleting a session that was lost.
const LOST_DELETE_BOUND: Duration = Duration::from_secs(2);
/// How often a session's heartbeat asks the Grid about it (less when the Grid's idle timeout is
/// shorter than three of these).
const HEARTBEAT: Duration = Duration::from_secs(3);

/// What a run on a Grid asks for.
#[derive(Debug, Clone)]
pub struct GridLauncher {
    /// The run's sessions (shared with `run`, which releases them after the run).
    pub sessions: Sessions,
    /// Sessions wanted (`--grid-sessions`, else `--jobs`).
    pub wanted: usize,
    /// The capabilities of each new session (`alwaysMatch`).
    pub capabilities: Arc<serde_json::Map<String, serde_json::Value>>,
    /// How long a new session may wait in the Grid's queue.
    pub queue_timeout: Duration,
}

impl GridLauncher {
    /// The browser name asked for (slots are counted for it).
    fn browser_name(&self) -> String {
        self.capabilities
            .get("browserName")
            .and_then(|v| v.as_str())
            .unwrap_or("chrome")
            .to_string()
    }

    /// One member: a session opened and attached, or why not.
    async fn member(
        sessions: Sessions,
        capabilities: Arc<serde_json::Map<String, serde_json::Value>>,
        queue_timeout: Duration,
        keepalive: Duration,
    ) -> Result<(String, GridBrowser), DriverError> {
        let session = sessions
            .open(capabilities, queue_timeout)
            .await
            .map_err(|e| match e {
                GridError::Timeout(bound) => DriverError::new(
                    FailureCode::GridQueueTimeout,
                    format!(
                        "no session from the Grid within {} ms: every slot stayed busy \
                         (raise --grid-queue-timeout-ms, or free slots)",
                        bound.as_millis()
                    ),
                ),
                other => DriverError::new(
                    FailureCode::GridUnavailable,
                    format!("the Grid refused a session: {other}"),
                ),
            })?;
        let attached = tokio::time::timeout(ATTACH_BOUND, WebDriver::attach(&session.cdp, true))
            .await
            .unwrap_or_else(|_| {
                Err(DriverError::new(
                    FailureCode::BrowserLaunch,
                    format!("no CDP connection within {} ms", ATTACH_BOUND.as_millis()),
                ))
            });
        let web = match attached {
            Ok(web) => web,
            Err(e) => {
                let _ = sessions.delete(&session.id).await;
                return Err(DriverError::new(
                    FailureCode::GridUnavailable,
                    format!(
                        "failed to reach the browser of Grid session {} over CDP: {}",
                        session.id, e.message
                    ),
                ));
            }
        };
        let keepalive = tokio::spawn(heartbeat(
            sessions.clone(),
            session.id.clone(),
            keepalive,
            web.clone(),
        ));
        Ok((
            session.id.clone(),
            GridBrowser {
                web,
                id: session.id,
                sessions,
                keepalive,
            },
        ))
    }
}

impl DriverLauncher for GridLauncher {
    type Driver = Pool<GridBrowser>;

    fn capabilities(&self) -> Capabilities {
        a3s_test_web::capabilities()
    }

    async fn launch(self, _timeout: Duration) -> Result<Pool<GridBrowser>, DriverError> {
        let grid = self.sessions.client().url().to_string();
        let status = self
            .sessions
            .client()
            .status(STATUS_BOUND)
            .await
            .map_err(|e| {
                DriverError::new(
                    FailureCode::GridUnavailable,
                    format!("the Grid at {grid} did not answer its status: {e}"),
                )
            })?;
        if !status.ready {
            return Err(DriverError::new(
                FailureCode::GridUnavailable,
                format!("the Grid at {grid} is not ready: {}", status.message),
            ));
        }
        let free = status.free_slots(&self.browser_name());
        // With no slot free now, one request waits in the queue (bounded): the run starts when
        // a slot frees up, or fails with the queue bound's own code.
        let count = self.wanted.min(free).max(1);
        if count < self.wanted {
            eprintln!(
                "note: --grid: {count} session{} ({} wanted; the Grid has {free} free {} slot{})",
                plural(count),
                self.wanted,
                self.browser_name(),
                plural(free)
            );
        }
        // Often enough to notice a lost session within seconds, and at most a third of the
        // Grid's idle timeout, so a session that only speaks CDP is not ended.
        let keepalive = status
            .session_timeout()
            .map(|t| (t / 3).clamp(Duration::from_secs(1), HEARTBEAT))
            .unwrap_or(HEARTBEAT);
        let opening = (0..count).map(|_| {
            GridLauncher::member(
                self.sessions.clone(),
                self.capabilities.clone(),
                self.queue_timeout,
                keepalive,
            )
        });
        let mut members = Vec::new();
        let mut refusals = Vec::new();
        for result in futures::future::join_all(opening).await {
            match result {
                Ok(member) => members.push(member),
                Err(e) => refusals.push(e),
            }
        }
        if members.is_empty() {
            let first = refusals.remove(0);
            return Err(DriverError::new(
                first.code,
                format!("Grid {grid}: {}", first.message),
            ));
        }
        if let Some(e) = refusals.first() {
            eprintln!(
                "warning: --grid: {} of {count} sessions could not be opened ({}); running on {}",
                refusals.len(),
                e.message,
                members.len()
            );
        }
        Ok(Pool::new(members))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The session's heartbeat: touch it every `every` until the task is aborted at shutdown, so the
/// Grid does not end a session that speaks CDP only, and so a session the Grid lost is noticed.
/// A Grid keeps the CDP connection of a session whose node died open, and commands sent into it
/// would only time out; once the Grid refuses the session (or does not answer twice in a row),
/// the browser is marked lost and every command waiting on it fails at once.
async fn heartbeat(sessions: Sessions, id: String, every: Duration, web: WebDriver) {
    let mut ticker = tokio::time::interval(every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticker.tick().await;
    let mut unanswered = 0;
    loop {
        ticker.tick().await;
        match sessions.client().touch(&id, STATUS_BOUND).await {
            Ok(()) => unanswered = 0,
            Err(GridError::Refused { error, message, .. }) => {
                web.mark_lost(format!(
                    "the Grid no longer serves session {id}: {error}: {message}"
                ));
                return;
            }
            Err(e) => {
                unanswered += 1;
                if unanswered >= 2 {
                    web.mark_lost(format!("the Grid did not answer for session {id}: {e}"));
                    return;
                }
            }
        }
    }
}

/// One Grid session's browser: the Web driver attached to its CDP endpoint.
#[derive(Debug)]
pub struct GridBrowser {
    web: WebDriver,
    id: String,
    sessions: Sessions,
    keepalive: JoinHandle<()>,
}

impl SurfaceDriver for GridBrowser {
    type Context = WebContext;

    fn capabilities(&self) -> &Capabilities {
        self.web.capabilities()
    }

    async fn new_context(&self, options: ContextOptions) -> Result<WebContext, DriverError> {
        self.web.new_context(options).await
    }

    /// Close this driver's contexts, then delete the session (the Grid stops the browser). A
    /// lost session is only asked to go, briefly: its node may be gone, and its loss was already
    /// reported on its scenarios.
    async fn shutdown(&self) -> Result<(), DriverError> {
        self.keepalive.abort();
        if self.web.dead_reason().is_some() {
            let _ = tokio::time::timeout(LOST_DELETE_BOUND, self.sessions.delete(&self.id)).await;
            return Ok(());
        }
        let closed = self.web.shutdown().await;
        let deleted = self.sessions.delete(&self.id).await.map_err(|e| {
            DriverError::new(
                FailureCode::CleanupFailed,
                format!("failed to delete the Grid session {}: {e}", self.id),
            )
        });
        closed.and(deleted)
    }
}
