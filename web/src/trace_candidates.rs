//! The candidates of a failed step's target for its trace: which elements the resolver sees
//! for each target of the step, and why each is not actionable (hidden, disabled, covered, one
//! of several matches …) — or, when nothing matches, the near misses (the same role under
//! another name, the matches a `within`, `nth` or filter left out).
//!
//! Why a separate read after the failure: the step's own polling keeps only its last answer
//! (one sentence about one element); a person looking at a trace wants every element that
//! could have been meant. The read is the resolver's `candidates` operation (`resolver.js`),
//! read-only — nothing is scrolled or dispatched — so the page the trace shows is the page the
//! step left.

use crate::context::WebContext;
use crate::script;
use crate::target::{describe, Needs};
use a3s_test_driver::trace::TargetCandidates;
use a3s_test_lang::ir::{Action, Target};
use serde::Deserialize;
use serde_json::json;
use tokio::time::Instant;

/// What the resolver answers (`resolver.js`, `candidates`).
#[derive(Deserialize)]
struct Seen {
    matches: usize,
    total: usize,
    candidates: Vec<a3s_test_driver::trace::TraceCandidate>,
}

/// The targets `action` acts on, with what it needs of each.
fn targets_of(action: &Action) -> Vec<(&Target, Needs)> {
    match action {
        Action::Click { target, .. }
        | Action::DoubleClick { target, .. }
        | Action::ContextClick { target, .. }
        | Action::Check { target, .. }
        | Action::Uncheck { target, .. }
        | Action::Download { target, .. } => vec![(target, Needs::PRESS)],
        Action::Hover { target, .. } => vec![(target, Needs::POINT)],
        Action::Drag { source, target, .. } => {
            vec![(source, Needs::POINT), (target, Needs::POINT)]
        }
        Action::Fill { target, .. } | Action::Type { target, .. } => {
            vec![(target, Needs::EDITABLE)]
        }
        Action::Select { target, .. } => vec![(target, Needs::ENABLED)],
        Action::Press {
            target: Some(target),
            ..
        } => vec![(target, Needs::ENABLED)],
        Action::Focus { target }
        | Action::Upload { target, .. }
        | Action::Wheel {
            target: Some(target),
            ..
        } => vec![(target, Needs::default())],
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|(t, _)| !matches!(t, Target::Ref { .. }))
    .collect()
}

impl WebContext {
    /// The candidates of each target of `action` in the current frame; a target the resolver
    /// cannot read (an invalid selector, no page) is left out — the step's failure says why.
    pub(crate) async fn candidates_of(
        &self,
        action: &Action,
        deadline: Instant,
    ) -> Vec<TargetCandidates> {
        let Ok(tab) = self.tab() else {
            return Vec::new();
        };
        if tab.dialog().is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (target, needs) in targets_of(action) {
            let args = json!({
                "target": target,
                "enabled": needs.enabled,
                "editable": needs.editable,
                "pointer": needs.pointer,
            });
            let Ok(reply) =
                script::call(tab, "candidates", args, crate::cdp::COMMAND_BOUND, deadline).await
            else {
                continue;
            };
            let Ok(seen) = serde_json::from_value::<Seen>(reply) else {
                continue;
            };
            out.push(TargetCandidates {
                target: describe(target),
                matches: seen.matches,
                total: seen.total,
                candidates: seen.candidates,
            });
        }
        out
    }
}
