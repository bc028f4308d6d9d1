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
//!
//! A popup is the exception: GTK3 shows a combo box's list in an override-redirect X window of
//! its own, while the list's accessible stays a descendant of the combo box in the main window's
//! tree. An element shown there belongs to that popup, not to the main window under it (else
//! the hit test would call the program's own main window a cover): [`popup_of`] accepts an
//! override-redirect window of the program, stacked above the main window, that one of the
//! element's ancestors fills exactly — the popup's content. A window the element merely lies
//! under (a tooltip over a button) is filled by none of its ancestors and stays a cover.
//!
//! GTK4 shows a popover (a drop-down's list) in an override-redirect surface of its own too,
//! and reports the extents of everything in it from that surface's corner, not the main
//! window's: when no ancestor fills a popup in screen pixels, [`surface_of`] accepts the popup
//! one of them spans as reported, and the offset becomes the popup's origin.

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
    /// Its X window (a popup's, when the element is shown in one).
    pub window: TopWindow,
    /// Where the hit test asks for the deepest element: the frame, or the popup's content.
    pub root: Element,
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
    // The program's windows, bottom to top.
    let own = of_group(&windows, pgid);
    // Topmost first: with several fitting windows (two equal dialogs) the visible one wins.
    let main = own
        .iter()
        .rposition(|w| !w.override_redirect && fits(w, &frame_extents))
        .or_else(|| own.iter().rposition(|w| fits(w, &frame_extents)))
        .ok_or_else(gone)?;
    let window = own[main].clone();
    let offset = (
        window.x + (window.width - frame_extents.width) / 2 - frame_extents.x,
        window.y + (window.height - frame_extents.height) / 2 - frame_extents.y,
    );
    // Only a program showing a popup above its window pays for the ancestors' extents.
    let above: Vec<TopWindow> = own[main + 1..].iter().map(|w| (*w).clone()).collect();
    let placement = Placement {
        root: frame.clone(),
        frame,
        frame_extents,
        window,
        offset,
        windows,
    };
    if element.path == placement.frame.path || !above.iter().any(|w| w.override_redirect) {
        return Ok(placement);
    }
    let ancestors = ancestors_below(a11y, element, &placement.frame)
        .await
        .map_err(gone_if)?;
    let mut reported = Vec::with_capacity(ancestors.len());
    for ancestor in &ancestors {
        reported.push(ancestor.extents(a11y).await.map_err(gone_if)?);
    }
    let shown: Vec<Rect> = reported.iter().map(|r| placement.to_screen(*r)).collect();
    if let Some((index, popup)) = popup_of(&above, &shown) {
        return Ok(Placement {
            window: popup.clone(),
            root: ancestors[index].clone(),
            ..placement
        });
    }
    Ok(match surface_of(&above, &reported) {
        // GTK4: the popover's extents count from its own surface's corner.
        Some((index, popup)) => Placement {
            offset: (popup.x, popup.y),
            window: popup.clone(),
            root: ancestors[index].clone(),
            ..placement
        },
        None => placement,
    })
}

/// The popup an element is shown in when its toolkit reports extents relative to the popup's
/// own surface (GTK4's popovers): among the override-redirect windows `above` the main window,
/// the topmost that one of `reported` (the element's and its ancestors' extents as reported,
/// nearest first) spans — the index of that ancestor and the window. Tried after
/// [`popup_of`], which knows screen coordinates.
fn surface_of<'w>(above: &'w [TopWindow], reported: &[Rect]) -> Option<(usize, &'w TopWindow)> {
    topmost_popup(above, reported, spans)
}

/// Whether `rect`, counted from `window`'s corner, is the window's content: it lies inside the
/// window, fills it along one axis and meets one end of the other — a GTK4 popover fills its
/// surface but for its arrow, which sits on the side towards the widget it points at.
fn spans(window: &TopWindow, rect: &Rect) -> bool {
    let (w, h) = (window.width, window.height);
    let inside = rect.width > 0
        && rect.height > 0
        && rect.x >= 0
        && rect.y >= 0
        && rect.x + rect.width <= w
        && rect.y + rect.height <= h;
    let across = rect.x == 0 && rect.width == w && (rect.y == 0 || rect.y + rect.height == h);
    let down = rect.y == 0 && rect.height == h && (rect.x == 0 || rect.x + rect.width == w);
    inside && (across || down)
}

/// The element and its ancestors below `frame`, nearest first (bounded like every walk up).
async fn ancestors_below(
    a11y: &zbus::Connection,
    element: &Element,
    frame: &Element,
) -> Result<Vec<Element>, GuiError> {
    let mut chain = vec![element.clone()];
    for _ in 0..64 {
        let last = &chain[chain.len() - 1];
        match last.parent_path(a11y).await? {
            Some(parent) if parent != frame.path => chain.push(Element {
                path: parent,
                ..element.clone()
            }),
            _ => break,
        }
    }
    Ok(chain)
}

/// The popup an element is shown in: among the program's windows `above` its main window
/// (bottom to top), the topmost override-redirect one that one of `shown` (the screen extents
/// of the element and its ancestors, nearest first) fills — the index of that ancestor and the
/// window. `None` when the element is not in a popup, a window it only lies under included.
fn popup_of<'w>(above: &'w [TopWindow], shown: &[Rect]) -> Option<(usize, &'w TopWindow)> {
    topmost_popup(above, shown, fills)
}

