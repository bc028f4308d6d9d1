//! Agent sessions on a desktop: a program on an X desktop the supervisor owns (the X server,
//! the private session and accessibility buses and the program, each in a process group of its
//! own with the parent-death signal), driven one statement at a time.
//!
//! - [`engine`]: the turns — observe, exec (admitted as a `surface = "gui"` step and run through
//!   the one step runner), finish, abort — generic over the desktop agent contract
//!   (`a3s_test_driver::DesktopAgentDriver`); the binary injects the driver. Observations reuse
//!   the page's view (outline, `@eN` numbering, `--since` diffs, budgets) with the program and
//!   its top-level window as the "document": a changed binding invalidates every ref.
//! - [`promote`]: the passing turns as a `surface = "gui"` suite and the `run` line for it.

pub mod engine;
pub mod promote;

pub use engine::DesktopEngine;
