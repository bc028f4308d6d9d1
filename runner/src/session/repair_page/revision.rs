//! Step 1 of a repair verification: wait, bounded, for a *ready* Test Kit revision newer than
//! the one the finding's context was captured at.
//!
//! No fixed sleeps: each round reads `probe()` and, while the revision is not newer yet, waits
//! in the page on `waitForDiff` since the current revision, which returns at the first change
//! (or when the remaining time is up). A newer revision that is not ready yet is re-read in
//! short bounded waits, since readiness can flip without a new revision. Only when the page cannot
//! be waited on at all (its bridge is gone between two documents, or it refuses the wait) is it
//! asked again after a short poll interval, still under the same deadline.

use crate::session::code::SessionError;
use crate::session::page_context::live;
use a3s_test_driver::{AgentContext, PageContextMethod, PageContextReply};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// How long one wait lasts while a newer revision is waiting to become ready.
const READY_SLICE: Duration = Duration::from_millis(100);
/// Time a bridge call gets beyond the wait it asks the page for (the answer's round trip).
const CALL_SLACK: Duration = Duration::from_secs(5);

/// Why no revision was accepted.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoRevision {
    /// The page has no Test Kit bridge.
    NoBridge,
    /// The timeout passed; the last revision seen and whether it was ready.
    TimedOut {
        /// The last revision `probe()` answered.
        last: Option<u64>,
        /// Whether that revision was ready.
        ready: bool,
    },
}

/// While the page cannot be waited on (no bridge between two documents, a refused wait): the
/// poll interval before asking again, never past the deadline.
const POLL: Duration = Duration::from_millis(50);

async fn pause(left: Duration) {
    tokio::time::sleep(left.min(POLL)).await;
}

/// `probe()`: (revision, ready); `None` when there is no bridge (e.g. between documents).
async fn probe<C: AgentContext>(
    ctx: &C,
    deadline: Instant,
) -> Result<Option<(u64, bool)>, SessionError> {
    match live::call(ctx, PageContextMethod::Probe, Value::Null, deadline).await? {
        PageContextReply::Value(v) => {
            let revision = v.get("revision").and_then(Value::as_u64);
            let ready = v.get("ready").and_then(Value::as_bool) == Some(true);
            Ok(revision.map(|r| (r, ready)))
        }
        PageContextReply::Absent | PageContextReply::Threw(_) => Ok(None),
    }
}

/// The first ready revision newer than `after` (any ready revision when `after` is `None`),
/// waiting at most until `until`.
pub async fn wait_ready_newer<C: AgentContext>(
    ctx: &C,
    after: Option<u64>,
    until: Instant,
) -> Result<Result<u64, NoRevision>, SessionError> {
    let mut last = None;
    let mut ever_bridge = false;
    loop {
        let call_deadline = until + CALL_SLACK;
        let seen = probe(ctx, call_deadline).await?;
        if let Some((revision, ready)) = seen {
            ever_bridge = true;
            last = Some((revision, ready));
            if ready && after.is_none_or(|a| revision > a) {
                return Ok(Ok(revision));
            }
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let Some((revision, _)) = seen else {
            // No bridge right now: a document being replaced gets its bridge within the wait;
            // a page that never had one is reported at once.
            if !ever_bridge && live::detect(ctx, call_deadline).await?.is_none() {
                return Ok(Err(NoRevision::NoBridge));
            }
            pause(left).await;
            continue;
        };
        let newer = after.is_none_or(|a| revision > a);
        let wait = if newer { left.min(READY_SLICE) } else { left };
        let request = json!({
            "sinceRevision": revision,
            "timeoutMs": wait.as_millis() as u64,
            "scope": { "kind": "page" },
            "ui": false,
            "limits": { "nodes": 1 },
        });
        // A bridge that throws (its document went away mid-wait) is probed again after a pause,
        // so a page that keeps refusing the wait is not asked in a tight loop.
        let reply = live::call(ctx, PageContextMethod::WaitForDiff, request, call_deadline).await?;
        if !matches!(reply, PageContextReply::Value(_)) {
            pause(left).await;
        }
    }
    Ok(Err(NoRevision::TimedOut {
        last: last.map(|l| l.0),
        ready: last.is_some_and(|l| l.1),
    }))
}
