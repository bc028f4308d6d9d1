//! The desktop (GUI) surface of A3S Test, first part: an owned headless desktop and programs on
//! it, found on the accessibility bus.
//!
//! Why a crate of its own: like `a3s-test-web` and `a3s-test-tui`, a surface owns its processes,
//! its protocol (AT-SPI over D-Bus, the X server) and its failure codes, and the runner names no
//! surface crate. What exists and what is to come is in `docs/gui.md`.

mod bus_config;
pub mod desktop;
pub mod error;
mod owned;
pub mod program;
mod ready;
pub mod tree;

pub use desktop::{Desktop, DesktopOptions};
pub use error::{GuiCode, GuiError, ProgramExit};
pub use program::{Program, ProgramSpec};
