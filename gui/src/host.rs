//! Where a scenario's program runs: a desktop the tool owns for that scenario, or one it attached
//! to (`--gui-display`), behind one handle so steps never ask which; and what finds keep on it.
//!
//! Why one owned desktop per scenario (not per run): a scenario must not inherit the last one's
//! open modal, focus, clipboard, accessibility registrations or a wedged X server, and the
//! desktop costs ~0.15–0.3 s to start (`docs/gui.md`), less than the program itself. An
//! attached desktop is shared by every scenario and never stopped; only the program is.
//!
//! The reads finds keep from one to the next (`crate::kept`) are the host's: they hold event
//! subscriptions on its accessibility bus, so they end with it rather than outlive it in a
//! process-wide table.

use crate::app::App;
use crate::attach::Attached;
use crate::desktop::{Desktop, DesktopOptions};
use crate::error::GuiError;
use crate::input::Input;
use crate::kept::KeptTrees;
use crate::program::{Program, ProgramSpec};

/// The desktop under one scenario's program, and the reads its finds keep.
#[derive(Debug)]
pub struct Host {
    place: Place,
    /// The reads finds keep here (`crate::kept`); dropping them aborts their event drains.
    kept: KeptTrees,
}

/// Whose desktop it is.
#[derive(Debug)]
enum Place {
    /// Started for this scenario; stopped with it.
    Owned(Desktop),
    /// Someone else's; left running.
    Attached(Attached),
}

impl Host {
    /// An owned desktop of `width`×`height`, or the one at `display` when given.
    pub async fn open(display: Option<&str>, width: u16, height: u16) -> Result<Host, GuiError> {
        let place = match display {
            Some(display) => Place::Attached(Attached::connect(display).await?),
            None => {
                let options = DesktopOptions {
                    width,
                    height,
                    ..DesktopOptions::default()
                };
                Place::Owned(Desktop::start(&options).await?)
            }
        };
        Ok(Host {
            place,
            kept: KeptTrees::default(),
        })
    }

    /// A host owning `desktop`, started by the caller: for a benchmark that also drives the same
    /// desktop from outside (`gui/examples/bench_gui.rs` runs pyatspi on it) and must find as a
    /// suite's steps do, through [`Host::app`].
    pub fn owning(desktop: Desktop) -> Host {
        Host {
            place: Place::Owned(desktop),
            kept: KeptTrees::default(),
        }
    }

    /// The owned desktop; `None` when attached to someone else's.
    pub fn desktop(&self) -> Option<&Desktop> {
        match &self.place {
            Place::Owned(d) => Some(d),
            Place::Attached(_) => None,
        }
    }

    /// The accessibility bus connection.
    pub fn a11y(&self) -> &zbus::Connection {
        match &self.place {
            Place::Owned(d) => d.a11y(),
            Place::Attached(a) => a.a11y(),
        }
    }

    /// The X display, e.g. `:3`.
    pub fn display(&self) -> &str {
        match &self.place {
            Place::Owned(d) => d.display(),
            Place::Attached(a) => a.display(),
        }
    }

    /// Real input and screenshots here.
    pub fn input(&self) -> Result<Input, GuiError> {
        match &self.place {
            Place::Owned(d) => d.input(),
            Place::Attached(a) => a.input(),
        }
    }

    /// Start `spec` here.
    pub async fn start_program(&self, spec: &ProgramSpec) -> Result<Program, GuiError> {
        match &self.place {
            Place::Owned(d) => d.start_program(spec).await,
            Place::Attached(a) => a.start_program(spec).await,
        }
    }

    /// `program` (started here) as finds and reads reach it, its finds answered from the reads
    /// kept here while its events say nothing they see changed — when its toolkit announces the
    /// children it adds (`Toolkit::announces_added_children`: Qt, not GTK3 nor GTK4).
    pub async fn app<'a>(&'a self, program: &'a Program) -> App<'a> {
        let app = program.app(self.a11y()).await;
        // Reads are kept only for a toolkit whose events say when a child was added; a program
        // that did not name its toolkit is read afresh too.
        let announces = app
            .toolkit
            .is_some_and(crate::toolkit::Toolkit::announces_added_children);
        App {
            kept: announces.then_some(&self.kept),
            ..app
        }
    }

    /// Stop what the tool owns here (an owned desktop; nothing of an attached one); true when
    /// nothing of it lives. The kept reads end first, their subscriptions with them.
    pub fn shutdown(self) -> bool {
        let Host { place, kept } = self;
        drop(kept);
        match place {
            Place::Owned(d) => d.shutdown(),
            Place::Attached(_) => true,
        }
    }
}
