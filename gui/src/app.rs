//! A program as the finds and reads of a step reach it: the accessibility bus, the program's
//! name there, what is known of it once (its toolkit) and, on a desktop a `Host` owns, the
//! reads its finds keep (`crate::kept`), passed together.
//!
//! Why one value: every find reads the program's tree, and how it reads it (in bulk or walked)
//! depends on the toolkit; asking the program for it on every find was a bus call on the hot
//! path. A `Program` asks once and hands this out (`Program::app`, without kept reads: every
//! find reads afresh); a `Host` adds the kept reads it owns (`Host::app`).

use crate::kept::KeptTrees;
use crate::toolkit::Toolkit;
use crate::x11::X11;

/// A program on the accessibility bus, for finds and reads.
#[derive(Debug, Clone, Copy)]
pub struct App<'a> {
    /// The accessibility bus connection.
    pub a11y: &'a zbus::Connection,
    /// The program's unique name on it: the destination of every call on its tree.
    pub bus_name: &'a str,
    /// Its toolkit, `None` when it did not answer (its tree is then walked).
    pub toolkit: Option<&'a Toolkit>,
    /// The desktop's kept reads, when finds may answer from them.
    pub(crate) kept: Option<&'a KeptTrees>,
    /// The desktop's X server and the program's process group, when finds may ask it which
    /// window is modal (`crate::x11_modal`: Qt 5 says so only there).
    pub(crate) x11: Option<(&'a X11, u32)>,
}

impl<'a> App<'a> {
    /// The same, its finds narrowed also to a dialog only the X server `x` says is modal (Qt 5
    /// marks none `modal` over AT-SPI) — for the program whose process group is `pgid`.
    pub fn with_x11(self, x: &'a X11, pgid: u32) -> App<'a> {
        App {
            x11: Some((x, pgid)),
            ..self
        }
    }

    /// Whether its finds may answer from a read kept since the last find (`crate::kept`): only
    /// on a `Host`'s desktop, and only for a toolkit that announces the children it adds. Said
    /// so a test can prove it exercises kept reads rather than reads afresh without knowing it.
    pub fn keeps_reads(&self) -> bool {
        self.kept.is_some()
    }
}
