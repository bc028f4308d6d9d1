//! Elements a page made operable without giving them an operable role: `draggable`, `tabindex`,
//! `contenteditable`, a `cursor: pointer`, or a click/pointer/drag listener registered on the
//! element itself — and, when that listener is on a list (a `ul`, a `tbody`, a `role="list"`,
//! …), on each of its items, which is how a page delegates (a sortable list listens on the list
//! and moves the item under the pointer).
//!
//! Why: pages built from plain `div`s (drag handles, clickable cards, custom grids, sortable
//! lists) are common, and an agent that cannot get a ref for them cannot act on them by ref. The
//! accessibility tree alone does not say which generic elements respond to input, so the driver
//! asks two more questions per observation, both bounded:
//! - one `DOMDebugger.getEventListeners` call on the document for its whole subtree, which lists
//!   each listener with the backend node it is registered on (at most [`MAX_LISTENER_NODES`]
//!   nodes are taken). It reads the listener registry; no page code runs;
//! - one query of the document, handed those nodes, for the elements with one of those
//!   attributes, a pointer cursor (only the outermost element of a pointer-cursor subtree, since
//!   the cursor is inherited) or a listener, in document order, at most [`MAX_CANDIDATES`].
//!
//! Which candidates become controls (a delegating container is not one) is decided against the
//! accessibility tree in `agent.rs`. A very large page is read by one pass that applies the
//! same rule (`large_page.js`) and asks this module's listener nodes.

use super::cdp::{Session, COMMAND_BOUND};
use super::context::WebContext;
use super::element_query::{elements, with_query, QueryResult};
use a3s_test_driver::StepFailure;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::future::Future;
use tokio::time::Instant;

/// Most attribute, cursor or listener candidates one observation looks at.
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

/// Called on the document as `(limit, ...listened)`: `{ elements, kinds, more }`, the candidates
/// in document order, at most `limit` (`more` when there were others), each with a kind letter
/// in `kinds` (`k`: draggable or contenteditable, operable whatever it contains; `c`: tabindex,
/// pointer cursor or a listener on it or on its list, operable unless it contains operable
/// elements). `large_page.js` applies the same rule in its one pass over a very large page.
const CANDIDATES_JS: &str = r#"function (limit, ...listened) {
  const LISTS = 'ul,ol,menu,tbody,thead,[role="list"],[role="listbox"],[role="menu"],[role="grid"],[role="tree"],[role="tablist"]';
  const marked = new Set(listened);
  for (const el of listened) {
    if (el.nodeType === 1 && el.matches(LISTS)) for (const item of el.children) marked.add(item);
  }
  const elements = [];
  const pointer = new Set();
  let kinds = '';
  let more = false;
  const all = this.body ? this.body.getElementsByTagName('*') : [];
  for (let i = 0; i < all.length; i++) {
    const el = all[i];
    const cursor = getComputedStyle(el).cursor === 'pointer';
    if (cursor) pointer.add(el);
    let kind = '';
    if (el.getAttribute('draggable') === 'true' || (el.hasAttribute('contenteditable') && el.getAttribute('contenteditable') !== 'false')) kind = 'k';
    else if (el.hasAttribute('tabindex') || marked.has(el) || (cursor && !pointer.has(el.parentElement))) kind = 'c';
    if (!kind) continue;
    if (elements.length >= limit) { more = true; break; }
    elements.push(el);
    kinds += kind;
  }
  return { elements, kinds, more };
}"#;

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
    /// The operable-element query (see the module doc): `limit` candidates at most; `read`
    /// gets the result while its remote objects are held.
    pub(crate) async fn operable_query<T, F, Fut>(
        &self,
        limit: usize,
        deadline: Instant,
        read: F,
    ) -> Result<T, StepFailure>
    where
        F: FnOnce(QueryResult) -> Fut,
        Fut: Future<Output = Result<T, StepFailure>>,
    {
        let tab = self.tab()?;
        let session = &tab.session;
        let listened = |document: String| listened_nodes(session, document, deadline);
        with_query(
            session,
            CANDIDATES_JS,
            &[json!(limit)],
            listened,
            GROUP,
            deadline,
            read,
        )
        .await
    }

    /// The candidates of the current tab's top document (see the module doc). A query that
    /// fails (a page in the middle of navigating) yields none rather than failing the
    /// observation: the accessibility controls are still right.
    pub(crate) async fn operable_candidates(&self, deadline: Instant) -> Candidates {
        self.operable_query(MAX_CANDIDATES, deadline, |found| async move {
            Ok(self.read_candidates(found, deadline).await)
        })
        .await
        .unwrap_or_default()
    }

    async fn read_candidates(&self, found: QueryResult, deadline: Instant) -> Candidates {
        let mut out = Candidates::new();
        let Ok(tab) = self.tab() else {
            return out;
        };
        let kinds = found.letters("kinds");
        let Some(list) = found.object("elements") else {
            return out;
        };
        let elements = elements(&tab.session, &list, deadline)
            .await
            .unwrap_or_default();
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
            out.insert(backend, kind);
        }
        out
    }
}

/// The nodes of the document (remote object id `document`) with a pointer listener registered
/// on them: one `DOMDebugger.getEventListeners` over the whole subtree (no page code runs), at
/// most [`MAX_LISTENER_NODES`]; none when the call fails.
pub(crate) async fn listened_nodes(
    session: &Session,
    document: String,
    deadline: Instant,
) -> Vec<i64> {
    let reply = session
        .call(
            "DOMDebugger.getEventListeners",
            json!({ "objectId": document, "depth": -1, "pierce": false }),
            COMMAND_BOUND,
            deadline,
        )
        .await
        .ok();
    listener_nodes(reply.as_ref())
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
