//! The recorded scenario durations `--shard i/n` balances by (`plan::balance`).
//!
//! Two sources, one map: the output folder's history (`<output-dir>/durations.json`, updated after
//! every run without `--shard` with the last duration of each scenario that ran — others keep
//! theirs; a shard's run leaves it alone, so shards run one after another in one folder all read
//! the same durations and agree on the partition), and
//! `--durations FILE`, which takes that file or the `--json` result of a run (one shard's or a
//! `merge-reports` result) — what a CI job restores from its cache so every job of a matrix reads
//! the same durations and computes the same partition. Skipped and cancelled scenarios say
//! nothing about how long a scenario takes, and are left out.
//!
//! The history is read and written through `a3s_test_fsroot` below the output folder, atomically,
//! as `last-run.json` is.

use crate::plan::balance::DurationMap;
use crate::result::{RunResult, ScenarioStatus};
use a3s_test_fsroot::{ConfinedPath, FsError, PRIVATE};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// File name of the history inside the output folder.
pub const DURATIONS_FILE: &str = "durations.json";
/// Version of the history's format.
pub const DURATIONS_FORMAT_VERSION: u32 = 1;
/// Largest durations file read.
const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// The history file: the last duration of every scenario that ran in this output folder.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DurationRecord {
    /// [`DURATIONS_FORMAT_VERSION`].
    pub format_version: u32,
    /// Milliseconds by full scenario id.
    pub scenarios: DurationMap,
}

/// What `--durations FILE` may hold: the history file, or a run's `--json` result.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DurationsFile {
    Record(DurationRecord),
    Result(TimedResult),
}

/// The parts of a run result that carry durations.
#[derive(Debug, Deserialize)]
struct TimedResult {
    scenarios: Vec<TimedScenario>,
}

/// One scenario of a run result.
#[derive(Debug, Deserialize)]
struct TimedScenario {
    id: String,
    status: ScenarioStatus,
    duration_ms: u64,
}

/// Why durations could not be read or recorded.
#[derive(Debug, thiserror::Error)]
pub enum DurationsError {
    /// The file could not be read or written.
    #[error("failed to {action} `{}`: {source}", path.display())]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not durations nor a run result.
    #[error("`{}` is neither a durations file nor a run's --json result: {reason}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// True for a status whose duration says how long the scenario takes.
fn timed(status: ScenarioStatus) -> bool {
    !matches!(status, ScenarioStatus::Skipped | ScenarioStatus::Cancelled)
}

/// Read `bytes` of a durations file or run result (`path` names it in errors).
pub fn parse(bytes: &[u8], path: &Path) -> Result<DurationMap, DurationsError> {
    let invalid = |reason: String| DurationsError::Invalid {
        path: path.to_path_buf(),
        reason,
    };
    match serde_json::from_slice::<DurationsFile>(bytes).map_err(|e| invalid(e.to_string()))? {
        DurationsFile::Record(record) if record.format_version == DURATIONS_FORMAT_VERSION => {
            Ok(record.scenarios)
        }
        DurationsFile::Record(record) => Err(invalid(format!(
            "it has format version {}",
            record.format_version
        ))),
        DurationsFile::Result(result) => Ok(result
            .scenarios
            .into_iter()
            .filter(|s| timed(s.status))
            .map(|s| (s.id, s.duration_ms))
            .collect()),
    }
}

/// `--durations FILE`.
pub fn read_file(path: &Path) -> Result<DurationMap, DurationsError> {
    use std::io::Read;
    let io = |source| DurationsError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_BYTES)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    parse(&bytes, path)
}

/// Where the history of `output` lives.
pub fn history_path(output: &ConfinedPath) -> PathBuf {
    output.join(DURATIONS_FILE).path()
}

/// The history of `output`; `Ok(None)` when there is none.
pub fn read_history(output: &ConfinedPath) -> Result<Option<DurationMap>, DurationsError> {
    let path = history_path(output);
    match output.join(DURATIONS_FILE).read(MAX_BYTES) {
        Ok(bytes) => parse(&bytes, &path).map(Some),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(DurationsError::Io {
            action: "read",
            path,
            source: fs_error(e),
        }),
    }
}

fn fs_error(e: FsError) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

/// After a run: the history of `output` with this run's durations over the old ones.
pub fn record(output: &ConfinedPath, result: &RunResult) -> Result<(), DurationsError> {
    let mut scenarios = read_history(output).ok().flatten().unwrap_or_default();
    for s in result.scenarios.iter().filter(|s| timed(s.status)) {
        scenarios.insert(s.id.clone(), s.duration_ms);
    }
    let record = DurationRecord {
        format_version: DURATIONS_FORMAT_VERSION,
        scenarios,
    };
    let mut bytes = serde_json::to_vec_pretty(&record).expect("durations serialize");
    bytes.push(b'\n');
    output
        .create_dir_all()
        .and_then(|dir| dir.write_atomic(DURATIONS_FILE, &bytes, PRIVATE))
        .map_err(|e| DurationsError::Io {
            action: "write",
            path: history_path(output),
            source: fs_error(e),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_result_and_the_history_both_read_as_durations() {
        let result = br#"{"run_id":"r","scenarios":[
            {"id":"a/x","status":"passed","duration_ms":1200,"name":"x"},
            {"id":"a/y","status":"skipped","duration_ms":0},
            {"id":"a/z","status":"flaky","duration_ms":900}]}"#;
        let map = parse(result, Path::new("result.json")).unwrap();
        assert_eq!(
            map.into_iter().collect::<Vec<_>>(),
            [("a/x".to_string(), 1200), ("a/z".to_string(), 900)]
        );
        let history = br#"{"format_version":1,"scenarios":{"a/x":5}}"#;
        assert_eq!(parse(history, Path::new("d.json")).unwrap()["a/x"], 5);
        let other = br#"{"format_version":9,"scenarios":{}}"#;
        assert!(parse(other, Path::new("d.json"))
            .unwrap_err()
            .to_string()
            .contains("format version 9"));
        let junk = parse(b"[1,2]", Path::new("junk.json"))
            .unwrap_err()
            .to_string();
        assert!(
            junk.contains("neither a durations file nor a run's --json result"),
            "{junk}"
        );
    }
}
