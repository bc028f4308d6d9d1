//! A desktop the tool attaches to instead of owning (`run --gui-display :N`): an X server and
//! accessibility bus someone else started, which the tool uses and never stops.
//!
//! Why through the root window's `AT_SPI_BUS` property: that is where a desktop publishes its
//! accessibility bus (the owned desktop writes it too, `crate::desktop`), so attaching needs only
//! the display number. Programs started here are still the tool's own — each in a process group
//! it owns and stops — only the X server, the buses and the registry are left alone.

use crate::error::GuiError;
use crate::program::{self, Program, ProgramSpec};
use std::ffi::OsString;
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _};

/// A desktop someone else owns: its display and accessibility bus.
#[derive(Debug)]
pub struct Attached {
    display: String,
    a11y_bus: String,
    a11y: zbus::Connection,
}

impl Attached {
    /// Attach to the X server at `display` (`:N`) and the accessibility bus its root window
    /// names; a display without one is `desktop_failed`, naming what is missing.
    pub async fn connect(display: &str) -> Result<Attached, GuiError> {
        let a11y_bus = root_bus_address(display)?;
        let a11y = zbus::connection::Builder::address(a11y_bus.as_str())
            .map_err(|e| GuiError::desktop("accessibility bus", format!("has a bad address: {e}")))?
            .build()
            .await
            .map_err(|e| GuiError::desktop("accessibility bus", format!("refused us: {e}")))?;
        crate::wait::register(&a11y).await?;
        Ok(Attached {
            display: display.to_owned(),
            a11y_bus,
            a11y,
        })
    }

    /// The X display, e.g. `:3`.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// A connection to the accessibility bus.
    pub fn a11y(&self) -> &zbus::Connection {
        &self.a11y
    }

    /// Real input and screenshots on this desktop (a new X connection).
    pub fn input(&self) -> Result<crate::input::Input, GuiError> {
        crate::input::Input::open(&self.display, &self.a11y)
    }

    /// The variables a program here gets on top of the caller's (whose session bus it keeps).
    pub fn env(&self) -> Vec<(OsString, OsString)> {
        vec![
            ("DISPLAY".into(), self.display.clone().into()),
            ("AT_SPI_BUS_ADDRESS".into(), self.a11y_bus.clone().into()),
            ("GDK_BACKEND".into(), "x11".into()),
            ("QT_QPA_PLATFORM".into(), "xcb".into()),
            ("QT_LINUX_ACCESSIBILITY_ALWAYS_ON".into(), "1".into()),
        ]
    }

    /// Start `spec` here, in a process group the tool owns (see [`Program`]).
    pub async fn start_program(&self, spec: &ProgramSpec) -> Result<Program, GuiError> {
        program::start_on(&self.a11y, self.env(), spec).await
    }
}

/// The root window's `AT_SPI_BUS` property on `display`.
fn root_bus_address(display: &str) -> Result<String, GuiError> {
    let failed = |e: &dyn std::fmt::Display| {
        GuiError::desktop("X server", format!("at {display} cannot be reached: {e}"))
    };
    let (conn, screen) = crate::x11_stream::connect(display, crate::x11_stream::X11_WITHIN)
        .map_err(|e| failed(&e))?;
    let root = conn.setup().roots[screen].root;
    let atom = conn
        .intern_atom(true, b"AT_SPI_BUS")
        .map_err(|e| failed(&e))?
        .reply()
        .map_err(|e| failed(&e))?
        .atom;
    let missing = || {
        GuiError::desktop(
            "accessibility bus",
            format!("is not published on {display} (no AT_SPI_BUS root property); hint: start at-spi-bus-launcher on that desktop"),
        )
    };
    if atom == 0 {
        return Err(missing());
    }
    let reply = conn
        .get_property(false, root, atom, AtomEnum::STRING, 0, 4096)
        .map_err(|e| failed(&e))?
        .reply()
        .map_err(|e| failed(&e))?;
    let address = String::from_utf8_lossy(&reply.value).trim().to_owned();
    if address.is_empty() {
        return Err(missing());
    }
    Ok(address)
}
