//! The agent surface of a terminal: what an agent session needs from a live terminal context
//! beyond `SurfaceContext::execute` — the screen as plain data, a wait for the program to go
//! quiet, and the program's process group.
//!
//! Why a second small trait (not `AgentContext`): `AgentContext` is the page's agent surface —
//! document identity, an operable-control snapshot with backend nodes, a network filter, Test Kit
//! bridge calls, layout facts — and none of it has a meaning on a terminal. Implementing it for a
//! terminal would be fifteen methods answering "unsupported", and every gate built on them (ref
//! proofs, origin checks) would have to ask first whether it applies. A terminal session has one
//! gate of its own instead — input is refused when the screen changed since the observation the
//! agent names — and needs three things to enforce it, which this trait states. The session code
//! is generic over it, so it names no concrete driver (the binary injects one), exactly as it is
//! over [`crate::AgentContext`] for the Web.
//!
//! [`TerminalScreen`] is surface-neutral data (rows of text, the cursor, the modes, a revision),
//! so the session's views, diffs and gates never see an emulator type.

use crate::api::{BrowserProcess, SurfaceContext, SurfaceDriver};
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;

/// The cursor of a terminal screen, 1-based as `expect { cursor_at }` counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenCursor {
    /// Row, 1 at the top.
    pub row: u32,
    /// Column, 1 at the left.
    pub column: u32,
    /// Whether the program shows it.
    pub visible: bool,
}

/// The terminal modes an agent may need to know before it sends input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenModes {
    /// A paste is wrapped in bracketed-paste markers.
    pub bracketed_paste: bool,
    /// Arrow keys send application sequences (`ESC O x`).
    pub application_cursor: bool,
    /// The program is on the alternate screen (a full-screen program).
    pub alternate_screen: bool,
}

/// The screen of a terminal at one moment, as plain text rows: what an agent observes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerminalScreen {
    /// The change count when it was read: any output processed or resize increases it, so
    /// "has the screen changed since observation N" is one comparison.
    pub revision: u64,
    /// Columns.
    pub columns: u32,
    /// The visible rows, top first, trailing blanks removed (untrusted program output).
    pub rows: Vec<String>,
    /// The cursor.
    pub cursor: ScreenCursor,
    /// The modes.
    pub modes: ScreenModes,
    /// How the program ended (`exited with code 0`, `killed by signal 9`), once it has.
    pub exit: Option<String>,
}

/// What waiting for a quiet terminal found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenSettled {
    /// True when the screen did not change for the quiet period; false when the cap came first.
    pub settled: bool,
    /// How long the wait took, in ms.
    pub waited_ms: u64,
}

/// The agent surface of a live terminal context (see the module doc for why it is its own trait).
pub trait TerminalAgentContext: SurfaceContext + Sync {
    /// The screen now, with every byte the program wrote before this call on it: output the
    /// terminal has not processed yet is waited for (within `deadline`), so a gate that compares
    /// revisions never misses a change that was already on its way.
    fn screen(&self, deadline: Instant) -> impl Future<Output = TerminalScreen> + Send;

    /// Wait until the screen made no change for `quiet` (and, when `after` is given, first until
    /// its revision passed `after`: the program reacted to the input just sent), or until `cap`
    /// passed; never past `deadline`. Lets an observation that follows input show the program's
    /// answer instead of the screen before it.
    fn settle(
        &self,
        after: Option<u64>,
        quiet: Duration,
        cap: Duration,
        deadline: Instant,
    ) -> impl Future<Output = ScreenSettled> + Send;

    /// The program's pid and the process group it leads (recorded so a session's cleanup can
    /// prove nothing of it survives).
    fn program_process(&self) -> BrowserProcess;
}

/// A driver a terminal agent session can own: its contexts have the terminal agent surface.
pub trait TerminalAgentDriver: SurfaceDriver<Context: TerminalAgentContext> {}

impl<D: SurfaceDriver<Context: TerminalAgentContext>> TerminalAgentDriver for D {}
