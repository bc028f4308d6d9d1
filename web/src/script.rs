//! Running the injected resolver (`resolver.js`) in the current tab.
//!
//! The resolver source is compiled once per document into a function the driver holds by remote
//! object id (`Runtime.evaluate` in the main frame's page world), then each call is one
//! `Runtime.callFunctionOn` with the request as its argument. Nothing is installed in the page: no
//! global, no binding, so page scripts cannot see or replace it. Compiling the 40 KB source per
//! call cost more than most calls themselves. A call made while the document is being replaced
//! (navigation) finds no execution context: that is retried once the next document's context
//! exists, because the call never reached a live page. A call that would run behind an open
//! JavaScript dialog fails at once (the renderer is blocked).
//!
//! Roles and accessible names are computed by one TypeScript module shared with the Test Kit
//! (`testkit/src/a11y`), so a locator the Test Kit writes is one the driver resolves. It is
//! bundled by `npm run build:a11y` into `a11y.generated.js`, committed so that Cargo builds
//! without Node (a Test Kit test fails when the committed file is stale). [`RESOLVER_JS`] wraps
//! the bundle and `resolver.js` in one arrow function whose value is the resolver: the bundle's
//! `A3S_A11Y` is a local of that wrapper, so still nothing is installed in the page.

use super::cdp::COMMAND_BOUND;
use super::tab::Tab;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::StepFailure;
use serde_json::{json, Value};
use std::sync::LazyLock;
use std::time::Duration;
use tokio::time::Instant;

/// The resolver source: an expression whose value is the resolver function, compiled once per
/// document. The shared role/name bundle and the privacy predicates (built from the one rule,
/// `privacy::RULE`) come first, local to the wrapper.
pub(crate) static RESOLVER_JS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "(() => {{\n{a11y}\nconst A3S_PRIVATE = ({privacy})({rule});\n\
         // `resolver.js` opens with a comment: the parenthesis keeps `return` from ending at it.\n\
         return (\n{resolver}\n);\n}})()",
        a11y = include_str!("a11y.generated.js"),
        privacy = PRIVACY_JS,
        rule = a3s_test_driver::privacy::RULE.to_json(),
        resolver = include_str!("resolver.js"),
    )
});

/// The page-side privacy predicates (`privacy.js`): an expression whose value, called with the
/// rule, builds them.
pub(crate) const PRIVACY_JS: &str = include_str!("privacy.js");

/// How long a call waits for a fresh execution context after a navigation.
const CONTEXT_GRACE: Duration = Duration::from_secs(5);

/// How long a retry waits to hear of the next document's context before asking again.
const NEXT_WORLD_BOUND: Duration = Duration::from_millis(50);

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
    let value = invoke(tab, &args, true, bound, deadline).await?;
    check_error(&value)?;
    Ok(value)
}

