//! `a3s-test`: the command-line shell over the engine crates.
//!
//! The binary is thin on purpose (as cargo-nextest's is): argument parsing and output selection
//! live here; admission lives in `a3s-test-lang`, execution in the runner, repair state in the
//! ledger. See `cli/` for one file per command.

mod cli;
mod mcp;
mod ops;

fn main() -> std::process::ExitCode {
    cli::main()
}
