//! Edges within a cluster: neighbours stacked in one column whose left edges differ by a pixel or
//! three look misaligned — close enough to be meant to line up, far enough to show.

use super::{describe, measured, Advice, Page};
use a3s_test_provider::design::{AdviceTarget, Dimension, Priority};

/// Edges closer than this (px) count as aligned (sub-pixel layout).
pub const ALIGNED: f64 = 0.5;
/// Edges farther apart than this (px) are a deliberate indent, not a misalignment.
pub const INDENT: f64 = 4.0;

/// Alignment advice for a sibling stacked right below another whose left edge nearly matches.
pub fn check(page: &Page<'_>) -> Vec<Advice> {
    let mut out = Vec::new();
    for (parent, kids) in page.clusters() {
        for pair in kids.windows(2) {
            let ((above, ra), (node, r)) = (pair[0], pair[1]);
            let stacked = r.y >= ra.y + ra.height - ALIGNED
                && ra.x.max(r.x) < (ra.x + ra.width).min(r.x + r.width);
            let off = (r.x - ra.x).abs();
            if !stacked || off <= ALIGNED || off >= INDENT {
                continue;
            }
            out.push(Advice {
                dimension: Dimension::Composition,
                target: AdviceTarget::Node {
                    node_id: node.id.clone(),
                },
                priority: Priority::Low,
                title: format!(
                    "{} starts {off:.1} px off the left edge of {} above it",
                    describe(node),
                    describe(above)
                ),
                rationale: format!(
                    "In {} the two are stacked in one column, one at x = {:.1} px and the next at {:.1} px; a near-miss of under {INDENT} px reads as a misalignment rather than an indent.",
                    describe(parent),
                    ra.x,
                    r.x
                ),
                recommendation: "Align it with the edge above, or indent it by a full step of the spacing scale.".into(),
                measurements: vec![measured("offset_px", off, Some(0.0))],
            });
        }
    }
    out
}
