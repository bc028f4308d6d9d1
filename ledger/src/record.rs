//! A finding in the `a3s.test.repair/1` shape: what the Review Overlay sends when a reviewer
//! presses *send* (TESTKIT.md), as the ledger stores it.
//!
//! Field names are the Test Kit's compatibility contract (camelCase, `conflicts_with`). The page
//! context is kept verbatim as raw JSON under `context` (with `untrusted: true`): it is evidence
//! for the agent, never parsed into anything that acts.

use crate::id::FindingId;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

/// The protocol value of a repair document.
pub const REPAIR_PROTOCOL: &str = "a3s.test.repair/1";

/// What the reviewer wants done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// Something is broken; fix it.
    Fix,
    /// It works, but should be different.
    Change,
    /// The reviewer asks something; an answer may need no edit.
    Question,
    /// The reviewer approves what is there; nothing to repair.
    Approve,
}

/// How much it matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Blocks the reviewer.
    Blocking,
    /// Should be repaired.
    Important,
    /// Nice to have.
    Suggestion,
}

/// What the reviewer marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    /// One or more elements.
    Node,
    /// A text selection.
    Text,
    /// An area of the page.
    Region,
    /// A free drawing.
    Drawing,
}

/// A rectangle in CSS px.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width (≥ 0).
    pub width: f64,
    /// Height (≥ 0).
    pub height: f64,
}

impl Rect {
    /// Whether the two rectangles share an area larger than zero.
    pub fn overlaps(&self, other: &Rect) -> bool {
        let w = (self.x + self.width).min(other.x + other.width) - self.x.max(other.x);
        let h = (self.y + self.height).min(other.y + other.height) - self.y.max(other.y);
        w > 0.0 && h > 0.0
    }
}

/// The marked target. Node ids are the page's ids at send time (evidence, not durable).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    /// What kind of mark it is.
    pub kind: TargetKind,
    /// Page Context node ids covered by the mark.
    #[serde(default)]
    pub node_ids: Vec<String>,
    /// The marked area (viewport CSS px), for region and drawing marks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<Rect>,
    /// The scroll position the region was drawn at (kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region_scroll: Option<Box<RawValue>>,
    /// The selected text of a text mark (untrusted page text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Layout Mode placement/rearrange (kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Box<RawValue>>,
    /// Drawing strokes (kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawing: Option<Box<RawValue>>,
}

/// Declared relations to other findings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relations {
    /// Findings this one cannot be repaired together with (declared by the reviewer only).
    #[serde(default)]
    pub conflicts_with: Vec<FindingId>,
}

impl Relations {
    fn is_empty(&self) -> bool {
        self.conflicts_with.is_empty()
    }
}

/// One sent finding as stored in the ledger.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// The overlay's stable draft id.
    pub id: FindingId,
    /// When the reviewer created the draft (the page's clock; informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// What was marked.
    pub target: Target,
    /// The reviewer's instruction (untrusted text, ≤ 8,192 characters).
    pub instruction: String,
    /// Optional success criteria (a single string is read as one criterion).
    #[serde(default, deserialize_with = "one_or_many")]
    pub criteria: Vec<String>,
    /// What the reviewer wants.
    pub intent: Intent,
    /// How much it matters.
    pub severity: Severity,
    /// Declared relations.
    #[serde(default, skip_serializing_if = "Relations::is_empty")]
    pub relations: Relations,
    /// The page context captured at send (raw JSON object with `untrusted: true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Box<RawValue>>,
}

fn one_or_many<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Option::<OneOrMany>::deserialize(d)? {
        None => Vec::new(),
        Some(OneOrMany::One(s)) => vec![s],
        Some(OneOrMany::Many(v)) => v,
    })
}

impl Finding {
    /// Whether this finding's target overlaps `other`'s: a shared node id, or two regions that
    /// share an area.
    pub fn target_overlaps(&self, other: &Finding) -> bool {
        let shared_node = self
            .target
            .node_ids
            .iter()
            .any(|n| other.target.node_ids.contains(n));
        let shared_area = match (&self.target.region, &other.target.region) {
            (Some(a), Some(b)) => a.overlaps(b),
            _ => false,
        };
        shared_node || shared_area
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rects_overlap_only_with_positive_area() {
        let a = Rect {
            x: 0.0,
            y: 0.0,
            width: 10.0,
            height: 10.0,
        };
        let touching = Rect { x: 10.0, ..a };
        let inside = Rect {
            x: 5.0,
            y: 5.0,
            width: 1.0,
            height: 1.0,
        };
        assert!(a.overlaps(&inside));
        assert!(!a.overlaps(&touching));
    }

    #[test]
    fn criteria_accepts_one_or_many() {
        let base = r#""id":"f","target":{"kind":"node"},"instruction":"x","intent":"fix","severity":"important""#;
        let one: Finding = serde_json::from_str(&format!("{{{base},\"criteria\":\"a\"}}")).unwrap();
        let many: Finding =
            serde_json::from_str(&format!("{{{base},\"criteria\":[\"a\",\"b\"]}}")).unwrap();
        let none: Finding = serde_json::from_str(&format!("{{{base}}}")).unwrap();
        assert_eq!(one.criteria, ["a"]);
        assert_eq!(many.criteria, ["a", "b"]);
        assert!(none.criteria.is_empty());
    }
}
