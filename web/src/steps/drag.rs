//! `drag { source target edge }` as a person drags: press on the source, move in steps with the
//! button held, release over the target — so the target receives `pointermove`, `pointerup` and
//! `mouseup` (and, when the source is `draggable`, Chromium runs HTML drag and drop from those
//! same moves: `dragstart`, `dragenter`/`dragover`, `drop`, `dragend`).
//!
//! Why a drop used to be missed (the public A3S Test 1.0's `web-advanced.acl`: `pointerdown` on a
//! source div, `pointerup` on a target div): both ends were made actionable — each scrolled into
//! view — before anything was pressed, and the points measured then were used as they were.
//! When the two do not fit in the viewport together, scrolling the target into view moved the
//! source, so the press landed at a stale point (on whatever had scrolled there, often the
//! target itself): the source never got its `pointerdown`, and the page ignored the `pointerup`
//! that followed. A page that lays itself out anew on `pointerdown` (a "dragging…" line above
//! the drop zone) moved the target away from its pre-press point the same way. Neither pointer
//! capture nor text selection is involved: a mouse-button drag has no implicit capture, and
//! Chromium delivers its `pointerup` to the element under the pointer even while the press
//! extends a text selection (`tests/fixtures/web/pointer-drop.html` has no `user-select: none`).
//!
//! So each end is measured when the gesture reaches it:
//! 1. the target, then the source, are waited for as any action's (nothing dispatched yet; the
//!    source last, so it is in view and its point current);
//! 2. the pointer moves onto the source's point and presses;
//! 3. with the button held, the target is measured again — scrolled into view if the press or
//!    the source's scroll moved it away, hit-tested at its release point (where the source
//!    itself may be on top: it is what the pointer carries, as when a box already overlaps the
//!    one it is dropped into — MiniWoB's `drag-box`);
//! 4. the pointer moves there in [`STEPS`] moves with `buttons = 1` (the last one onto the
//!    release point) and releases.
//!
//! If the target cannot be reached in step 3, the button is released where it was pressed (no
//! button stays held past the step) and the step fails with the target's own failure.

use super::Outcome;
use crate::context::{detail, WebContext};
use crate::input::{self, Point};
use crate::tab::Tab;
use crate::target::{self, Aim, Needs};
use a3s_test_driver::{StepDetail, StepEnv, StepFailure};
use a3s_test_lang::ir::{DragEdge, Target};
use tokio::time::Instant;

/// Pointer moves between the press and the release (well past Chromium's drag threshold of a
/// few pixels, and at least one inside the target before the release).
const STEPS: u32 = 8;

/// The `drag` step; see the module doc for the gesture and why it is measured as it goes.
pub(crate) async fn drag(
    ctx: &mut WebContext,
    source: &Target,
    destination: &Target,
    edge: Option<DragEdge>,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    // The source on top of the target's point does not cover it: it is what the pointer carries.
    let aim = Aim {
        edge,
        position: None,
        carried: Some(source),
    };
    target::wait_actionable_at(tab, destination, Needs::POINT, aim, env).await?;
    let from = target::wait_actionable(tab, source, Needs::POINT, env).await?;
    input::mouse_move(tab, from.point, 0, env.deadline).await?;
    input::left_button(tab, "mousePressed", from.point, env.deadline).await?;
    let to = match target::wait_actionable_at(tab, destination, Needs::POINT, aim, env).await {
        Ok(to) => to,
        Err(failure) => {
            input::left_button(tab, "mouseReleased", from.point, env.deadline).await?;
            return Err(failure);
        }
    };
    move_held(tab, from.point, to.point, env.deadline).await?;
    input::left_button(tab, "mouseReleased", to.point, env.deadline).await?;
    Ok(detail(StepDetail::Dragged {
        source: from.element,
        target: to.element,
        source_hit: from.hit,
        target_hit: to.hit,
        from: Some((from.point.x, from.point.y)),
        to: Some((to.point.x, to.point.y)),
    }))
}

/// Move from `from` to `to` in [`STEPS`] equal moves with the left button held.
async fn move_held(
    tab: &Tab,
    from: Point,
    to: Point,
    deadline: Instant,
) -> Result<(), StepFailure> {
    for i in 1..=STEPS {
        let t = f64::from(i) / f64::from(STEPS);
        let p = Point {
            x: from.x + (to.x - from.x) * t,
            y: from.y + (to.y - from.y) * t,
        };
        input::mouse_move(tab, p, 1, deadline).await?;
    }
    Ok(())
}
