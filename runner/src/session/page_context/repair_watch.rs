//! What `a3s-test dev` asks of a session's page besides the queue itself: wait until the repair
//! queue changes (so findings are drained as soon as the page announces them, with no polling of
//! the queue) and mirror the ledger's status changes into the page (so the overlay shows them).
//! Both go through the fixed bridge lookup; answers are untrusted page data and only their shape
//! is used.

use super::live;
use crate::session::code::{SessionCode, SessionError};
use a3s_test_driver::{AgentContext, PageContextMethod, PageContextReply};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::time::Instant;

/// The longest one wait may last.
pub const MAX_WAIT_MS: u64 = 60_000;
/// The most events one apply may carry.
pub const MAX_EVENTS: usize = 100;

/// Where the page's change counter stood: a new `epoch` means a new document (a reload), so the
/// caller drains at once instead of waiting for a count it will never see again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairMark {
    /// Random per document (at most 32 characters).
    pub epoch: String,
    /// Changes announced by `subscribeRepairs` in that document.
    pub count: u64,
}

fn no_bridge() -> SessionError {
    SessionError::new(
        SessionCode::Capability,
        "this page has no Test Kit bridge, so it has no repair queue to watch",
    )
}

/// Wait until the queue changed after `since` (at once without it); answers `{"mark": …}`.
pub async fn wait<C: AgentContext>(
    ctx: &C,
    since: Option<&RepairMark>,
    timeout_ms: u64,
    deadline: Instant,
) -> Result<Value, SessionError> {
    let arg = json!({ "since": since, "timeoutMs": timeout_ms.min(MAX_WAIT_MS) });
    let reply = live::call(ctx, PageContextMethod::WaitForRepairChange, arg, deadline).await?;
    let value = live::reply_value(reply, no_bridge, |m| {
        SessionError::new(
            SessionCode::Capability,
            format!("the Test Kit refused to announce repair changes: {m}"),
        )
    })?;
    let mark: RepairMark = serde_json::from_value(value)
        .ok()
        .filter(|m: &RepairMark| m.epoch.len() <= 32)
        .ok_or_else(|| {
            SessionError::new(
                SessionCode::Capability,
                "the page answered the repair wait with something that is not a change mark",
            )
        })?;
    Ok(json!({ "mark": mark }))
}

/// Apply each event with `applyRepairEvent`; answers `{"applied": n}` (events the page refused,
/// such as findings it never had, are skipped).
pub async fn apply<C: AgentContext>(
    ctx: &C,
    events: &[Value],
    deadline: Instant,
) -> Result<Value, SessionError> {
    live::at_most(events.len(), MAX_EVENTS, "events", "apply")?;
    let mut applied = 0u32;
    for event in events {
        match live::call(
            ctx,
            PageContextMethod::ApplyRepairEvent,
            event.clone(),
            deadline,
        )
        .await?
        {
            PageContextReply::Value(_) => applied += 1,
            PageContextReply::Threw(_) => {}
            PageContextReply::Absent => return Err(no_bridge()),
        }
    }
    Ok(json!({ "applied": applied }))
}
