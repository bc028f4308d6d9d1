//! The agent surface of a desktop: what an agent session needs from a live desktop context
//! beyond `SurfaceContext::execute` — the program's windows and dialogs as an observation, the
//! binding (program and top-level window) every turn re-checks, proof that a ref's locator
//! names its node alone, a wait for the program to go quiet, and the program's process group.
//!
//! Why its own small trait (not `AgentContext`): `AgentContext` is the page's agent surface —
//! document identity from CDP, network filters, Test Kit bridge calls, layout facts — none of
//! which a desktop has. What a desktop *does* share with a page is the shape of what an agent
//! reads: operable controls with a role, a name and states, and text between them. So
//! [`DesktopAgentContext::observe`] answers with the page's [`PageSnapshot`] type, and the
//! session reuses the page's outline, ref numbering, `--since` diffs and budgets unchanged. The
//! snapshot's `loader_id` is the desktop's *binding*: a new program or a new top-level window is
//! a new "document", so ref numbers restart and old refs can never name a node of it.
//!
//! The session code is generic over it, so it names no concrete driver (the binary injects
//! one), exactly as it is over [`crate::AgentContext`] and [`crate::TerminalAgentContext`].

use crate::api::{BrowserProcess, DriverError, PageSnapshot, SurfaceContext, SurfaceDriver};
use a3s_test_lang::ir::Target;
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;

/// The agent surface of a live desktop context (see the module doc for why it is its own trait).
pub trait DesktopAgentContext: SurfaceContext + Sync {
    /// The program's windows and dialogs now: operable controls (each with a node id stable
    /// while the node lives) and the text between them, in tree order. `loader_id` is the
    /// binding [`Self::binding`] answers. A program that ended or shows no window is an error
    /// (`test.driver.gui.window_gone`).
    fn observe(
        &self,
        deadline: Instant,
    ) -> impl Future<Output = Result<PageSnapshot, DriverError>> + Send;

    /// The binding now — the program (pid, bus name) and its top-level window — as the one
    /// string an observation's `loader_id` holds; read before every observation and input, so
    /// a changed binding refuses input with nothing sent.
    fn binding(
        &self,
        deadline: Instant,
    ) -> impl Future<Output = Result<String, DriverError>> + Send;

    /// True when `target` names exactly one element of the program now, and it is the node
    /// `node` (an id from [`Self::observe`]): a ref is dispatched only through such a target.
    fn names_alone(
        &self,
        target: &Target,
        node: i64,
        deadline: Instant,
    ) -> impl Future<Output = Result<bool, DriverError>> + Send;

    /// Wait until the program sent no accessibility event for `quiet`, at most `cap` (never
    /// past `deadline`); true when it went quiet. Lets the observation that follows an input
    /// show the program's answer instead of the window before it.
    fn settle(
        &self,
        quiet: Duration,
        cap: Duration,
        deadline: Instant,
    ) -> impl Future<Output = bool> + Send;

    /// The program's first top-level window as a PNG (the image a `screenshot` step saves):
    /// a desktop session binds `@vN` to its digest, and captures again before a click at a
    /// point of it to prove the window still looks the same.
    fn window_shot(
        &self,
        deadline: Instant,
    ) -> impl Future<Output = Result<WindowShot, DriverError>> + Send;

    /// A real left click at `(x, y)` of the program's first top-level window (pixels from its
    /// top-left corner, as in [`Self::window_shot`]), after proving the point is inside the
    /// window and that window is on top there; answers with the element found at the point
    /// just before the press. Nothing is sent when the proof fails.
    fn click_point(
        &self,
        x: u32,
        y: u32,
        deadline: Instant,
    ) -> impl Future<Output = Result<PointClick, DriverError>> + Send;

    /// The program's pid and the process group it leads (recorded so a session's cleanup can
    /// prove nothing of it survives). The desktop below it (X server, buses) is owned by the
    /// same supervisor and stopped with the context.
    fn program_process(&self) -> BrowserProcess;
}

/// A window screenshot ([`DesktopAgentContext::window_shot`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowShot {
    /// The PNG file's bytes.
    pub png: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Screen x of the image's left edge (a step's detail reports screen pixels).
    pub left: i32,
    /// Screen y of the image's top edge.
    pub top: i32,
}

/// What a click at a window point pressed ([`DesktopAgentContext::click_point`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointClick {
    /// Screen x of the press.
    pub screen_x: i32,
    /// Screen y of the press.
    pub screen_y: i32,
    /// The control at the point before the press (the deepest accessible there, or its
    /// nearest ancestor an agent acts on), when there is one.
    pub element: Option<PointElement>,
}

/// The control found at a point: enough to write it as a locator and prove that locator
/// names it alone ([`DesktopAgentContext::names_alone`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointElement {
    /// Its role as suites write it (`push button`).
    pub role: String,
    /// Its accessible name, whitespace collapsed.
    pub name: String,
    /// Its node id, as [`DesktopAgentContext::observe`] numbers nodes.
    pub node: i64,
}

/// A driver a desktop agent session can own: its contexts have the desktop agent surface.
pub trait DesktopAgentDriver: SurfaceDriver<Context: DesktopAgentContext> {}

impl<D: SurfaceDriver<Context: DesktopAgentContext>> DesktopAgentDriver for D {}
