//! What a `surface = "gui"` scenario may hold (`docs/gui.md`): the program the project's `gui`
//! block starts, and the steps, conditions and targets a desktop driver runs.
//!
//! Why desktop steps are the web IR's own `Action`s (unlike the terminal's separate enum): a
//! desktop `click`, `fill` or `expect { rendered_text }` means what it means on a page — one
//! element found by role, label or text, acted on with real input, read back until it holds —
//! so the checker's rules, the runner's retry loop and every reporter apply unchanged. What a
//! desktop lacks (a URL, CSS, cookies, routes, tabs) is listed here and refused at admission.

use super::ActionKind;
use serde::{Deserialize, Serialize};

/// The steps a desktop scenario may hold (`wheel` is the desktop's scroll; `select` chooses one
/// option of a combo box, or one or several of a list).
pub const GUI_STEPS: &[ActionKind] = &[
    ActionKind::Click,
    ActionKind::DoubleClick,
    ActionKind::Fill,
    ActionKind::Type,
    ActionKind::Press,
    ActionKind::Check,
    ActionKind::Uncheck,
    ActionKind::Select,
    ActionKind::Wheel,
    ActionKind::Wait,
    ActionKind::Expect,
    ActionKind::Screenshot,
    ActionKind::Snapshot,
];

/// The project file's `gui { … }` block: the desktop program a `surface = "gui"` scenario runs
/// (`docs/gui.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuiProgram {
    /// Argument vector, run without a shell.
    pub command: Vec<String>,
    /// Working directory, relative to the project folder (or absolute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Variables set for the program, in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<(String, String)>,
    /// Screen width in pixels at start (default 1280).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u16>,
    /// Screen height in pixels at start (default 800).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u16>,
}
