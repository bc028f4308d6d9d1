//! A finding in the `a3s.test.repair/1` shape: what the Review Overlay sends when a reviewer
//! presses *send* (`docs/overlay.md`, "Drafts and sending"), as the ledger stores it.
//!
//! Field names are the Test Kit's compatibility contract (camelCase; relations as
//! `[{"kind":"conflicts_with","findingId":…}]`; `docs/schema/repair-1.schema.json` is the one
//! schema of both sides). The page context is kept verbatim as raw JSON under `context` (with
//! `untrusted: true`): it is evidence for the agent, never parsed into anything that acts.

use crate::criterion::SuccessCriterion;
use crate::id::{BatchId, FindingId};
use crate::status::{Actor, RepairStatus};
use serde::{Deserialize, Serialize};
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

/// A rectangle in CSS px. Whole numbers are written back as integers, as the page sent them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// Left edge.
    #[serde(serialize_with = "px")]
    pub x: f64,
    /// Top edge.
    #[serde(serialize_with = "px")]
    pub y: f64,
    /// Width (≥ 0).
    #[serde(serialize_with = "px")]
    pub width: f64,
    /// Height (≥ 0).
    #[serde(serialize_with = "px")]
    pub height: f64,
}

/// `10` stays `10` (not `10.0`), so a stored rectangle reads back exactly as sent.
fn px<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if v.fract() == 0.0 && v.abs() < EXACT {
        s.serialize_i64(*v as i64)
    } else {
        s.serialize_f64(*v)
    }
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
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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

/// A relation the reviewer declared to another finding. Conflicts are decided on these ids
/// alone, never inferred from instruction text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Relation {
    /// This finding and `finding_id` cannot both be repaired as asked.
    ConflictsWith {
        /// The other finding.
        #[serde(rename = "findingId")]
        finding_id: FindingId,
    },
}

impl Relation {
    /// The finding a `conflicts_with` relation names.
    pub fn conflicting(&self) -> Option<&FindingId> {
        match self {
            Relation::ConflictsWith { finding_id } => Some(finding_id),
        }
    }
}

/// Where the page's copy of a finding went; page bookkeeping, never stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// Still waiting in the page queue.
    PageQueue,
    /// Taken by a session.
    Taken,
    /// Posted to the endpoint.
    Endpoint,
}

/// Who queued a finding or an action in the page, as the Test Kit marked it (`sentBy`): a
/// person's trusted pointer or keyboard gesture in the Review Overlay, or page code (a script
/// calling the queue, the overlay API driven without a trusted gesture). Page bookkeeping: it
/// becomes the actor of the ledger event and is not stored in the finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SentBy {
    /// A trusted gesture in the Review Overlay sent it.
    Human,
    /// Page code queued it.
    PageScript,
}

impl SentBy {
    /// The ledger actor of something marked `mark`; `unmarked` when the document says nothing
    /// (an older Test Kit, a hand-written file): each channel decides what silence means.
    pub fn actor(mark: Option<SentBy>, unmarked: Actor) -> Actor {
        match mark {
            Some(SentBy::Human) => Actor::Human,
            Some(SentBy::PageScript) => Actor::PageScript,
            None => unmarked,
        }
    }
}

