//! The font-size scale: a page reads as designed when its text uses a few sizes far enough apart
//! to tell apart. Two kinds of advice: too many distinct sizes, and sizes so close (under 2 px
//! apart) that they look like a mistake rather than a step.

use super::{measured, shown_rect, Advice, Page};
use a3s_test_provider::design::{AdviceTarget, Dimension, Priority};

/// More distinct sizes than this is an inconsistent scale.
pub const MAX_SIZES: usize = 6;
/// Neighbouring sizes closer than this (px) are too close to read as a step.
pub const MIN_STEP: f64 = 2.0;

/// Type-scale advice for the visible text of the page.
pub fn check(page: &Page<'_>) -> Vec<Advice> {
    let mut sizes: Vec<(f64, usize)> = Vec::new();
    for node in &page.context.nodes {
        let has_text = node.text.as_deref().is_some_and(|t| !t.trim().is_empty());
        let Some(size) = node.styles.font_size_px else {
            continue;
        };
        if !has_text || shown_rect(node).is_none() {
            continue;
        }
        let size = (size * 2.0).round() / 2.0;
        match sizes.iter_mut().find(|(s, _)| *s == size) {
            Some((_, n)) => *n += 1,
            None => sizes.push((size, 1)),
        }
    }
    sizes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let list = |s: &[(f64, usize)]| {
        s.iter()
            .map(|(px, n)| format!("{px} px ×{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = Vec::new();
    if sizes.len() > MAX_SIZES {
        out.push(Advice {
            dimension: Dimension::Consistency,
            target: AdviceTarget::Page,
            priority: Priority::Medium,
            title: format!("{} distinct font sizes on one page", sizes.len()),
            rationale: format!(
                "The visible text uses {} sizes ({}); more than {MAX_SIZES} makes the hierarchy hard to read.",
                sizes.len(),
                list(&sizes)
            ),
            recommendation: "Map each size to a step of one type scale and merge the rest into their nearest step.".into(),
            measurements: vec![measured("distinct_sizes", sizes.len() as f64, Some(MAX_SIZES as f64))],
        });
    }
    for pair in sizes.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if b.0 - a.0 < MIN_STEP {
            out.push(Advice {
                dimension: Dimension::Typography,
                target: AdviceTarget::Page,
                priority: Priority::Low,
                title: format!("Font sizes {} px and {} px are too close to tell apart", a.0, b.0),
                rationale: format!(
                    "Text is set at {} px ({} nodes) and {} px ({} nodes), {:.1} px apart; a step under {MIN_STEP} px looks like an inconsistency rather than a level of the hierarchy.",
                    a.0, a.1, b.0, b.1, b.0 - a.0
                ),
                recommendation: "Use one of the two sizes for both, or move one to the next step of the scale.".into(),
                measurements: vec![
                    measured("smaller_px", a.0, None),
                    measured("larger_px", b.0, None),
                ],
            });
        }
    }
    out
}
