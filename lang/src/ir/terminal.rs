//! The admitted steps of a `surface = "tui"` scenario (`docs/acl.md` §5.1): a program on a
//! terminal, driven by keys, text and pastes, observed through its screen.
//!
//! Why a separate enum behind one [`crate::ir::Action::Terminal`] variant instead of more
//! `Action` variants: a terminal `wait`, `expect`, `press` or `type` shares its block name with a
//! web step but not its meaning (no target, a screen instead of a page), and the web IR every
//! web driver, agent verb and reporter matches on stays exactly as it was. The runner dispatches
//! on the variant; the terminal driver matches this enum exhaustively.

use super::terminal_key::Key;
use super::{ActionKind, EvidencePath, TextValue};
use serde::{Deserialize, Serialize};

/// One terminal step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "terminal", rename_all = "snake_case")]
pub enum TerminalStep {
    /// `wait { text | regex }`: until the screen shows it, within the scenario deadline.
    Wait {
        /// What the screen must show.
        condition: ScreenMatch,
    },
    /// `expect { … }`: the condition holds before the expect timeout.
    Expect {
        /// What must hold.
        condition: TerminalCondition,
        /// The step's own expect timeout (`timeout_ms`), overriding the scenario's and the run's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_ms: Option<u64>,
    },
    /// `press { key }`: one key, encoded for the terminal's modes.
    Press {
        /// The key.
        key: Key,
    },
    /// `type { value }`: text sent as typed (no target: the program reads its terminal).
    Type {
        /// The text (a literal or `env("NAME")`).
        value: TextValue,
    },
    /// `terminal_paste { text }`: a paste, bracketed when the program asked for it.
    Paste {
        /// The pasted text.
        text: String,
    },
    /// `terminal_resize { columns rows }`.
    Resize {
        /// Columns, 1–1000.
        columns: u16,
        /// Rows, 1–500.
        rows: u16,
    },
    /// `terminal_recording { path }`: the asciicast v2 recording so far, saved as evidence.
    Recording {
        /// Where it is saved (artifact-relative, `.cast`).
        path: EvidencePath,
    },
    /// `snapshot`: the screen as text with styles, saved as evidence.
    Snapshot {
        /// Where it is saved (artifact-relative); `None` = `<label>.txt`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<EvidencePath>,
    },
    /// `screenshot`: the screen as an SVG image, saved as evidence.
    Screenshot {
        /// Where it is saved (artifact-relative, `.svg`); `None` = `<label>.svg`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<EvidencePath>,
    },
}

impl TerminalStep {
    /// The ACL block this step was written as.
    pub fn kind(&self) -> ActionKind {
        match self {
            TerminalStep::Wait { .. } => ActionKind::Wait,
            TerminalStep::Expect { .. } => ActionKind::Expect,
            TerminalStep::Press { .. } => ActionKind::Press,
            TerminalStep::Type { .. } => ActionKind::Type,
            TerminalStep::Paste { .. } => ActionKind::TerminalPaste,
            TerminalStep::Resize { .. } => ActionKind::TerminalResize,
            TerminalStep::Recording { .. } => ActionKind::TerminalRecording,
            TerminalStep::Snapshot { .. } => ActionKind::Snapshot,
            TerminalStep::Screenshot { .. } => ActionKind::Screenshot,
        }
    }
}

/// What a terminal `wait` waits for: text on the screen, or a regular expression matching it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "match", rename_all = "snake_case")]
pub enum ScreenMatch {
    /// The visible screen contains this text.
    Text {
        /// The text.
        text: String,
    },
    /// This regular expression (Rust `regex` syntax, compiled at admission) matches the visible
    /// screen's text.
    Regex {
        /// The pattern.
        regex: String,
    },
}

/// What a terminal `expect` checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "condition", rename_all = "snake_case")]
pub enum TerminalCondition {
    /// The screen shows it (`text` or `regex`).
    Shows(ScreenMatch),
    /// The visible screen does not contain this text.
    NotText {
        /// The text.
        text: String,
    },
    /// The cursor is at this cell (1-based, as the styled screen text counts).
    CursorAt {
        /// Row, from 1.
        row: u16,
        /// Column, from 1.
        column: u16,
    },
    /// The program has exited with this code.
    ExitCode {
        /// The exit code, 0–255.
        code: i32,
    },
}

/// The steps a terminal scenario may hold, as block names (what admission offers in hints).
pub const TERMINAL_STEPS: &[ActionKind] = &[
    ActionKind::Wait,
    ActionKind::Expect,
    ActionKind::Press,
    ActionKind::Type,
    ActionKind::TerminalPaste,
    ActionKind::TerminalResize,
    ActionKind::TerminalRecording,
    ActionKind::Snapshot,
    ActionKind::Screenshot,
];

/// The steps only a terminal scenario may hold.
pub const TERMINAL_ONLY_STEPS: &[ActionKind] = &[
    ActionKind::TerminalPaste,
    ActionKind::TerminalResize,
    ActionKind::TerminalRecording,
];

/// The project file's `tui { … }` block: the program a terminal scenario runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TuiProgram {
    /// Argument vector, run without a shell.
    pub command: Vec<String>,
    /// Working directory, relative to the project folder (or absolute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Variables set for the program, in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<(String, String)>,
    /// Columns at start (default 80).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns: Option<u16>,
    /// Rows at start (default 24).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u16>,
}
