//! The page's repair queue, read by a session for `agent repair-drain`: `peekRepairBatch` and
//! `takeRepairBatch`, `peekRepairActions` and `takeRepairActions` through the fixed bridge lookup,
//! nothing else of the queue (a session never submits a finding or an action). What comes back is untrusted page data: it is checked for
//! its envelope here and validated in full by the ledger before anything is appended.

use super::live::{self, detect};
use crate::session::code::{SessionCode, SessionError};
use a3s_test_driver::{AgentContext, PageContextMethod};
use serde_json::{json, Value};
use tokio::time::Instant;

/// The most findings one peek asks for or one take names (the ledger's batch bound).
pub const MAX_BATCH: usize = 100;

fn no_bridge() -> SessionError {
    SessionError::new(
        SessionCode::Capability,
        "this page has no Test Kit bridge, so it has no repair queue to drain",
    )
}

async fn call<C: AgentContext>(
    ctx: &C,
    method: PageContextMethod,
    arg: Value,
    deadline: Instant,
) -> Result<Value, SessionError> {
    envelope(call_raw(ctx, method, arg, deadline).await?, "repairs")
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
fn envelope(v: Value, items: &str) -> Result<Value, SessionError> {
    let ok = v.get("protocol").and_then(Value::as_str) == Some("a3s.test.repair/1")
        && v.get(items)
            .and_then(Value::as_array)
            .is_some_and(|r| r.len() <= MAX_BATCH);
    if !ok {
        return Err(SessionError::new(
            SessionCode::Capability,
            format!(
                "the Test Kit answered the repair queue with something that is not an \
                 a3s.test.repair/1 batch of at most 100 {items}"
            ),
        ));
    }
    Ok(json!({ "batch": v, "untrusted": true }))
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
) -> Result<Value, SessionError> {
    batch_size(max)?;
    call(
        ctx,
        PageContextMethod::PeekRepairBatch,
        json!({ "max": max }),
        deadline,
    )
    .await
}

/// Remove exactly `ids` from the queue; returns the removed findings.
pub async fn take<C: AgentContext>(
    ctx: &C,
    ids: &[String],
    deadline: Instant,
) -> Result<Value, SessionError> {
    live::at_most(ids.len(), MAX_BATCH, "ids", "take")?;
    call(
        ctx,
        PageContextMethod::TakeRepairBatch,
        json!({ "ids": ids }),
        deadline,
    )
    .await
}

/// The first `max` queued reviewer actions, left in the queue.
pub async fn peek_actions<C: AgentContext>(
    ctx: &C,
    max: u32,
    deadline: Instant,
) -> Result<Value, SessionError> {
    batch_size(max)?;
    let arg = json!({ "max": max });
    let batch = call_raw(ctx, PageContextMethod::PeekRepairActions, arg, deadline).await?;
    envelope(batch, "actions")
}

/// Hand the page the ledger's per-item answers; it removes the actions answered finally and
/// returns them.
pub async fn take_actions<C: AgentContext>(
    ctx: &C,
    answers: &[Value],
    deadline: Instant,
) -> Result<Value, SessionError> {
    live::at_most(answers.len(), MAX_BATCH, "answers", "take")?;
    let arg = json!({ "answers": answers });
    let batch = call_raw(ctx, PageContextMethod::TakeRepairActions, arg, deadline).await?;
    envelope(batch, "actions")
}
