//! `a3s-test-design-auditor --listen 127.0.0.1:PORT`: the reference design review provider.
//! It prints `listening on ADDR` once it accepts connections (the port chosen when PORT is 0).

use a3s_test_design_auditor::audit::Identity;
use clap::Parser;
use std::io::Write;
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
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: no async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind(args.listen).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: cannot listen on {}: {e}", args.listen);
                return ExitCode::from(2);
            }
        };
        match listener.local_addr() {
            Ok(addr) => {
                println!("listening on {addr}");
                let _ = std::io::stdout().flush();
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
        let identity = Identity {
            provider: args.name,
            model: args.model,
        };
        a3s_test_design_auditor::server::serve(listener, identity).await;
        ExitCode::SUCCESS
    })
}
