//! The Test Kit's UI-understanding record (`a3s.test.ui-understanding/1`) as typed structs, and
//! the one check that decides whether a session may show any of it.
//!
//! Why re-checked here: the record comes from page JavaScript, which the page itself can replace.
//! An agent reading `@uN` facts must be able to trust that each names a node of the *same*
//! revision its `@cN` refs come from, that the layout graph is whole, and that nothing is larger
//! than asked. Any broken rule refuses the whole record ([`UiViolation`]); nothing is shown in
//! part.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The protocol string of the record.
pub const UI_PROTOCOL: &str = "a3s.test.ui-understanding/1";
/// The most layout nodes a record may hold (the Test Kit's own ceiling).
pub const MAX_UI_NODES: u32 = 1000;
/// The most milliseconds a record may take (the Test Kit's own ceiling).
pub const MAX_UI_TIME_MS: u32 = 100;
/// The most bytes of any one string in the record (display values, signatures, names).
pub const MAX_STRING_BYTES: usize = 2048;
/// The most style tokens per family (the Test Kit keeps the 12 most frequent).
pub const MAX_TOKENS: usize = 12;

/// A rectangle in viewport CSS px.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width (≥ 0).
    pub width: f64,
    /// Height (≥ 0).
    pub height: f64,
}

/// The visual viewport (pinch zoom).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VisualViewport {
    /// Offset left.
    pub x: f64,
    /// Offset top.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Pinch-zoom scale.
    pub scale: f64,
}

/// The layout viewport, which must equal the containing Page Context record's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Viewport {
    /// Width in CSS px.
    pub width: f64,
    /// Height in CSS px.
    pub height: f64,
    /// Device pixel ratio.
    pub dpr: f64,
    /// The visual viewport, when the browser has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visual: Option<VisualViewport>,
}

/// The scope of the record: sessions only ever ask for the whole page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum UiScope {
    /// The whole page.
    Page,
}

/// Why the Test Kit cut the record short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UiCut {
    /// The node budget ran out.
    NodeLimit,
    /// The time budget ran out.
    TimeLimit,
    /// More overlapping pairs than the record may list.
    OverlapLimit,
}

impl UiCut {
    /// The protocol spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            UiCut::NodeLimit => "node_limit",
            UiCut::TimeLimit => "time_limit",
            UiCut::OverlapLimit => "overlap_limit",
        }
    }
}

/// Node and time limits, or what of them was used.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UiLimits {
    /// Layout nodes.
    pub nodes: u32,
    /// Milliseconds.
    pub time_ms: f64,
}

/// The record's own budget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UiBudgetRecord {
    /// What the request allowed.
    pub limits: UiLimits,
    /// What was used.
    pub used: UiLimits,
    /// Whether anything was cut.
    pub truncated: bool,
    /// Why.
    pub reasons: Vec<UiCut>,
}

/// Where the facts came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UiEvidence {
    /// Always `computed_style`.
    pub source: String,
    /// Layout nodes read.
    pub node_count: u32,
    /// Cross-origin style sheets, counted and never read.
    pub inaccessible_style_sheets: u32,
    /// Page-derived: always true.
    pub untrusted: bool,
}

/// A frequency-ranked style value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StyleToken {
    /// The computed value (untrusted).
    pub value: String,
    /// How many nodes use it.
    pub count: u32,
}

/// Style tokens by family.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UiStyle {
    /// Text and background colours.
    pub color: Vec<StyleToken>,
    /// Margins and paddings.
    pub spacing: Vec<StyleToken>,
    /// Border radii.
    pub radius: Vec<StyleToken>,
    /// Box shadows.
    pub shadow: Vec<StyleToken>,
    /// Font family, size, weight and line height.
    pub typography: Vec<StyleToken>,
}

/// One box-model edge set in CSS px.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edges {
    /// Top.
    pub top: f64,
    /// Right.
    pub right: f64,
    /// Bottom.
    pub bottom: f64,
    /// Left.
    pub left: f64,
}

/// Overflow per axis.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overflow {
    /// `overflow-x`.
    pub x: String,
    /// `overflow-y`.
    pub y: String,
}

