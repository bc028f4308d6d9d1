//! The page's repair queue, read by a session for `agent repair-drain`: `peekRepairBatch` and
//! `takeRepairBatch` through the fixed bridge lookup, nothing else of the queue (a session never
//! submits a finding or an action). What comes back is untrusted page data: it is checked for
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
    if detect(ctx, deadline).await?.is_none() {
        return Err(no_bridge());
    }
    let reply = live::call(ctx, method, arg, deadline).await?;
    let batch = live::reply_value(reply, no_bridge, |m| {
        SessionError::new(
            SessionCode::Capability,
            format!("the Test Kit repair queue refused the call: {m}"),
        )
    })?;
    envelope(batch)
}

/// The batch must be `{"protocol":"a3s.test.repair/1","repairs":[…]}` with at most
/// [`MAX_BATCH`] items; anything else is refused before it reaches the caller.
fn envelope(v: Value) -> Result<Value, SessionError> {
    let ok = v.get("protocol").and_then(Value::as_str) == Some("a3s.test.repair/1")
        && v.get("repairs")
            .and_then(Value::as_array)
            .is_some_and(|r| r.len() <= MAX_BATCH);
    if !ok {
        return Err(SessionError::new(
            SessionCode::Capability,
            "the Test Kit answered the repair queue with something that is not an \
             a3s.test.repair/1 batch of at most 100 findings",
        ));
    }
    Ok(json!({ "batch": v, "untrusted": true }))
}

/// The first `max` pending findings, left in the queue.
pub async fn peek<C: AgentContext>(
    ctx: &C,
    max: u32,
    deadline: Instant,
) -> Result<Value, SessionError> {
    if max == 0 || max as usize > MAX_BATCH {
        return Err(SessionError::new(
            SessionCode::InvalidInput,
            format!("max must be in 1..={MAX_BATCH}"),
        ));
    }
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
