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
}

impl App<'_> {
    /// Whether its finds may answer from a read kept since the last find (`crate::kept`): only
    /// on a `Host`'s desktop, and only for a toolkit that announces the children it adds. Said
    /// so a test can prove it exercises kept reads rather than reads afresh without knowing it.
    pub fn keeps_reads(&self) -> bool {
        self.kept.is_some()
    }
}
