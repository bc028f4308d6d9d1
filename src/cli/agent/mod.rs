//! `a3s-test agent …`: commands for coding agents and reviewers driving an agent session.
//!
//! A nested subcommand enum: the repair commands live in `repair.rs`; session commands (start,
//! observe, exec, …) join `AgentCommand` as their own variants.

mod audit;
mod ground;
mod render;
mod repair;
mod session;

use crate::cli::exit::Exit;
use crate::ops::bounded::OutOfBounds;
use crate::ops::catalog::{self, Family};
use a3s_test_ledger::{ErrorCode as LedgerCode, IdError, LedgerError};
use a3s_test_runner::session::{SessionCode, SessionError};
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

/// What the value parsers of an `agent` command line refused: an id (the ledger's id types)
/// or a bound (`crate::ops::bounded`).
pub enum Refused<'a> {
    /// An id the one id parser refused.
    Id(&'a IdError),
    /// A number, text or list outside its bounds, with the flag it was given to.
    Bound {
        /// The flag, as clap names it (`--limit <LIMIT>`).
        flag: String,
        /// Why.
        error: &'a OutOfBounds,
    },
}

/// A value that a parser refused while clap read the command line of `a3s-test agent …`:
/// answered like the command's other refusals — its code (`test.session.repair_invalid_id` or
/// `test.session.repair_invalid_input` for the repair commands, `test.session.invalid_input`
/// for the session commands: the operation catalog's [`Family`] of the subcommand), JSON on
/// stdout with `--json`, exit 2 — so what an agent branches on does not depend on which layer
/// refused. `None` when `args` is not an agent command line
/// (the caller prints clap's own error).
pub fn refuse(refused: Refused<'_>, args: &[OsString]) -> Option<ExitCode> {
    if args.get(1).is_none_or(|a| a != "agent") {
        return None;
    }
    // The subcommand is the first word after `agent` that names an operation.
    let family = args[2..]
        .iter()
        .find_map(|a| a.to_str().and_then(catalog::command_family));
    let is_repair = family == Some(Family::Repair);
    let json = args[2..].iter().any(|a| a == "--json");
    let none = |_: &()| String::new();
    Some(match (refused, is_repair) {
        (Refused::Id(e), true) => render::print(json, Err(LedgerError::from(e.clone())), none),
        (Refused::Id(e), false) => render::print(json, Err(SessionError::from(e.clone())), none),
        (Refused::Bound { flag, error }, true) => render::print(
            json,
            Err(LedgerError::new(
                LedgerCode::InvalidInput,
                format!("{flag} {error}"),
            )),
            none,
        ),
        (Refused::Bound { flag, error }, false) => render::print(
            json,
            Err(SessionError::new(
                SessionCode::InvalidInput,
                format!("{flag} {error}"),
            )),
            none,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::AgentArgs;
    use crate::ops::catalog::{command_family, Family, ALL};
    use clap::{Args, Command, Subcommand};

    /// Every `agent` subcommand (but the internal `supervise`) is an operation of the catalog,
    /// shown with the catalog's text, and every catalog entry with a subcommand has one.
    #[test]
    fn every_subcommand_shows_its_catalog_text() {
        let agent = AgentArgs::augment_args(Command::new("agent"));
        let mut shown = 0;
        for sub in agent.get_subcommands().filter(|s| !s.is_hide_set()) {
            let name = sub.get_name();
            let spec = ALL
                .iter()
                .find(|s| s.cli == Some(name))
                .unwrap_or_else(|| panic!("{name} is not in ops::catalog"));
            assert_eq!(
                sub.get_about().map(|a| a.to_string()).as_deref(),
                Some(spec.about),
                "{name}"
            );
            assert!(sub.get_long_about().is_none(), "{name}: a second text");
            shown += 1;
        }
        assert_eq!(shown, ALL.iter().filter(|s| s.cli.is_some()).count());
    }

    /// The catalog's family of each subcommand is the enum it is declared in: the repair
    /// commands' are `Repair` (their refusals are the ledger's), every other's `Session`.
    #[test]
    fn each_subcommand_is_of_the_family_it_is_declared_in() {
        let repair =
            <super::repair::RepairCommand as Subcommand>::augment_subcommands(Command::new("r"));
        let repairs: Vec<&str> = repair.get_subcommands().map(|c| c.get_name()).collect();
        assert!(!repairs.is_empty());
        let agent = AgentArgs::augment_args(Command::new("agent"));
        for sub in agent.get_subcommands().filter(|s| !s.is_hide_set()) {
            let name = sub.get_name();
            let declared = if repairs.contains(&name) {
                Family::Repair
            } else {
                Family::Session
            };
            assert_eq!(command_family(name), Some(declared), "{name}");
        }
        assert_eq!(command_family("supervise"), None);
        assert_eq!(command_family("nope"), None);
    }
}