/// Run resolver operation `op` on the element that is DOM node `backend_node_id` (passed to the
/// resolver as its second argument). `Ok(None)` when the node is not in the current document
/// any more (`DOM.resolveNode` finds nothing, or the document went away). The node is resolved
/// into the resolver's own world (the top document's page world) and its remote object released
/// after the call. A resolver function that is no longer valid (released with an object
/// group, say) is compiled again once, as [`call`] does.
pub(crate) async fn call_on_node(
    tab: &Tab,
    op: &str,
    mut args: Value,
    backend_node_id: i64,
    deadline: Instant,
) -> Result<Option<Value>, StepFailure> {
    let request = args.as_object_mut().expect("resolver args are an object");
    request.insert("op".into(), json!(op));
    request.insert("frames".into(), json!(tab.frames));
    for _attempt in 0..2 {
        let Some(world) = *tab.state.main_world.borrow() else {
            return Ok(None);
        };
        let resolved = tab
            .session
            .call(
                "DOM.resolveNode",
                json!({ "backendNodeId": backend_node_id, "executionContextId": world }),
                COMMAND_BOUND,
                deadline,
            )
            .await;
        let Some(object) = resolved.ok().and_then(|r| {
            r.pointer("/object/objectId")
                .and_then(Value::as_str)
                .map(str::to_string)
        }) else {
            return Ok(None);
        };
        // Released after the call, not beside it: the call may first compile the resolver, and a
        // release sent meanwhile would free the element before the call reads it.
        let reply = invoke_once(
            tab,
            Some(world),
            &args,
            Some(&object),
            true,
            COMMAND_BOUND,
            deadline,
        )
        .await;
        release_object(tab, &object, deadline).await;
        match reply {
            Ok(value) => {
                check_error(&value)?;
                return Ok(Some(value));
            }
            Err(EvalError::ContextGone) => forget_resolver(tab, Some(world)),
            Err(EvalError::Failed(f)) => return Err(f),
        }
    }
    Ok(None)
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
    let result = invoke(tab, &request, false, COMMAND_BOUND, deadline).await?;
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

/// The backend node id of a remote object, releasing the object. The two commands are sent
/// together: the session runs them in order, so the release follows the read.
pub(crate) async fn backend_node_and_release(
    tab: &Tab,
    object: &str,
    deadline: Instant,
) -> Result<Option<i64>, StepFailure> {
    let describe = tab.session.call(
        "DOM.describeNode",
        json!({ "objectId": object }),
        COMMAND_BOUND,
        deadline,
    );
    let (described, ()) =
        futures_util::future::join(describe, release_object(tab, object, deadline)).await;
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

/// Call the resolver with `request`, retrying while the document is being replaced. Returns the
/// result value (by value) or the remote object (by reference).
async fn invoke(
    tab: &Tab,
    request: &Value,
    by_value: bool,
    bound: Duration,
    deadline: Instant,
) -> Result<Value, StepFailure> {
    let give_up = (Instant::now() + CONTEXT_GRACE).min(deadline);
    loop {
        let world = *tab.state.main_world.borrow();
        match invoke_once(tab, world, request, None, by_value, bound, deadline).await {
            Ok(value) => return Ok(value),
            Err(EvalError::Failed(f)) => return Err(f),
            Err(EvalError::ContextGone) => {
                forget_resolver(tab, world);
                if Instant::now() >= give_up {
                    return Err(StepFailure::new(
                        FailureCode::Protocol,
                        "the page had no live document for 5 s (navigation did not settle)",
                    ));
                }
                // Wait for the next document's context; a context the driver has not heard
                // about yet is re-read after a short bound.
                let mut changes = tab.state.main_world.subscribe();
                let next = (Instant::now() + NEXT_WORLD_BOUND).min(give_up);
                let _ =
                    tokio::time::timeout_at(next, changes.wait_for(|w| w.is_some() && *w != world))
                        .await;
            }
        }
    }
}

/// Drop the held resolver function if it belongs to `world` (its document is gone).
fn forget_resolver(tab: &Tab, world: Option<i64>) {
    let mut held = tab.state.resolver.lock().expect("resolver lock");
    if held.as_ref().map(|(w, _)| Some(*w)) == Some(world) || world.is_none() {
        *held = None;
    }
}

/// The resolver function's remote object id in `world`, compiling it there on first use.
async fn resolver_in(
    tab: &Tab,
    world: i64,
    bound: Duration,
    deadline: Instant,
) -> Result<String, EvalError> {
    if let Some((w, id)) = tab.state.resolver.lock().expect("resolver lock").clone() {
        if w == world {
            return Ok(id);
        }
    }
    let params = json!({
        "expression": RESOLVER_JS.as_str(),
        "contextId": world,
        "returnByValue": false,
    });
    let reply = dialog_race(tab, "Runtime.evaluate", params, bound, deadline).await?;
    exception(&reply)?;
    let id = reply
        .pointer("/result/objectId")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            EvalError::Failed(StepFailure::new(
                FailureCode::Protocol,
                "the page resolver did not compile to a function",
            ))
        })?
        .to_string();
    *tab.state.resolver.lock().expect("resolver lock") = Some((world, id.clone()));
    Ok(id)
}

