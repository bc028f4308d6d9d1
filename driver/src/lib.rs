//! `a3s-test-driver`: the contract every surface driver implements, and the plumbing they share.
//!
//! Each surface is its own crate beside this one (`a3s-test-web` for Chromium over CDP,
//! `a3s-test-tui` for terminal programs on a pseudoterminal); the runner and agent sessions
//! depend on this crate only, and the binary injects the drivers a run needs.
//!
//! The runner talks to a [`SurfaceDriver`] (one per run: it owns the browser or program) and opens one
//! isolated [`SurfaceContext`] per scenario. A driver advertises [`Capabilities`] so the runner can
//! refuse a step the driver cannot do *before* anything is opened; no code branches on a backend
//! name. Every outcome carries a typed [`FailureCode`] whose [`FailureClass`] keeps product,
//! specification, infrastructure and cleanup failures apart.

pub mod api;
pub mod atomic;
pub mod child;
pub mod desktop_agent;
pub mod detail;
pub mod evidence;
pub mod failure;
pub mod glob;
pub mod http;
pub mod page_facts;
pub mod privacy;
pub mod process;
pub mod snapshot;
pub mod storage_state;
pub mod terminal_agent;
pub mod tls;
pub mod trace;
pub mod trace_body;
pub mod vars;

pub use api::*;
pub use desktop_agent::{
    DesktopAgentContext, DesktopAgentDriver, PointClick, PointElement, WindowShot,
};
/// Write one evidence file confined to the scenario's artifact folder (no link followed, stale
/// output removed): every surface's driver writes evidence this one way.
pub use evidence::save as save_evidence;
pub use failure::{FailureClass, FailureCode};
/// Live members of a process group: not a Web-driver matter, so callers that must stay generic
/// over the driver (agent sessions) reach it here.
pub use process::live_group_members;
pub use terminal_agent::{
    ScreenCursor, ScreenModes, ScreenSettled, TerminalAgentContext, TerminalAgentDriver,
    TerminalScreen,
};
pub use vars::{MapVars, ProcessVars, VarSource};
