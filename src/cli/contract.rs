//! `a3s-test contract generate | review | check`: from PRDs and designs to a reviewed Surface
//! Contract the browser checks (`docs/contracts.md`).
//!
//! Why three commands: a provider only proposes (`generate` writes candidates bound to the
//! sources' digests), a person decides (`review` writes `contract.acl` from what they approved,
//! refusing while a conflict is open or a source changed), and the browser proves (`check`
//! reconciles the contract against the rendered page). No step trusts the one before it: each
//! re-reads and re-checks its input.

mod check;
mod form;
mod generate;
mod render;
mod review;
mod sources;

use super::exit::Exit;
use a3s_test_provider::contract::ContractError;
use std::process::ExitCode;

/// `contract …` subcommands.
#[derive(Debug, clap::Args)]
pub struct ContractArgs {
    #[command(subcommand)]
    command: ContractCommand,
}

#[derive(Debug, clap::Subcommand)]
enum ContractCommand {
    /// Ask a contract generation provider for candidates from PRDs and designs.
    Generate(generate::GenerateArgs),
    /// Approve, reject and settle candidates; write the contract.
    Review(review::ReviewArgs),
    /// Reconcile a contract against the rendered page in Chromium.
    Check(check::CheckArgs),
}

/// Run `contract …`.
pub fn run(args: ContractArgs) -> ExitCode {
    match args.command {
        ContractCommand::Generate(a) => generate::run(a),
        ContractCommand::Review(a) => review::run(a),
        ContractCommand::Check(a) => check::run(a),
    }
}

/// Print a refusal (code, message, hint) and return `exit`.
fn refuse(error: &ContractError, exit: Exit) -> ExitCode {
    eprintln!("error[{}]: {}", error.code, error.message);
    eprintln!("  hint: {}", error.hint());
    exit.into()
}
