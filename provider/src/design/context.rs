//! The Page Context a design review is given: the typed projection of a Test Kit forensic
//! snapshot (`a3s.test.page-context/1`, `detail: forensic`) that design advice needs — each
//! node's place in the tree, role, name and own text, whether it shows, its viewport rectangle
//! and the computed colours and type.
//!
//! Why a projection rather than the Test Kit's record: a provider is written against
//! `a3s-test provider schema design_review`, which must stay one closed, typed shape; and the page
//! is untrusted, so everything is re-read and bounded here ([`PageContext::from_snapshot`]) before
//! it leaves the session. Redacted regions keep their geometry and lose their text.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most nodes a design review request carries (the Test Kit's own maximum).
pub const MAX_NODES: usize = 5_000;
/// Longest text of a node (name, text), in characters; longer ones are cut.
pub const MAX_NODE_TEXT: usize = 512;

/// A rectangle in CSS px of the layout viewport.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeRect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// The viewport the screenshot shows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Viewport {
    /// Width in CSS px.
    pub width: f64,
    /// Height in CSS px.
    pub height: f64,
    /// Device pixels per CSS px (the screenshot's scale).
    pub dpr: f64,
}

/// The computed styles design advice reads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeStyles {
    /// `color`, as the browser computed it (`rgb(…)`/`rgba(…)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// `background-color`, as computed (`rgba(0, 0, 0, 0)` when transparent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_color: Option<String>,
    /// `font-size` in px.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font_size_px: Option<f64>,
    /// `font-weight` (`400`, `600` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font_weight: Option<String>,
    /// `opacity`, 0..1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opacity: Option<f64>,
}

/// One node of the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextNode {
    /// The Test Kit's node id (a finding may target it).
    pub id: String,
    /// The parent's id, when the parent is in the context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    /// The element's tag.
    pub tag: String,
    /// Its ARIA role, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Its accessible name (untrusted page text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its own text (untrusted page text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Whether it is rendered visibly.
    pub visible: bool,
    /// Whether the page declared it private (its text is never read).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub redacted: bool,
    /// Whether it is disabled.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
    /// Its rectangle in the viewport.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rect: Option<NodeRect>,
    /// Its computed styles.
    #[serde(default)]
    pub styles: NodeStyles,
}

/// The forensic Page Context of one revision, as design review sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PageContext {
    /// The Test Kit revision it was read at.
    pub revision: u64,
    /// The viewport.
    pub viewport: Viewport,
    /// The nodes, in document order (at most 5,000).
    pub nodes: Vec<ContextNode>,
    /// True when the Test Kit cut the snapshot (more nodes than its limit).
    pub truncated: bool,
}

fn string(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(|s| {
        let mut out: String = s.chars().take(MAX_NODE_TEXT).collect();
        if s.chars().nth(MAX_NODE_TEXT).is_some() {
            out.push('…');
        }
        out
    })
}

fn finite(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64).filter(|f| f.is_finite())
}

/// `"16px"` → 16.0.
fn px(text: &str) -> Option<f64> {
    text.trim()
        .strip_suffix("px")
        .and_then(|n| n.trim().parse::<f64>().ok())
        .filter(|f| f.is_finite() && *f >= 0.0)
}

