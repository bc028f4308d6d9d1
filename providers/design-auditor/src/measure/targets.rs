//! Target size (WCAG 2.2 success criterion 2.5.8): a control a person operates by pointer should
//! be at least 24 × 24 CSS px, so a touch or an unsteady hand hits it and not its neighbour.

use super::{describe, measured, shown_rect, Advice, Page};
use a3s_test_provider::design::{AdviceTarget, Dimension, Priority};

/// The minimum side, in CSS px.
pub const MIN: f64 = 24.0;

const OPERABLE: &[&str] = &[
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "combobox",
    "textbox",
    "searchbox",
    "spinbutton",
    "slider",
];

/// Target-size advice for operable nodes smaller than [`MIN`] on a side.
pub fn check(page: &Page<'_>) -> Vec<Advice> {
    let mut out = Vec::new();
    for node in &page.context.nodes {
        let Some(role) = node.role.as_deref() else {
            continue;
        };
        let Some(r) = shown_rect(node) else {
            continue;
        };
        if !OPERABLE.contains(&role) || node.disabled || (r.width >= MIN && r.height >= MIN) {
            continue;
        }
        let smaller = r.width.min(r.height);
        out.push(Advice {
            dimension: Dimension::InteractionClarity,
            target: AdviceTarget::Node {
                node_id: node.id.clone(),
            },
            priority: if smaller < 16.0 { Priority::Medium } else { Priority::Low },
            title: format!(
                "{} is {:.0} × {:.0} px, under the {MIN} px target size",
                describe(node),
                r.width,
                r.height
            ),
            rationale: format!(
                "WCAG 2.2 success criterion 2.5.8 asks for pointer targets of at least {MIN} × {MIN} CSS px (or enough space around them); this one's smaller side is {smaller:.1} px."
            ),
            recommendation: format!(
                "Give it padding or a minimum size of {MIN} px, or leave {MIN} px of space around it."
            ),
            measurements: vec![
                measured("width_px", r.width, Some(MIN)),
                measured("height_px", r.height, Some(MIN)),
            ],
        });
    }
    out
}
