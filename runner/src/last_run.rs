//! The record of the previous run (`<output-dir>/last-run.json`) behind `run --last-failed`.
//!
//! After every run that executed a plan, the runner replaces this small, versioned file with the
//! ids of the scenarios that did not pass cleanly: failed, timed out, cancelled — and flaky,
//! because a scenario that passed only on a retry still needs looking at (Playwright leaves flaky
//! tests out of its last-failed list; we keep them, and say so in the docs). The file is written
//! atomically (a temporary file in the same folder, fsync, rename), so a crash leaves either the
//! old record or the new one, never half of one.
//!
//! `--last-failed` then keeps only those scenarios, after filter, tag and shard. When there is no
//! record (or it cannot be read, or has another format version) the run says so and selects
//! everything, as Playwright does; a record of a run where everything passed selects nothing.

use crate::result::{RunResult, ScenarioStatus};
use a3s_test_driver::atomic::Permissions;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// File name of the record inside the output folder.
pub const LAST_RUN_FILE: &str = "last-run.json";

/// Version of the record's format; a record with another version is not used.
pub const LAST_RUN_FORMAT_VERSION: u32 = 1;

/// Largest record read back (ids are at most 129 bytes; this is far more than any suite tree).
const MAX_RECORD_BYTES: u64 = 16 * 1024 * 1024;

/// One scenario of the previous run that did not pass cleanly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotPassed {
    /// `suite/scenario`.
    pub id: String,
    /// Its status word (`failed`, `timed_out`, `cancelled`, `flaky`).
    pub status: String,
}

/// What `--last-failed` needs to know about the previous run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastRun {
    /// [`LAST_RUN_FORMAT_VERSION`].
    pub format_version: u32,
    /// The run it describes.
    pub run_id: String,
    /// Its exit code.
    pub exit_code: crate::exit::Exit,
    /// Scenarios that did not pass cleanly, in plan order.
    pub not_passed: Vec<NotPassed>,
}

/// Why the record could not be written or used.
#[derive(Debug, thiserror::Error)]
pub enum LastRunError {
    /// Reading or writing the file failed.
    #[error("failed to {action} `{}`: {source}", path.display())]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The record.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a record this version understands.
    #[error("`{}` is not a last-run record of format version {LAST_RUN_FORMAT_VERSION}: {reason}", path.display())]
    Invalid {
        /// The record.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

impl LastRun {
    /// The record of a finished run.
    pub fn of(result: &RunResult) -> LastRun {
        LastRun {
            format_version: LAST_RUN_FORMAT_VERSION,
            run_id: result.run_id.clone(),
            exit_code: result.exit_code,
            not_passed: result
                .scenarios
                .iter()
                .filter(|s| s.status != ScenarioStatus::Passed)
                .map(|s| NotPassed {
                    id: s.id.clone(),
                    status: s.status.as_str().to_string(),
                })
                .collect(),
        }
    }

    /// The ids `--last-failed` selects.
    pub fn ids(&self) -> BTreeSet<String> {
        self.not_passed.iter().map(|s| s.id.clone()).collect()
    }

    /// Where the record of `output_dir` lives.
    pub fn path(output_dir: &Path) -> PathBuf {
        output_dir.join(LAST_RUN_FILE)
    }

    /// Read the record of `output_dir`; `Ok(None)` when there is none.
    pub fn read(output_dir: &Path) -> Result<Option<LastRun>, LastRunError> {
        use std::io::Read;
        let path = Self::path(output_dir);
        let io = |source| LastRunError::Io {
            action: "read",
            path: path.clone(),
            source,
        };
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io(e)),
        };
        if !file.metadata().map_err(io)?.is_file() {
            return Err(LastRunError::Invalid {
                path,
                reason: "not a regular file".into(),
            });
        }
        let mut bytes = Vec::new();
        file.take(MAX_RECORD_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_RECORD_BYTES {
            return Err(LastRunError::Invalid {
                path,
                reason: format!("larger than {MAX_RECORD_BYTES} bytes"),
            });
        }
        let record: LastRun =
            serde_json::from_slice(&bytes).map_err(|e| LastRunError::Invalid {
                path: path.clone(),
                reason: e.to_string(),
            })?;
        if record.format_version != LAST_RUN_FORMAT_VERSION {
            return Err(LastRunError::Invalid {
                path,
                reason: format!("it has format version {}", record.format_version),
            });
        }
        Ok(Some(record))
    }

    /// Replace the record of `output_dir` atomically.
    pub fn write(&self, output_dir: &Path) -> Result<(), LastRunError> {
        let path = Self::path(output_dir);
        let io = |source| LastRunError::Io {
            action: "write",
            path: path.clone(),
            source,
        };
        let mut bytes = serde_json::to_vec_pretty(self).expect("a record serializes");
        bytes.push(b'\n');
        a3s_test_driver::atomic::write_atomic(&path, &bytes, ".last-run-", Permissions::Private)
            .map_err(io)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(ids: &[(&str, &str)]) -> LastRun {
        LastRun {
            format_version: LAST_RUN_FORMAT_VERSION,
            run_id: "r".into(),
            exit_code: crate::exit::Exit::Failed,
            not_passed: ids
                .iter()
                .map(|(id, status)| NotPassed {
                    id: id.to_string(),
                    status: status.to_string(),
                })
                .collect(),
        }
    }

    #[test]
    fn written_records_read_back_and_replace_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        assert!(LastRun::read(dir.path()).unwrap().is_none());
        record(&[("a/x", "failed")]).write(dir.path()).unwrap();
        let second = record(&[("a/y", "flaky"), ("b/z", "timed_out")]);
        second.write(dir.path()).unwrap();
        let back = LastRun::read(dir.path()).unwrap().unwrap();
        assert_eq!(back, second);
        assert_eq!(
            back.ids().into_iter().collect::<Vec<_>>(),
            vec!["a/y", "b/z"]
        );
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(leftovers, vec![LAST_RUN_FILE], "no temporary file is left");
    }

    #[test]
    fn other_versions_and_garbage_are_refused_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let path = LastRun::path(dir.path());
        std::fs::write(&path, "{ not json").unwrap();
        let e = LastRun::read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("is not a last-run record"), "{e}");
        let mut future = serde_json::to_value(record(&[])).unwrap();
        future["format_version"] = 2.into();
        std::fs::write(&path, future.to_string()).unwrap();
        let e = LastRun::read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("format version 2"), "{e}");
    }
}
