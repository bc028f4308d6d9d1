//! `a3s-test-driver`: the surfaces A3S Test can drive.
//!
//! The runner talks to a [`SurfaceDriver`] (one per run: it owns the browser process) and opens one
//! isolated [`SurfaceContext`] per scenario. A driver advertises [`Capabilities`] so the runner can
//! refuse a step the driver cannot do *before* anything is opened; no code branches on a backend
//! name. Every outcome carries a typed [`FailureCode`] whose [`FailureClass`] keeps product,
//! specification, infrastructure and cleanup failures apart.

pub mod api;
pub mod atomic;
pub mod child;
pub mod detail;
pub mod failure;
pub mod glob;
pub mod privacy;
pub mod process;
pub mod storage_state;
pub mod terminal_agent;
pub mod vars;
pub mod web;

pub use api::*;
pub use failure::{FailureClass, FailureCode};
/// Live members of a process group: not a Web-driver matter, so callers that must stay generic
/// over the driver (agent sessions) reach it here.
pub use process::live_group_members;
pub use terminal_agent::{
    ScreenCursor, ScreenModes, ScreenSettled, TerminalAgentContext, TerminalAgentDriver,
    TerminalScreen,
};
pub use vars::{MapVars, ProcessVars, VarSource};
pub use web::{LaunchOptions, WebContext, WebDriver};
