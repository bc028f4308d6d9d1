//! What only terminal sessions need from the operations: the program `agent start --tui` runs
//! (the one after `--`, else the project's `tui { … }` block, whose settings also fill in what
//! was not given) and promotion to a `surface = "tui"` suite with the `run` command that runs
//! it. The turns themselves (observe, exec, the verbs) are the shared operations: the supervisor
//! answers them by the session's surface.

use super::session::StartParams;
use super::Context;
use a3s_test_lang::ir::TuiProgram;
use a3s_test_runner::session::file::{SessionFile, TerminalProgram};
use a3s_test_runner::session::{SessionCode, SessionError};
use std::path::{Path, PathBuf};

fn invalid(message: String) -> SessionError {
    SessionError::new(SessionCode::InvalidInput, message)
}

/// The project's `tui { … }` block, when the project file exists and has one.
fn project_block(root: &Path) -> Result<Option<TuiProgram>, SessionError> {
    Ok(super::project::read(root)?.and_then(|project| project.tui.map(|t| *t)))
}

/// The program of `agent start --tui`: the command after `--` (else the project's
/// `tui.command`), in the project's `tui.cwd` (else the project root), with the block's `env`,
/// at `--columns`/`--rows` (else the block's, else 80×24).
pub fn program(ctx: &Context, p: &StartParams) -> Result<TerminalProgram, SessionError> {
    let root = ctx
        .root
        .canonicalize()
        .map_err(|e| invalid(format!("the project root {}: {e}", ctx.root.display())))?;
    let block = project_block(&root)?;
    let command = match (p.program.is_empty(), &block) {
        (false, _) => p.program.clone(),
        (true, Some(block)) if !block.command.is_empty() => block.command.clone(),
        _ => {
            return Err(invalid(
                "no program for the terminal session: give it after `--` (agent start --tui \
                 --session ID -- PROGRAM ARGS…; over MCP `program`) or add `tui { command = \
                 [..] }` to the project file"
                    .into(),
            ))
        }
    };
    let cwd: PathBuf = match block.as_ref().and_then(|b| b.cwd.as_ref()) {
        Some(cwd) => root.join(cwd),
        None => root.clone(),
    };
    let columns = p
        .columns
        .map(|n| u32::from(n) as u16)
        .or(block.as_ref().and_then(|b| b.columns))
        .unwrap_or(80);
    let rows = p
        .rows
        .map(|n| u32::from(n) as u16)
        .or(block.as_ref().and_then(|b| b.rows))
        .unwrap_or(24);
    Ok(TerminalProgram {
        command,
        cwd,
        env: block.map(|b| b.env).unwrap_or_default(),
        columns,
        rows,
    })
}

/// A terminal session's suite source and the command that runs it (`output`: where it goes).
pub fn promote(
    file: &SessionFile,
    program: &TerminalProgram,
    output: &Path,
) -> Result<(String, String), SessionError> {
    use a3s_test_runner::session::terminal::promote;
    let source = promote::suite_source(file, program)?;
    Ok((source, promote::run_command(output, program)))
}