/// A flex container's properties.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flex {
    /// `flex-direction`.
    pub direction: String,
    /// `flex-wrap`.
    pub wrap: String,
    /// `justify-content`.
    pub justify: String,
    /// `align-items`.
    pub align: String,
    /// `gap`.
    pub gap: String,
}

/// A grid container's properties.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// `grid-template-columns`.
    pub columns: String,
    /// `grid-template-rows`.
    pub rows: String,
    /// `gap`.
    pub gap: String,
}

/// One layout node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LayoutNode {
    /// The Test Kit's private node id (never shown; see [`super::facts`]).
    pub node_id: String,
    /// `display`.
    pub display: String,
    /// `position`.
    pub position: String,
    /// Border box.
    pub rect: Rect,
    /// Margin edges.
    pub margin: Edges,
    /// Border widths.
    pub border: Edges,
    /// Padding edges.
    pub padding: Edges,
    /// Overflow per axis.
    pub overflow: Overflow,
    /// `box-sizing`.
    pub box_sizing: String,
    /// `writing-mode`.
    pub writing_mode: String,
    /// `direction`.
    pub direction: String,
    /// Flex properties, on flex containers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flex: Option<Flex>,
    /// Grid properties, on grid containers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<Grid>,
}

/// How two layout nodes relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// `from` is the nearest record ancestor of `to`.
    Contains,
    /// `from` is the scroll container `to` scrolls in.
    ScrollContainer,
    /// `from` is `to`'s offset parent.
    OffsetParent,
}

/// One layout edge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutEdge {
    /// The node the edge starts at.
    pub from: String,
    /// The node it ends at.
    pub to: String,
    /// The relation.
    pub kind: EdgeKind,
}

/// The layout graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Nodes, in document order.
    pub nodes: Vec<LayoutNode>,
    /// Edges between them.
    pub edges: Vec<LayoutEdge>,
}

/// A repeated-structure cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Cluster {
    /// The Test Kit's cluster id.
    pub id: String,
    /// The shared shape (tags and explicit roles; untrusted).
    pub signature: String,
    /// Its members (at least two).
    pub node_ids: Vec<String>,
}

/// A computed value that changed since the previous record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StateDiff {
    /// The node.
    pub node_id: String,
    /// What changed (`display`, `visibility`, `size`).
    pub field: String,
    /// Before.
    pub from: String,
    /// Now.
    pub to: String,
}

/// Two nodes whose boxes intersect though neither contains the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlap {
    /// One node.
    pub a: String,
    /// The other (after `a` in document order).
    pub b: String,
    /// The shared area.
    pub area: Rect,
    /// The one the hit test finds on top, when it finds either.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub above: Option<String>,
}

/// A node an ancestor's overflow cuts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Clip {
    /// The cut node.
    pub node_id: String,
    /// The ancestor cutting it.
    pub by: String,
    /// The share left visible, 0..1 (below 1).
    pub visible_ratio: f64,
}

/// What moves a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnimationKind {
    /// A CSS animation.
    Animation,
    /// A CSS transition.
    Transition,
    /// A script (Web Animations) animation.
    Script,
}

/// Whether an animation plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnimationState {
    /// Playing.
    Running,
    /// Paused.
    Paused,
}

/// An animation whose target is a record node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Animation {
    /// The moving node.
    pub node_id: String,
    /// CSS animation, transition or script.
    pub kind: AnimationKind,
    /// Animation name, transitioned property or script id (untrusted).
    pub name: String,
    /// Running or paused.
    pub state: AnimationState,
}

/// Motion on the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Motion {
    /// Running animations in the whole document.
    pub running_animations: u32,
    /// The user prefers reduced motion.
    pub reduced_motion: bool,
    /// Those moving record nodes.
    pub animations: Vec<Animation>,
}

