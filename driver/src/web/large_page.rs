//! Observing a very large page within bounds: a DOM-side query for candidate controls instead of
//! the whole accessibility tree.
//!
//! Why: on a page of 20,000 elements `Accessibility.getFullAXTree` did not answer within its 10 s
//! bound, and when it did, the supervisor held a reply of tens of megabytes per observation. Past
//! [`LARGE_PAGE_ELEMENTS`] elements the driver asks the page (in document order, stopping at
//! [`MAX_CANDIDATES`]) for the elements that can be operable at all — links, buttons, form
//! fields, anything with a `role`, and what the small-page path finds through `operable.rs`
//! (`tabindex`, `contenteditable`, `draggable`, a pointer cursor, a pointer listener, the items
//! of a list with one): the same query, asked for role-bearing elements too — and then the
//! accessibility node of each of those alone (`Accessibility.getPartialAXTree` without
//! relatives), so role, name and states mean the same as on a small page. An element operable
//! only by a cursor, a listener or a `tabindex` is a control unless a candidate inside it is
//! operable (the same delegation rule as on a small page, decided over the query's candidates),
//! and is named by its accessible name, else by its text. Page text is collected the same
//! bounded way (headings, alerts, status regions). What is left out is reported as
//! `truncated`, never silently dropped. Shadow roots are not searched on this path.

use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use super::element_query::{elements, QueryResult};
use super::script::PRIVACY_JS;
use crate::api::OPERABLE_ROLES;
use crate::privacy::{self, PrivateNodes, RULE};
use crate::StepFailure;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;
use tokio::time::Instant;

/// Pages with more elements than this are observed through the bounded query.
pub const LARGE_PAGE_ELEMENTS: usize = 3_000;
/// Most candidate elements one bounded observation looks at.
pub const MAX_CANDIDATES: usize = 1_000;
/// Most page-text entries one bounded observation collects.
const MAX_TEXTS: usize = 400;

/// Counts the elements of the top document (cheap: a live collection's length).
const COUNT_JS: &str = "document.getElementsByTagName('*').length";

/// Headings, alerts and status regions as `[role, text]`, deduplicated, at most `limit`; a
/// redacted region's text reads as the marker (`privacy.js`).
static TEXTS_JS: LazyLock<String> = LazyLock::new(|| {
    TEXTS_TEMPLATE
        .replace("__PRIVACY__", PRIVACY_JS)
        .replace("__RULE__", &RULE.to_json())
});

/// [`TEXTS_JS`] before the privacy predicates are placed in it.
const TEXTS_TEMPLATE: &str = r#"((limit) => {
  const P = (__PRIVACY__)(__RULE__);
  const sel = 'h1,h2,h3,h4,h5,h6,[role="heading"],[role="alert"],[role="status"],output';
  const out = [];
  const seen = new Set();
  let more = false;
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getAttribute('role');
    const role = r === 'alert' || r === 'status' ? r : (el.localName === 'output' ? 'status' : 'heading');
    const text = P.shownText(el).replace(/\s+/g, ' ').trim().slice(0, 500);
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
    /// Candidates that are controls whatever their role (draggable, contenteditable, or operable
    /// by a cursor, a listener or a `tabindex` with no operable candidate inside), by backend
    /// id, each with its text (its name when the accessibility tree gives it none).
    pub extra: HashMap<i64, String>,
    /// Page text as (role, text).
    pub texts: Vec<(String, String)>,
    /// Backend ids of the candidates inside a redacted region (see `crate::privacy`).
    pub hidden: HashSet<i64>,
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
        let (nodes, extra, more_candidates, hidden) = self
            .operable_query(MAX_CANDIDATES, true, deadline, |found| {
                self.candidates(found, deadline)
            })
            .await?;
        let texts = self
            .evaluate_json(&format!("{}({MAX_TEXTS})", *TEXTS_JS), deadline)
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
            extra,
            texts,
            hidden,
            truncated: more_candidates || more_texts,
        })
    }

    /// The accessibility node of each candidate of an operable query (redacted as its privacy
    /// level says), which of them are controls whatever their role, whether there were more,
    /// and which are inside a redacted region.
    async fn candidates(
        &self,
        found: QueryResult,
        deadline: Instant,
    ) -> Result<Candidates, StepFailure> {
        let tab = self.tab()?;
        let more = found.flag("more");
        let kinds = found.letters("kinds");
        let ends: Vec<usize> = found
            .string("ends")
            .split(',')
            .filter_map(|e| e.parse().ok())
            .collect();
        let names: Vec<String> = serde_json::from_str(found.string("names")).unwrap_or_default();
        let levels = found.letters("levels");
        let Some(list) = found.object("elements") else {
            return Ok((Vec::new(), HashMap::new(), false, HashSet::new()));
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
        // The node of each candidate, by its index in the query's answer.
        let mut by_index: Vec<Option<Value>> = vec![None; kinds.len()];
        for (reply, (index, _)) in replies.into_iter().zip(&elements) {
            let Some(mut reply) = reply.ok() else {
                continue;
            };
            let Some(nodes) = reply.get_mut("nodes").and_then(Value::as_array_mut) else {
                continue;
            };
            let Some(at) = nodes
                .iter()
                .position(|n| n.get("backendDOMNodeId").is_some())
            else {
                continue;
            };
            if let Some(slot) = by_index.get_mut(*index) {
                *slot = Some(nodes.swap_remove(at));
            }
        }
        let extra = extra_controls(&by_index, &kinds, &ends, &names);
        let private = private_of(&by_index, &levels);
        let mut nodes: Vec<Value> = by_index.into_iter().flatten().collect();
        let hidden = privacy::redact_ax(&mut nodes, &private).hidden;
        Ok((nodes, extra, more, hidden))
    }
}

