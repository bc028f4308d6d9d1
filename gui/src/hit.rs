//! The hit test before a pointer action: does the element's visible centre land on that element?
//!
//! Why two checks: the X server knows which top-level window is on top at a point (another
//! program's window, a dialog, a popup), the toolkit knows which of its own elements is
//! (`GetAccessibleAtPoint`, asked from the element's window downwards). The point passes only
//! when the element's window is the topmost there and the deepest element there is the target
//! or inside it; otherwise the failure names what is on top, and nothing is sent.
//!
//! Which window is on top comes from the X listing the placement made (one listing a step);
//! whether the deepest element is inside the target comes from the ancestry of the tree read
//! that found it (`crate::ancestry`; an object that read does not hold is asked on the bus), and
//! the descent through `GetAccessibleAtPoint` reads no role or name until its last answer.

use crate::ancestry::Ancestry;
use crate::element::{Element, Rect};
use crate::error::GuiError;
use crate::window::Placement;
use atspi::CoordType;

/// A point proven to land on its element.
#[derive(Debug, Clone)]
pub struct Hit {
    /// The point, in screen pixels.
    pub x: i32,
    /// The point, in screen pixels.
    pub y: i32,
    /// The element's extents, in screen pixels.
    pub bounds: Rect,
    /// The deepest element at the point (the target or inside it, e.g. a button's label).
    pub deepest: Element,
}

/// Hit-test the centre of `element`, whose window is `placement`, on a screen of `screen`
/// pixels; `reported` is the element's extents as last read (the actionability wait's).
pub async fn centre(
    screen: (u16, u16),
    a11y: &zbus::Connection,
    element: &Element,
    placement: &Placement,
    ancestry: &Ancestry,
    reported: Rect,
) -> Result<Hit, GuiError> {
    let bounds = placement.to_screen(reported);
    let not_visible = |why: String| GuiError::TargetNotVisible {
        target: element.describe(),
        why,
    };
    if bounds.width <= 0 || bounds.height <= 0 {
        return Err(not_visible(format!(
            "its extents are {}×{}",
            bounds.width, bounds.height
        )));
    }
    let (x, y) = bounds.centre();
    let (width, height) = screen;
    if x < 0 || y < 0 || x >= i32::from(width) || y >= i32::from(height) {
        return Err(not_visible(format!(
            "its centre ({x}, {y}) is off the {width}×{height} screen"
        )));
    }
    let covered = |by: String| GuiError::TargetCovered {
        target: element.describe(),
        x,
        y,
        by,
    };
    let top = placement.windows.iter().rev().find(|w| w.contains(x, y));
    match top {
        Some(top) if top.id == placement.window.id => {}
        Some(top) => return Err(covered(top.describe())),
        None => {
            return Err(GuiError::WindowGone {
                target: element.describe(),
            })
        }
    }
    let (px, py) = (x - placement.offset.0, y - placement.offset.1);
    let deepest = deepest_at(a11y, &placement.root, px, py).await?;
    // Ask again from below where the toolkit stopped, when it stopped above the target.
    let deepest = match resume_below(a11y, element, ancestry, &deepest, px, py).await? {
        Some(resumed) => resumed,
        None => deepest,
    };
    let deepest = ancestry.element(a11y, element, &deepest).await?;
    if ancestry.is_within(a11y, &deepest, &element.path).await? {
        return Ok(Hit {
            x,
            y,
            bounds,
            deepest,
        });
    }
    Err(covered(deepest.describe()))
}

/// When the toolkit's answer `stopped` is an ancestor of `element` (its hit test ended above
/// the target), resume the hit test from the highest of the target's ancestors below it whose
/// extents hold the point. GTK3's notebook is one: its page tabs report no extents (-1), so its
/// hit test answers nothing below the page tab list and mousepad's text view is never reached
/// from the window. `None` when `stopped` is not an ancestor (the usual answer, or a real cover).
async fn resume_below(
    a11y: &zbus::Connection,
    element: &Element,
    ancestry: &Ancestry,
    stopped: &str,
    x: i32,
    y: i32,
) -> Result<Option<String>, GuiError> {
    if stopped == element.path {
        return Ok(None);
    }
    // The target's ancestors up to `stopped`, bottom up; none when it is not an ancestor.
    let Some(mut chain) = ancestry.up_to(a11y, element, stopped).await? else {
        return Ok(None);
    };
    chain.pop();
    for path in chain.iter().rev() {
        let node = Element {
            path: path.clone(),
            ..element.clone()
        };
        let reported = node.extents(a11y).await?;
        if reported.width > 0 && reported.height > 0 && reported.contains(x, y) {
            return Ok(Some(deepest_at(a11y, &node, x, y).await?));
        }
    }
    Ok(None)
}

/// The deepest element at screen point `(x, y)` of the window `placement` (what a click there
/// would land on): for a session's click at a point of a screenshot, which has no element to
/// test against.
pub async fn element_at(
    a11y: &zbus::Connection,
    placement: &Placement,
    x: i32,
    y: i32,
) -> Result<Element, GuiError> {
    let path = deepest_at(
        a11y,
        &placement.root,
        x - placement.offset.0,
        y - placement.offset.1,
    )
    .await?;
    Element::at(a11y, &placement.root.bus_name, &path).await
}

/// The path of the deepest element at a point given in the reported coordinates of `from`'s
/// window, asked from `from` downwards.
async fn deepest_at(
    a11y: &zbus::Connection,
    from: &Element,
    x: i32,
    y: i32,
) -> Result<String, GuiError> {
    let mut at = from.clone();
    // GTK4 answers with the deepest element at once; AT-SPI in general answers with a child,
    // so ask again from each answer until there is nothing deeper (bounded). Only paths are
    // kept on the way: the role and name of the last answer alone are wanted.
    for _ in 0..64 {
        let component = at.component(a11y).await?;
        let Ok(child) = component
            .get_accessible_at_point(x, y, CoordType::Screen)
            .await
        else {
            // No `Component` interface below here: this is the deepest.
            break;
        };
        if child.is_null()
            || child.name_as_str() != Some(from.bus_name.as_str())
            || child.path_as_str() == at.path
        {
            break;
        }
        at.path = child.path_as_str().to_owned();
    }
    Ok(at.path)
}
