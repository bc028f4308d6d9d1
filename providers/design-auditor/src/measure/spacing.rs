//! Off-grid spacing: the gap between neighbouring siblings (stacked or side by side) that is not
//! a multiple of the grid (4 px). A spacing scale on a grid reads as deliberate rhythm; gaps such
//! as 18.76 px (a browser's default `0.67em` heading margin) read as accidents.

use super::{describe, measured, region, Advice, Page};
use a3s_test_provider::design::{Dimension, NodeRect, Priority};

/// The grid, in CSS px.
pub const GRID: f64 = 4.0;
/// How far from the grid a gap may be before it counts, in CSS px (sub-pixel rounding).
pub const TOLERANCE: f64 = 0.5;
/// Most spacing findings one report gives (the rest say the same thing).
pub const MAX_FINDINGS: usize = 12;

fn off_grid(gap: f64) -> bool {
    let rest = gap % GRID;
    rest > TOLERANCE && GRID - rest > TOLERANCE
}

fn overlap(a0: f64, a1: f64, b0: f64, b1: f64) -> bool {
    a0.max(b0) < a1.min(b1)
}

/// Spacing advice for off-grid gaps between neighbours.
pub fn check(page: &Page<'_>) -> Vec<Advice> {
    let mut out = Vec::new();
    for (_, kids) in page.clusters() {
        for pair in kids.windows(2) {
            let ((a, ra), (b, rb)) = (pair[0], pair[1]);
            let (gap, axis, between) = if overlap(ra.x, ra.x + ra.width, rb.x, rb.x + rb.width)
                && rb.y >= ra.y + ra.height
            {
                let gap = rb.y - (ra.y + ra.height);
                let x = ra.x.max(rb.x);
                let w = (ra.x + ra.width).min(rb.x + rb.width) - x;
                (
                    gap,
                    "vertical",
                    NodeRect {
                        x,
                        y: ra.y + ra.height,
                        width: w,
                        height: gap,
                    },
                )
            } else if overlap(ra.y, ra.y + ra.height, rb.y, rb.y + rb.height)
                && rb.x >= ra.x + ra.width
            {
                let gap = rb.x - (ra.x + ra.width);
                let y = ra.y.max(rb.y);
                let h = (ra.y + ra.height).min(rb.y + rb.height) - y;
                (
                    gap,
                    "horizontal",
                    NodeRect {
                        x: ra.x + ra.width,
                        y,
                        width: gap,
                        height: h,
                    },
                )
            } else {
                continue;
            };
            if gap <= TOLERANCE || !off_grid(gap) {
                continue;
            }
            let nearest = (gap / GRID).round().max(1.0) * GRID;
            out.push(Advice {
                dimension: Dimension::Spacing,
                target: region(page, between),
                priority: Priority::Low,
                title: format!(
                    "{gap:.2} px {axis} gap between {} and {} is off the {GRID} px grid",
                    describe(a),
                    describe(b)
                ),
                rationale: format!(
                    "The {axis} gap measures {gap:.2} px, which is not a multiple of {GRID} px; spacing off a shared grid makes the rhythm of the page uneven."
                ),
                recommendation: format!(
                    "Set the margin or gap between these two to a step of the spacing scale, such as {nearest} px."
                ),
                measurements: vec![
                    measured("gap_px", gap, Some(nearest)),
                    measured("grid_px", GRID, None),
                ],
            });
            if out.len() >= MAX_FINDINGS {
                return out;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::off_grid;

    #[test]
    fn the_grid_allows_rounding() {
        assert!(!off_grid(16.0));
        assert!(!off_grid(16.4));
        assert!(!off_grid(15.6));
        assert!(off_grid(18.76));
        assert!(off_grid(2.0));
    }
}