async fn invoke_once(
    tab: &Tab,
    world: Option<i64>,
    request: &Value,
    element: Option<&str>,
    by_value: bool,
    bound: Duration,
    deadline: Instant,
) -> Result<Value, EvalError> {
    tab.fail_if_dialog().map_err(EvalError::Failed)?;
    let world = world.ok_or(EvalError::ContextGone)?;
    let function = resolver_in(tab, world, bound, deadline).await?;
    let mut arguments = vec![json!({ "value": request })];
    if let Some(object) = element {
        arguments.push(json!({ "objectId": object }));
    }
    let params = json!({
        "functionDeclaration": "function (request, element) { return this(request, element); }",
        "objectId": function,
        "arguments": arguments,
        "returnByValue": by_value,
        "awaitPromise": true,
        "userGesture": true,
    });
    let reply = dialog_race(tab, "Runtime.callFunctionOn", params, bound, deadline).await?;
    exception(&reply)?;
    let result = reply.get("result").cloned().unwrap_or(Value::Null);
    if by_value {
        Ok(result.get("value").cloned().unwrap_or(Value::Null))
    } else {
        Ok(result)
    }
}

/// Send one `Runtime.*` command, failing at once if a dialog opens (the page is blocked).
async fn dialog_race(
    tab: &Tab,
    method: &'static str,
    params: Value,
    bound: Duration,
    deadline: Instant,
) -> Result<Value, EvalError> {
    let call = tab.session.call(method, params, bound, deadline);
    match race_dialog(tab, call).await {
        Ok(reply) => Ok(reply),
        Err(f) if f.code != FailureCode::DialogBlocking && is_context_gone(&f.message) => {
            Err(EvalError::ContextGone)
        }
        Err(f) => Err(EvalError::Failed(f)),
    }
}

/// Await `call` (a command to `tab`'s page), failing with `DialogBlocking` as soon as a
/// JavaScript dialog opens: the renderer is blocked behind it, so the reply would come only after
/// someone handled the dialog. A dialog already open fails at once.
pub(crate) async fn race_dialog(
    tab: &Tab,
    call: impl std::future::Future<Output = Result<Value, StepFailure>>,
) -> Result<Value, StepFailure> {
    tokio::select! {
        reply = call => reply,
        message = tab.dialog_opened() => Err(dialog_blocking(&message)),
    }
}

/// Map a reply's `exceptionDetails` (a throw in the page).
fn exception(reply: &Value) -> Result<(), EvalError> {
    let Some(details) = reply.get("exceptionDetails") else {
        return Ok(());
    };
    let text = exception_text(details);
    if is_context_gone(&text) {
        return Err(EvalError::ContextGone);
    }
    Err(EvalError::Failed(StepFailure::new(
        FailureCode::Protocol,
        format!("the page resolver threw: {text}"),
    )))
}

/// The message of a reply's `exceptionDetails`: the exception's description, else the thrown
/// value (JSON when not a string, e.g. `throw 42`), else the details' text.
pub(crate) fn exception_text(details: &Value) -> String {
    details
        .pointer("/exception/description")
        .or_else(|| details.pointer("/exception/value"))
        .or_else(|| details.get("text"))
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
        .unwrap_or_else(|| "unknown exception".into())
}

fn is_context_gone(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("execution context was destroyed")
        || m.contains("cannot find default execution context")
        || m.contains("cannot find context")
        || m.contains("inspected target navigated or closed")
        || m.contains("could not find object with given id")
}

/// The failure for a step that cannot run while a JavaScript dialog is open.
pub(crate) fn dialog_blocking(message: &str) -> StepFailure {
    StepFailure::new(
        FailureCode::DialogBlocking,
        format!("a JavaScript dialog is open ({message}); handle it with a `dialog` step first"),
    )
}
