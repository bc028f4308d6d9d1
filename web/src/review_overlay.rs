//! The Test Kit Review Overlay belongs to the reviewer. Only a person's explicit Send makes a
//! finding, and the ledger records what the overlay posts as human intake — so nothing the tool
//! drives may operate the overlay: an agent statement or a suite step that could press its Send
//! button would be the executor writing its own findings.
//!
//! The rule is enforced where every input leaves the driver, not by convention:
//! - the page resolver (`resolver.js`) resolves no target inside the overlay's host element and
//!   reads none of its text as page text;
//! - an agent observation leaves the host's accessibility subtree out, so no ref names any of
//!   its controls ([`without_overlay`]);
//! - a pointer action whose point the overlay covers is refused before the pointer moves
//!   (`test.driver.web.review_overlay`, the resolver's hit test), and so is a key press or text
//!   insertion while the focus is inside the overlay ([`refuse_focus`]).
//!
//! Keys the overlay listens for on the page itself (its mode letters on a focused page control)
//! still reach the page, as every key does; a mode alone marks nothing and sends nothing, and
//! the overlay's fields and buttons stay out of reach.

use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use super::script;
use super::tab::Tab;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::StepFailure;
use serde_json::{json, Value};
use std::collections::HashSet;
use tokio::time::Instant;

/// The overlay's host element (`OVERLAY_HOST_TAG` in `testkit/src/snapshot/walk.ts`).
pub const HOST_TAG: &str = "a3s-review-overlay";

/// The refusal every gate of this module returns.
pub(crate) fn refusal(what: &str) -> StepFailure {
    StepFailure::new(
        FailureCode::ReviewOverlay,
        format!(
            "{what}; it is the reviewer's, and no agent or suite operates it (act on the page, \
             or ask the reviewer)"
        ),
    )
}

/// Refuse a key press or text insertion that would land in the overlay (the focus is inside it).
pub(crate) async fn refuse_focus(
    tab: &Tab,
    what: &str,
    deadline: Instant,
) -> Result<(), StepFailure> {
    let reply = script::call(
        tab,
        "focus_in_review_overlay",
        json!({}),
        COMMAND_BOUND,
        deadline,
    )
    .await?;
    if reply.get("inside") == Some(&Value::Bool(true)) {
        return Err(refusal(&format!(
            "{what} would go to the focused control of the Review Overlay"
        )));
    }
    Ok(())
}

impl WebContext {
    /// The backend node id of the overlay's host in the top document, if one is mounted.
    pub(crate) async fn review_overlay_host(
        &self,
        deadline: Instant,
    ) -> Result<Option<i64>, StepFailure> {
        let expression = format!("document.querySelector({HOST_TAG:?})");
        self.backend_node_of(&expression, deadline).await
    }
}

/// The accessibility nodes of `order` (a depth-first order, parents before children) without
/// the overlay's host `host` and everything below it.
pub(crate) fn without_overlay(order: Vec<&Value>, host: Option<i64>) -> Vec<&Value> {
    let Some(host) = host else {
        return order;
    };
    let mut left_out: HashSet<&str> = HashSet::new();
    order
        .into_iter()
        .filter(|n| {
            let id = n["nodeId"].as_str().unwrap_or("");
            let inside = n["backendDOMNodeId"].as_i64() == Some(host)
                || n["parentId"].as_str().is_some_and(|p| left_out.contains(p));
            if inside {
                left_out.insert(id);
            }
            !inside
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: &str, parent: Option<&str>, backend: i64) -> Value {
        json!({ "nodeId": id, "parentId": parent, "backendDOMNodeId": backend })
    }

    #[test]
    fn the_hosts_subtree_is_left_out_and_nothing_else() {
        let nodes = [
            node("1", None, 10),
            node("2", Some("1"), 20),
            node("3", Some("1"), 30),
            node("4", Some("3"), 40),
            node("5", Some("4"), 50),
            node("6", Some("1"), 60),
        ];
        let ids = |kept: Vec<&Value>| -> Vec<String> {
            kept.iter()
                .map(|n| n["nodeId"].as_str().unwrap().to_owned())
                .collect()
        };
        let order: Vec<&Value> = nodes.iter().collect();
        assert_eq!(
            ids(without_overlay(order.clone(), Some(30))),
            ["1", "2", "6"]
        );
        assert_eq!(ids(without_overlay(order.clone(), None)).len(), 6);
        assert_eq!(ids(without_overlay(order, Some(99))).len(), 6);
    }

    #[test]
    fn the_refusal_has_its_own_code_and_says_whose_tool_it_is() {
        let f = refusal("click role(\"button\", \"Send\")");
        assert_eq!(f.code, FailureCode::ReviewOverlay);
        assert_eq!(f.code.as_str(), "test.driver.web.review_overlay");
        assert!(f.message.contains("reviewer"), "{}", f.message);
    }
}
