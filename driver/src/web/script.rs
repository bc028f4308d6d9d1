//! Running the injected resolver (`resolver.js`) in the current tab.
//!
//! The resolver is evaluated per call as `(source)(request)` with `Runtime.evaluate`; nothing is
//! installed in the page. A call made while the document is being replaced (navigation) finds no
//! execution context: that is retried briefly, because the call never reached a live page. A call
//! that would run behind an open JavaScript dialog fails at once (the renderer is blocked).

use super::cdp::COMMAND_BOUND;
use super::tab::Tab;
use crate::failure::FailureCode;
use crate::StepFailure;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// The resolver source, evaluated per call.
pub(crate) const RESOLVER_JS: &str = include_str!("resolver.js");

/// How long a call waits for a fresh execution context after a navigation.
const CONTEXT_GRACE: Duration = Duration::from_secs(5);

/// What went wrong with one evaluation.
enum EvalError {
    /// The document was being replaced; the call did not run.
    ContextGone,
    /// Anything else.
    Failed(StepFailure),
}

/// Run resolver operation `op` with `args` (merged into the request) in `tab`'s current frame.
///
/// `bound` limits the whole call (including in-page polling); the scenario deadline always wins.
pub(crate) async fn call(
    tab: &Tab,
    op: &str,
    mut args: Value,
    bound: Duration,
    deadline: Instant,
) -> Result<Value, StepFailure> {
    let request = args.as_object_mut().expect("resolver args are an object");
    request.insert("op".into(), json!(op));
    request.insert("frames".into(), json!(tab.frames));
    let expression = format!("({RESOLVER_JS})({args})");
    let value = evaluate(tab, &expression, true, bound, deadline).await?;
    check_error(&value)?;
    Ok(value)
}

/// Evaluate the resolver's `element` operation and return a remote object id for the element
/// (released by the caller). Used only where CDP needs a node (`DOM.setFileInputFiles`).
pub(crate) async fn element_object(
    tab: &Tab,
    target: &a3s_test_lang::ir::Target,
    deadline: Instant,
    file_count: Option<usize>,
) -> Result<String, StepFailure> {
    let request = json!({ "op": "element", "frames": tab.frames, "target": target, "file_count": file_count });
    let expression = format!("({RESOLVER_JS})({request})");
    let result = evaluate(tab, &expression, false, COMMAND_BOUND, deadline).await?;
    if let Some(id) = result.get("objectId").and_then(Value::as_str) {
        return Ok(id.to_string());
    }
    let text = result.get("value").and_then(Value::as_str).unwrap_or("{}");
    let parsed: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    check_error(&parsed)?;
    Err(StepFailure::new(
        FailureCode::Protocol,
        "the resolver returned no element",
    ))
}

/// Release a remote object the driver asked for. Best effort: the object dies with its context
/// anyway, so a failure here (e.g. the page navigated) is not worth reporting.
pub(crate) async fn release_object(tab: &Tab, object: &str, deadline: Instant) {
    let _ = tab
        .session
        .call(
            "Runtime.releaseObject",
            json!({ "objectId": object }),
            COMMAND_BOUND,
            deadline,
        )
        .await;
}

/// The backend node id of a remote object, then release the object.
pub(crate) async fn backend_node_and_release(
    tab: &Tab,
    object: &str,
    deadline: Instant,
) -> Result<Option<i64>, StepFailure> {
    let described = tab
        .session
        .call(
            "DOM.describeNode",
            json!({ "objectId": object }),
            COMMAND_BOUND,
            deadline,
        )
        .await;
    release_object(tab, object, deadline).await;
    Ok(described?
        .pointer("/node/backendNodeId")
        .and_then(Value::as_i64))
}

/// Map an `{error: {kind, message}}` reply.
fn check_error(value: &Value) -> Result<(), StepFailure> {
    let Some(error) = value.get("error") else {
        return Ok(());
    };
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let code = match error.get("kind").and_then(Value::as_str).unwrap_or("") {
        "frame" => FailureCode::FrameUnavailable,
        "selector" => FailureCode::InvalidSelector,
        "target" if message.starts_with("no element") => FailureCode::TargetNotFound,
        "target" => FailureCode::TargetAmbiguous,
        "unsupported" => FailureCode::Unsupported,
        "not_actionable" => FailureCode::TargetNotActionable,
        _ => FailureCode::Protocol,
    };
    let message = if code == FailureCode::Protocol {
        format!("the page resolver failed: {message}")
    } else {
        message
    };
    Err(StepFailure::new(code, message))
}

/// `Runtime.evaluate` with retry on a missing context. Returns the result value (by value) or the
/// remote object (by reference).
async fn evaluate(
    tab: &Tab,
    expression: &str,
    by_value: bool,
    bound: Duration,
    deadline: Instant,
) -> Result<Value, StepFailure> {
    let give_up = (Instant::now() + CONTEXT_GRACE).min(deadline);
    loop {
        match evaluate_once(tab, expression, by_value, bound, deadline).await {
            Ok(value) => return Ok(value),
            Err(EvalError::Failed(f)) => return Err(f),
            Err(EvalError::ContextGone) => {
                if Instant::now() >= give_up {
                    return Err(StepFailure::new(
                        FailureCode::Protocol,
                        "the page had no live document for 5 s (navigation did not settle)",
                    ));
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

async fn evaluate_once(
    tab: &Tab,
    expression: &str,
    by_value: bool,
    bound: Duration,
    deadline: Instant,
) -> Result<Value, EvalError> {
    tab.fail_if_dialog().map_err(EvalError::Failed)?;
    let params = json!({
        "expression": expression,
        "returnByValue": by_value,
        "awaitPromise": true,
        "userGesture": true,
    });
    let call = tab
        .session
        .call("Runtime.evaluate", params, bound, deadline);
    let reply = tokio::select! {
        reply = call => reply,
        message = tab.dialog_opened() => {
            return Err(EvalError::Failed(dialog_blocking(&message)));
        }
    };
    let reply = match reply {
        Ok(reply) => reply,
        Err(f) if is_context_gone(&f.message) => return Err(EvalError::ContextGone),
        Err(f) => return Err(EvalError::Failed(f)),
    };
    if let Some(details) = reply.get("exceptionDetails") {
        let text = details
            .pointer("/exception/description")
            .and_then(Value::as_str)
            .or_else(|| details.get("text").and_then(Value::as_str))
            .unwrap_or("unknown exception");
        if is_context_gone(text) {
            return Err(EvalError::ContextGone);
        }
        return Err(EvalError::Failed(StepFailure::new(
            FailureCode::Protocol,
            format!("the page resolver threw: {text}"),
        )));
    }
    let result = reply.get("result").cloned().unwrap_or(Value::Null);
    if by_value {
        Ok(result.get("value").cloned().unwrap_or(Value::Null))
    } else {
        Ok(result)
    }
}

fn is_context_gone(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("execution context was destroyed")
        || m.contains("cannot find default execution context")
        || m.contains("cannot find context")
        || m.contains("inspected target navigated or closed")
}

/// The failure for a step that cannot run while a JavaScript dialog is open.
pub(crate) fn dialog_blocking(message: &str) -> StepFailure {
    StepFailure::new(
        FailureCode::DialogBlocking,
        format!("a JavaScript dialog is open ({message}); handle it with a `dialog` step first"),
    )
}
