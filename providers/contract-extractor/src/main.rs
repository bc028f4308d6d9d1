//! `a3s-test-contract-extractor --listen 127.0.0.1:PORT`: the reference contract generation
//! provider (`a3s.test.contract-candidates/1`). It reads Markdown and text sources and answers
//! with candidates whose evidence are exact byte spans; a design image is not read (an open
//! decision says so).
//!
//! Why a separate binary: core bundles no provider. This one runs like any deployment's would,
//! behind the same HTTP transport, so the tool's checks of an answer are exercised for real. It
//! prints `listening on ADDRESS` on its first line of standard output once it accepts
//! connections (so `--listen 127.0.0.1:0` can be used), and stops when its standard input closes
//! if `--stop-on-eof` is given (so it dies with the process that started it).

mod extract;
mod markdown;
mod server;

use clap::Parser;
use std::net::SocketAddr;

/// The reference contract generation provider of A3S Test.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Where to listen: a loopback address and port (0 picks a free port).
    #[arg(long)]
    listen: SocketAddr,
    /// The provider name answers carry: the project's `provider "NAME"` label.
    #[arg(long, default_value = "contract-extractor")]
    name: String,
    /// The model name answers carry: the block's `model`.
    #[arg(long, default_value = server::MODEL)]
    model: String,
    /// Stop when standard input reaches its end.
    #[arg(long)]
    stop_on_eof: bool,
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let identity = server::Identity {
        name: args.name,
        model: args.model,
    };
    a3s_test_provider::listen::listen_and_serve(
        "a3s-test-contract-extractor",
        args.listen,
        args.stop_on_eof,
        |listener| server::serve(listener, identity),
    )
}
