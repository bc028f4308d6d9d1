//! `a3s-test contract generate --source FILE… [--provider NAME] --out FILE`.
//!
//! The sources are read and hashed, sent to the project's `contract_generation` provider, and
//! its answer is admitted only when it repeats every digest and every span quotes its source
//! (the transport's check). The sources are then hashed again: a file edited while the provider
//! worked is refused. The candidates file is written atomically, only when all of it is valid.

use super::sources::{self, ReadSource};
use super::{refuse, Exit};
use a3s_test_lang::ir::ProviderKind;
use a3s_test_provider::contract::{
    CandidatesFile, ContractCode, ContractError, ContractProvider, ContractRequest, FileSource,
    MediaType, Source, SourceContent, CANDIDATES_FORMAT,
};
use a3s_test_provider::{HttpProvider, ProviderError};
use base64::Engine;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `contract generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// A PRD (Markdown or text) or a design (PNG); repeat for several.
    #[arg(long = "source", required = true)]
    sources: Vec<PathBuf>,
    /// The project's `contract_generation` provider to ask (default: the only one).
    #[arg(long)]
    provider: Option<String>,
    /// Where to write the candidates file.
    #[arg(long)]
    out: PathBuf,
    /// The project folder holding `.a3s-test/project.acl` (default: the current folder).
    #[arg(long, default_value = ".")]
    root: PathBuf,
}

/// Run `contract generate`.
pub fn run(args: GenerateArgs) -> ExitCode {
    let mut read = Vec::with_capacity(args.sources.len());
    for path in &args.sources {
        match sources::read(path) {
            Ok(s) => read.push(s),
            Err(e) => return refuse(&e, Exit::InvalidInput),
        }
    }
    let provider = match provider(&args.root, args.provider.as_deref()) {
        Ok(p) => p,
        Err(e) => return provider_refused(&e, Exit::InvalidInput),
    };
    let request = request(
        &args.sources,
        &read,
        provider.config().timeout_ms,
        provider.config().max_cost_microusd,
    );
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: no async runtime: {e}");
            return Exit::Failed.into();
        }
    };
    let answer = match runtime.block_on(provider.candidates(&request)) {
        Ok(a) => a,
        Err(e) => return provider_refused(&e, Exit::Failed),
    };
    for (path, before) in args.sources.iter().zip(&read) {
        match sources::read(path) {
            Ok(now) if now.sha256 == before.sha256 => {}
            Ok(_) => {
                let e = ContractError::new(
                    ContractCode::SourceChanged,
                    format!("{} changed while the provider read it", path.display()),
                );
                return refuse(&e, Exit::Failed);
            }
            Err(e) => return refuse(&e, Exit::Failed),
        }
    }
    let out_dir = args
        .out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file = CandidatesFile {
        format: CANDIDATES_FORMAT.to_string(),
        provider: answer.provider,
        model: answer.model,
        sources: request
            .sources
            .iter()
            .zip(&args.sources)
            .map(|(s, path)| FileSource {
                id: s.id.clone(),
                path: relative(out_dir, path),
                media_type: s.media_type,
                sha256: s.sha256.clone(),
                bytes: s.bytes,
                width: match s.content {
                    SourceContent::Base64 { width, .. } => Some(width),
                    SourceContent::Utf8 { .. } => None,
                },
                height: match s.content {
                    SourceContent::Base64 { height, .. } => Some(height),
                    SourceContent::Utf8 { .. } => None,
                },
            })
            .collect(),
        candidates: answer.candidates,
        conflicts: answer.conflicts,
        open_decisions: answer.open_decisions,
    };
    let bytes = match serde_json::to_vec_pretty(&file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: the candidates could not be encoded: {e}");
            return Exit::Failed.into();
        }
    };
    if let Err(e) = a3s_test_driver::atomic::write_atomic(
        &args.out,
        &bytes,
        ".candidates-",
        a3s_test_driver::atomic::Permissions::Mode(0o644),
    ) {
        let e = ContractError::new(ContractCode::Output, format!("{}: {e}", args.out.display()));
        return refuse(&e, Exit::Failed);
    }
    print!("{}", super::render::summary(&file));
    println!("wrote {}", args.out.display());
    Exit::Success.into()
}

/// The request: each source with its id, digest and content.
fn request(
    paths: &[PathBuf],
    read: &[ReadSource],
    deadline_ms: u64,
    budget: u64,
) -> ContractRequest {
    let sources = paths
        .iter()
        .zip(read)
        .enumerate()
        .map(|(i, (path, s))| Source {
            id: format!("s{}", i + 1),
            name: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            media_type: s.media_type,
            sha256: s.sha256.clone(),
            bytes: s.bytes.len() as u64,
            content: match (s.media_type, s.size) {
                (MediaType::Png, Some((width, height))) => SourceContent::Base64 {
                    data: base64::engine::general_purpose::STANDARD.encode(&s.bytes),
                    width,
                    height,
                },
                _ => SourceContent::Utf8 {
                    text: s.text().unwrap_or_default().to_string(),
                },
            },
        })
        .collect();
    ContractRequest {
        sources,
        deadline_ms,
        max_cost_microusd: budget,
    }
}

/// The provider to ask: the named one, or the only `contract_generation` one.
fn provider(root: &Path, name: Option<&str>) -> Result<HttpProvider, ProviderError> {
    use a3s_test_provider::ProviderCode;
    let project = crate::ops::project::read(root)
        .map_err(|e| ProviderError::new(ProviderCode::NotConfigured, e.to_string()))?
        .ok_or_else(|| {
            ProviderError::new(
                ProviderCode::NotConfigured,
                format!("{} has no .a3s-test/project.acl", root.display()),
            )
        })?;
    let config = match name {
        Some(name) => {
            a3s_test_provider::find(&project.providers, name, ProviderKind::ContractGeneration)?
        }
        None => {
            let mut of_kind = project
                .providers
                .iter()
                .filter(|p| p.kind == ProviderKind::ContractGeneration);
            match (of_kind.next(), of_kind.next()) {
                (Some(p), None) => p,
                (None, _) => {
                    return Err(ProviderError::new(ProviderCode::NotConfigured, "the project configures no contract_generation provider"))
                }
                (Some(_), Some(_)) => {
                    return Err(ProviderError::new(
                        ProviderCode::NotConfigured,
                        "the project configures several contract_generation providers; name one with --provider",
                    ))
                }
            }
        }
    };
    HttpProvider::from_env(config)
}

fn provider_refused(e: &ProviderError, exit: Exit) -> ExitCode {
    eprintln!("error[{}]: {}", e.code, e.message);
    eprintln!("  hint: {}", e.hint());
    exit.into()
}

/// `path` relative to `dir` when it lies under it, else absolute.
fn relative(dir: &Path, path: &Path) -> String {
    let (Ok(dir), Ok(file)) = (dir.canonicalize(), path.canonicalize()) else {
        return path.display().to_string();
    };
    match file.strip_prefix(&dir) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => file.display().to_string(),
    }
}
