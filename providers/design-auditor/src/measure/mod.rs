//! The measurements: each module reads the page (nodes, rectangles, computed styles, the
//! screenshot) and turns what it measured into advice. None decides anything: every finding
//! carries the numbers it rests on and what a guideline says, for a person to weigh.

pub mod alignment;
pub mod contrast;
pub mod spacing;
pub mod targets;
pub mod typescale;

use crate::image::Image;
use a3s_test_provider::design::{
    AdviceTarget, ContextNode, DesignFinding, Dimension, Measurement, NodeRect, PageContext,
    Priority,
};
use std::collections::HashMap;

/// The page as the measurements read it: nodes by id, children in document order, the image.
pub struct Page<'a> {
    /// The Page Context.
    pub context: &'a PageContext,
    /// The decoded screenshot.
    pub image: &'a Image,
    by_id: HashMap<&'a str, usize>,
    children: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Page<'a> {
    /// Index `context`.
    pub fn new(context: &'a PageContext, image: &'a Image) -> Page<'a> {
        let mut by_id = HashMap::new();
        let mut children: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, n) in context.nodes.iter().enumerate() {
            by_id.insert(n.id.as_str(), i);
            if let Some(p) = &n.parent_id {
                children.entry(p.as_str()).or_default().push(i);
            }
        }
        Page {
            context,
            image,
            by_id,
            children,
        }
    }

    /// The node with `id`.
    pub fn node(&self, id: &str) -> Option<&'a ContextNode> {
        self.by_id.get(id).map(|&i| &self.context.nodes[i])
    }

    /// `node` and its ancestors in the context, nearest first (a cycle ends the walk).
    pub fn lineage(&self, node: &'a ContextNode) -> Vec<&'a ContextNode> {
        let mut out = vec![node];
        let mut at = node;
        while let Some(parent) = at.parent_id.as_deref().and_then(|p| self.node(p)) {
            if out.len() > self.context.nodes.len() || out.iter().any(|n| n.id == parent.id) {
                break;
            }
            out.push(parent);
            at = parent;
        }
        out
    }

    /// Every parent with its visible children that have an area, in document order.
    pub fn clusters(&self) -> Vec<(&'a ContextNode, Vec<(&'a ContextNode, NodeRect)>)> {
        let mut out = Vec::new();
        for parent in &self.context.nodes {
            let Some(kids) = self.children.get(parent.id.as_str()) else {
                continue;
            };
            let shown: Vec<_> = kids
                .iter()
                .map(|&i| &self.context.nodes[i])
                .filter_map(|n| Some((n, shown_rect(n)?)))
                .collect();
            if shown.len() >= 2 {
                out.push((parent, shown));
            }
        }
        out
    }
}

/// `node`'s rectangle when it is visible with an area.
pub fn shown_rect(node: &ContextNode) -> Option<NodeRect> {
    node.rect
        .filter(|r| node.visible && r.width > 0.0 && r.height > 0.0)
}

/// A short description of a node for titles: its role or tag, and its name when it has one.
pub fn describe(node: &ContextNode) -> String {
    let what = node.role.as_deref().unwrap_or(&node.tag);
    match node.name.as_deref().or(node.text.as_deref()) {
        Some(name) if !name.trim().is_empty() => {
            let short: String = name.trim().chars().take(40).collect();
            format!("{what} \"{short}\"")
        }
        _ => what.to_string(),
    }
}

/// One finding; the id is the check's name and a counter, unique in the report.
pub struct Advice {
    /// The dimension.
    pub dimension: Dimension,
    /// What it points at.
    pub target: AdviceTarget,
    /// How much it matters.
    pub priority: Priority,
    /// One line.
    pub title: String,
    /// Why.
    pub rationale: String,
    /// What to consider.
    pub recommendation: String,
    /// The numbers.
    pub measurements: Vec<Measurement>,
}

impl Advice {
    /// The wire finding with id `id`.
    pub fn into_finding(self, id: String) -> DesignFinding {
        DesignFinding {
            id,
            dimension: self.dimension,
            target: self.target,
            priority: self.priority,
            title: self.title,
            rationale: self.rationale,
            recommendation: self.recommendation,
            measurements: self.measurements,
        }
    }
}

/// A measurement with a guideline.
pub fn measured(name: &str, value: f64, guideline: Option<f64>) -> Measurement {
    Measurement {
        name: name.to_string(),
        value: (value * 100.0).round() / 100.0,
        guideline,
    }
}

/// A region target clipped to the viewport, or the page when nothing of it is inside.
pub fn region(page: &Page<'_>, r: NodeRect) -> AdviceTarget {
    let vw = page.context.viewport.width;
    let vh = page.context.viewport.height;
    let x = r.x.clamp(0.0, vw);
    let y = r.y.clamp(0.0, vh);
    let width = (r.x + r.width).min(vw) - x;
    let height = (r.y + r.height).min(vh) - y;
    if width > 0.0 && height > 0.0 {
        AdviceTarget::Region {
            x,
            y,
            width,
            height,
        }
    } else {
        AdviceTarget::Page
    }
}
