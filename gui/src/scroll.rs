//! Scrolling with the real wheel: X buttons 4/5 (vertical) and 6/7 (horizontal) pressed through
//! XTest at an element's visible centre, after the same actionability wait (enabled, stable)
//! and hit test a click has: a wheel over a disabled spin button or beside a control that is
//! still moving is dropped by the toolkit as silently as such a click.
//!
//! Why wheel clicks and not an accessibility call: a person scrolls with the wheel, and the
//! toolkit decides how far one click goes. A step's delta is in pixels as on the web; one wheel
//! click stands for each started 100 px (`wheel { delta_y = 250 }` is three clicks down).

use crate::ancestry::Ancestry;
use crate::element::Element;
use crate::error::GuiError;
use crate::input::{Acted, Input, InputPath};
use crate::program::Program;
use crate::timing::Laps;
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
    /// Scroll over `element` by `delta_x`, `delta_y` pixels (right and down positive), once
    /// it is enabled and stable (waited for until `until`) and the hit test proved that its
    /// visible centre lands on it — a click's conditions (`Input::aim`); `ancestry` is the
    /// tree read's that found it.
    pub async fn scroll(
        &self,
        program: &Program,
        element: &Element,
        ancestry: &Ancestry,
        (delta_x, delta_y): (i64, i64),
        until: Instant,
    ) -> Result<Acted, GuiError> {
        let started = Instant::now();
        let mut laps = Laps::start("wheel");
        let (placement, hit) = self
            .aim(program, element, ancestry, until, &mut laps)
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
        laps.lap("send");
        laps.print();
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
