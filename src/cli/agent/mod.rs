//! `a3s-test agent …`: commands for coding agents and reviewers driving an agent session.
//!
//! A nested subcommand enum: the repair commands live in `repair.rs`; session commands (start,
//! observe, exec, …) join `AgentCommand` as their own variants.

mod render;
mod repair;
mod session;

use crate::cli::exit::Exit;
use a3s_test_ledger::{IdError, LedgerError};
use a3s_test_runner::session::SessionError;
use clap::{Args, Subcommand};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code: the operation was done (or replayed).
pub const EXIT_OK: Exit = Exit::Success;
/// Exit code: the ledger or a gate refused the operation (invalid transition, lease, conflict, …).
pub const EXIT_REFUSED: Exit = Exit::Failed;
/// Exit code: invalid input (an id, a bound, a document), as for every command.
pub const EXIT_INVALID_INPUT: Exit = Exit::InvalidInput;

/// Arguments of `a3s-test agent`.
#[derive(Debug, Args)]
#[command(
    after_help = "Session turns: observe, then act on its refs (@eN) with a verb or exec; \
every action ends the observation (with --observe it answers with the next one, whose refs \
the next action takes). Exit: 0 done; 1 the statement ran and failed (the page may \
have changed: observe); 2 refused before dispatch, nothing happened (fix the statement or \
follow `next`); 130 `start` interrupted."
)]
pub struct AgentArgs {
    /// Project root holding `.a3s-test/` (default: $A3S_TEST_ROOT, else the working directory).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: AgentCommand,
}

/// The agent subcommands.
#[derive(Debug, Subcommand)]
enum AgentCommand {
    #[command(flatten)]
    Repair(repair::RepairCommand),
    #[command(flatten)]
    Session(session::SessionCommand),
}

/// Run an agent subcommand.
pub fn run(args: AgentArgs) -> ExitCode {
    let ctx = crate::ops::Context::new(args.root);
    match args.command {
        AgentCommand::Repair(cmd) => repair::run(&ctx, cmd),
        AgentCommand::Session(cmd) => session::run(&ctx, cmd),
    }
}

/// An id that the one id parser (the ledger's id types, behind the id flags' `FromStr`) refused
/// while clap read the command line of `a3s-test agent …`: answered like the command's other
/// refusals — its code (`test.session.repair_invalid_id` for the repair commands,
/// `test.session.invalid_input` for the session commands), JSON on stdout with `--json`, exit 2 —
/// so what an agent branches on does not depend on which layer refused. `None` when `args` is
/// not an agent command line (the caller prints clap's own error).
pub fn refuse_id(error: &IdError, args: &[OsString]) -> Option<ExitCode> {
    if args.get(1).is_none_or(|a| a != "agent") {
        return None;
    }
    let repair = clap::Command::new("agent");
    let repair = <repair::RepairCommand as Subcommand>::augment_subcommands(repair);
    let is_repair = args[2..].iter().any(|a| {
        repair
            .get_subcommands()
            .any(|c| a.to_str() == Some(c.get_name()))
    });
    let json = args[2..].iter().any(|a| a == "--json");
    let none = |_: &()| String::new();
    Some(if is_repair {
        render::print(json, Err(LedgerError::from(error.clone())), none)
    } else {
        render::print(json, Err(SessionError::from(error.clone())), none)
    })
}
