//! `a3s-test-ocr-grounding --listen 127.0.0.1:PORT`: the reference grounding provider (see the
//! library's documentation and `docs/providers.md`).

use a3s_test_ocr_grounding::ground::Identity;
use a3s_test_ocr_grounding::serve::{serve, Provider};
use a3s_test_ocr_grounding::tesseract::Tesseract;
use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// Serve a3s.test.visual-grounding/1 with Tesseract.
#[derive(Parser)]
#[command(name = "a3s-test-ocr-grounding", version)]
struct Args {
    /// The address to listen on; a loopback address (the protocol is plaintext). Port 0 picks a
    /// free port; the address bound is printed as the first line of standard output.
    #[arg(long, value_name = "ADDR:PORT")]
    listen: SocketAddr,
    /// The provider name its answers carry (the project file's `provider "NAME"` label).
    #[arg(long, default_value = "ocr")]
    name: String,
    /// The model name its answers carry (the block's `model`).
    #[arg(long, default_value = "tesseract")]
    model: String,
    /// The Tesseract program.
    #[arg(long, default_value = "tesseract")]
    tesseract: PathBuf,
    /// Tesseract's language.
    #[arg(long, default_value = "eng")]
    language: String,
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let provider = Arc::new(Provider::new(
        Tesseract {
            program: args.tesseract,
            language: args.language,
            ..Tesseract::default()
        },
        Identity {
            provider: args.name,
            model: args.model,
        },
    ));
    a3s_test_provider::listen::listen_and_serve(
        "a3s-test-ocr-grounding",
        args.listen,
        false,
        |listener| serve(listener, provider),
    )
}
