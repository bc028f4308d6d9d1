//! `a3s-test provider schema KIND`: the JSON Schemas of a provider kind's request and answer
//! envelopes, for whoever writes a provider.
//!
//! Why printed from the types: the schemas come from the same Rust structs the transport sends
//! and reads (`a3s-test-provider`), so a provider written against this output cannot drift from
//! what the tool accepts. Nothing is sent anywhere: the command only prints.

use super::exit::Exit;
use a3s_test_lang::ir::ProviderKind;
use std::process::ExitCode;

/// `provider …` subcommands.
#[derive(Debug, clap::Args)]
pub struct ProviderArgs {
    #[command(subcommand)]
    command: ProviderCommand,
}

#[derive(Debug, clap::Subcommand)]
enum ProviderCommand {
    /// Print the JSON Schemas of a kind's request and answer envelopes
    /// (`{"protocol", "request": …, "response": …}`).
    Schema {
        /// The provider kind, as the project file's `kind` spells it.
        #[arg(value_parser = kind_name)]
        kind: ProviderKind,
    },
}

/// A kind's ACL spelling, or clap's refusal listing them.
fn kind_name(text: &str) -> Result<ProviderKind, String> {
    ProviderKind::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = ProviderKind::NAMES.iter().map(|(n, _)| *n).collect();
        format!("unknown provider kind; the kinds are {}", names.join(", "))
    })
}

/// What `provider schema` prints: the protocol string and both schemas.
#[derive(serde::Serialize)]
struct Schemas {
    kind: &'static str,
    protocol: &'static str,
    request: schemars::Schema,
    response: schemars::Schema,
}

/// Run `provider …`.
pub fn run(args: ProviderArgs) -> ExitCode {
    match args.command {
        ProviderCommand::Schema { kind } => {
            let (request, response) = a3s_test_provider::schemas(kind);
            let printed = Schemas {
                kind: kind.as_str(),
                protocol: a3s_test_provider::protocol(kind),
                request,
                response,
            };
            match serde_json::to_string_pretty(&printed) {
                Ok(text) => {
                    println!("{text}");
                    Exit::Success.into()
                }
                Err(e) => {
                    eprintln!("error: the schemas could not be printed: {e}");
                    Exit::InvalidInput.into()
                }
            }
        }
    }
}
