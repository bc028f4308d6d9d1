//! Elements a page made operable without giving them an operable role: `draggable`, `tabindex`,
//! `contenteditable`, a `cursor: pointer`, or a click/pointer/drag listener registered on the
//! element itself.
//!
//! Why: pages built from plain `div`s (drag handles, clickable cards, custom grids) are common,
//! and an agent that cannot get a ref for them cannot act on them by ref. The accessibility tree
//! alone does not say which generic elements respond to input, so the driver asks two more
//! questions per observation, both bounded:
//! - one query of the document for elements with one of those attributes or a pointer cursor
//!   (only the outermost element of a pointer-cursor subtree, since the cursor is inherited), in
//!   document order, at most [`MAX_CANDIDATES`];
//! - one `DOMDebugger.getEventListeners` call on the document for its whole subtree, which lists
//!   each listener with the backend node it is registered on. It reads the listener registry;
//!   no page code runs.
//!
//! Which candidates become controls (a delegating container is not one) is decided against the
//! accessibility tree in `agent.rs`.

use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use super::element_query::{elements, with_query, QueryResult};
use serde_json::{json, Value};
use std::collections::HashMap;
use tokio::time::Instant;

/// Most attribute or cursor candidates one observation looks at.
pub const MAX_CANDIDATES: usize = 300;
/// Most elements one observation takes from the listener registry.
pub const MAX_LISTENER_NODES: usize = 300;

/// Remote objects of one query, released together.
const GROUP: &str = "a3s-operable";

/// Listener types that make an element operable by pointer.
const POINTER_EVENTS: &[&str] = &[
    "click",
    "dblclick",
    "auxclick",
    "mousedown",
    "mouseup",
    "pointerdown",
    "pointerup",
    "touchstart",
    "touchend",
    "dragstart",
    "dragover",
    "drop",
];

/// `{ document, elements, kinds }`: candidates in document order, at most `limit`, each with a
/// kind letter in `kinds` (`k`: draggable or contenteditable, operable whatever it contains;
/// `c`: tabindex or pointer cursor, operable unless it contains operable elements).
const CANDIDATES_JS: &str = r#"((limit) => {
  const elements = [];
  let kinds = '';
  const all = document.body ? document.body.getElementsByTagName('*') : [];
  for (let i = 0; i < all.length && elements.length < limit; i++) {
    const el = all[i];
    const drag = el.getAttribute('draggable') === 'true';
    const edit = el.hasAttribute('contenteditable') && el.getAttribute('contenteditable') !== 'false';
    let kind = drag || edit ? 'k' : '';
    if (!kind) {
      if (el.hasAttribute('tabindex')) kind = 'c';
      else {
        const cursor = getComputedStyle(el).cursor;
        const parent = el.parentElement;
        if (cursor === 'pointer' && !(parent && getComputedStyle(parent).cursor === 'pointer')) kind = 'c';
      }
    }
    if (kind) { elements.push(el); kinds += kind; }
  }
  return { document, elements, kinds };
})"#;

/// Why an element without an operable role is operable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operable {
    /// `draggable="true"` or `contenteditable`: operable even when it contains other controls.
    Always,
    /// `tabindex`, a pointer cursor or a pointer listener: operable unless it contains other
    /// operable elements (then it is a container delegating to them).
    Leaf,
}

/// Backend node id → why it is operable.
pub(crate) type Candidates = HashMap<i64, Operable>;

impl WebContext {
    /// The candidates of the current tab's top document (see the module doc). A query that
    /// fails (a page in the middle of navigating) yields none rather than failing the
    /// observation: the accessibility controls are still right.
    pub(crate) async fn operable_candidates(&self, deadline: Instant) -> Candidates {
        let Ok(tab) = self.tab() else {
            return Candidates::new();
        };
        with_query(
            &tab.session,
            format!("{CANDIDATES_JS}({MAX_CANDIDATES})"),
            GROUP,
            deadline,
            |found| async move { Ok(self.read_candidates(found, deadline).await) },
        )
        .await
        .unwrap_or_default()
    }

    async fn read_candidates(&self, found: QueryResult, deadline: Instant) -> Candidates {
        let mut out = Candidates::new();
        let Ok(tab) = self.tab() else {
            return out;
        };
        let kinds = found.letters("kinds");
        let document = found.object("document");
        let list = found.object("elements");
        // The listener registry and the element list are independent reads: sent together.
        let listeners = async {
            match &document {
                Some(doc) => tab
                    .session
                    .call(
                        "DOMDebugger.getEventListeners",
                        json!({ "objectId": doc, "depth": -1, "pierce": false }),
                        COMMAND_BOUND,
                        deadline,
                    )
                    .await
                    .ok(),
                None => None,
            }
        };
        let items = async {
            match &list {
                Some(list) => elements(&tab.session, list, deadline)
                    .await
                    .unwrap_or_default(),
                None => Vec::new(),
            }
        };
        let (listeners, elements) = futures_util::future::join(listeners, items).await;
        for node in listener_nodes(listeners.as_ref()) {
            out.insert(node, Operable::Leaf);
        }
        // One small request per candidate, pipelined.
        let describes = elements.iter().map(|(_, id)| {
            tab.session.call(
                "DOM.describeNode",
                json!({ "objectId": id }),
                COMMAND_BOUND,
                deadline,
            )
        });
        let described = futures_util::future::join_all(describes).await;
        for ((index, _), reply) in elements.iter().zip(described) {
            let Some(backend) = reply
                .ok()
                .and_then(|r| r.pointer("/node/backendNodeId").and_then(Value::as_i64))
            else {
                continue;
            };
            let kind = match kinds.get(*index) {
                Some('k') => Operable::Always,
                _ => Operable::Leaf,
            };
            let slot = out.entry(backend).or_insert(kind);
            if kind == Operable::Always {
                *slot = Operable::Always;
            }
        }
        out
    }
}

/// The backend nodes of a `getEventListeners` reply that have a pointer listener, at most
/// [`MAX_LISTENER_NODES`], in reply order.
fn listener_nodes(reply: Option<&Value>) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    for l in reply
        .and_then(|r| r["listeners"].as_array())
        .into_iter()
        .flatten()
    {
        let pointer = l["type"]
            .as_str()
            .is_some_and(|t| POINTER_EVENTS.contains(&t));
        let Some(node) = l["backendNodeId"].as_i64().filter(|_| pointer) else {
            continue;
        };
        if !out.contains(&node) {
            if out.len() >= MAX_LISTENER_NODES {
                break;
            }
            out.push(node);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_pointer_listeners_on_nodes_count() {
        let reply = json!({ "listeners": [
            { "type": "click", "backendNodeId": 7 },
            { "type": "keydown", "backendNodeId": 8 },
            { "type": "mousedown", "backendNodeId": 7 },
            { "type": "dragstart", "backendNodeId": 9 },
            { "type": "click" },
        ]});
        assert_eq!(listener_nodes(Some(&reply)), [7, 9]);
        assert!(listener_nodes(None).is_empty());
    }
}
