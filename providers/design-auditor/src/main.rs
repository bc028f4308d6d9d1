//! `a3s-test-design-auditor --listen 127.0.0.1:PORT`: the reference design review provider.
//! It prints `listening on ADDR` once it accepts connections (the port chosen when PORT is 0).

use a3s_test_design_auditor::audit::Identity;
use clap::Parser;
use std::net::SocketAddr;
use std::process::ExitCode;

/// The reference design review provider of A3S Test.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// Where to listen (loopback: the tool sends plaintext only there).
    #[arg(long)]
    listen: SocketAddr,
    /// The provider name its answers carry (the project's `provider "NAME"` label).
    #[arg(long, default_value = "design-auditor")]
    name: String,
    /// The model name its answers carry (the block's `model`).
    #[arg(long, default_value = "a3s-design-auditor-1")]
    model: String,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let identity = Identity {
        provider: args.name,
        model: args.model,
    };
    a3s_test_provider::listen::listen_and_serve(
        "a3s-test-design-auditor",
        args.listen,
        false,
        |listener| a3s_test_design_auditor::server::serve(listener, identity),
    )
}
