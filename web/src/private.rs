//! The private elements of the current tab's top document (`privacy.js` over the one rule,
//! `a3s_test_driver::privacy::RULE`), by backend DOM node id, with their rectangles: what an observation,
//! an accessibility dump and a screenshot must redact.
//!
//! One bounded element query per capture (`element_query.rs`): the page-side predicates list
//! the sensitive controls and the redacted regions in document order, and each is described
//! once for its backend id. A page with none costs the query alone.

use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use super::element_query::{elements, with_query, QueryResult};
use super::script::PRIVACY_JS;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::privacy::{CssRect, PrivateNodes, RULE};
use a3s_test_driver::StepFailure;
use serde_json::{json, Value};
use std::sync::LazyLock;
use tokio::time::Instant;

/// Most private elements one capture lists; a page with more is refused rather than reported
/// half-redacted.
pub const MAX_PRIVATE: usize = 2_000;

/// Remote objects of one query, released together.
const GROUP: &str = "a3s-private";

/// Called on the document as `(limit)`: `{ elements, kinds, rects, more, scale }`.
static QUERY_JS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "function (limit) {{ return ({PRIVACY_JS})({}).privateElements(this, limit); }}",
        RULE.to_json()
    )
});

impl WebContext {
    /// The private elements of the current tab's top document (see the module doc). A page
    /// with more than [`MAX_PRIVATE`] of them fails with `test.driver.web.protocol`: nothing of
    /// it could be reported safely.
    pub(crate) async fn private_nodes(
        &self,
        deadline: Instant,
    ) -> Result<PrivateNodes, StepFailure> {
        let tab = self.tab()?;
        let session = &tab.session;
        let found = with_query(
            session,
            &QUERY_JS,
            &[json!(MAX_PRIVATE)],
            |_| async { Vec::new() },
            GROUP,
            deadline,
            |found| async move { read(session, found, deadline).await },
        )
        .await?;
        if found.truncated {
            return Err(StepFailure::new(
                FailureCode::Protocol,
                format!(
                    "the page has more than {MAX_PRIVATE} private elements; nothing of it is \
                     reported"
                ),
            ));
        }
        Ok(found)
    }
}

async fn read(
    session: &super::cdp::Session,
    found: QueryResult,
    deadline: Instant,
) -> Result<PrivateNodes, StepFailure> {
    let mut out = PrivateNodes {
        scale: found.number("scale").unwrap_or(1.0),
        truncated: found.flag("more"),
        ..PrivateNodes::default()
    };
    let kinds = found.letters("kinds");
    if kinds.is_empty() {
        return Ok(out);
    }
    let rects: Vec<[f64; 4]> = serde_json::from_str(found.string("rects")).unwrap_or_default();
    out.rects = rects
        .iter()
        .map(|[x, y, width, height]| CssRect {
            x: *x,
            y: *y,
            width: *width,
            height: *height,
        })
        .collect();
    let Some(list) = found.object("elements") else {
        return Ok(out);
    };
    let listed = elements(session, &list, deadline).await?;
    // One small request per element, pipelined.
    let describes = listed.iter().map(|(_, id)| {
        session.call(
            "DOM.describeNode",
            json!({ "objectId": id }),
            COMMAND_BOUND,
            deadline,
        )
    });
    let described = futures_util::future::join_all(describes).await;
    for ((index, _), reply) in listed.iter().zip(described) {
        // An element that cannot be described cannot be matched to a node either; a failed
        // description fails the capture rather than let its text through.
        let backend = reply?
            .pointer("/node/backendNodeId")
            .and_then(Value::as_i64)
            .ok_or_else(|| {
                StepFailure::new(
                    FailureCode::Protocol,
                    "a private element has no backend node id",
                )
            })?;
        match kinds.get(*index) {
            Some('r') => out.regions.insert(backend),
            _ => out.value_only.insert(backend),
        };
    }
    Ok(out)
}
