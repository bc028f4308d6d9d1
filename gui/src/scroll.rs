//! Scrolling with the real wheel: X buttons 4/5 (vertical) and 6/7 (horizontal) pressed through
//! XTest at an element's visible centre, after the same hit test a click has.
//!
//! Why wheel clicks and not an accessibility call: a person scrolls with the wheel, and the
//! toolkit decides how far one click goes. A step's delta is in pixels as on the web; one wheel
//! click stands for each started 100 px (`wheel { delta_y = 250 }` is three clicks down).

use crate::element::Element;
use crate::error::GuiError;
use crate::hit;
use crate::input::{Acted, Input, InputPath};
use crate::program::Program;
use std::time::Instant;
use x11rb::protocol::xproto::{BUTTON_PRESS_EVENT, BUTTON_RELEASE_EVENT, MOTION_NOTIFY_EVENT};

/// Pixels one wheel click stands for.
pub const PIXELS_PER_CLICK: i64 = 100;

/// How many wheel clicks a delta is, and the X button that sends them (`less`, `more`: the
/// buttons for a negative and a positive delta).
fn clicks(delta: i64, less: u8, more: u8) -> (u32, u8) {
    let n = (delta.unsigned_abs()).div_ceil(PIXELS_PER_CLICK as u64) as u32;
    (n, if delta < 0 { less } else { more })
}

impl Input {
    /// Scroll over `element` by `delta_x`, `delta_y` pixels (right and down positive).
    pub async fn scroll(
        &self,
        program: &Program,
        element: &Element,
        delta_x: i64,
        delta_y: i64,
    ) -> Result<Acted, GuiError> {
        let started = Instant::now();
        let placement = self.locate(program, element).await?;
        let reported = element.extents(self.a11y()).await?;
        let hit = hit::centre(
            self.x11().size(),
            self.a11y(),
            element,
            &placement,
            &crate::ancestry::Ancestry::default(),
            reported,
        )
        .await?;
        let x16 = |v: i32| v.clamp(0, i32::from(i16::MAX)) as i16;
        let (x, y) = (x16(hit.x), x16(hit.y));
        let root = self.x11().root();
        self.fake(MOTION_NOTIFY_EVENT, 0, root, x, y)?;
        for (n, button) in [clicks(delta_y, 4, 5), clicks(delta_x, 6, 7)] {
            for _ in 0..n {
                self.fake(BUTTON_PRESS_EVENT, button, root, x, y)?;
                self.fake(BUTTON_RELEASE_EVENT, button, root, x, y)?;
            }
        }
        self.x11().sync()?;
        Ok(Acted {
            path: InputPath::XTest,
            window: placement.window.id,
            hit: Some(hit),
            took: started.elapsed(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_started_hundred_pixels_is_one_click_on_the_button_of_its_direction() {
        assert_eq!(clicks(250, 4, 5), (3, 5));
        assert_eq!(clicks(-100, 4, 5), (1, 4));
        assert_eq!(clicks(0, 6, 7), (0, 7));
    }
}
