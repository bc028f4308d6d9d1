//! A validated UI-understanding record turned into read-only `@uN` facts: overlaps, clips,
//! motion, repeated-structure clusters, layout containers, scroll containers and state changes,
//! each naming nodes the way the agent already knows them (their `@cN`, else role or tag and
//! name), never by the Test Kit's private ids.
//!
//! Why numbered across the session, not per observation: an `@uN` an agent kept from an earlier
//! observation must read as stale, not as a different fact that happens to carry the same number
//! now ([`UiRefs`]).

use super::record::{AnimationKind, AnimationState, EdgeKind, UiCut, UiRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The most `@uN` facts one observation shows; past it the view says how many were left out.
pub const MAX_FACTS: usize = 120;
/// The most members of a cluster a fact lists.
const CLUSTER_MEMBERS: usize = 6;
/// The longest page-derived name a fact keeps, in characters.
const NAME_CHARS: usize = 60;

/// A node as a fact names it: its `@cN` when it has one, else its role (or tag) and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeName {
    /// The node's `@cN` in the same observation.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Role, or tag when it has none.
    pub role: String,
    /// Accessible name (untrusted, clipped).
    pub name: String,
}

impl NodeName {
    /// A name for `role` and `name` (clipped to a line's worth).
    pub fn new(reference: Option<String>, role: &str, name: &str) -> Self {
        let name: String = name.split_whitespace().collect::<Vec<_>>().join(" ");
        NodeName {
            reference,
            role: role.chars().take(32).collect(),
            name: name.chars().take(NAME_CHARS).collect(),
        }
    }
}

/// One read-only fact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UiFact {
    /// Two boxes drawn over one another.
    Overlap {
        /// The one on top, when the hit test found one of the two.
        above: Option<NodeName>,
        /// Both nodes, in document order.
        nodes: [NodeName; 2],
        /// The shared area in CSS px² (rounded).
        area_px: u64,
    },
    /// A box an ancestor's overflow cuts.
    Clip {
        /// The cut node.
        node: NodeName,
        /// The ancestor cutting it.
        by: NodeName,
        /// Share left visible, in percent (rounded down).
        visible_percent: u8,
    },
    /// A node an animation or transition moves.
    Motion {
        /// The moving node.
        node: NodeName,
        /// CSS animation, transition or script.
        animation: AnimationKind,
        /// Its name (untrusted).
        name: String,
        /// Running or paused.
        state: AnimationState,
    },
    /// Items sharing one structure (never decided by class names).
    Cluster {
        /// The shape (untrusted).
        signature: String,
        /// How many items.
        count: usize,
        /// The first few.
        nodes: Vec<NodeName>,
    },
    /// A flex or grid container and how many record nodes it lays out.
    Layout {
        /// The container.
        container: NodeName,
        /// `flex row`, `flex column`, `grid`, …
        mode: String,
        /// Record nodes directly inside it.
        children: usize,
    },
    /// A scroll container and how many record nodes scroll in it.
    Scroll {
        /// The container.
        container: NodeName,
        /// Record nodes scrolling in it.
        holds: usize,
    },
    /// A computed value that changed since the previous observation with `--ui`.
    Change {
        /// The node.
        node: NodeName,
        /// `display`, `visibility` or `size`.
        field: String,
        /// Before.
        from: String,
        /// Now.
        to: String,
    },
}

impl UiFact {
    /// Every `@cN` the fact names (for the refusal hint when an `@uN` is acted on).
    pub fn crefs(&self) -> Vec<String> {
        let names: Vec<&NodeName> = match self {
            UiFact::Overlap { nodes, .. } => nodes.iter().collect(),
            UiFact::Clip { node, by, .. } => vec![node, by],
            UiFact::Motion { node, .. } | UiFact::Change { node, .. } => vec![node],
            UiFact::Cluster { nodes, .. } => nodes.iter().collect(),
            UiFact::Layout { container, .. } | UiFact::Scroll { container, .. } => vec![container],
        };
        names
            .into_iter()
            .filter_map(|n| n.reference.clone())
            .collect()
    }

    /// The fact's kind as printed (`overlap`, `clip`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            UiFact::Overlap { .. } => "overlap",
            UiFact::Clip { .. } => "clip",
            UiFact::Motion { .. } => "motion",
            UiFact::Cluster { .. } => "cluster",
            UiFact::Layout { .. } => "layout",
            UiFact::Scroll { .. } => "scroll",
            UiFact::Change { .. } => "change",
        }
    }
}

/// One `@uN` with its fact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct URef {
    /// `@uN`.
    #[serde(rename = "ref")]
    pub reference: String,
    /// The fact.
    #[serde(flatten)]
    pub fact: UiFact,
}

/// The UI part of an observation: its `@uN` facts and what was left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UiView {
    /// The Page Context revision the facts belong to.
    pub revision: u64,
    /// Layout nodes the Test Kit read.
    pub nodes: usize,
    /// The facts.
    pub refs: Vec<URef>,
    /// What was cut, and how to see more (empty when nothing was).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// `@uN` refs are evidence: never an action target.
    pub read_only: bool,
}

