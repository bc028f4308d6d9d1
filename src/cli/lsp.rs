//! `a3s-test lsp`: the ACL language server on standard input and output.
//!
//! A thin command: the server is the `a3s-test-lsp` crate. Exit 0 after `shutdown` then `exit`;
//! 1 on `exit` without `shutdown` (as the protocol says), on a broken stream (a message that is
//! not UTF-8 or not JSON-RPC) or a client that went away without `exit`, with the reason on
//! standard error.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `a3s-test lsp` (none: the client speaks over stdio).
#[derive(Debug, clap::Args)]
pub struct LspArgs {
    /// Accepted and ignored: editors pass it by convention to name the transport.
    #[arg(long)]
    stdio: bool,
}

/// Run the server until the client says `exit`. Suites may `use` the groups of the libraries the
/// project file (`.a3s-test/project.acl` in the working folder, as for `check`) includes, read
/// once here; a project file or include that does not admit is reported on standard error (the
/// client's log) and the server runs without libraries.
pub fn run(args: LspArgs) -> ExitCode {
    let _ = args.stdio;
    let project_dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let project = super::run::load_project(None).ok().flatten();
    let libraries = super::run::included(&project_dir, project.as_ref()).unwrap_or_default();
    match a3s_test_lsp::serve_stdio(libraries) {
        Ok(exit) if exit.after_shutdown => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("a3s-test lsp: {e}");
            ExitCode::from(1)
        }
    }
}
