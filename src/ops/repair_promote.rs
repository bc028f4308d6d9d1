//! `agent repair-promote`: a reviewer copies a repair's proven ACL candidate into the project's
//! suites. A reviewer command only — never an MCP tool: choosing what becomes a permanent
//! regression test is the reviewer's decision, not the agent's.
//!
//! Why each rule:
//! - only the candidate of the **latest attempt's latest verification**, and only when its proof
//!   passed in a fresh browser (an unproven or stale candidate would enshrine a guess);
//! - the candidate file must still have the digest its proof recorded (the evidence folder is
//!   not trusted to be untouched);
//! - an existing output is never replaced without `--force`, and the write is atomic, so a
//!   reviewer's suite is never half-written or silently lost;
//! - the written file is read back and admitted by `lang`, so what lands in the suites is valid;
//! - the ledger gets a `promote` event by the human actor, and git is never run: committing is the
//!   reviewer's own step.

use super::Context;
use a3s_test_driver::atomic::{write_atomic, Permissions};
use a3s_test_fsroot::{ConfinedPath, FsError};
use a3s_test_ledger::ledger::{sha256_digest, Applied};
use a3s_test_ledger::verification::CandidateRecord;
use a3s_test_ledger::{
    session_dir, Action, Actor, ErrorCode, FindingId, Ledger, LedgerError, LedgerState, Request,
    RequestId, RequestIdSource, SessionId,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The largest candidate file promotion reads (candidates are a few hundred bytes).
const MAX_CANDIDATE_BYTES: u64 = 1024 * 1024;

/// `agent repair-promote <finding> --session S --output <suite.acl> [--force] [--request-id R]`.
#[derive(Clone, Debug, clap::Args, Deserialize, JsonSchema)]
pub struct PromoteParams {
    /// The finding whose proven candidate is promoted.
    pub finding: FindingId,
    /// The agent session id.
    #[arg(long, allow_hyphen_values = true)]
    pub session: SessionId,
    /// Where the suite goes (a `.acl` file, relative to the working directory or absolute).
    #[arg(long)]
    pub output: PathBuf,
    /// Replace the output file when it exists.
    #[arg(long)]
    #[serde(default)]
    pub force: bool,
    /// Your request id (one is generated when omitted); repeating it is a no-op in the ledger.
    #[arg(long)]
    pub request_id: Option<RequestId>,
}

/// What a promotion reports.
#[derive(Debug, Serialize)]
pub struct Promoted {
    /// The session.
    pub session: SessionId,
    /// The finding.
    pub finding: FindingId,
    /// The file written.
    pub output: PathBuf,
    /// `sha256:<hex>` of what was written (the proven candidate's digest).
    pub sha256: String,
    /// The candidate it came from, relative to the session folder.
    pub candidate: String,
    /// True when an existing file was replaced (`--force`).
    pub overwritten: bool,
    /// The ledger's `promote` event.
    pub result: Applied,
}

/// A refused promotion: the ledger error it wraps, printed as that error. Every refusal exits 2
/// (nothing was promoted), unlike the agent verbs' refusals.
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct Refused(pub LedgerError);

fn refused(code: ErrorCode, message: impl Into<String>) -> LedgerError {
    LedgerError::new(code, message)
}

/// Promote the latest attempt's proven candidate of a finding to `params.output`.
pub fn promote(ctx: &Context, params: &PromoteParams) -> Result<Promoted, LedgerError> {
    let session = params.session.clone();
    let finding = params.finding.clone();
    let request_id = match &params.request_id {
        Some(r) => r.clone(),
        None => ctx.ids.fresh(),
    };
    if params.output.extension().and_then(|e| e.to_str()) != Some("acl") {
        return Err(refused(
            ErrorCode::InvalidInput,
            format!("--output {} must name a .acl file", params.output.display()),
        ));
    }
    let ledger = Ledger::open(&ctx.root, &session, ctx.clock.clone());
    let state = ledger.read()?;
    let candidate = proven_candidate(&state, &finding)?;
    let folder = session_dir(&ctx.root, &session);
    let bytes = read_candidate(&folder, &candidate)?;

    let previous = match std::fs::symlink_metadata(&params.output) {
        Ok(meta) if meta.is_dir() => {
            return Err(refused(
                ErrorCode::InvalidInput,
                format!("--output {} is a folder", params.output.display()),
            ))
        }
        Ok(_) if !params.force => {
            return Err(refused(
                ErrorCode::OutputExists,
                format!(
                    "{} exists; pass --force to replace it",
                    params.output.display()
                ),
            ))
        }
        Ok(_) => Some(std::fs::read(&params.output).map_err(|e| io(&params.output, e))?),
        Err(_) => None,
    };
    write_atomic(
        &params.output,
        &bytes,
        ".promote-",
        Permissions::Mode(0o644),
    )
    .map_err(|e| io(&params.output, e))?;
    let recorded = readmit(&params.output, &candidate.sha256).and_then(|()| {
        ledger.apply(Request {
            finding_id: finding.clone(),
            actor: Actor::Human,
            request_id: Some(request_id),
            attempt_id: None,
            action: Action::Promote {
                path: params.output.display().to_string(),
                sha256: candidate.sha256.clone(),
            },
        })
    });
    match recorded {
        Ok(result) => Ok(Promoted {
            session,
            finding,
            output: params.output.clone(),
            sha256: candidate.sha256,
            candidate: candidate.path,
            overwritten: previous.is_some(),
            result,
        }),
        Err(e) => {
            // Nothing is promoted unless the ledger says so: put the output back as it was.
            let _ = match previous {
                Some(old) => {
                    write_atomic(&params.output, &old, ".promote-", Permissions::Mode(0o644))
                }
                None => std::fs::remove_file(&params.output),
            };
            Err(e)
        }
    }
}

/// The candidate of the latest verification of the finding's latest attempt, when its proof
/// passed; a refusal (`repair_not_proven`) otherwise.
fn proven_candidate(
    state: &LedgerState,
    finding: &FindingId,
) -> Result<CandidateRecord, LedgerError> {
    let current = state.finding(finding).ok_or_else(|| {
        refused(
            ErrorCode::UnknownFinding,
            format!("no finding {} in this session's ledger", finding.as_str()),
        )
    })?;
    let not_proven = |why: &str| {
        refused(
            ErrorCode::NotProven,
            format!(
                "finding {} has no proven candidate: {why}",
                finding.as_str()
            ),
        )
    };
    let latest = state
        .latest_verification(current)
        .ok_or_else(|| not_proven("its latest attempt was not verified"))?;
    let candidate = latest
        .candidate
        .as_ref()
        .ok_or_else(|| not_proven("its latest verification generated no candidate"))?;
    if !candidate.proof.passed {
        return Err(not_proven("the candidate failed its proof"));
    }
    Ok(candidate.clone())
}

/// The candidate file's bytes, confined to the session folder (read without following a link
/// from the project folder down) and with the proven digest.
fn read_candidate(
    folder: &ConfinedPath,
    candidate: &CandidateRecord,
) -> Result<Vec<u8>, LedgerError> {
    let bytes = match folder.join(&candidate.path).read(MAX_CANDIDATE_BYTES) {
        Ok(bytes) => bytes,
        Err(FsError::TooLarge { path, .. }) => {
            return Err(refused(
                ErrorCode::InvalidInput,
                format!("{} is larger than 1 MiB", path.display()),
            ))
        }
        Err(e @ FsError::InvalidPath { .. }) => {
            return Err(refused(
                ErrorCode::NotProven,
                format!("the candidate path is not usable: {e}"),
            ))
        }
        Err(e) => return Err(LedgerError::fs(&e)),
    };
    if sha256_digest(&bytes) != candidate.sha256 {
        return Err(refused(
            ErrorCode::NotProven,
            format!(
                "{} changed since its proof (its digest is not {})",
                candidate.path, candidate.sha256
            ),
        ));
    }
    Ok(bytes)
}

/// Read the written output back and admit it; it must be the proven bytes and a valid suite.
fn readmit(output: &Path, sha256: &str) -> Result<(), LedgerError> {
    let bytes = read_bounded(output)?;
    if sha256_digest(&bytes) != sha256 {
        return Err(refused(
            ErrorCode::Io,
            format!("{} does not read back as written", output.display()),
        ));
    }
    let admission = a3s_test_lang::admit_bytes(&bytes);
    if !admission.is_admitted() {
        let first = admission.diagnostics.first();
        return Err(refused(
            ErrorCode::NotProven,
            format!(
                "the promoted file is not admitted: {}",
                first
                    .map(|d| format!("{}: {}", d.code.as_str(), d.message))
                    .unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

fn read_bounded(path: &Path) -> Result<Vec<u8>, LedgerError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_CANDIDATE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| io(path, e))?;
    if bytes.len() as u64 > MAX_CANDIDATE_BYTES {
        return Err(refused(
            ErrorCode::InvalidInput,
            format!("{} is larger than 1 MiB", path.display()),
        ));
    }
    Ok(bytes)
}

fn io(path: &Path, e: std::io::Error) -> LedgerError {
    refused(
        ErrorCode::Io,
        format!("failed to access {}: {e}", path.display()),
    )
}
