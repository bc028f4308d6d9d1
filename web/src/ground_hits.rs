//! Visual grounding's hit test: which Test Kit node — or, on a page without the Test Kit, which
//! `@eN` control of the observation — the page shows at a point.
//!
//! Why in the page, in one evaluation: a provider's box is advice in image pixels; it becomes a
//! ref only when the page proves that one of the observation's nodes is what is on top at the
//! box's centre. `elementFromPoint` is the browser's own answer to "what is on top here" (it
//! skips `pointer-events: none` and respects stacking and clipping), and the bridge's `resolve`
//! names each node's element, so the proof is the page's, read in one moment for every point.

use super::agent::BRIDGE;
use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::StepFailure;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// Most points one call tests (a grounding answer holds at most 256 boxes).
pub(crate) const MAX_POINTS: usize = 256;
/// Most nodes one call resolves (an observation's `@cN` refs are bounded well below).
pub(crate) const MAX_NODES: usize = 5_000;

/// Bound of the one evaluation.
const HIT_BOUND: Duration = Duration::from_secs(10);

/// `(points) → [index | null]` over the `index` Map (element → index) in scope: the innermost
/// listed element holding the topmost element at each point, walking up through shadow roots
/// to their hosts.
const WALK_JS: &str = r#"points.map(([x, y]) => {
    let el = document.elementFromPoint(x, y);
    while (el) {
      if (index.has(el)) return index.get(el);
      el = el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
    }
    return null;
  })"#;

/// `(b, ids, points) → [index | null]`: the Test Kit nodes `ids`, as the bridge `b` resolves them.
fn hits_js() -> String {
    format!(
        r#"((b, ids, points) => {{
  if (b === undefined || b === null || typeof b.resolve !== "function") return points.map(() => null);
  const index = new Map();
  ids.forEach((id, i) => {{
    try {{ const el = b.resolve(id); if (el instanceof Element && !index.has(el)) index.set(el, i); }} catch (e) {{}}
  }});
  return {WALK_JS};
}})"#
    )
}

/// `function (points, ...nodes) → [index | null]`: the elements passed as remote objects.
fn hits_by_node_js() -> String {
    format!(
        r#"function (points, ...nodes) {{
  const index = new Map();
  nodes.forEach((el, i) => {{ if (el instanceof Element && !index.has(el)) index.set(el, i); }});
  return {WALK_JS};
}}"#
    )
}

/// Remote objects of one [`node_hits`] call, released together.
const GROUP: &str = "a3s-ground-hits";

/// See `AgentContext::page_context_hits`.
pub(crate) async fn hits(
    ctx: &WebContext,
    node_ids: &[String],
    points: &[(f64, f64)],
    deadline: Instant,
) -> Result<Vec<Option<usize>>, StepFailure> {
    if points.len() > MAX_POINTS || node_ids.len() > MAX_NODES {
        return Err(StepFailure::new(
            FailureCode::Unsupported,
            format!(
                "a hit test takes at most {MAX_POINTS} points and {MAX_NODES} nodes, not {} and {}",
                points.len(),
                node_ids.len()
            ),
        ));
    }
    if points.is_empty() {
        return Ok(Vec::new());
    }
    ctx.tab()?.fail_if_dialog()?;
    let points: Vec<[f64; 2]> = points
        .iter()
        .map(|&(x, y)| [finite(x), finite(y)])
        .collect();
    let expression = format!(
        "{}({BRIDGE}, {}, {})",
        hits_js(),
        json!(node_ids),
        json!(points)
    );
    let bound = deadline
        .saturating_duration_since(Instant::now())
        .min(HIT_BOUND);
    let reply = ctx
        .evaluate_reply(&expression, true, bound, deadline)
        .await?;
    read_hits(&reply, points.len(), node_ids.len())
}

/// See `AgentContext::backend_node_hits`: the same walk over DOM nodes named by backend id (an
/// observation's `@eN` controls), for a page without a Test Kit bridge. Each node is resolved
/// into the top document's page world and passed to one call; all are released after it.
pub(crate) async fn node_hits(
    ctx: &WebContext,
    backend_node_ids: &[i64],
    points: &[(f64, f64)],
    deadline: Instant,
) -> Result<Vec<Option<usize>>, StepFailure> {
    if points.len() > MAX_POINTS || backend_node_ids.len() > MAX_NODES {
        return Err(StepFailure::new(
            FailureCode::Unsupported,
            format!(
                "a hit test takes at most {MAX_POINTS} points and {MAX_NODES} nodes, not {} and {}",
                points.len(),
                backend_node_ids.len()
            ),
        ));
    }
    let tab = ctx.tab()?;
    tab.fail_if_dialog()?;
    let world = *tab.state.main_world.borrow();
    let (Some(world), false, false) = (world, points.is_empty(), backend_node_ids.is_empty())
    else {
        return Ok(vec![None; points.len()]);
    };
    let resolved = futures_util::future::join_all(backend_node_ids.iter().map(|id| {
        tab.session.call(
            "DOM.resolveNode",
            json!({ "backendNodeId": id, "executionContextId": world, "objectGroup": GROUP }),
            COMMAND_BOUND,
            deadline,
        )
    }))
    .await;
    let points_arg: Vec<[f64; 2]> = points
        .iter()
        .map(|&(x, y)| [finite(x), finite(y)])
        .collect();
    // A node gone from the document is passed as null: it holds no point.
    let arguments: Vec<Value> = std::iter::once(json!({ "value": points_arg }))
        .chain(resolved.iter().map(|r| {
            match r
                .as_ref()
                .ok()
                .and_then(|r| r.pointer("/object/objectId"))
                .and_then(Value::as_str)
            {
                Some(object) => json!({ "objectId": object }),
                None => json!({ "value": null }),
            }
        }))
        .collect();
    let bound = deadline
        .saturating_duration_since(Instant::now())
        .min(HIT_BOUND);
    let reply = tab
        .session
        .call(
            "Runtime.callFunctionOn",
            json!({
                "functionDeclaration": hits_by_node_js(),
                "executionContextId": world,
                "arguments": arguments,
                "returnByValue": true,
            }),
            bound,
            deadline,
        )
        .await;
    let _ = tab
        .session
        .call(
            "Runtime.releaseObjectGroup",
            json!({ "objectGroup": GROUP }),
            COMMAND_BOUND,
            deadline,
        )
        .await;
    read_hits(&reply?, points.len(), backend_node_ids.len())
}

/// The hit test's answer: one index below `nodes` or null per point.
fn read_hits(
    reply: &Value,
    points: usize,
    nodes: usize,
) -> Result<Vec<Option<usize>>, StepFailure> {
    if reply.get("exceptionDetails").is_some() {
        return Err(StepFailure::new(
            FailureCode::Protocol,
            "the page's hit test threw",
        ));
    }
    let answered = reply.pointer("/result/value").and_then(Value::as_array);
    let hits: Option<Vec<Option<usize>>> = answered.map(|a| {
        a.iter()
            .map(|v| v.as_u64().map(|i| i as usize).filter(|i| *i < nodes))
            .collect()
    });
    match hits {
        Some(hits) if hits.len() == points => Ok(hits),
        _ => Err(StepFailure::new(
            FailureCode::Protocol,
            "the page's hit test answered in an unexpected shape",
        )),
    }
}

/// A point coordinate the page can take (a non-finite one tests nothing).
fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        -1.0
    }
}