impl PageContext {
    /// Read a Test Kit snapshot answer (untrusted page data) into the typed projection: every
    /// field re-read, texts cut at [`MAX_NODE_TEXT`], at most [`MAX_NODES`] nodes; an answer
    /// without a positive revision or a viewport is refused with the reason.
    pub fn from_snapshot(snapshot: &Value) -> Result<PageContext, String> {
        let revision = snapshot
            .get("revision")
            .and_then(Value::as_u64)
            .filter(|r| *r >= 1)
            .ok_or("the snapshot has no positive revision")?;
        let vp = snapshot
            .get("page")
            .and_then(|p| p.get("viewport"))
            .ok_or("the snapshot has no page viewport")?;
        let viewport = Viewport {
            width: finite(vp, "width")
                .filter(|w| *w > 0.0)
                .ok_or("the viewport has no width")?,
            height: finite(vp, "height")
                .filter(|h| *h > 0.0)
                .ok_or("the viewport has no height")?,
            dpr: finite(vp, "dpr").filter(|d| *d > 0.0).unwrap_or(1.0),
        };
        let empty = Vec::new();
        let raw = snapshot
            .get("nodes")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        let mut nodes = Vec::with_capacity(raw.len().min(MAX_NODES));
        for n in raw.iter().take(MAX_NODES) {
            let Some(id) = string(n, "id").filter(|s| !s.is_empty()) else {
                continue;
            };
            let state = n.get("state");
            let rect = n
                .get("geometry")
                .and_then(|g| g.get("viewport"))
                .and_then(|r| {
                    Some(NodeRect {
                        x: finite(r, "x")?,
                        y: finite(r, "y")?,
                        width: finite(r, "width").filter(|w| *w >= 0.0)?,
                        height: finite(r, "height").filter(|h| *h >= 0.0)?,
                    })
                });
            let styles = n
                .get("styles")
                .map(|s| NodeStyles {
                    color: string(s, "color").filter(|c| !c.is_empty()),
                    background_color: string(s, "background-color").filter(|c| !c.is_empty()),
                    font_size_px: s.get("font-size").and_then(Value::as_str).and_then(px),
                    font_weight: string(s, "font-weight").filter(|c| !c.is_empty()),
                    opacity: s
                        .get("opacity")
                        .and_then(Value::as_str)
                        .and_then(|o| o.trim().parse::<f64>().ok())
                        .filter(|o| (0.0..=1.0).contains(o)),
                })
                .unwrap_or_default();
            let redacted = n.get("redacted").and_then(Value::as_bool).unwrap_or(false);
            nodes.push(ContextNode {
                id,
                parent_id: string(n, "parentId"),
                tag: string(n, "tag").unwrap_or_default(),
                role: string(n, "role"),
                name: if redacted { None } else { string(n, "name") },
                text: if redacted { None } else { string(n, "text") },
                visible: state
                    .and_then(|s| s.get("visible"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                redacted,
                disabled: state
                    .and_then(|s| s.get("disabled"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                rect,
                styles,
            });
        }
        let truncated = snapshot
            .get("truncated")
            .and_then(Value::as_bool)
            .unwrap_or(false)
            || raw.len() > MAX_NODES;
        Ok(PageContext {
            revision,
            viewport,
            nodes,
            truncated,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_forensic_snapshot_is_projected_and_redaction_keeps_no_text() {
        let snap = json!({
            "revision": 7,
            "page": { "viewport": { "width": 800, "height": 600, "dpr": 2 } },
            "truncated": false,
            "nodes": [
                { "id": "n1", "tag": "button", "role": "button", "name": "Pay", "text": "Pay",
                  "state": { "visible": true, "disabled": true },
                  "geometry": { "viewport": { "x": 1, "y": 2, "width": 30, "height": 20 } },
                  "styles": { "color": "rgb(255, 255, 255)", "background-color": "rgb(0, 0, 0)",
                              "font-size": "16px", "font-weight": "600", "opacity": "1" } },
                { "id": "n2", "parentId": "n1", "tag": "input", "redacted": true, "text": "4111",
                  "state": { "visible": true } },
                { "tag": "div" }
            ]
        });
        let ctx = PageContext::from_snapshot(&snap).unwrap();
        assert_eq!(ctx.revision, 7);
        assert_eq!(ctx.viewport.dpr, 2.0);
        assert_eq!(ctx.nodes.len(), 2, "a node without an id is dropped");
        let pay = &ctx.nodes[0];
        assert!(pay.disabled && pay.visible);
        assert_eq!(pay.styles.font_size_px, Some(16.0));
        assert_eq!(pay.rect.unwrap().width, 30.0);
        assert_eq!(ctx.nodes[1].text, None);
        assert!(ctx.nodes[1].redacted);
    }

    #[test]
    fn a_snapshot_without_revision_or_viewport_is_refused() {
        assert!(PageContext::from_snapshot(&json!({ "page": {} })).is_err());
        assert!(PageContext::from_snapshot(&json!({ "revision": 1, "page": {} })).is_err());
    }
}
