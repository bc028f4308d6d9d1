//! What only desktop sessions need from the operations: the program `agent start --gui` runs
//! (the one after `--`, else the project's `gui { … }` block, whose settings fill in what was not
//! given) and promotion to a `surface = "gui"` suite with the `run` command that runs it. The
//! turns themselves (observe, exec, the verbs) are the shared operations: the supervisor answers
//! them by the session's surface.

use super::session::StartParams;
use super::Context;
use a3s_test_runner::session::file::{DesktopProgram, SessionFile};
use a3s_test_runner::session::{SessionCode, SessionError};
use std::path::{Path, PathBuf};

fn invalid(message: String) -> SessionError {
    SessionError::new(SessionCode::InvalidInput, message)
}

/// The program of `agent start --gui`: the command after `--` (else the project's
/// `gui.command`), in the project's `gui.cwd` (else the project root), with the block's `env`,
/// on a screen of the block's size (else 1280×800).
pub fn program(ctx: &Context, p: &StartParams) -> Result<DesktopProgram, SessionError> {
    let root = ctx
        .root
        .canonicalize()
        .map_err(|e| invalid(format!("the project root {}: {e}", ctx.root.display())))?;
    let block = super::project::read(&root)?.and_then(|project| project.gui.map(|g| *g));
    let command = match (p.program.is_empty(), &block) {
        (false, _) => p.program.clone(),
        (true, Some(block)) if !block.command.is_empty() => block.command.clone(),
        _ => {
            return Err(invalid(
                "no program for the desktop session: give it after `--` (agent start --gui \
                 --session ID -- PROGRAM ARGS…; over MCP `program`) or add `gui { command = \
                 [..] }` to the project file"
                    .into(),
            ))
        }
    };
    let cwd: PathBuf = match block.as_ref().and_then(|b| b.cwd.as_ref()) {
        Some(cwd) => root.join(cwd),
        None => root.clone(),
    };
    Ok(DesktopProgram {
        command,
        cwd,
        width: block.as_ref().and_then(|b| b.width).unwrap_or(1280),
        height: block.as_ref().and_then(|b| b.height).unwrap_or(800),
        env: block.map(|b| b.env).unwrap_or_default(),
    })
}

/// A desktop session's suite source and the command that runs it (`output`: where it goes).
pub fn promote(
    file: &SessionFile,
    program: &DesktopProgram,
    output: &Path,
) -> Result<(String, String), SessionError> {
    use a3s_test_runner::session::desktop::promote;
    let source = promote::suite_source(file, program)?;
    Ok((source, promote::run_command(output, program)))
}
