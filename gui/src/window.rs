//! Where an element's window is on the screen: its X window and the offset that turns the
//! toolkit's "screen" extents into real screen pixels.
//!
//! Why an offset: GTK4 4.8 reports extents relative to its window's content and leaves out the
//! client-side border (5 px a side with no window manager), while GTK3 and Qt report real
//! screen coordinates. The window's accessible (the application root's child) and its X window
//! have the same content size, so one formula fits both: offset = the X window's origin + half
//! the size difference (the border) − the accessible window's reported origin. For GTK3 that is
//! zero. The X window is the program's (its `_NET_WM_PID` is a process of the program's group)
//! whose size fits the accessible window's.

use crate::ancestry::Ancestry;
use crate::element::{Element, Rect};
use crate::error::GuiError;
use crate::x11::{TopWindow, X11};
use a3s_test_driver::process::ProcessInfo;

/// An element's top-level window, found on the X server.
#[derive(Debug, Clone)]
pub struct Placement {
    /// The element's top-level accessible (a frame, window or dialog).
    pub frame: Element,
    /// The frame's extents as reported.
    pub frame_extents: Rect,
    /// Its X window.
    pub window: TopWindow,
    /// Add to reported extents to get screen pixels.
    pub offset: (i32, i32),
    /// The X server's mapped top-level windows, bottom to top, as listed for this placement:
    /// the hit test asks which is on top from the same listing (one listing a step).
    pub windows: Vec<TopWindow>,
}

impl Placement {
    /// Reported extents moved to screen pixels.
    pub fn to_screen(&self, rect: Rect) -> Rect {
        Rect {
            x: rect.x + self.offset.0,
            y: rect.y + self.offset.1,
            ..rect
        }
    }
}

/// Find the window of `element`, a node of the program whose processes are in group `pgid`.
pub async fn locate(
    x: &X11,
    a11y: &zbus::Connection,
    element: &Element,
    pgid: u32,
) -> Result<Placement, GuiError> {
    locate_in(x, a11y, element, pgid, &Ancestry::default()).await
}

/// [`locate`], with the element's top-level ancestor taken from `ancestry` where it holds it.
pub async fn locate_in(
    x: &X11,
    a11y: &zbus::Connection,
    element: &Element,
    pgid: u32,
    ancestry: &Ancestry,
) -> Result<Placement, GuiError> {
    let gone = || GuiError::WindowGone {
        target: element.describe(),
    };
    // An element whose object or program is gone has no window either.
    let gone_if = |e: GuiError| if crate::modal::is_gone(&e) { gone() } else { e };
    let frame = ancestry.window(a11y, element).await.map_err(gone_if)?;
    let frame_extents = frame.extents(a11y).await.map_err(gone_if)?;
    let windows = x.top_windows()?;
    let in_group = |pid: u32| ProcessInfo::read(pid as i32).is_some_and(|p| p.pgid as u32 == pgid);
    // Topmost first: with several fitting windows (two equal dialogs) the visible one wins.
    let window = windows
        .iter()
        .rev()
        .filter(|w| w.pid.is_some_and(in_group))
        .find(|w| fits(w, &frame_extents))
        .cloned()
        .ok_or_else(gone)?;
    let offset = (
        window.x + (window.width - frame_extents.width) / 2 - frame_extents.x,
        window.y + (window.height - frame_extents.height) / 2 - frame_extents.y,
    );
    Ok(Placement {
        frame,
        frame_extents,
        window,
        offset,
        windows,
    })
}

/// Whether an X window holds an accessible window of this size with an even border around it
/// (none, or a client-side one).
fn fits(window: &TopWindow, frame: &Rect) -> bool {
    let (dw, dh) = (window.width - frame.width, window.height - frame.height);
    frame.width > 0 && dw >= 0 && dw == dh && dw % 2 == 0 && dw <= 128
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(width: i32, height: i32) -> TopWindow {
        TopWindow {
            id: 1,
            x: 0,
            y: 0,
            width,
            height,
            pid: None,
            title: String::new(),
        }
    }

    #[test]
    fn a_window_fits_its_frame_with_an_even_border_or_none() {
        let frame = Rect {
            x: 0,
            y: 0,
            width: 355,
            height: 486,
        };
        assert!(fits(&window(365, 496), &frame), "GTK4: 5 px a side");
        assert!(fits(&window(355, 486), &frame), "GTK3: no border");
        assert!(!fits(&window(365, 486), &frame), "uneven");
        assert!(!fits(&window(300, 486), &frame), "smaller");
    }
}
