//! `a3s-test-openai-adapter --listen 127.0.0.1:PORT --endpoint URL --model NAME [--kind KIND]`:
//! a design review (or, with `--kind contract_generation`, contract generation) provider that asks
//! an OpenAI-compatible chat completions endpoint. It prints `listening on ADDR` once it accepts
//! connections (the port chosen when PORT is 0).

use a3s_test_openai_adapter::review::DEFAULT_MAX_ANSWER_BYTES;
use a3s_test_openai_adapter::server::ServedKind;
use a3s_test_openai_adapter::{Adapter, AdapterConfig};
use clap::Parser;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

/// A design review provider for A3S Test backed by an OpenAI-compatible chat endpoint.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// Where to listen (loopback: the tool sends plaintext only there).
    #[arg(long)]
    listen: SocketAddr,
    /// The model server's base URL (`https://…`, or `http://` to loopback); the adapter POSTs to
    /// `{URL}/v1/chat/completions`.
    #[arg(long)]
    endpoint: String,
    /// The kind it serves (the project block's `kind`).
    #[arg(long, default_value = "design_review", value_parser = ["design_review", "contract_generation"])]
    kind: String,
    /// The model to ask; the answers carry it as `model`, so the project block names it too.
    #[arg(long)]
    model: String,
    /// The provider name its answers carry (the project's `provider "NAME"` label).
    #[arg(long, default_value = "openai")]
    name: String,
    /// The variable holding the `Authorization` header value for the model server
    /// (`Bearer …`); its name starts with `A3S_TEST_PROVIDER_AUTHORIZATION_`.
    #[arg(long)]
    authorization_env: Option<String>,
    /// The deadline of one model call, connection to last byte.
    #[arg(long, default_value_t = 60_000)]
    timeout_ms: u64,
    /// The most bytes of a model server's answer that are read.
    #[arg(long, default_value_t = DEFAULT_MAX_ANSWER_BYTES)]
    max_answer_bytes: usize,
    /// US dollars per million prompt tokens, to report the answer's cost.
    #[arg(long, default_value_t = 0.0)]
    usd_per_million_input_tokens: f64,
    /// US dollars per million completion tokens.
    #[arg(long, default_value_t = 0.0)]
    usd_per_million_output_tokens: f64,
    /// Send only the Page Context, not the screenshot (for models that read no images).
    #[arg(long)]
    no_images: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let Some(kind) = ServedKind::from_name(&args.kind) else {
        eprintln!(
            "a3s-test-openai-adapter: --kind {} is not served",
            args.kind
        );
        return ExitCode::from(2);
    };
    let config = AdapterConfig {
        name: args.name,
        endpoint: args.endpoint,
        model: args.model,
        authorization_env: args.authorization_env,
        timeout_ms: args.timeout_ms,
        max_answer_bytes: args.max_answer_bytes,
        usd_per_million_input_tokens: args.usd_per_million_input_tokens,
        usd_per_million_output_tokens: args.usd_per_million_output_tokens,
        send_images: !args.no_images,
    };
    let adapter = match Adapter::new(config, |name| std::env::var(name).ok()) {
        Ok(adapter) => Arc::new(adapter),
        Err(e) => {
            eprintln!("a3s-test-openai-adapter: {e}");
            return ExitCode::from(2);
        }
    };
    a3s_test_provider::listen::listen_and_serve(
        "a3s-test-openai-adapter",
        args.listen,
        false,
        |listener| a3s_test_openai_adapter::server::serve(listener, adapter, kind),
    )
}