/// `a3s.test.ui-understanding/1`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UiRecord {
    /// [`UI_PROTOCOL`].
    pub protocol: String,
    /// The record's own id (focus or motion may change it without a new revision).
    pub observation_id: String,
    /// The Page Context revision it belongs to.
    pub page_revision: u64,
    /// The layout viewport.
    pub viewport: Viewport,
    /// Its scope.
    pub scope: UiScope,
    /// Its budget.
    pub budget: UiBudgetRecord,
    /// Where the facts came from.
    pub evidence: UiEvidence,
    /// Style tokens.
    pub style: UiStyle,
    /// The layout graph.
    pub layout: Layout,
    /// Repeated-structure clusters.
    pub components: Vec<Cluster>,
    /// Changes since the previous record.
    pub state_diffs: Vec<StateDiff>,
    /// Overlapping boxes.
    pub overlaps: Vec<Overlap>,
    /// Clipped boxes.
    pub clips: Vec<Clip>,
    /// Motion.
    pub motion: Motion,
}

/// The rule a record broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UiRule {
    /// Not the record's shape (a missing, extra or mistyped field).
    Shape,
    /// Another protocol string.
    Protocol,
    /// Another revision, viewport or scope than its Page Context record.
    Binding,
    /// More than the request allowed, or a budget that contradicts itself.
    Budget,
    /// A node id that is not a node of this revision's Page Context response.
    UnknownNode,
    /// The same node twice.
    DuplicateNode,
    /// An edge to a node outside the record, a node in two containers, or cyclic containment.
    Graph,
    /// A cluster, change, overlap, clip or animation naming a node outside the record, or a
    /// relation that contradicts itself.
    Relation,
    /// A non-finite number or a negative size.
    Geometry,
    /// A string or list past its bound.
    Size,
}

impl UiRule {
    /// The rule's name, as messages print it.
    pub fn as_str(self) -> &'static str {
        match self {
            UiRule::Shape => "shape",
            UiRule::Protocol => "protocol",
            UiRule::Binding => "binding",
            UiRule::Budget => "budget",
            UiRule::UnknownNode => "unknown_node",
            UiRule::DuplicateNode => "duplicate_node",
            UiRule::Graph => "graph",
            UiRule::Relation => "relation",
            UiRule::Geometry => "geometry",
            UiRule::Size => "size",
        }
    }
}

/// A broken rule and what broke it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rule {}: {message}", rule.as_str())]
pub struct UiViolation {
    /// The rule.
    pub rule: UiRule,
    /// What broke it (names no private id: ids are page data the agent never sees).
    pub message: String,
}

fn broke<T>(rule: UiRule, message: impl Into<String>) -> Result<T, UiViolation> {
    Err(UiViolation {
        rule,
        message: message.into(),
    })
}

/// What the containing Page Context response and the request fix about a record.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding<'a> {
    /// The response's revision.
    pub revision: u64,
    /// The response's page viewport.
    pub viewport: Viewport,
    /// The ids of the response's nodes.
    pub node_ids: &'a BTreeSet<String>,
    /// The node limit the session asked for.
    pub max_nodes: u32,
    /// The time limit the session asked for.
    pub max_time_ms: u32,
}

/// Parse and check a record against its Page Context response: every rule of the module doc.
pub fn validate(raw: &serde_json::Value, binding: &Binding<'_>) -> Result<UiRecord, UiViolation> {
    let record: UiRecord = match serde_json::from_value(raw.clone()) {
        Ok(r) => r,
        Err(e) => return broke(UiRule::Shape, format!("the record does not parse: {e}")),
    };
    check(&record, binding)?;
    Ok(record)
}

