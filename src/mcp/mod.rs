//! `a3s-test mcp`: a Model Context Protocol server over stdio offering A3S Test's agent
//! operations as tools (`test_repair_inbox`, `test_repair_claim`, `test_observe`, …).
//!
//! The protocol is `rmcp`, the official Rust MCP SDK (`server.rs`); the stdio transport under
//! it is ours (`transport.rs`) because it bounds every line while reading and keeps the
//! JSON-RPC envelope errors. Tool input schemas are derived from the operations' parameters
//! structs (`crate::ops`). Logs go to stderr only. Adding a tool = one `crate::ops::catalog` entry and one line in `tools::all()`.

mod args;
mod jsonrpc;
mod lines;
mod server;
mod tools;
mod transport;

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

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
    let server = server::Server::new(crate::ops::Context::new(args.root).scoped());
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("a3s-test mcp: failed to start a runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let transport = transport::Stdio::start(MAX_LINE_BYTES);
    let read_failed = transport.read_failed();
    runtime.block_on(async move {
        // A handshake that ends early (stdin closed before initialize) is a normal end.
        if let Ok(running) = rmcp::serve_server(server, transport).await {
            let _ = running.waiting().await;
        }
    });
    if read_failed.load(Ordering::SeqCst) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
