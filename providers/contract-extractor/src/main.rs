//! `a3s-test-contract-extractor --listen 127.0.0.1:PORT`: the reference contract generation
//! provider (`a3s.test.contract-candidates/1`). It reads Markdown and text sources and answers
//! with candidates whose evidence are exact byte spans, and reads design PNGs through Tesseract:
//! their text lines become regions (`design.rs`).
//!
//! Why a separate binary: core bundles no provider. This one runs like any deployment's would,
//! behind the same HTTP transport, so the tool's checks of an answer are exercised for real. It
//! prints `listening on ADDRESS` on its first line of standard output once it accepts
//! connections (so `--listen 127.0.0.1:0` can be used), and stops when its standard input closes
//! if `--stop-on-eof` is given (so it dies with the process that started it).

mod design;
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
    /// The Tesseract program that reads design images (Debian package `tesseract-ocr`).
    #[arg(long, default_value = "tesseract")]
    tesseract: std::path::PathBuf,
    /// Stop when standard input reaches its end.
    #[arg(long)]
    stop_on_eof: bool,
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let identity = server::Identity {
        name: args.name,
        model: args.model,
        tesseract: a3s_test_ocr_grounding::tesseract::Tesseract {
            program: args.tesseract,
            ..Default::default()
        },
    };
    a3s_test_provider::listen::listen_and_serve(
        "a3s-test-contract-extractor",
        args.listen,
        args.stop_on_eof,
        |listener| server::serve(listener, identity),
    )
}
