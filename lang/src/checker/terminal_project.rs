//! The project file's `tui { command = [..] cwd = ".." env = { .. } columns rows }` block: the
//! program every terminal scenario starts (`docs/acl.md` §11).
//!
//! Why an argument vector and no shell: the program is started exactly as written, so quoting
//! never changes what runs. Sizes use the engine's bounds (1–1000 columns, 1–500 rows), so a
//! size the terminal would refuse is refused here first, with its span.

use super::context::{Annotate, Ctx};
use super::fields::Fields;
use super::project::command;
use super::terminal::{MAX_COLUMNS, MAX_ROWS};
use super::values::{non_empty, optional, u32_in};
use crate::ast::{Block, ValueKind};
use crate::code::Code;
use crate::ir::TuiProgram;

pub(super) const TUI_SCHEMA: &[&str] = &["command", "cwd", "env", "columns", "rows"];

/// Check `tui { … }` (path entered, label already refused).
pub(super) fn tui(ctx: &mut Ctx, block: &Block) -> Option<TuiProgram> {
    let f = Fields::collect_leaf(ctx, block, TUI_SCHEMA);
    let argv = f.required(ctx, "command").and_then(|a| command(ctx, a));
    let cwd = f.get("cwd").map(|a| non_empty(ctx, a));
    let columns = f.get("columns").map(|a| u32_in(ctx, a, 1, MAX_COLUMNS));
    let rows = f.get("rows").map(|a| u32_in(ctx, a, 1, MAX_ROWS));
    let env = match f.get("env") {
        None => Some(Vec::new()),
        Some(attr) => env_pairs(ctx, attr),
    };
    Some(TuiProgram {
        command: argv?,
        cwd: optional(cwd)?.map(str::to_string),
        env: env?,
        columns: optional(columns)?.map(|c| c as u16),
        rows: optional(rows)?.map(|r| r as u16),
    })
}

/// `env = { NAME = "value" … }`: the variables in source order (shared with the `gui` block).
pub(super) fn env_pairs(
    ctx: &mut Ctx,
    attr: &crate::ast::Attribute,
) -> Option<Vec<(String, String)>> {
    match &attr.value.kind {
        ValueKind::Object(entries) => {
            let mut vars = Some(Vec::with_capacity(entries.len()));
            for entry in entries {
                let value = match &entry.value.kind {
                    ValueKind::String(v) => Some(v.clone()),
                    _ => {
                        ctx.error_in(
                            Code::Type,
                            "env",
                            entry.value.span,
                            format!("`{}` must be a string", entry.name.name),
                        )
                        .hint("write each variable as `NAME = \"value\"`");
                        None
                    }
                };
                match (value, &mut vars) {
                    (Some(v), Some(list)) => list.push((entry.name.name.clone(), v)),
                    _ => vars = None,
                }
            }
            vars
        }
        other => {
            ctx.error_in(
                Code::Type,
                "env",
                attr.value.span,
                format!("`env` must be an object, found {}", other.describe()),
            )
            .hint("write `env = { LANG = \"C\" }`");
            None
        }
    }
}
