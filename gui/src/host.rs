//! Where a scenario's program runs: a desktop the tool owns for that scenario, or one it attached
//! to (`--gui-display`), behind one handle so steps never ask which.
//!
//! Why one owned desktop per scenario (not per run): a scenario must not inherit the last one's
//! open modal, focus, clipboard, accessibility registrations or a wedged X server, and the
//! desktop costs ~0.15–0.3 s to start (`docs/gui.md`), less than the program itself. An
//! attached desktop is shared by every scenario and never stopped; only the program is.

use crate::attach::Attached;
use crate::desktop::{Desktop, DesktopOptions};
use crate::error::GuiError;
use crate::input::Input;
use crate::program::{Program, ProgramSpec};

/// The desktop under one scenario's program.
#[derive(Debug)]
pub enum Host {
    /// Started for this scenario; stopped with it.
    Owned(Desktop),
    /// Someone else's; left running.
    Attached(Attached),
}

impl Host {
    /// An owned desktop of `width`×`height`, or the one at `display` when given.
    pub async fn open(display: Option<&str>, width: u16, height: u16) -> Result<Host, GuiError> {
        match display {
            Some(display) => Ok(Host::Attached(Attached::connect(display).await?)),
            None => {
                let options = DesktopOptions {
                    width,
                    height,
                    ..DesktopOptions::default()
                };
                Ok(Host::Owned(Desktop::start(&options).await?))
            }
        }
    }

    /// The accessibility bus connection.
    pub fn a11y(&self) -> &zbus::Connection {
        match self {
            Host::Owned(d) => d.a11y(),
            Host::Attached(a) => a.a11y(),
        }
    }

    /// The X display, e.g. `:3`.
    pub fn display(&self) -> &str {
        match self {
            Host::Owned(d) => d.display(),
            Host::Attached(a) => a.display(),
        }
    }

    /// Real input and screenshots here.
    pub fn input(&self) -> Result<Input, GuiError> {
        match self {
            Host::Owned(d) => d.input(),
            Host::Attached(a) => a.input(),
        }
    }

    /// Start `spec` here.
    pub async fn start_program(&self, spec: &ProgramSpec) -> Result<Program, GuiError> {
        match self {
            Host::Owned(d) => d.start_program(spec).await,
            Host::Attached(a) => a.start_program(spec).await,
        }
    }

    /// Stop what the tool owns here (an owned desktop; nothing of an attached one); true when
    /// nothing of it lives.
    pub fn shutdown(self) -> bool {
        match self {
            Host::Owned(d) => d.shutdown(),
            Host::Attached(_) => true,
        }
    }
}
