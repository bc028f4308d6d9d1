//! Observing a very large page within bounds: a DOM-side query for candidate controls instead of
//! the whole accessibility tree.
//!
//! Why: on a page of 20,000 elements `Accessibility.getFullAXTree` did not answer within its 10 s
//! bound, and when it did, the supervisor held a reply of tens of megabytes per observation. Past
//! [`LARGE_PAGE_ELEMENTS`] elements the driver asks the page (in document order, stopping at
//! [`MAX_CANDIDATES`]) for the elements that can be operable at all — links, buttons, form
//! fields, anything with a `role`, a `tabindex`, `contenteditable` or `draggable` — and then the accessibility
//! node of each of those alone (`Accessibility.getPartialAXTree` without relatives), so role,
//! name and states mean the same as on a small page. Page text is collected the same bounded
//! way (headings, alerts, status regions). What is left out is reported as `truncated`, never
//! silently dropped. Shadow roots are not searched on this path.

use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use super::element_query::{elements, with_query, QueryResult};
use crate::StepFailure;
use serde_json::{json, Value};
use tokio::time::Instant;

/// Pages with more elements than this are observed through the bounded query.
pub const LARGE_PAGE_ELEMENTS: usize = 3_000;
/// Most candidate elements one bounded observation looks at.
pub const MAX_CANDIDATES: usize = 1_000;
/// Most page-text entries one bounded observation collects.
const MAX_TEXTS: usize = 400;

/// Remote objects of one observation, released together.
const GROUP: &str = "a3s-observe";

/// Counts the elements of the top document (cheap: a live collection's length).
const COUNT_JS: &str = "document.getElementsByTagName('*').length";

/// The candidate elements, in document order, at most `limit`; `total` says how many there were.
/// `kinds` has one letter per element: `k` for a draggable or contenteditable element (operable
/// whatever its role), `-` otherwise.
const CANDIDATES_JS: &str = r#"((limit) => {
  const sel = 'a[href],area[href],button,input:not([type="hidden"]),select,textarea,summary,option,[role],[tabindex],[contenteditable]:not([contenteditable="false"]),[draggable="true"]';
  const always = '[draggable="true"],[contenteditable]:not([contenteditable="false"])';
  const all = document.querySelectorAll(sel);
  const out = [];
  let kinds = '';
  for (let i = 0; i < all.length && out.length < limit; i++) {
    out.push(all[i]);
    kinds += all[i].matches(always) ? 'k' : '-';
  }
  return { total: all.length, elements: out, kinds };
})"#;

/// Headings, alerts and status regions as `[role, text]`, deduplicated, at most `limit`.
const TEXTS_JS: &str = r#"((limit) => {
  const sel = 'h1,h2,h3,h4,h5,h6,[role="heading"],[role="alert"],[role="status"],output';
  const out = [];
  const seen = new Set();
  let more = false;
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getAttribute('role');
    const role = r === 'alert' || r === 'status' ? r : (el.localName === 'output' ? 'status' : 'heading');
    const text = (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 500);
    if (!text || seen.has(text)) continue;
    if (out.length >= limit) { more = true; break; }
    seen.add(text);
    out.push([role, text]);
  }
  return { texts: out, more };
})"#;

/// What the bounded query found.
pub(crate) struct LargePage {
    /// The accessibility node of each candidate, in document order.
    pub nodes: Vec<Value>,
    /// Backend ids of the draggable or contenteditable candidates: controls whatever their role.
    pub always: std::collections::HashSet<i64>,
    /// Page text as (role, text).
    pub texts: Vec<(String, String)>,
    /// True when candidates or texts were left out.
    pub truncated: bool,
}

impl WebContext {
    /// How many elements the top document has.
    pub(crate) async fn element_count(&self, deadline: Instant) -> Result<usize, StepFailure> {
        let v = self.evaluate_json(COUNT_JS, deadline).await?;
        Ok(v.as_u64().unwrap_or(0) as usize)
    }

    /// The bounded query (see the module doc).
    pub(crate) async fn large_page(&self, deadline: Instant) -> Result<LargePage, StepFailure> {
        let tab = self.tab()?;
        let (nodes, always, more_candidates) = with_query(
            &tab.session,
            format!("{CANDIDATES_JS}({MAX_CANDIDATES})"),
            GROUP,
            deadline,
            |found| self.candidates(found, deadline),
        )
        .await?;
        let texts = self
            .evaluate_json(&format!("{TEXTS_JS}({MAX_TEXTS})"), deadline)
            .await?;
        let more_texts = texts["more"] == Value::Bool(true);
        let texts = texts["texts"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|pair| {
                Some((
                    pair.get(0)?.as_str()?.to_owned(),
                    pair.get(1)?.as_str()?.to_owned(),
                ))
            })
            .collect();
        Ok(LargePage {
            nodes,
            always,
            texts,
            truncated: more_candidates || more_texts,
        })
    }

    /// The accessibility node of each candidate of an evaluated [`CANDIDATES_JS`] result.
    async fn candidates(
        &self,
        found: QueryResult,
        deadline: Instant,
    ) -> Result<(Vec<Value>, std::collections::HashSet<i64>, bool), StepFailure> {
        let tab = self.tab()?;
        let total = found.number("total").unwrap_or(0) as usize;
        let kinds = found.letters("kinds");
        let Some(list) = found.object("elements") else {
            return Ok((Vec::new(), Default::default(), false));
        };
        let elements = elements(&tab.session, &list, deadline).await?;
        // One small request per candidate, pipelined: the session answers them in order.
        let queries = elements.iter().map(|(_, id)| {
            tab.session.call(
                "Accessibility.getPartialAXTree",
                json!({ "objectId": id, "fetchRelatives": false }),
                COMMAND_BOUND,
                deadline,
            )
        });
        let replies = futures_util::future::join_all(queries).await;
        let mut always = std::collections::HashSet::new();
        let nodes = replies
            .into_iter()
            .zip(&elements)
            .filter_map(|(reply, (index, _))| {
                let mut reply = reply.ok()?;
                let nodes = reply.get_mut("nodes")?.as_array_mut()?;
                let at = nodes
                    .iter()
                    .position(|n| n.get("backendDOMNodeId").is_some())?;
                let node = nodes.swap_remove(at);
                if kinds.get(*index) == Some(&'k') {
                    if let Some(backend) = node["backendDOMNodeId"].as_i64() {
                        always.insert(backend);
                    }
                }
                Some(node)
            })
            .collect();
        Ok((nodes, always, total > elements.len()))
    }
}
