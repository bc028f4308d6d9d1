//! What `a3s-test dev` asks of a session's page besides the queue itself: wait until the repair
//! queue changes (so findings are drained as soon as the page announces them, with no polling of
//! the queue) and mirror the ledger's status changes into the page (so the overlay shows them).
//! Both go through the fixed bridge lookup; answers are untrusted page data and only their shape
//! is used.

use super::live;
use crate::session::code::{SessionCode, SessionError};
use a3s_test_driver::{AgentContext, PageContextMethod, PageContextReply};
use a3s_test_ledger::{Actor, AttemptId, Event, FindingId, RepairStatus};
use serde::{Deserialize, Serialize};
use serde_json::json;
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

/// The supervisor's answer to `repair_wait`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Waited {
    /// The queue changed after the caller's mark (or there was none): the mark now.
    Mark(RepairMark),
    /// Another client connected while the wait ran; it was served first, and the waiter asks
    /// again.
    Preempted,
}

/// A ledger status change as the Test Kit's `RepairEvent` takes it (`applyRepairEvent`): the
/// ledger's sequence orders them, and a request id per sequence keeps a repeated push idempotent.
/// Fields in alphabetical order: the events used to be built as JSON objects (whose keys print
/// sorted) and `events.jsonl` logs them as they were.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageRepairEvent {
    /// Who caused the change.
    pub actor: Actor,
    /// When (RFC 3339 UTC).
    pub at: String,
    /// The attempt the change belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt_id: Option<AttemptId>,
    /// The finding.
    pub repair_id: FindingId,
    /// `ledger-<sequence>`.
    pub request_id: String,
    /// The ledger's sequence number of the change.
    pub sequence: u64,
    /// The status after the change.
    pub status: RepairStatus,
}

impl From<&Event> for PageRepairEvent {
    fn from(e: &Event) -> Self {
        PageRepairEvent {
            actor: e.actor,
            at: e.at.clone(),
            attempt_id: e.attempt_id.clone(),
            repair_id: e.finding_id.clone(),
            request_id: format!("ledger-{}", e.seq),
            sequence: e.seq,
            status: e.to,
        }
    }
}

fn no_bridge() -> SessionError {
    SessionError::new(
        SessionCode::Capability,
        "this page has no Test Kit bridge, so it has no repair queue to watch",
    )
}

/// Wait until the queue changed after `since` (at once without it); answers the mark.
pub async fn wait<C: AgentContext>(
    ctx: &C,
    since: Option<&RepairMark>,
    timeout_ms: u64,
    deadline: Instant,
) -> Result<RepairMark, SessionError> {
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
    Ok(mark)
}

/// Apply each event with `applyRepairEvent`; answers how many the page applied (events the page
/// refused, such as findings it never had, are skipped).
pub async fn apply<C: AgentContext>(
    ctx: &C,
    events: &[PageRepairEvent],
    deadline: Instant,
) -> Result<u32, SessionError> {
    live::at_most(events.len(), MAX_EVENTS, "events", "apply")?;
    let mut applied = 0u32;
    for event in events {
        let event = json!(event);
        match live::call(ctx, PageContextMethod::ApplyRepairEvent, event, deadline).await? {
            PageContextReply::Value(_) => applied += 1,
            PageContextReply::Threw(_) => {}
            PageContextReply::Absent => return Err(no_bridge()),
        }
    }
    Ok(applied)
}
