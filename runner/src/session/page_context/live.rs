//! The browser half of Page Context in a session: detecting the bridge through its handshake,
//! reading a snapshot, and fetching a delta since a baseline — every answer checked by the pure
//! modules ([`super::handshake`], [`super::diff`]) before the session uses it.

use super::diff::{self, Delta};
use super::handshake::{self, Bridge};
use crate::session::code::{SessionCode, SessionError};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::{AgentContext, PageContextMethod, PageContextReply, StepFailure};
use serde_json::{json, Value};
use tokio::time::Instant;

/// A driver-coded failure (`test.driver.web.*`) reported through the session.
pub fn driver_error(code: FailureCode, message: impl Into<String>) -> SessionError {
    let message = message.into();
    SessionError::new(SessionCode::StepFailed, format!("{code}: {message}")).with(|d| {
        d.failure = Some(StepFailure::new(code, message));
        d.class = Some(code.class());
    })
}

/// The value a bridge call answered, or the caller's error for an absent bridge or a method that
/// threw (each caller words those for its own operation).
pub fn reply_value(
    reply: PageContextReply,
    absent: impl FnOnce() -> SessionError,
    threw: impl FnOnce(String) -> SessionError,
) -> Result<Value, SessionError> {
    match reply {
        PageContextReply::Value(v) => Ok(v),
        PageContextReply::Absent => Err(absent()),
        PageContextReply::Threw(m) => Err(threw(m)),
    }
}

/// Refuse a batch of more than `max` items before anything reaches the page
/// (`at most {max} {items} per {call}`, invalid input).
pub fn at_most(len: usize, max: usize, items: &str, call: &str) -> Result<(), SessionError> {
    if len > max {
        return Err(SessionError::new(
            SessionCode::InvalidInput,
            format!("at most {max} {items} per {call}"),
        ));
    }
    Ok(())
}

/// Call one bridge method; a driver failure becomes a session error.
pub async fn call<C: AgentContext>(
    ctx: &C,
    method: PageContextMethod,
    arg: Value,
    deadline: Instant,
) -> Result<PageContextReply, SessionError> {
    ctx.page_context_call(method, &arg, deadline)
        .await
        .map_err(SessionError::from)
}

/// `None` when the page has no bridge; the bridge when its handshake is compatible; an
/// `test.driver.web.page_context_incompatible` failure otherwise.
pub async fn detect<C: AgentContext>(
    ctx: &C,
    deadline: Instant,
) -> Result<Option<Bridge>, SessionError> {
    match call(ctx, PageContextMethod::Handshake, Value::Null, deadline).await? {
        PageContextReply::Absent => Ok(None),
        PageContextReply::Threw(m) => Err(driver_error(
            FailureCode::PageContextIncompatible,
            format!("the Test Kit handshake failed: {m}"),
        )),
        PageContextReply::Value(v) => handshake::check(&v)
            .map(Some)
            .map_err(|m| driver_error(FailureCode::PageContextIncompatible, m)),
    }
}

fn present(reply: PageContextReply, what: &str) -> Result<Value, SessionError> {
    reply_value(
        reply,
        || {
            driver_error(
                FailureCode::PageContextChanged,
                format!("the Test Kit bridge disappeared during {what}"),
            )
        },
        |m| {
            driver_error(
                FailureCode::PageContextIncompatible,
                format!("the Test Kit {what} failed: {m}"),
            )
        },
    )
}

/// The bridge's current revision (`probe()`).
pub async fn revision<C: AgentContext>(ctx: &C, deadline: Instant) -> Result<u64, SessionError> {
    let v = present(
        call(ctx, PageContextMethod::Probe, Value::Null, deadline).await?,
        "probe",
    )?;
    positive_revision(&v, "probe")
}

/// The `revision` of what `method` answered, which must be a positive integer.
fn positive_revision(v: &Value, method: &str) -> Result<u64, SessionError> {
    v.get("revision")
        .and_then(Value::as_u64)
        .filter(|r| *r >= 1)
        .ok_or_else(|| {
            driver_error(
                FailureCode::PageContextIncompatible,
                format!("{method}() answered without a positive integer revision"),
            )
        })
}

/// A snapshot for `request`; its `revision` is checked to be a positive integer.
pub async fn snapshot<C: AgentContext>(
    ctx: &C,
    request: Value,
    deadline: Instant,
) -> Result<(u64, Value), SessionError> {
    let v = present(
        call(ctx, PageContextMethod::Snapshot, request, deadline).await?,
        "snapshot",
    )?;
    let rev = positive_revision(&v, "snapshot")?;
    Ok((rev, v))
}

/// The validated delta since `baseline` (a `detail: diff` snapshot of the page projection).
/// A bridge error, a missing delta or a broken rule is an error carrying its own code.
pub async fn delta_since<C: AgentContext>(
    ctx: &C,
    baseline: u64,
    deadline: Instant,
) -> Result<Delta, SessionError> {
    let request = json!({ "detail": "diff", "sinceRevision": baseline, "scope": { "kind": "page" }, "ui": false });
    let reply = call(ctx, PageContextMethod::Snapshot, request, deadline).await?;
    let response = reply_value(
        reply,
        || {
            SessionError::new(
                SessionCode::StaleRef,
                "the Test Kit bridge is gone (new document?); observe again",
            )
        },
        |m| {
            SessionError::new(
                SessionCode::StaleRef,
                format!("the page could not diff since revision {baseline} ({m}); observe again"),
            )
        },
    )?;
    diff::validate(&response, baseline).map_err(|e| {
        SessionError::new(
            SessionCode::StaleRef,
            format!("the Page Context delta was rejected: {e}; observe again"),
        )
        .with(|d| d.page_context_code = Some(e.rule))
    })
}
