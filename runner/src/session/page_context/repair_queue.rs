//! The page's repair queue, read by a session for `agent repair-drain`: `peekRepairBatch` and
//! `takeRepairBatch`, `peekRepairActions` and `takeRepairActions` through the fixed bridge lookup,
//! nothing else of the queue (a session never submits a finding or an action). What comes back is untrusted page data: it is checked for
//! its envelope here and validated in full by the ledger before anything is appended.

use super::live::{self, detect};
use crate::session::code::{SessionCode, SessionError};
use a3s_test_driver::{AgentContext, PageContextMethod};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::time::Instant;

/// The most findings one peek asks for or one take names (the ledger's batch bound).
pub const MAX_BATCH: usize = 100;

/// The page's version of the repair protocol every batch must name.
const BATCH_PROTOCOL: &str = "a3s.test.repair/1";

/// A batch of findings from the page's queue (the reply to `repair_peek` and `repair_take`),
/// its envelope checked: `a3s.test.repair/1`, at most [`MAX_BATCH`] items. Untrusted page data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FindingBatch {
    /// Always `a3s.test.repair/1`.
    pub protocol: String,
    /// The findings, each the page's own JSON untouched: the ledger validates every one on its
    /// own (`parse_document`), so one it refuses is reported with its own error and stays in the
    /// page queue instead of failing the batch here.
    pub repairs: Vec<Value>,
}

/// A batch of the reviewer's queued actions (the reply to `repair_actions_peek` and
/// `repair_actions_take`), its envelope checked as a [`FindingBatch`]'s. Untrusted page data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionBatch {
    /// Always `a3s.test.repair/1`.
    pub protocol: String,
    /// The actions, each the page's own JSON untouched: the ledger validates and answers every
    /// one on its own (`parse_submission`), echoing the page's ids in a refusal.
    pub actions: Vec<Value>,
}

/// The item count of a batch, for the envelope check.
trait Batch: serde::de::DeserializeOwned {
    /// What its items are called (`repairs`, `actions`).
    const ITEMS: &'static str;
    fn protocol(&self) -> &str;
    fn count(&self) -> usize;
}

impl Batch for FindingBatch {
    const ITEMS: &'static str = "repairs";
    fn protocol(&self) -> &str {
        &self.protocol
    }
    fn count(&self) -> usize {
        self.repairs.len()
    }
}

impl Batch for ActionBatch {
    const ITEMS: &'static str = "actions";
    fn protocol(&self) -> &str {
        &self.protocol
    }
    fn count(&self) -> usize {
        self.actions.len()
    }
}

fn no_bridge() -> SessionError {
    SessionError::new(
        SessionCode::Capability,
        "this page has no Test Kit bridge, so it has no repair queue to drain",
    )
}

async fn call_raw<C: AgentContext>(
    ctx: &C,
    method: PageContextMethod,
    arg: Value,
    deadline: Instant,
) -> Result<Value, SessionError> {
    if detect(ctx, deadline).await?.is_none() {
        return Err(no_bridge());
    }
    let reply = live::call(ctx, method, arg, deadline).await?;
    live::reply_value(reply, no_bridge, |m| {
        SessionError::new(
            SessionCode::Capability,
            format!("the Test Kit repair queue refused the call: {m}"),
        )
    })
}

/// The batch must be `{"protocol":"a3s.test.repair/1","<items>":[…]}` (`repairs` or `actions`)
/// with at most [`MAX_BATCH`] items; anything else is refused before it reaches the caller.
fn envelope<B: Batch>(v: Value) -> Result<B, SessionError> {
    serde_json::from_value::<B>(v)
        .ok()
        .filter(|b| b.protocol() == BATCH_PROTOCOL && b.count() <= MAX_BATCH)
        .ok_or_else(|| {
            SessionError::new(
                SessionCode::Capability,
                format!(
                    "the Test Kit answered the repair queue with something that is not an \
                     a3s.test.repair/1 batch of at most 100 {}",
                    B::ITEMS
                ),
            )
        })
}

/// Refuses a batch size outside 1..=[`MAX_BATCH`] before anything reaches the page.
fn batch_size(max: u32) -> Result<(), SessionError> {
    if max == 0 || max as usize > MAX_BATCH {
        return Err(SessionError::new(
            SessionCode::InvalidInput,
            format!("max must be in 1..={MAX_BATCH}"),
        ));
    }
    Ok(())
}

/// The first `max` pending findings, left in the queue.
pub async fn peek<C: AgentContext>(
    ctx: &C,
    max: u32,
    deadline: Instant,
) -> Result<FindingBatch, SessionError> {
    batch_size(max)?;
    let arg = json!({ "max": max });
    envelope(call_raw(ctx, PageContextMethod::PeekRepairBatch, arg, deadline).await?)
}

/// Remove exactly `ids` from the queue; returns the removed findings.
pub async fn take<C: AgentContext>(
    ctx: &C,
    ids: &[String],
    deadline: Instant,
) -> Result<FindingBatch, SessionError> {
    live::at_most(ids.len(), MAX_BATCH, "ids", "take")?;
    let arg = json!({ "ids": ids });
    envelope(call_raw(ctx, PageContextMethod::TakeRepairBatch, arg, deadline).await?)
}

/// The first `max` queued reviewer actions, left in the queue.
pub async fn peek_actions<C: AgentContext>(
    ctx: &C,
    max: u32,
    deadline: Instant,
) -> Result<ActionBatch, SessionError> {
    batch_size(max)?;
    let arg = json!({ "max": max });
    let batch = call_raw(ctx, PageContextMethod::PeekRepairActions, arg, deadline).await?;
    envelope(batch)
}

/// Hand the page the ledger's per-item answers; it removes the actions answered finally and
/// returns them.
pub async fn take_actions<C: AgentContext>(
    ctx: &C,
    answers: &[Value],
    deadline: Instant,
) -> Result<ActionBatch, SessionError> {
    live::at_most(answers.len(), MAX_BATCH, "answers", "take")?;
    let arg = json!({ "answers": answers });
    let batch = call_raw(ctx, PageContextMethod::TakeRepairActions, arg, deadline).await?;
    envelope(batch)
}