fn check(r: &UiRecord, b: &Binding<'_>) -> Result<(), UiViolation> {
    if r.protocol != UI_PROTOCOL {
        return broke(
            UiRule::Protocol,
            format!("protocol {:?} is not {UI_PROTOCOL}", clip(&r.protocol)),
        );
    }
    if r.page_revision != b.revision {
        return broke(
            UiRule::Binding,
            format!(
                "the record is of revision {}, its Page Context of revision {}",
                r.page_revision, b.revision
            ),
        );
    }
    if r.viewport != b.viewport {
        return broke(
            UiRule::Binding,
            "the record's viewport differs from its Page Context's",
        );
    }
    if r.observation_id.is_empty() || r.observation_id.len() > 128 {
        return broke(UiRule::Size, "the observation id must be 1–128 bytes");
    }
    budget(r, b)?;
    strings(r)?;
    let ids = nodes(r, b)?;
    graph(r, &ids)?;
    relations(r, &ids)
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

fn budget(r: &UiRecord, b: &Binding<'_>) -> Result<(), UiViolation> {
    let bud = &r.budget;
    let n = r.layout.nodes.len();
    if bud.limits.nodes > b.max_nodes || bud.limits.time_ms > f64::from(b.max_time_ms) {
        return broke(
            UiRule::Budget,
            format!(
                "the record's limits ({} nodes, {} ms) are above the request's ({} nodes, {} ms)",
                bud.limits.nodes, bud.limits.time_ms, b.max_nodes, b.max_time_ms
            ),
        );
    }
    if n > bud.limits.nodes as usize || bud.used.nodes as usize != n {
        return broke(
            UiRule::Budget,
            format!(
                "{n} layout nodes against a limit of {} and a used count of {}",
                bud.limits.nodes, bud.used.nodes
            ),
        );
    }
    if r.evidence.node_count as usize != n || !r.evidence.untrusted {
        return broke(
            UiRule::Budget,
            "the evidence must count the layout nodes and be marked untrusted",
        );
    }
    if bud.truncated == bud.reasons.is_empty() {
        return broke(
            UiRule::Budget,
            "`truncated` must be true exactly when reasons are given",
        );
    }
    let unique: BTreeSet<_> = bud.reasons.iter().collect();
    if unique.len() != bud.reasons.len() {
        return broke(UiRule::Budget, "a truncation reason is repeated");
    }
    if !bud.used.time_ms.is_finite() || bud.used.time_ms < 0.0 {
        return broke(
            UiRule::Geometry,
            "the time used is not a finite, non-negative number",
        );
    }
    // Relations are bounded by the node limit each (the Test Kit's pair bound).
    let max = bud.limits.nodes as usize;
    for (what, len) in [
        ("overlaps", r.overlaps.len()),
        ("clips", r.clips.len()),
        ("animations", r.motion.animations.len()),
        ("clusters", r.components.len()),
        ("state changes", r.state_diffs.len()),
    ] {
        if len > max {
            return broke(
                UiRule::Size,
                format!("{len} {what} for at most {max} nodes"),
            );
        }
    }
    if r.layout.edges.len() > 3 * n {
        return broke(UiRule::Size, "more than three edges per node");
    }
    Ok(())
}

fn strings(r: &UiRecord) -> Result<(), UiViolation> {
    let s = &r.style;
    for family in [&s.color, &s.spacing, &s.radius, &s.shadow, &s.typography] {
        if family.len() > MAX_TOKENS {
            return broke(
                UiRule::Size,
                format!("more than {MAX_TOKENS} style tokens in a family"),
            );
        }
    }
    let long = |v: &str| v.len() > MAX_STRING_BYTES;
    let tokens = [&s.color, &s.spacing, &s.radius, &s.shadow, &s.typography]
        .into_iter()
        .flatten()
        .any(|t| long(&t.value));
    let node = r.layout.nodes.iter().any(|n| {
        [
            &n.node_id,
            &n.display,
            &n.position,
            &n.overflow.x,
            &n.overflow.y,
            &n.box_sizing,
            &n.writing_mode,
            &n.direction,
        ]
        .into_iter()
        .any(|v| long(v))
            || n.flex.as_ref().is_some_and(|f| {
                [&f.direction, &f.wrap, &f.justify, &f.align, &f.gap]
                    .into_iter()
                    .any(|v| long(v))
            })
            || n.grid
                .as_ref()
                .is_some_and(|g| long(&g.columns) || long(&g.rows) || long(&g.gap))
    });
    let other = r
        .components
        .iter()
        .any(|c| long(&c.id) || long(&c.signature))
        || r.state_diffs
            .iter()
            .any(|d| long(&d.field) || long(&d.from) || long(&d.to))
        || r.motion.animations.iter().any(|a| long(&a.name));
    if tokens || node || other {
        return broke(
            UiRule::Size,
            format!("a string is longer than {MAX_STRING_BYTES} bytes"),
        );
    }
    Ok(())
}

fn finite_rect(r: &Rect) -> bool {
    [r.x, r.y, r.width, r.height].iter().all(|v| v.is_finite()) && r.width >= 0.0 && r.height >= 0.0
}

fn finite_edges(e: &Edges) -> bool {
    [e.top, e.right, e.bottom, e.left]
        .iter()
        .all(|v| v.is_finite())
}

/// The layout node ids, checked unique and belonging to this revision's response.
fn nodes<'r>(r: &'r UiRecord, b: &Binding<'_>) -> Result<BTreeSet<&'r str>, UiViolation> {
    let mut ids = BTreeSet::new();
    for (i, n) in r.layout.nodes.iter().enumerate() {
        if !b.node_ids.contains(&n.node_id) {
            return broke(
                UiRule::UnknownNode,
                format!("layout node {i} is not a node of revision {}", b.revision),
            );
        }
        if !ids.insert(n.node_id.as_str()) {
            return broke(
                UiRule::DuplicateNode,
                format!("layout node {i} repeats an earlier one"),
            );
        }
        if !finite_rect(&n.rect)
            || !finite_edges(&n.margin)
            || !finite_edges(&n.border)
            || !finite_edges(&n.padding)
        {
            return broke(
                UiRule::Geometry,
                format!("layout node {i} has a non-finite number or a negative size"),
            );
        }
    }
    Ok(ids)
}

fn graph(r: &UiRecord, ids: &BTreeSet<&str>) -> Result<(), UiViolation> {
    let mut container: BTreeMap<&str, &str> = BTreeMap::new();
    for (i, e) in r.layout.edges.iter().enumerate() {
        if !ids.contains(e.from.as_str()) || !ids.contains(e.to.as_str()) {
            return broke(UiRule::Graph, format!("edge {i} leaves the record"));
        }
        if e.from == e.to {
            return broke(UiRule::Graph, format!("edge {i} joins a node to itself"));
        }
        if e.kind == EdgeKind::Contains && container.insert(&e.to, &e.from).is_some() {
            return broke(
                UiRule::Graph,
                format!("edge {i} gives a node a second container"),
            );
        }
    }
    // Containment must be a forest: walking up from any node ends, within as many steps as
    // there are nodes.
    for start in container.keys() {
        let mut at = *start;
        let mut steps = 0usize;
        while let Some(up) = container.get(at) {
            at = up;
            steps += 1;
            if steps > container.len() {
                return broke(UiRule::Graph, "containment is cyclic");
            }
        }
    }
    Ok(())
}

fn relations(r: &UiRecord, ids: &BTreeSet<&str>) -> Result<(), UiViolation> {
    let known = |id: &str| ids.contains(id);
    let outside = |what: &str, i: usize| {
        broke::<()>(
            UiRule::Relation,
            format!("{what} {i} names a node outside the record"),
        )
    };
    for (i, c) in r.components.iter().enumerate() {
        if c.node_ids.len() < 2 || !c.node_ids.iter().all(|n| known(n)) {
            return outside("cluster", i);
        }
    }
    for (i, d) in r.state_diffs.iter().enumerate() {
        if !known(&d.node_id) {
            return outside("state change", i);
        }
    }
    for (i, o) in r.overlaps.iter().enumerate() {
        if !known(&o.a) || !known(&o.b) {
            return outside("overlap", i);
        }
        if o.a == o.b || o.above.as_ref().is_some_and(|t| *t != o.a && *t != o.b) {
            return broke(
                UiRule::Relation,
                format!("overlap {i} overlaps a node with itself or puts a third node above"),
            );
        }
        if !finite_rect(&o.area) || o.area.width <= 0.0 || o.area.height <= 0.0 {
            return broke(
                UiRule::Geometry,
                format!("overlap {i} has no positive area"),
            );
        }
    }
    for (i, c) in r.clips.iter().enumerate() {
        if !known(&c.node_id) || !known(&c.by) {
            return outside("clip", i);
        }
        if c.node_id == c.by || !(0.0..1.0).contains(&c.visible_ratio) {
            return broke(
                UiRule::Relation,
                format!("clip {i} cuts a node by itself or leaves a share outside 0..1"),
            );
        }
    }
    for (i, a) in r.motion.animations.iter().enumerate() {
        if !known(&a.node_id) {
            return outside("animation", i);
        }
    }
    Ok(())
}
