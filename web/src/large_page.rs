//! Observing a very large page within bounds: one DOM-side query for the first controls in
//! document order, and their backend node ids asked in one pipelined batch.
//!
//! Why: on a page of 20,000 elements `Accessibility.getFullAXTree` did not answer within its 10 s
//! bound. The path that replaced it asked the accessibility node of each of up to 1,000
//! candidates (`Accessibility.getPartialAXTree`, ~30 ms each on such a page: 22–28 s per
//! observation), and dropped without a word the ones that missed the command bound — so four
//! observations of an unchanged page had 431, 456, 327 and 450 refs, `--since` reported controls
//! that had been there all along as added, and the cut marker blamed the 500-ref cap for a
//! 327-ref view.
//!
//! Past [`LARGE_PAGE_ELEMENTS`] elements the driver now makes one call (`large_page.js`, run on
//! the document with the nodes that have a pointer listener, `operable.rs`): a pass over the
//! body's elements in document order that decides which are controls by the small-page rule
//! (an operable role; `draggable`/`contenteditable`; `tabindex`, a pointer cursor or a listener
//! unless an operable element is inside), computes role and name with the shared a11y bundle
//! (as the resolver does), states, value, tag and the attributes durable targets need, and
//! stops once [`MAX_CONTROLS`] controls are known and one more is found. Page text (headings,
//! alerts, status regions) is collected in the same pass, placed among the controls. Private
//! names and values are replaced by the marker in the page (`privacy.js`). The only per-control
//! round trip left is the backend node id (`DOM.describeNode`, pipelined: ~0.4 ms each; no
//! command returns the ids of a list of objects, and `DOMSnapshot.captureSnapshot`, which has
//! all of them, took 1.0–1.3 s on this page by itself).
//!
//! So an unchanged page gives the same controls, in the same order, with the same backend ids,
//! every time. What is not in the snapshot is said with its reason ([`Cut`]): the cap (more
//! controls or texts than one observation holds), or the command bound (controls found whose id
//! did not come back in time, counted). Shadow roots are not searched on this path.

use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use super::element_query::{elements, with_query, QueryResult};
use super::operable::listened_nodes;
use super::script::PRIVACY_JS;
use a3s_test_driver::api::{ControlNode, Cut, PageText, MAX_CONTROLS, OPERABLE_ROLES};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::privacy::RULE;
use a3s_test_driver::StepFailure;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};
use std::sync::LazyLock;
use tokio::time::Instant;

/// Pages with more elements than this are observed through the bounded query.
pub const LARGE_PAGE_ELEMENTS: usize = 3_000;
/// Most page-text entries one bounded observation collects.
const MAX_TEXTS: usize = 400;

/// Remote objects of one bounded query, released together.
const GROUP: &str = "a3s-large-page";

/// Counts the elements of the top document (cheap: a live collection's length).
const COUNT_JS: &str = "document.getElementsByTagName('*').length";

/// `large_page.js` with the a11y bundle and the privacy predicates placed in it.
static LARGE_PAGE_JS: LazyLock<String> = LazyLock::new(|| {
    include_str!("large_page.js")
        .replace("__A11Y__", include_str!("a11y.generated.js"))
        .replace("__PRIVACY__", PRIVACY_JS)
        .replace("__RULE__", &RULE.to_json())
});

/// What the bounded query found.
pub(crate) struct LargePage {
    /// The controls, in document order, at most [`MAX_CONTROLS`].
    pub controls: Vec<ControlNode>,
    /// Page text placed among the controls.
    pub texts: Vec<PageText>,
    /// Why the page has more than `controls` and `texts` say (empty: nothing left out).
    pub cut: Vec<Cut>,
}

/// One control as the page function describes it.
#[derive(Deserialize)]
struct Found {
    role: String,
    name: String,
    value: String,
    states: BTreeMap<String, Value>,
    tag: String,
    attributes: BTreeMap<String, String>,
    #[serde(rename = "byLabel")]
    by_label: bool,
}

