//! Command-line definition (clap) and dispatch: one module per command.

mod agent;
mod check;
mod contract;
mod dev;
mod discover;
mod exit;
mod fmt;
mod grid;
mod gui_launcher;
mod interrupt;
mod lsp;
mod merge_reports;
mod output;
mod provider;
mod read;
mod repair_endpoint;
mod report_outputs;
mod run;
mod run_list;
mod run_selection;
mod run_trace;
mod serve;
mod surfaces;
mod web_launcher;
mod write;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// A3S Test: admit ACL suites and run them against real browsers.
#[derive(Debug, Parser)]
#[command(name = "a3s-test", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Admit ACL files and report every diagnostic (exit 0 = all admitted, 2 = not).
    Check(check::CheckArgs),
    /// Rewrite ACL files in the canonical layout (`--check`: only report; exit 1 if any would change).
    Fmt(fmt::FmtArgs),
    /// Serve the ACL language server over stdio, for editors (diagnostics, fixes, formatting,
    /// hover, completion, outline, rename).
    Lsp(lsp::LspArgs),
    /// Agent sessions and the repair loop (`agent repair-inbox`, `agent repair-claim`, …).
    Agent(agent::AgentArgs),
    /// Serve the agent operations as MCP tools over stdio (newline-delimited JSON-RPC 2.0).
    Mcp(crate::mcp::McpArgs),
    /// Run the app's dev server with a browser session on it and the local repair bridge: findings
    /// sent in the page reach the session's ledger, status changes reach the page.
    Dev(crate::ops::dev::DevParams),
    /// Merge the `--json` results of `--shard i/n` runs into one report (JSON, JUnit, HTML).
    MergeReports(merge_reports::MergeReportsArgs),
    /// Advisory model providers: `provider schema KIND` prints a kind's request and answer
    /// JSON Schemas.
    Provider(provider::ProviderArgs),
    /// PRDs and designs → reviewed Surface Contract → reconciliation against the page.
    Contract(contract::ContractArgs),
    /// Receive sent findings for one session over HTTP (the dev server proxies `repairEndpoint` here).
    RepairEndpoint(repair_endpoint::RepairEndpointArgs),
    /// Run ACL suites in real Chromium (exit 0 passed, 1 failed, 2 invalid/infrastructure,
    /// 124 timed out, 130 cancelled).
    Run(Box<run::RunArgs>),
    /// Serve a folder of static files on 127.0.0.1 (fixture pages, simple dev servers).
    Serve(serve::ServeArgs),
}

/// True when this process runs in CI: `CI` is set to anything but empty, `0` or `false` (the
/// convention CI services follow). It forbids `only = true` and turns off reusing a dev server
/// nobody started.
pub fn in_ci() -> bool {
    is_ci(std::env::var_os("CI").as_deref())
}

/// The one reading of a `CI` value (see [`in_ci`]).
pub fn is_ci(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Parse arguments and run the chosen command; the return value is the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refused(e),
    };
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Agent(args) => agent::run(args),
        Command::Dev(args) => dev::run(args),
        Command::Mcp(args) => crate::mcp::run(args),
        Command::MergeReports(args) => merge_reports::run(args),
        Command::Provider(args) => provider::run(args),
        Command::Contract(args) => contract::run(args),
        Command::RepairEndpoint(args) => repair_endpoint::run(args),
        Command::Run(args) => run::run(*args),
        Command::Serve(args) => serve::run(args),
    }
}

/// A command line clap refused: an id the id parser refused or a value outside its bounds, in
/// an `agent` command, is that command's coded refusal ([`agent::refuse`]); anything else is
/// clap's usage error (exit 2).
fn refused(e: clap::Error) -> ExitCode {
    let source = std::error::Error::source(&e);
    let flag = match e.get(clap::error::ContextKind::InvalidArg) {
        Some(clap::error::ContextValue::String(flag)) => flag.clone(),
        _ => "a value".to_owned(),
    };
    let refusal =
        if let Some(id) = source.and_then(|s| s.downcast_ref::<a3s_test_ledger::IdError>()) {
            Some(agent::Refused::Id(id))
        } else {
            source
                .and_then(|s| s.downcast_ref::<crate::ops::bounded::OutOfBounds>())
                .map(|error| agent::Refused::Bound { flag, error })
        };
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match refusal.and_then(|r| agent::refuse(r, &args)) {
        Some(code) => code,
        None => e.exit(),
    }
}
