//! The pure geometry of a Layout Mode check: where a destination drawn at one scroll position is
//! now, whether it is in the viewport, and how much of it a box covers. Kept apart from the
//! browser so each rule is tested on plain numbers.

use a3s_test_ledger::record::Rect;
use serde::{Deserialize, Serialize};

/// A page scroll offset in CSS px (the Test Kit's `regionScroll` shape).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scroll {
    /// Horizontal offset.
    pub x: f64,
    /// Vertical offset.
    pub y: f64,
}

/// `r` (viewport px at scroll `drawn`) in viewport px at scroll `now`: the page moved by the
/// difference, so the region did the opposite. Without a recorded scroll it is taken as drawn now.
pub fn shifted(r: &Rect, drawn: Option<Scroll>, now: Scroll) -> Rect {
    let drawn = drawn.unwrap_or(now);
    Rect {
        x: r.x - (now.x - drawn.x),
        y: r.y - (now.y - drawn.y),
        ..*r
    }
}

fn finite(r: &Rect) -> bool {
    [r.x, r.y, r.width, r.height].iter().all(|v| v.is_finite())
}

/// The shared part of two rectangles, `None` when they share no area (or a value is not
/// finite: a box the page cannot describe covers nothing).
pub fn intersection(a: &Rect, b: &Rect) -> Option<Rect> {
    if !finite(a) || !finite(b) {
        return None;
    }
    let x = a.x.max(b.x);
    let y = a.y.max(b.y);
    let right = (a.x + a.width).min(b.x + b.width);
    let bottom = (a.y + a.height).min(b.y + b.height);
    let (width, height) = (right - x, bottom - y);
    (width > 0.0 && height > 0.0).then_some(Rect {
        x,
        y,
        width,
        height,
    })
}

/// The area two rectangles share, in CSS px² (0 when they do not overlap).
pub fn overlap_area(a: &Rect, b: &Rect) -> f64 {
    intersection(a, b).map_or(0.0, |r| r.width * r.height)
}

/// The part of `r` inside a viewport of `width` × `height` at the origin.
pub fn visible_part(r: &Rect, width: f64, height: f64) -> Option<Rect> {
    let viewport = Rect {
        x: 0.0,
        y: 0.0,
        width,
        height,
    };
    intersection(r, &viewport)
}

/// The centre of `r`.
pub fn centre(r: &Rect) -> (f64, f64) {
    (r.x + r.width / 2.0, r.y + r.height / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn a_destination_moves_against_the_scroll_since_it_was_drawn() {
        let r = rect(10.0, 500.0, 100.0, 50.0);
        let drawn = Some(Scroll { x: 0.0, y: 0.0 });
        let now = Scroll { x: 5.0, y: 300.0 };
        assert_eq!(shifted(&r, drawn, now), rect(5.0, 200.0, 100.0, 50.0));
        assert_eq!(shifted(&r, None, now), r, "no recorded scroll: as drawn");
    }

    #[test]
    fn overlap_needs_a_positive_area() {
        let a = rect(0.0, 0.0, 100.0, 100.0);
        assert_eq!(overlap_area(&a, &rect(50.0, 50.0, 100.0, 100.0)), 2500.0);
        assert_eq!(
            overlap_area(&a, &rect(100.0, 0.0, 10.0, 10.0)),
            0.0,
            "touching edges share no area"
        );
        assert_eq!(overlap_area(&a, &rect(0.0, 0.0, 0.0, 10.0)), 0.0);
        assert_eq!(overlap_area(&a, &rect(f64::NAN, 0.0, 10.0, 10.0)), 0.0);
    }

    #[test]
    fn only_the_part_inside_the_viewport_is_addressable() {
        let part = visible_part(&rect(-50.0, 700.0, 100.0, 200.0), 800.0, 800.0).unwrap();
        assert_eq!(part, rect(0.0, 700.0, 50.0, 100.0));
        assert_eq!(centre(&part), (25.0, 750.0));
        assert_eq!(
            visible_part(&rect(0.0, 900.0, 10.0, 10.0), 800.0, 800.0),
            None
        );
    }
}
