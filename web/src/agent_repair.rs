//! The Web side of repair verification for agent sessions: console and page errors since the
//! current document loaded, a viewport screenshot, and read-only facts about the one element a
//! target names. The `AgentContext` implementation in `agent.rs` delegates here.
//!
//! Why a separate file: these reads serve only the repair loop (the before baseline and the
//! verification's steps 2–5), and none of them acts on the page.

use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use super::script;
use a3s_test_driver::api::{LayoutFacts, TargetFacts, TargetPrivacy, MAX_LOG_ENTRIES};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::StepFailure;
use a3s_test_lang::ir::Target;
use serde_json::{json, Value};
use std::sync::Mutex;
use tokio::time::Instant;

/// Which of the context's logs to read.
#[derive(Clone, Copy)]
pub(crate) enum Log {
    /// Console messages.
    Console,
    /// Uncaught page errors.
    PageErrors,
}

/// The current tab's entries of `log` since its document's page world was created: the newest
/// [`MAX_LOG_ENTRIES`] and the total count. No tab: nothing.
pub(crate) fn since_load(ctx: &WebContext, log: Log) -> (Vec<Value>, usize) {
    let Ok(tab) = ctx.tab() else {
        return (Vec::new(), 0);
    };
    let (console_mark, errors_mark) = *tab
        .state
        .document_start
        .lock()
        .expect("document start lock");
    let (entries, mark): (&Mutex<Vec<Value>>, usize) = match log {
        Log::Console => (&ctx.shared.console, console_mark),
        Log::PageErrors => (&ctx.shared.page_errors, errors_mark),
    };
    let all = entries.lock().expect("log lock");
    let mine: Vec<&Value> = all
        .get(mark..)
        .unwrap_or_default()
        .iter()
        .filter(|e| e.get("tab").and_then(Value::as_str) == Some(tab.target_id.as_str()))
        .collect();
    let total = mine.len();
    let kept = mine
        .into_iter()
        .skip(total.saturating_sub(MAX_LOG_ENTRIES))
        .cloned()
        .collect();
    (kept, total)
}

/// A PNG of the current tab's viewport.
pub(crate) async fn screenshot(
    ctx: &WebContext,
    deadline: Instant,
) -> Result<Vec<u8>, StepFailure> {
    super::steps::evidence::png(ctx, deadline).await
}

/// How many elements `target` names and the facts of the one it names.
pub(crate) async fn target_facts(
    ctx: &WebContext,
    target: &Target,
    deadline: Instant,
) -> Result<TargetFacts, StepFailure> {
    refuse_ref(Some(target))?;
    let args = json!({ "target": target });
    read_facts(ctx, "target_facts", args, "target facts", deadline).await
}

/// The viewport, scroll, the element at `point` and the box of the one element `target` names.
pub(crate) async fn layout_facts(
    ctx: &WebContext,
    point: Option<(f64, f64)>,
    target: Option<&Target>,
    deadline: Instant,
) -> Result<LayoutFacts, StepFailure> {
    refuse_ref(target)?;
    let point = point
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|(x, y)| json!({ "x": x, "y": y }));
    let args = json!({ "point": point, "target": target });
    read_facts(ctx, "layout_facts", args, "layout facts", deadline).await
}

/// A ref is bound to one observation: a repair's criteria name durable targets only.
fn refuse_ref(target: Option<&Target>) -> Result<(), StepFailure> {
    if matches!(target, Some(Target::Ref { .. })) {
        return Err(StepFailure::new(
            FailureCode::Unsupported,
            "a ref is bound to one observation and cannot be re-resolved for a repair",
        ));
    }
    Ok(())
}

/// Run the read-only resolver operation `op` in the current frame and read its answer as `T`
/// (`what` names it when the answer has another shape).
async fn read_facts<T: serde::de::DeserializeOwned>(
    ctx: &WebContext,
    op: &str,
    args: Value,
    what: &str,
    deadline: Instant,
) -> Result<T, StepFailure> {
    let tab = ctx.tab()?;
    tab.fail_if_dialog()?;
    let reply = script::call(tab, op, args, COMMAND_BOUND, deadline).await?;
    serde_json::from_value(reply).map_err(|e| {
        StepFailure::new(
            FailureCode::Protocol,
            format!("the page resolver answered {what} in an unexpected shape: {e}"),
        )
    })
}

/// Whether a value going into `target` (or the focused element) is private.
pub(crate) async fn target_privacy(
    ctx: &WebContext,
    target: Option<&Target>,
    deadline: Instant,
) -> Result<TargetPrivacy, StepFailure> {
    refuse_ref(target)?;
    let args = json!({ "target": target });
    read_facts(ctx, "privacy", args, "privacy", deadline).await
}

/// The visible text of the current frame's document.
pub(crate) async fn page_text(ctx: &WebContext, deadline: Instant) -> Result<String, StepFailure> {
    let tab = ctx.tab()?;
    tab.fail_if_dialog()?;
    let reply = script::call(tab, "page_text", json!({}), COMMAND_BOUND, deadline).await?;
    Ok(reply
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string())
}