/// What one bounded query found: the candidates' accessibility nodes, the controls among them
/// whatever their role, whether there were more, and which are inside a redacted region.
type Candidates = (Vec<Value>, HashMap<i64, String>, bool, HashSet<i64>);

/// The backend node id of a queried accessibility node (`None` when the query missed it).
fn backend_of(node: &Option<Value>) -> Option<i64> {
    node.as_ref()?.get("backendDOMNodeId")?.as_i64()
}

/// The private candidates by the query's levels (`v`: value only, `h`: hidden), each node its
/// own region root (the bounded path reads no subtrees); `nodes` is by query index.
fn private_of(nodes: &[Option<Value>], levels: &[char]) -> PrivateNodes {
    let mut out = PrivateNodes::default();
    for (node, level) in nodes.iter().zip(levels) {
        let Some(backend) = backend_of(node) else {
            continue;
        };
        match level {
            'v' => out.value_only.insert(backend),
            'h' => out.regions.insert(backend),
            _ => false,
        };
    }
    out
}

/// The candidates that are controls whatever their role (see [`LargePage::extra`]): `k`
/// always; `c` unless a candidate inside it (indexes up to its end) is operable — a `k` or `c`
/// candidate, or one with an operable role.
fn extra_controls(
    nodes: &[Option<Value>],
    kinds: &[char],
    ends: &[usize],
    names: &[String],
) -> HashMap<i64, String> {
    let operable = |i: usize| {
        matches!(kinds.get(i), Some('k' | 'c'))
            || nodes.get(i).and_then(Option::as_ref).is_some_and(|n| {
                n["ignored"] != Value::Bool(true)
                    && n.pointer("/role/value")
                        .and_then(Value::as_str)
                        .is_some_and(|r| OPERABLE_ROLES.contains(&r))
            })
    };
    let mut out = HashMap::new();
    for (i, node) in nodes.iter().enumerate() {
        let Some(backend) = backend_of(node) else {
            continue;
        };
        let keep = match kinds.get(i) {
            Some('k') => true,
            Some('c') => !(i + 1..=ends.get(i).copied().unwrap_or(i)).any(operable),
            _ => false,
        };
        if keep {
            out.insert(backend, names.get(i).cloned().unwrap_or_default());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listened_element_is_a_control_unless_an_operable_candidate_is_inside_it() {
        let node = |id: i64, role: &str| {
            Some(json!({ "backendDOMNodeId": id, "role": { "value": role } }))
        };
        // 0 `c` holding 1 `-` button; 2 `c` holding 3 `-` listitem; 4 `k`; 5 `c` holding 6 `c`.
        let nodes = [
            node(10, "generic"),
            node(11, "button"),
            node(12, "generic"),
            node(13, "listitem"),
            node(14, "generic"),
            node(15, "list"),
            node(16, "generic"),
        ];
        let kinds: Vec<char> = "c-c-kcc".chars().collect();
        let ends = [1, 1, 3, 3, 4, 6, 6];
        let names: Vec<String> = ["a", "", "card", "", "handle", "list", "item"]
            .map(String::from)
            .to_vec();
        let extra = extra_controls(&nodes, &kinds, &ends, &names);
        let mut got: Vec<(i64, &str)> = extra.iter().map(|(k, v)| (*k, v.as_str())).collect();
        got.sort_unstable();
        assert_eq!(got, [(12, "card"), (14, "handle"), (16, "item")]);
    }
}