/// The page function's `data`.
#[derive(Deserialize)]
struct Data {
    controls: Vec<Found>,
    texts: Vec<(String, String, usize)>,
    more: bool,
    #[serde(rename = "textsMore")]
    texts_more: bool,
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
        let session = &tab.session;
        let values = [json!(MAX_CONTROLS), json!(MAX_TEXTS), json!(OPERABLE_ROLES)];
        let listened = |document: String| listened_nodes(session, document, deadline);
        with_query(
            session,
            &LARGE_PAGE_JS,
            &values,
            listened,
            GROUP,
            deadline,
            |found| self.identify(found, deadline),
        )
        .await
    }

    /// The backend node id of each control the query found, asked in one pipelined batch; a
    /// control whose id did not come back is counted as cut by the command bound.
    async fn identify(
        &self,
        found: QueryResult,
        deadline: Instant,
    ) -> Result<LargePage, StepFailure> {
        let tab = self.tab()?;
        let data: Data = serde_json::from_str(found.string("data")).map_err(|e| {
            StepFailure::new(
                FailureCode::Protocol,
                format!("the bounded observation of a large page gave no answer ({e})"),
            )
        })?;
        let objects = match found.object("elements") {
            Some(list) => elements(&tab.session, &list, deadline).await?,
            None => Vec::new(),
        };
        let describes = objects.iter().map(|(_, id)| {
            tab.session.call(
                "DOM.describeNode",
                json!({ "objectId": id }),
                COMMAND_BOUND,
                deadline,
            )
        });
        let replies = futures_util::future::join_all(describes).await;
        let mut backend: Vec<Option<i64>> = vec![None; data.controls.len()];
        for ((index, _), reply) in objects.iter().zip(replies) {
            let id = reply
                .ok()
                .and_then(|r| r.pointer("/node/backendNodeId").and_then(Value::as_i64));
            if let Some(slot) = backend.get_mut(*index) {
                *slot = id;
            }
        }
        Ok(assemble(data, &backend))
    }
}

/// The snapshot's controls and texts from the page's answer and the backend ids (by control
/// index; `None` = not identified in time), with what was cut and why.
fn assemble(data: Data, backend: &[Option<i64>]) -> LargePage {
    let mut controls = Vec::with_capacity(data.controls.len());
    // Where each control of the answer stands among those kept.
    let mut kept_before = Vec::with_capacity(data.controls.len() + 1);
    let mut unread = 0;
    let mut seen = HashSet::new();
    for (found, id) in data.controls.into_iter().zip(backend) {
        kept_before.push(controls.len());
        let Some(id) = *id else {
            unread += 1;
            continue;
        };
        // One element is one control, however the page function was answered.
        if !seen.insert(id) {
            continue;
        }
        controls.push(ControlNode {
            backend_node_id: id,
            role: found.role,
            name: found.name,
            value: Some(found.value).filter(|v| !v.is_empty()),
            states: found.states,
            tag: found.tag,
            attributes: found.attributes,
            named_by_label: found.by_label,
        });
    }
    kept_before.push(controls.len());
    let texts = data
        .texts
        .into_iter()
        .map(|(role, text, at)| PageText {
            role,
            text,
            controls_before: Some(kept_before.get(at).copied().unwrap_or(controls.len())),
        })
        .collect();
    let mut cut = Vec::new();
    if data.more || data.texts_more {
        cut.push(Cut::Cap);
    }
    if unread > 0 {
        cut.push(Cut::TimeBound { unread });
    }
    LargePage {
        controls,
        texts,
        cut,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(n: usize, more: bool) -> Data {
        let controls = (0..n)
            .map(|i| Found {
                role: "button".into(),
                name: format!("B{i}"),
                value: String::new(),
                states: BTreeMap::new(),
                tag: "button".into(),
                attributes: BTreeMap::new(),
                by_label: false,
            })
            .collect();
        Data {
            controls,
            texts: vec![
                ("heading".into(), "Top".into(), 0),
                ("status".into(), "After".into(), 3),
            ],
            more,
            texts_more: false,
        }
    }

    #[test]
    fn every_control_found_is_kept_or_counted_as_cut_by_the_bound() {
        let all = assemble(data(3, true), &[Some(1), Some(2), Some(3)]);
        assert_eq!(all.controls.len(), 3);
        assert_eq!(all.cut, [Cut::Cap]);
        assert_eq!(all.texts[1].controls_before, Some(3));
        // The second id did not come back in time: said, with how many, and the texts keep
        // their place among the controls that are left.
        let some = assemble(data(3, false), &[Some(1), None, Some(3)]);
        let names: Vec<&str> = some.controls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["B0", "B2"]);
        assert_eq!(some.cut, [Cut::TimeBound { unread: 1 }]);
        assert_eq!(some.texts[0].controls_before, Some(0));
        assert_eq!(some.texts[1].controls_before, Some(2));
    }
}
