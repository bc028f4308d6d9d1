//! WCAG 2 contrast of text against what shows behind it (success criterion 1.4.3): the text's
//! computed colour, composited over the nearest opaque background its ancestors paint — or, when
//! none does, over the screenshot's pixels around the text.

use super::{describe, measured, shown_rect, Advice, Page};
use crate::colour::{contrast, Rgba, WHITE};
use a3s_test_provider::design::{AdviceTarget, ContextNode, Dimension, Priority};

/// The ratio normal text needs (AA).
pub const NORMAL: f64 = 4.5;
/// The ratio large text needs (AA): at least 24 px, or 18.66 px and bold.
pub const LARGE: f64 = 3.0;

fn is_large(node: &ContextNode) -> bool {
    let size = node.styles.font_size_px.unwrap_or(16.0);
    let bold = node
        .styles
        .font_weight
        .as_deref()
        .and_then(|w| w.parse::<f64>().ok())
        .is_some_and(|w| w >= 700.0);
    size >= 24.0 || (bold && size >= 18.66)
}

/// What shows behind `node`: the backgrounds of its lineage composited from the farthest opaque
/// one, and where it came from (`css` or `screenshot`).
fn background(page: &Page<'_>, node: &ContextNode) -> Option<(Rgba, &'static str)> {
    let layers: Vec<Rgba> = page
        .lineage(node)
        .iter()
        .filter_map(|n| n.styles.background_color.as_deref().and_then(Rgba::parse))
        .filter(|c| !c.is_transparent())
        .collect();
    if let Some(opaque) = layers.iter().position(|c| c.a >= 1.0) {
        let mut under = layers[opaque];
        for layer in layers[..opaque].iter().rev() {
            under = layer.over(under);
        }
        return Some((under, "css"));
    }
    let r = shown_rect(node)?;
    let sampled = page
        .image
        .ring_median(r.x, r.y, r.width, r.height, page.context.viewport.dpr)?;
    let mut under = sampled.over(WHITE);
    for layer in layers.iter().rev() {
        under = layer.over(under);
    }
    Some((under, "screenshot"))
}

/// Contrast advice for every visible node with its own text.
pub fn check(page: &Page<'_>) -> Vec<Advice> {
    let mut out = Vec::new();
    for node in &page.context.nodes {
        let has_text = node.text.as_deref().is_some_and(|t| !t.trim().is_empty());
        if !has_text || node.redacted || shown_rect(node).is_none() {
            continue;
        }
        let Some(fg) = node.styles.color.as_deref().and_then(Rgba::parse) else {
            continue;
        };
        let Some((bg, source)) = background(page, node) else {
            continue;
        };
        let opacity = page
            .lineage(node)
            .iter()
            .map(|n| n.styles.opacity.unwrap_or(1.0))
            .product::<f64>();
        let text = Rgba {
            a: fg.a * opacity,
            ..fg
        }
        .over(bg);
        let ratio = contrast(text, bg);
        let needed = if is_large(node) { LARGE } else { NORMAL };
        if ratio >= needed {
            continue;
        }
        let (priority, exemption) = if node.disabled {
            (
                Priority::Low,
                " WCAG exempts inactive controls, but a disabled control that cannot be read does not say what it would do.",
            )
        } else if ratio < LARGE {
            (Priority::High, "")
        } else {
            (Priority::Medium, "")
        };
        out.push(Advice {
            dimension: Dimension::Colour,
            target: AdviceTarget::Node {
                node_id: node.id.clone(),
            },
            priority,
            title: format!(
                "Text contrast {ratio:.2}:1 on {} is below {needed}:1",
                describe(node)
            ),
            rationale: format!(
                "Text {} over {} (background from {source}) measures {ratio:.2}:1; WCAG 2 success criterion 1.4.3 asks for {needed}:1 for text of this size.{exemption}",
                text.hex(),
                bg.hex()
            ),
            recommendation: format!(
                "Darken the text or lighten the background until the ratio reaches at least {needed}:1."
            ),
            measurements: vec![
                measured("contrast_ratio", ratio, Some(needed)),
                measured("font_size_px", node.styles.font_size_px.unwrap_or(16.0), None),
            ],
        });
    }
    out
}