/// One sent finding as stored in the ledger: every field the Test Kit sends except the page's
/// bookkeeping of its own copy (`protocol`, `status`, `sequence`, `events`, `delivery`), which is
/// checked at intake and not stored — the ledger's events are the truth about the finding's
/// state. Unknown fields are refused, so nothing is silently dropped.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Finding {
    /// The overlay's stable draft id.
    pub id: FindingId,
    /// The send (one finding or a batch) this finding came in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_id: Option<BatchId>,
    /// When the reviewer created the draft (the page's clock; informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// The Test Kit revision the context was captured at (repeats `context.contextRevision`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_revision: Option<u64>,
    /// What was marked.
    pub target: Target,
    /// The reviewer's instruction (untrusted text, ≤ 8,192 characters).
    pub instruction: String,
    /// Optional success criteria: prose or typed, browser-checkable forms. `None` when the page
    /// sent none (an empty list stays an empty list, so a finding reads back as sent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_criteria: Option<Vec<SuccessCriterion>>,
    /// What the reviewer wants.
    pub intent: Intent,
    /// How much it matters.
    pub severity: Severity,
    /// Declared relations, in the seeds' shape (`None` when the page sent none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relations: Option<Vec<Relation>>,
    /// The page context captured at send (raw JSON object with `untrusted: true`; its
    /// `sourceHints`, locators and nodes are kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Box<RawValue>>,
    /// Page bookkeeping: the record's protocol (must be `a3s.test.repair/1`). Not stored.
    #[serde(default, skip_serializing)]
    pub protocol: Option<String>,
    /// Page bookkeeping: the page copy's status (must be `queued`). Not stored.
    #[serde(default, skip_serializing)]
    pub status: Option<RepairStatus>,
    /// Page bookkeeping: the last ledger event the page mirrored. Not stored.
    #[serde(default, skip_serializing)]
    pub sequence: Option<u64>,
    /// Page bookkeeping: the ledger events the page mirrored. Not stored.
    #[serde(default, skip_serializing)]
    pub events: Option<Vec<Box<RawValue>>>,
    /// Page bookkeeping: where the page copy went. Not stored.
    #[serde(default, skip_serializing)]
    pub delivery: Option<Delivery>,
    /// Who queued it in the page (see [`SentBy`]): the actor of its intake event. Not stored in
    /// the finding, so a re-send through another channel stays identical.
    #[serde(default, skip_serializing)]
    pub sent_by: Option<SentBy>,
}

impl Finding {
    /// The success criteria (empty when none were sent).
    pub fn criteria(&self) -> &[SuccessCriterion] {
        self.success_criteria.as_deref().unwrap_or_default()
    }

    /// The ids this finding declared it conflicts with.
    pub fn conflicts_with(&self) -> impl Iterator<Item = &FindingId> {
        self.relations
            .iter()
            .flatten()
            .filter_map(Relation::conflicting)
    }

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

    const BASE: &str = r#""id":"f","target":{"kind":"node"},"instruction":"x","intent":"fix","severity":"important""#;

    #[test]
    fn relations_use_the_seeds_shape() {
        let f: Finding = serde_json::from_str(&format!(
            r#"{{{BASE},"relations":[{{"kind":"conflicts_with","findingId":"g"}}]}}"#
        ))
        .unwrap();
        let ids: Vec<&str> = f.conflicts_with().map(FindingId::as_str).collect();
        assert_eq!(ids, ["g"]);
        for bad in [
            r#"{"conflicts_with":["g"]}"#,
            r#"[{"kind":"conflicts_with","repairId":"g"}]"#,
            r#"[{"kind":"depends_on","findingId":"g"}]"#,
            r#"[{"kind":"conflicts_with","findingId":"g h"}]"#,
        ] {
            let text = format!(r#"{{{BASE},"relations":{bad}}}"#);
            assert!(serde_json::from_str::<Finding>(&text).is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_fields_are_refused_and_bookkeeping_is_not_stored() {
        let unknown = format!(r#"{{{BASE},"criteria":["a"]}}"#);
        let err = serde_json::from_str::<Finding>(&unknown).unwrap_err();
        assert!(
            err.to_string().contains("unknown field `criteria`"),
            "{err}"
        );
        let page = format!(
            r#"{{{BASE},"protocol":"a3s.test.repair/1","status":"queued","sequence":0,"events":[],"delivery":"taken","sentBy":"page_script"}}"#
        );
        let f: Finding = serde_json::from_str(&page).unwrap();
        assert_eq!(f.delivery, Some(Delivery::Taken));
        assert_eq!(f.sent_by, Some(SentBy::PageScript));
        let stored = serde_json::to_value(&f).unwrap();
        for key in [
            "protocol", "status", "sequence", "events", "delivery", "sentBy",
        ] {
            assert!(stored.get(key).is_none(), "{key} is stored");
        }
    }
}
