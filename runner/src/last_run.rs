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
//!
//! The record is read and written through `a3s_test_fsroot` below the output folder's anchor:
//! with the default output folder, `.a3s-test` itself and `last-run.json` are never reached
//! through a link (a link, a FIFO or a second hard link in their place is refused).

use crate::result::{RunResult, ScenarioStatus};
use a3s_test_fsroot::{ConfinedPath, FsError, PRIVATE};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::PathBuf;

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
    /// Reading or writing the file failed, or its path was refused (a link, a FIFO).
    #[error("failed to {action} the last-run record: {source}")]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// Why (the message names the path).
        source: FsError,
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

/// A `skip`/`fixme` scenario did not pass, but running it again would skip it again: it is not
/// recorded. One skipped because a dependency did not pass is (it never ran).
fn annotated_skip(s: &crate::result::ScenarioResult) -> bool {
    s.skip
        .as_ref()
        .is_some_and(|k| k.kind != crate::skip::SkipKind::Dependency)
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
                .filter(|s| s.status != ScenarioStatus::Passed && !annotated_skip(s))
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

    /// Where the record of `output` lives.
    pub fn path(output: &ConfinedPath) -> PathBuf {
        output.join(LAST_RUN_FILE).path()
    }

    /// Read the record of `output`; `Ok(None)` when there is none.
    pub fn read(output: &ConfinedPath) -> Result<Option<LastRun>, LastRunError> {
        let path = Self::path(output);
        let bytes = match output.join(LAST_RUN_FILE).read(MAX_RECORD_BYTES) {
            Ok(bytes) => bytes,
            Err(e) if e.is_not_found() => return Ok(None),
            Err(FsError::TooLarge { .. }) => {
                return Err(LastRunError::Invalid {
                    path,
                    reason: format!("larger than {MAX_RECORD_BYTES} bytes"),
                })
            }
            Err(FsError::NotRegular { .. }) => {
                return Err(LastRunError::Invalid {
                    path,
                    reason: "not a regular file".into(),
                })
            }
            Err(source) => {
                return Err(LastRunError::Io {
                    action: "read",
                    source,
                })
            }
        };
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

    /// Replace the record of `output` atomically (creating the output folder when missing).
    pub fn write(&self, output: &ConfinedPath) -> Result<(), LastRunError> {
        let io = |source| LastRunError::Io {
            action: "write",
            source,
        };
        let mut bytes = serde_json::to_vec_pretty(self).expect("a record serializes");
        bytes.push(b'\n');
        output
            .create_dir_all()
            .and_then(|dir| dir.write_atomic(LAST_RUN_FILE, &bytes, PRIVATE))
            .map_err(io)
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
        let output = ConfinedPath::new(dir.path(), ".a3s-test");
        assert!(LastRun::read(&output).unwrap().is_none());
        record(&[("a/x", "failed")]).write(&output).unwrap();
        let second = record(&[("a/y", "flaky"), ("b/z", "timed_out")]);
        second.write(&output).unwrap();
        let back = LastRun::read(&output).unwrap().unwrap();
        assert_eq!(back, second);
        assert_eq!(
            back.ids().into_iter().collect::<Vec<_>>(),
            vec!["a/y", "b/z"]
        );
        let leftovers: Vec<_> = std::fs::read_dir(output.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(leftovers, vec![LAST_RUN_FILE], "no temporary file is left");
    }

    #[test]
    fn other_versions_and_garbage_are_refused_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let output = ConfinedPath::anchor_only(dir.path());
        let path = LastRun::path(&output);
        std::fs::write(&path, "{ not json").unwrap();
        let e = LastRun::read(&output).unwrap_err().to_string();
        assert!(e.contains("is not a last-run record"), "{e}");
        let mut future = serde_json::to_value(record(&[])).unwrap();
        future["format_version"] = 2.into();
        std::fs::write(&path, future.to_string()).unwrap();
        let e = LastRun::read(&output).unwrap_err().to_string();
        assert!(e.contains("format version 2"), "{e}");
    }

    #[test]
    fn a_linked_record_or_state_folder_is_neither_read_nor_replaced() {
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("record.json");
        let mut bytes = serde_json::to_vec(&record(&[("a/x", "failed")])).unwrap();
        bytes.extend_from_slice(b" ");
        std::fs::write(&target, &bytes).unwrap();
        let output = ConfinedPath::new(project.path(), ".a3s-test");
        std::fs::create_dir(project.path().join(".a3s-test")).unwrap();
        std::os::unix::fs::symlink(&target, project.path().join(".a3s-test/last-run.json"))
            .unwrap();
        let e = LastRun::read(&output).unwrap_err();
        assert!(
            matches!(&e, LastRunError::Io { source, .. } if source.is_refusal()),
            "{e}"
        );
        let e = record(&[]).write(&output).unwrap_err();
        assert!(
            matches!(&e, LastRunError::Io { source, .. } if source.is_refusal()),
            "{e}"
        );
        assert_eq!(std::fs::read(&target).unwrap(), bytes);
        // `.a3s-test` itself a link.
        std::fs::remove_dir_all(project.path().join(".a3s-test")).unwrap();
        std::os::unix::fs::symlink(outside.path(), project.path().join(".a3s-test")).unwrap();
        assert!(LastRun::read(&output).is_err());
        assert!(record(&[]).write(&output).is_err());
        assert_eq!(std::fs::read(&target).unwrap(), bytes);
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
    }
}
