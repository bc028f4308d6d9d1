//! The project file's `gui { command = [..] cwd = ".." env = { .. } width height }` block: the
//! desktop program every `surface = "gui"` scenario starts (`docs/acl.md` §11).
//!
//! Why the shape of the `tui` block: launching is host configuration, an argument vector run
//! without a shell, in a folder, with variables; the screen size uses the desktop's bounds
//! (64–7680 × 64–4320 pixels), so a size the X server would refuse is refused here first, with
//! its span.

use super::context::Ctx;
use super::fields::Fields;
use super::project::command;
use super::terminal_project::env_pairs;
use super::values::{non_empty, optional, u32_in};
use crate::ast::Block;
use crate::ir::GuiProgram;

pub(super) const GUI_SCHEMA: &[&str] = &["command", "cwd", "env", "width", "height"];
/// The narrowest and widest screen the desktop starts.
pub(super) const WIDTH: (u32, u32) = (64, 7680);
/// The lowest and highest screen the desktop starts.
pub(super) const HEIGHT: (u32, u32) = (64, 4320);

/// Check `gui { … }` (path entered, label already refused).
pub(super) fn gui(ctx: &mut Ctx, block: &Block) -> Option<GuiProgram> {
    let f = Fields::collect_leaf(ctx, block, GUI_SCHEMA);
    let argv = f.required(ctx, "command").and_then(|a| command(ctx, a));
    let cwd = f.get("cwd").map(|a| non_empty(ctx, a));
    let width = f.get("width").map(|a| u32_in(ctx, a, WIDTH.0, WIDTH.1));
    let height = f.get("height").map(|a| u32_in(ctx, a, HEIGHT.0, HEIGHT.1));
    let env = match f.get("env") {
        None => Some(Vec::new()),
        Some(attr) => env_pairs(ctx, attr),
    };
    Some(GuiProgram {
        command: argv?,
        cwd: optional(cwd)?.map(str::to_string),
        env: env?,
        width: optional(width)?.map(|w| w as u16),
        height: optional(height)?.map(|h| h as u16),
    })
}
