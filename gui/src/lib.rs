//! The desktop (GUI) surface of A3S Test, first part: an owned headless desktop and programs on
//! it, found on the accessibility bus.
//!
//! Why a crate of its own: like `a3s-test-web` and `a3s-test-tui`, a surface owns its processes,
//! its protocol (AT-SPI over D-Bus, the X server) and its failure codes, and the runner names no
//! surface crate. What exists and what is to come is in `docs/gui.md`.

pub mod action;
pub mod actionable;
pub mod ancestry;
pub mod app;
pub mod appear;
pub mod attach;
pub mod baseline;
mod bus_config;
mod calls;
mod default_button;
pub mod desktop;
pub mod driver;
pub mod element;
pub mod ended;
pub mod error;
pub mod find;
pub mod focus;
pub mod hit;
pub mod host;
pub mod input;
mod kept;
pub mod keys;
pub mod locate;
mod modal;
mod owned;
pub mod program;
pub mod reads;
mod ready;
pub mod screenshot;
pub mod scroll;
pub mod select;
pub mod timing;
pub mod toolkit;
pub mod tree;
pub mod wait;
pub mod window;
pub mod x11;
mod x11_modal;
pub mod x11_stream;

pub use app::App;
pub use desktop::{Desktop, DesktopOptions};
pub use element::{Element, Rect};
pub use error::{GuiCode, GuiError, ProgramExit};
pub use find::Query;
pub use input::{Acted, Clicks, Input, InputPath};
pub use keys::Chord;
pub use program::{Program, ProgramSpec};
pub use screenshot::Screenshot;
pub use wait::{Condition, TextMatch, Waited};
