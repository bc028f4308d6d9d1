//! A modal window as the X server knows it: the program's viewable top-level window whose
//! `_NET_WM_STATE` holds `_NET_WM_STATE_MODAL`, and the accessible window it is.
//!
//! Why X11 and not AT-SPI: Qt 5 (PyQt 5.15.8) marks no window `modal` over AT-SPI — a modal
//! `QDialog` reports only active, enabled, resizable, sensitive, showing and visible — yet drops
//! every click and key meant for the window under it. Its xcb plugin, like GTK3 and GTK4, writes
//! `_NET_WM_STATE_MODAL` on the dialog's X window before mapping it (there is no window manager
//! to ask), and leaves it off a non-modal dialog. So when the accessibility tree shows no modal
//! window, `crate::modal` asks this module.
//!
//! An X window is matched to the program's accessible top-level window by its title (the
//! accessible name) and its size (`crate::window::fits`); the topmost such window wins, as in
//! `crate::window::locate_in`. A modal X window no accessible window matches still keeps input
//! from the windows under it: the caller refuses that input all the same, naming the X window.
//! An X error is an error (the step fails with `test.driver.gui.x11`), never "not modal": a
//! check that could not be made must not let input through to be dropped and pass.

use crate::error::GuiError;
use crate::tree::Node;
use crate::window;
use crate::x11::{TopWindow, X11};

/// A modal window found on the X server.
#[derive(Debug, Clone)]
pub(crate) struct ModalWindow {
    /// Its X window.
    pub window: TopWindow,
    /// The program's accessible top-level window it is, when one matches.
    pub accessible: Option<Node>,
}

impl ModalWindow {
    /// How a refusal names it: the accessible window, else the X window.
    pub fn describe(&self, bus_name: &str) -> String {
        match &self.accessible {
            Some(node) => format!(
                "the modal {}",
                crate::find::element(bus_name, node).describe()
            ),
            None => format!(
                "the modal {} (its accessible window was not found)",
                self.window.describe()
            ),
        }
    }
}

/// The topmost of the program's (process group `pgid`) managed windows in `windows` (a listing,
/// bottom to top) that says it is modal, matched to the accessible top-level window it is —
/// other than the X window `except` and the accessible window at path `frame` (the element's
/// own window, which keeps no input from itself, whether the element is in it or in a popup
/// of it).
pub(crate) async fn modal_window(
    x: &X11,
    a11y: &zbus::Connection,
    bus_name: &str,
    windows: &[TopWindow],
    pgid: u32,
    except: Option<(u32, &str)>,
) -> Result<Option<ModalWindow>, GuiError> {
    for w in window::of_group(windows, pgid).into_iter().rev() {
        // A popup (override-redirect) is never a dialog.
        if w.override_redirect || except.is_some_and(|(id, _)| id == w.id) {
            continue;
        }
        if !x.is_modal(w.id)? {
            continue;
        }
        let accessible = accessible_of(a11y, bus_name, w).await?;
        let own = accessible
            .as_ref()
            .is_some_and(|node| except.is_some_and(|(_, frame)| frame == node.path));
        if !own {
            return Ok(Some(ModalWindow {
                window: w.clone(),
                accessible,
            }));
        }
    }
    Ok(None)
}

/// The program's accessible top-level window named as `window` is titled and as large: the
/// extents of only the windows so named are asked for.
async fn accessible_of(
    a11y: &zbus::Connection,
    bus_name: &str,
    window: &TopWindow,
) -> Result<Option<Node>, GuiError> {
    let named: Vec<Node> = crate::tree::top_levels(a11y, bus_name)
        .await?
        .into_iter()
        .filter(|n| n.depth == 1 && n.name == window.title)
        .collect();
    for node in named.into_iter().rev() {
        // A window closing meanwhile is not the one.
        let Ok(extents) = crate::find::element(bus_name, &node).extents(a11y).await else {
            continue;
        };
        if window::fits(window, &extents) {
            return Ok(Some(node));
        }
    }
    Ok(None)
}