/// Among the override-redirect windows of `above` (bottom to top), the topmost for which one
/// of `rects` (nearest first) `holds`: that rect's index and the window.
fn topmost_popup<'w>(
    above: &'w [TopWindow],
    rects: &[Rect],
    holds: fn(&TopWindow, &Rect) -> bool,
) -> Option<(usize, &'w TopWindow)> {
    above
        .iter()
        .rev()
        .filter(|w| w.override_redirect)
        .find_map(|w| rects.iter().position(|r| holds(w, r)).map(|i| (i, w)))
}

/// Whether `rect` (screen pixels) is the content of `window`: it fits with an even border and
/// sits inside that border.
fn fills(window: &TopWindow, rect: &Rect) -> bool {
    let border = (window.width - rect.width) / 2;
    fits(window, rect) && rect.x == window.x + border && rect.y == window.y + border
}

/// The windows of `windows` whose `_NET_WM_PID` is a process of group `pgid` (the program's),
/// in the listing's order.
pub(crate) fn of_group(windows: &[TopWindow], pgid: u32) -> Vec<&TopWindow> {
    let in_group = |pid: u32| ProcessInfo::read(pid as i32).is_some_and(|p| p.pgid as u32 == pgid);
    windows
        .iter()
        .filter(|w| w.pid.is_some_and(in_group))
        .collect()
}

/// Whether an X window holds an accessible window of this size with an even border around it
/// (none, or a client-side one).
pub(crate) fn fits(window: &TopWindow, frame: &Rect) -> bool {
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
            override_redirect: false,
        }
    }

    fn rect(x: i32, y: i32, width: i32, height: i32) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    fn popup(x: i32, y: i32, width: i32, height: i32) -> TopWindow {
        TopWindow {
            id: 2,
            x,
            y,
            width,
            height,
            override_redirect: true,
            ..window(0, 0)
        }
    }

    /// GTK3's combo box list (`ids.py`): the menu item's parent, the menu, fills the
    /// override-redirect popup exactly, so the item is the popup's.
    #[test]
    fn an_item_whose_ancestor_fills_a_popup_is_the_popups() {
        let item = rect(0, 74, 79, 29);
        let menu = rect(0, 41, 79, 95);
        let combo = rect(0, 40, 79, 34);
        let above = [popup(0, 41, 79, 95)];
        let (index, window) = popup_of(&above, &[item, menu, combo]).expect("the popup");
        assert_eq!((index, window.id), (1, 2));
    }

    /// A popup of the program that an element only lies under (a tooltip over a button, a
    /// menu over a list) is not the element's window: the hit test keeps calling it a cover.
    #[test]
    fn an_element_under_a_popup_it_does_not_fill_stays_the_main_windows() {
        let button = rect(10, 10, 60, 30);
        let filler = rect(0, 0, 79, 197);
        let tooltip = popup(0, 0, 100, 50);
        assert_eq!(popup_of(&[tooltip], &[button, filler]), None);
        // Same size as the button but elsewhere: not its content either.
        assert_eq!(popup_of(&[popup(20, 10, 60, 30)], &[button]), None);
        // A managed (not override-redirect) window of the program is never taken for a popup.
        let dialog = TopWindow {
            override_redirect: false,
            ..popup(10, 10, 60, 30)
        };
        assert_eq!(popup_of(&[dialog], &[button]), None);
    }

    /// With two popups filled by the element's ancestors (a submenu over its menu), the
    /// topmost wins.
    #[test]
    fn the_topmost_popup_the_element_is_in_wins() {
        let item = rect(100, 50, 80, 20);
        let submenu = rect(100, 40, 80, 60);
        let menu = rect(0, 40, 100, 200);
        let lower = TopWindow {
            id: 3,
            ..popup(0, 40, 100, 200)
        };
        let upper = popup(100, 40, 80, 60);
        let above = [lower, upper];
        let (index, window) = popup_of(&above, &[item, submenu, menu]).unwrap();
        assert_eq!((index, window.id), (1, 2));
    }

    /// GTK4's drop-down (`choices4.py`): the popover reports (0, 6) 79×120 in its 79×126
    /// surface (its arrow on top), the item inside it counts from the same corner; nothing
    /// nearer the item spans the surface.
    #[test]
    fn a_gtk4_popover_spanning_its_surface_is_the_items_popup() {
        let item = rect(12, 57, 55, 16);
        let content = rect(4, 9, 71, 112);
        let popover = rect(0, 6, 79, 120);
        let combo = rect(0, 0, 67, 34);
        let above = [popup(-3, 32, 79, 126)];
        let (index, window) =
            surface_of(&above, &[item, content, popover, combo]).expect("the popover");
        assert_eq!((index, window.id), (2, 2));
        // Its arrow below (a popover above its widget), or none.
        assert!(spans(&above[0], &rect(0, 0, 79, 120)));
        assert!(spans(&above[0], &rect(0, 0, 79, 126)));
        // Inside but filling neither axis, or larger than the surface: not its content.
        assert!(!spans(&above[0], &content));
        assert!(!spans(&above[0], &rect(0, 0, 80, 126)));
        // A managed window is no popup.
        let managed = TopWindow {
            override_redirect: false,
            ..popup(-3, 32, 79, 126)
        };
        assert_eq!(surface_of(&[managed], &[popover]), None);
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
