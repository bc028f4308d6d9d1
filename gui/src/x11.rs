//! One connection to the desktop's X server: its top-level windows, their owners and stacking.
//!
//! Why the X server is asked at all (the accessibility tree says much): which window is on top
//! at a point, where a window really is on the screen, and whose it is (`_NET_WM_PID`) are known
//! only to the X server — with no window manager nothing else keeps that order. Input
//! (`crate::input`) and screenshots (`crate::screenshot`) go through the same connection.
//!
//! Every call has a bound: the connection runs over `crate::x11_stream`'s stream, so an X server
//! that says nothing for [`X11_WITHIN`] (5 s) fails the call as `test.driver.gui.x11` ("did not
//! answer within"), and every later call on this `X11` fails at once with the same error.

use crate::error::GuiError;
pub use crate::x11_stream::X11_WITHIN;
use crate::x11_stream::{self, BoundedConnection};
use std::time::Duration;
use x11rb::connection::Connection as _;
use x11rb::errors::ReplyError;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, MapState, Window};
use x11rb::protocol::ErrorKind;

/// A connection to one X server's first screen.
#[derive(Debug)]
pub struct X11 {
    conn: BoundedConnection,
    root: Window,
    width: u16,
    height: u16,
    net_wm_pid: u32,
    net_wm_name: u32,
    utf8_string: u32,
    net_wm_state: u32,
    net_wm_state_modal: u32,
}

/// A mapped top-level window (a child of the root window).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopWindow {
    /// Its X id.
    pub id: Window,
    /// Left edge on the screen.
    pub x: i32,
    /// Top edge on the screen.
    pub y: i32,
    /// Width.
    pub width: i32,
    /// Height.
    pub height: i32,
    /// The process that owns it (`_NET_WM_PID`), when it says.
    pub pid: Option<u32>,
    /// Its title (`_NET_WM_NAME`, else `WM_NAME`), possibly empty.
    pub title: String,
    /// Whether it is override-redirect: a popup (a combo box's list, a menu, a tooltip) that
    /// places itself, never managed as a window of its own.
    pub override_redirect: bool,
}

impl TopWindow {
    /// Whether the screen point is inside it.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.width && y < self.y + self.height
    }

    /// How messages name it: `window 0x400004 "Calculator" (pid 7170)`.
    pub fn describe(&self) -> String {
        match self.pid {
            Some(pid) => format!("window {:#x} {:?} (pid {pid})", self.id, self.title),
            None => format!("window {:#x} {:?}", self.id, self.title),
        }
    }
}

impl X11 {
    /// Connect to `display` (e.g. `:3`); every call waits for the server at most
    /// [`X11_WITHIN`].
    pub fn open(display: &str) -> Result<X11, GuiError> {
        X11::open_with_bound(display, X11_WITHIN)
    }

    /// [`X11::open`] with another bound on each wait for the server: for tests that stop the
    /// server and should not wait the product's 5 s.
    pub fn open_with_bound(display: &str, within: Duration) -> Result<X11, GuiError> {
        let (conn, screen) =
            x11_stream::connect(display, within).map_err(|e| GuiError::x11("connect", e))?;
        let root = &conn.setup().roots[screen];
        let (root, width, height) = (root.root, root.width_in_pixels, root.height_in_pixels);
        let atom = |name: &[u8]| -> Result<u32, GuiError> {
            let cookie = conn
                .intern_atom(false, name)
                .map_err(|e| GuiError::x11("InternAtom", e))?;
            Ok(cookie
                .reply()
                .map_err(|e| GuiError::x11("InternAtom", e))?
                .atom)
        };
        let net_wm_pid = atom(b"_NET_WM_PID")?;
        let net_wm_name = atom(b"_NET_WM_NAME")?;
        let utf8_string = atom(b"UTF8_STRING")?;
        let net_wm_state = atom(b"_NET_WM_STATE")?;
        let net_wm_state_modal = atom(b"_NET_WM_STATE_MODAL")?;
        Ok(X11 {
            conn,
            root,
            width,
            height,
            net_wm_pid,
            net_wm_name,
            utf8_string,
            net_wm_state,
            net_wm_state_modal,
        })
    }

    /// The connection, for the modules that send requests of their own.
    pub(crate) fn conn(&self) -> &BoundedConnection {
        &self.conn
    }

