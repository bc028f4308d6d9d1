//! `a3s-test mcp`: a Model Context Protocol server over stdio offering A3S Test's agent
//! operations as tools (`test_repair_inbox`, `test_repair_claim`, …).
//!
//! Transport: newline-delimited JSON-RPC 2.0 on stdin/stdout (one message per line, no
//! embedded newlines); logs go to stderr only. The JSON-RPC layer is small and written here
//! rather than taken from an SDK: the available Rust SDK needs a newer compiler than this
//! workspace's MSRV and an async runtime, while these tools are synchronous ledger calls.
//! Adding a tool = one entry in `tools::all()`.

mod jsonrpc;
mod lines;
mod schema;
mod server;
mod tools;

use clap::Args;
use lines::Line;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The longest accepted message line (4 MiB); a longer one is skipped without being held and
/// answered with a parse error.
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// Arguments of `a3s-test mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Project root holding `.a3s-test/` (default: $A3S_TEST_ROOT, else the working directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

/// Serve MCP on stdin/stdout until stdin closes.
pub fn run(args: McpArgs) -> ExitCode {
    let mut server = server::Server::new(crate::ops::Context::new(args.root));
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut line = Vec::new();
    loop {
        let read = lines::read_line(&mut input, &mut line, MAX_LINE_BYTES);
        let reply = match read {
            Ok(None) => return ExitCode::SUCCESS,
            Ok(Some(Line::TooLong)) => Some(jsonrpc::Response::error(
                serde_json::Value::Null,
                jsonrpc::PARSE_ERROR,
                format!("message longer than {MAX_LINE_BYTES} bytes (skipped)"),
            )),
            Ok(Some(Line::Complete)) if line.iter().all(u8::is_ascii_whitespace) => None,
            Ok(Some(Line::Complete)) => server.handle_line(&line),
            Err(e) => {
                eprintln!("a3s-test mcp: failed to read stdin: {e}");
                return ExitCode::FAILURE;
            }
        };
        if let Some(reply) = reply {
            let mut out = stdout.lock();
            let text = serde_json::to_string(&reply).expect("responses serialize");
            if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
                return ExitCode::SUCCESS;
            }
        }
    }
}