/// The facts of `record`, most actionable first, `names` giving each private node id its name;
/// at most [`MAX_FACTS`], and how many more there were.
pub fn facts_of(record: &UiRecord, names: &BTreeMap<String, NodeName>) -> (Vec<UiFact>, usize) {
    let name = |id: &str| {
        names
            .get(id)
            .cloned()
            .unwrap_or_else(|| NodeName::new(None, "node", ""))
    };
    let mut out = Vec::new();
    for o in &record.overlaps {
        out.push(UiFact::Overlap {
            above: o.above.as_deref().map(name),
            nodes: [name(&o.a), name(&o.b)],
            area_px: (o.area.width * o.area.height).floor() as u64,
        });
    }
    for c in &record.clips {
        out.push(UiFact::Clip {
            node: name(&c.node_id),
            by: name(&c.by),
            visible_percent: (c.visible_ratio * 100.0).floor().clamp(0.0, 99.0) as u8,
        });
    }
    for a in &record.motion.animations {
        out.push(UiFact::Motion {
            node: name(&a.node_id),
            animation: a.kind,
            name: a.name.chars().take(NAME_CHARS).collect(),
            state: a.state,
        });
    }
    for c in &record.components {
        out.push(UiFact::Cluster {
            signature: c.signature.chars().take(NAME_CHARS * 2).collect(),
            count: c.node_ids.len(),
            nodes: c
                .node_ids
                .iter()
                .take(CLUSTER_MEMBERS)
                .map(|n| name(n))
                .collect(),
        });
    }
    let mut children: BTreeMap<&str, usize> = BTreeMap::new();
    let mut scrolled: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &record.layout.edges {
        match e.kind {
            EdgeKind::Contains => *children.entry(&e.from).or_default() += 1,
            EdgeKind::ScrollContainer => *scrolled.entry(&e.from).or_default() += 1,
            EdgeKind::OffsetParent => {}
        }
    }
    for n in &record.layout.nodes {
        let inside = children.get(n.node_id.as_str()).copied().unwrap_or(0);
        let mode = match (&n.flex, &n.grid) {
            (Some(f), _) => Some(format!("flex {}", f.direction)),
            (None, Some(_)) => Some("grid".to_string()),
            _ => None,
        };
        if let Some(mode) = mode.filter(|_| inside >= 2) {
            out.push(UiFact::Layout {
                container: name(&n.node_id),
                mode: mode.chars().take(32).collect(),
                children: inside,
            });
        }
    }
    for n in &record.layout.nodes {
        if let Some(holds) = scrolled.get(n.node_id.as_str()) {
            out.push(UiFact::Scroll {
                container: name(&n.node_id),
                holds: *holds,
            });
        }
    }
    for d in &record.state_diffs {
        out.push(UiFact::Change {
            node: name(&d.node_id),
            field: d.field.chars().take(32).collect(),
            from: d.from.chars().take(NAME_CHARS).collect(),
            to: d.to.chars().take(NAME_CHARS).collect(),
        });
    }
    let more = out.len().saturating_sub(MAX_FACTS);
    out.truncate(MAX_FACTS);
    (out, more)
}

/// What the Test Kit's own cut means for the reader, one note per reason.
pub fn cut_notes(record: &UiRecord, asked_nodes: u32) -> Vec<String> {
    record
        .budget
        .reasons
        .iter()
        .map(|r| match r {
            UiCut::NodeLimit => format!(
                "UI understanding covers the first {} nodes (the {asked_nodes}-node budget); \
                 raise ui_nodes (at most 1000) or inspect a smaller region",
                record.layout.nodes.len()
            ),
            UiCut::TimeLimit => format!(
                "UI understanding stopped at its {} ms time budget; facts past it are missing",
                record.budget.limits.time_ms
            ),
            UiCut::OverlapLimit => format!(
                "more overlapping pairs than the {}-pair bound; the first ones are listed",
                record.budget.limits.nodes
            ),
        })
        .collect()
}

/// The `@uN` numbering of a session and the facts of the one observation they are bound to
/// (supervisor memory; an `@uN` is never dispatched, so nothing durable is kept).
#[derive(Debug, Default)]
pub struct UiRefs {
    next: u64,
    bound: Option<(u64, Vec<URef>)>,
}

impl UiRefs {
    /// Number `facts` for observation `observation`, replacing the refs of any earlier one.
    pub fn bind(&mut self, observation: u64, facts: Vec<UiFact>) -> Vec<URef> {
        self.next = self.next.max(1);
        let refs: Vec<URef> = facts
            .into_iter()
            .map(|fact| {
                let reference = format!("@u{}", self.next);
                self.next += 1;
                URef { reference, fact }
            })
            .collect();
        self.bound = Some((observation, refs.clone()));
        refs
    }

    /// Forget the bound facts (an observation without `--ui` replaced them).
    pub fn clear(&mut self) {
        self.bound = None;
    }

    /// The fact `reference` names, when observation `observation` issued it.
    pub fn of(&self, observation: u64, reference: &str) -> Option<&URef> {
        match &self.bound {
            Some((o, refs)) if *o == observation => refs.iter().find(|r| r.reference == reference),
            _ => None,
        }
    }

    /// True when some observation of this session issued `@u{n}`.
    pub fn issued(&self, n: u64) -> bool {
        n >= 1 && n < self.next
    }
}