    /// Fails once a call outlived the bound: for reads that take a failed request as "gone"
    /// (a window closed while it was read), which must not take a silent server for one.
    fn answering(&self, request: &'static str) -> Result<(), GuiError> {
        self.conn
            .stream()
            .usable()
            .map_err(|e| GuiError::x11(request, e))
    }

    /// The root window.
    pub fn root(&self) -> Window {
        self.root
    }

    /// The screen's size in pixels.
    pub fn size(&self) -> (u16, u16) {
        (self.width, self.height)
    }

    /// Wait until the server has handled every request sent so far (one round trip).
    pub fn sync(&self) -> Result<(), GuiError> {
        self.conn
            .get_input_focus()
            .map_err(|e| GuiError::x11("GetInputFocus", e))?
            .reply()
            .map_err(|e| GuiError::x11("GetInputFocus", e))?;
        Ok(())
    }

    /// The mapped top-level windows, bottom to top (the server's stacking order).
    pub fn top_windows(&self) -> Result<Vec<TopWindow>, GuiError> {
        let failed = |e: &dyn std::fmt::Display| GuiError::x11("QueryTree", e);
        let children = self
            .conn
            .query_tree(self.root)
            .map_err(|e| failed(&e))?
            .reply()
            .map_err(|e| failed(&e))?
            .children;
        let mut windows = Vec::new();
        for id in children {
            // A window may go while it is read: it is then not on the screen.
            let Some(window) = self.top_window(id) else {
                self.answering("GetWindowAttributes")?;
                continue;
            };
            windows.push(window);
        }
        // A title read that timed out reads as no title.
        self.answering("GetProperty")?;
        Ok(windows)
    }

    /// One mapped top-level window, `None` when it is unmapped or gone.
    fn top_window(&self, id: Window) -> Option<TopWindow> {
        let attributes = self.conn.get_window_attributes(id).ok()?.reply().ok()?;
        if attributes.map_state != MapState::VIEWABLE {
            return None;
        }
        let geometry = self.conn.get_geometry(id).ok()?.reply().ok()?;
        let pid = self
            .conn
            .get_property(false, id, self.net_wm_pid, AtomEnum::CARDINAL, 0, 1)
            .ok()?
            .reply()
            .ok()?
            .value32()
            .and_then(|mut values| values.next());
        Some(TopWindow {
            id,
            x: geometry.x.into(),
            y: geometry.y.into(),
            width: geometry.width.into(),
            height: geometry.height.into(),
            pid,
            title: self.title(id),
            override_redirect: attributes.override_redirect,
        })
    }

    /// Whether a window says it is modal: `_NET_WM_STATE` holds `_NET_WM_STATE_MODAL`. With no
    /// window manager the toolkit writes the property itself before it maps the window (Qt 5,
    /// GTK3 and GTK4 do). `Ok(false)` for a window gone meanwhile (`BadWindow`: nothing in the
    /// way); any other failure is an error, never "not modal".
    pub fn is_modal(&self, id: Window) -> Result<bool, GuiError> {
        let failed = |e: &dyn std::fmt::Display| GuiError::x11("GetProperty", e);
        let reply = self
            .conn
            .get_property(false, id, self.net_wm_state, AtomEnum::ATOM, 0, 32)
            .map_err(|e| failed(&e))?
            .reply();
        let reply = match reply {
            Ok(reply) => reply,
            Err(ReplyError::X11Error(e)) if e.error_kind == ErrorKind::Window => return Ok(false),
            Err(e) => return Err(failed(&e)),
        };
        Ok(reply
            .value32()
            .is_some_and(|mut atoms| atoms.any(|atom| atom == self.net_wm_state_modal)))
    }

    /// A window's title, empty when it has none.
    fn title(&self, id: Window) -> String {
        let read = |property: u32, kind: u32| {
            self.conn
                .get_property(false, id, property, kind, 0, 256)
                .ok()?
                .reply()
                .ok()
                .map(|reply| String::from_utf8_lossy(&reply.value).into_owned())
                .filter(|title| !title.is_empty())
        };
        read(self.net_wm_name, self.utf8_string)
            .or_else(|| read(AtomEnum::WM_NAME.into(), AtomEnum::STRING.into()))
            .unwrap_or_default()
    }
}
