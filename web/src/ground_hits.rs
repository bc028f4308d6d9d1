//! Visual grounding's hit test: which Test Kit node the page shows at a point.
//!
//! Why in the page, in one evaluation: a provider's box is advice in image pixels; it becomes a
//! ref only when the page proves that one of the observation's nodes is what is on top at the
//! box's centre. `elementFromPoint` is the browser's own answer to "what is on top here" (it
//! skips `pointer-events: none` and respects stacking and clipping), and the bridge's `resolve`
//! names each node's element, so the proof is the page's, read in one moment for every point.

use super::agent::BRIDGE;
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

/// `(b, ids, points) → [index | null]`: the innermost listed node holding the topmost element at
/// each point, walking up through shadow roots to their hosts.
const HITS_JS: &str = r#"((b, ids, points) => {
  if (b === undefined || b === null || typeof b.resolve !== "function") return points.map(() => null);
  const index = new Map();
  ids.forEach((id, i) => {
    try { const el = b.resolve(id); if (el instanceof Element && !index.has(el)) index.set(el, i); } catch (e) {}
  });
  return points.map(([x, y]) => {
    let el = document.elementFromPoint(x, y);
    while (el) {
      if (index.has(el)) return index.get(el);
      el = el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
    }
    return null;
  });
})"#;

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
        "{HITS_JS}({BRIDGE}, {}, {})",
        json!(node_ids),
        json!(points)
    );
    let bound = deadline
        .saturating_duration_since(Instant::now())
        .min(HIT_BOUND);
    let reply = ctx
        .evaluate_reply(&expression, true, bound, deadline)
        .await?;
    if reply.get("exceptionDetails").is_some() {
        return Err(StepFailure::new(
            FailureCode::Protocol,
            "the page's hit test threw",
        ));
    }
    let answered = reply.pointer("/result/value").and_then(Value::as_array);
    let hits: Option<Vec<Option<usize>>> = answered.map(|a| {
        a.iter()
            .map(|v| {
                v.as_u64()
                    .map(|i| i as usize)
                    .filter(|i| *i < node_ids.len())
            })
            .collect()
    });
    match hits {
        Some(hits) if hits.len() == points.len() => Ok(hits),
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
