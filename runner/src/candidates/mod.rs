//! Quality candidates from the latest run (`a3s.test.run-candidates/1`): the failed and flaky
//! scenarios of the last `run`, offered to a reviewer on the page each failed on.
//!
//! Why a feed of its own: a run's verdict and the repair ledger are separate paths. A failing
//! scenario is a deterministic fact about the page, and the Review Overlay may show it on that
//! page so a person can decide whether it is work — but reading it decides nothing, changes no
//! verdict and writes nothing. The feed is built from the run's own result file
//! (`runs/<run-id>/result.json`, written beside `last-run.json` after every run), read back
//! bounded, and cut to bounded counts and texts before it leaves the process.

mod feed;
mod locator;
mod target;

pub use feed::{
    candidates_for, CandidateStatus, RunCandidate, RunCandidates, CANDIDATES_PROTOCOL,
    MAX_CANDIDATES, MAX_CANDIDATE_TEXT,
};
pub use locator::{locator_of, CandidateLocator, TextMode};
pub use target::step_target;

use crate::last_run::{LastRun, LastRunError};
use crate::result::{RunResult, RESULT_FORMAT_VERSION};
use a3s_test_fsroot::{ConfinedPath, FsError, PRIVATE};

/// The run's result, in its run folder (`<output>/runs/<run-id>/result.json`).
pub const RESULT_FILE: &str = "result.json";

/// Largest result file read back.
const MAX_RESULT_BYTES: u64 = 64 * 1024 * 1024;

/// Why the latest run's result could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CandidatesError {
    /// The last-run record names no usable run.
    #[error(transparent)]
    LastRun(#[from] LastRunError),
    /// The result file could not be read or written (a link, a FIFO, I/O).
    #[error("failed to {action} the run result: {source}")]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// Why.
        source: FsError,
    },
    /// The file is not a result this version reads.
    #[error("the run result of {run_id} cannot be read: {reason}")]
    Invalid {
        /// The run.
        run_id: String,
        /// What is wrong.
        reason: String,
    },
}

fn run_dir(output: &ConfinedPath, run_id: &str) -> Result<ConfinedPath, CandidatesError> {
    // A run id is `<timestamp>-<hex>`: a single path component, checked before it names one.
    let plain = !run_id.is_empty()
        && run_id.len() <= 64
        && run_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if !plain {
        return Err(CandidatesError::Invalid {
            run_id: run_id.chars().take(64).collect(),
            reason: "the run id is not a plain name".into(),
        });
    }
    Ok(output.join("runs").join(run_id))
}

/// Write `result` as its run's `result.json` (atomically; the run folder is created when the
/// run made none).
pub fn write_result(output: &ConfinedPath, result: &RunResult) -> Result<(), CandidatesError> {
    let mut bytes = serde_json::to_vec_pretty(result).expect("a run result serializes");
    bytes.push(b'\n');
    run_dir(output, &result.run_id)?
        .create_dir_all()
        .and_then(|dir| dir.write_atomic(RESULT_FILE, &bytes, PRIVATE))
        .map_err(|source| CandidatesError::Io {
            action: "write",
            source,
        })
}

/// The result of the latest run of `output` (the one `last-run.json` names), or `None` when
/// there was no run yet or it left no result file.
pub fn read_latest(output: &ConfinedPath) -> Result<Option<RunResult>, CandidatesError> {
    let Some(last) = LastRun::read(output)? else {
        return Ok(None);
    };
    let bytes = match run_dir(output, &last.run_id)?
        .join(RESULT_FILE)
        .read(MAX_RESULT_BYTES)
    {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(source) => {
            return Err(CandidatesError::Io {
                action: "read",
                source,
            })
        }
    };
    let result: RunResult =
        serde_json::from_slice(&bytes).map_err(|e| CandidatesError::Invalid {
            run_id: last.run_id.clone(),
            reason: e.to_string(),
        })?;
    if result.format_version != RESULT_FORMAT_VERSION || result.run_id != last.run_id {
        return Err(CandidatesError::Invalid {
            run_id: last.run_id,
            reason: "it is not this run's result of this format version".into(),
        });
    }
    Ok(Some(result))
}

#[cfg(test)]
mod tests;
