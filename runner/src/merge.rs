//! `merge-reports`: the JSON results of the shards of one `--shard i/n` run, merged into one.
//!
//! Each shard's result carries a [`ShardRecord`]: its number, the shard count, and how many
//! scenarios the whole run selected with a SHA-256 of their ids. Shards merge only when they agree
//! on all three (the same suites, filters and tags, split the same way) — anything else is a
//! coded error and nothing is written:
//!
//! | code | when |
//! |---|---|
//! | `test.run.merge_input` | a file cannot be read or is not a run result |
//! | `test.run.merge_version` | a result of another `format_version` |
//! | `test.run.merge_not_sharded` | a result of a run without `--shard` |
//! | `test.run.merge_mismatch` | shards of different runs (shard count, selection), or one scenario in two shards |
//! | `test.run.merge_duplicate_shard` | the same shard given twice (which one is right is unknowable) |
//!
//! A **missing** shard is not fatal — the merge job of a CI matrix must still report what the
//! other shards found — but the merged result records it (`merge.missing_shards`), every
//! reporter shows it (`test.run.merge_missing_shard`), and the exit code is 2: scenarios that were
//! never reported cannot pass. Otherwise the exit code follows the same rules as `run`
//! ([`crate::exit`]) over the merged scenarios and cleanup failures. The merged run's duration is
//! the longest shard's (shards run side by side), its start the earliest shard's.

use crate::result::{
    MergeRecord, MergedShard, RunOutcome, RunResult, ShardRecord, RESULT_FORMAT_VERSION,
};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// The `merge-reports` codes belong to the `test.run.*` family of the driver's registry.
pub use a3s_test_driver::failure::MergeCode;

/// Why the shards could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Reading a file failed.
    #[error("failed to read `{}`: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a run result.
    #[error("failed to read `{}` as a run result: {message}", file.display())]
    Parse {
        /// The file.
        file: PathBuf,
        /// What the JSON reader said.
        message: String,
    },
    /// A result of another format version.
    #[error("failed to merge `{}`: it has result format {found}, this a3s-test reads format {RESULT_FORMAT_VERSION}", file.display())]
    Version {
        /// The file.
        file: PathBuf,
        /// Its `format_version`.
        found: u64,
    },
    /// A run without `--shard`.
    #[error("failed to merge `{}`: it is the result of a run without --shard", file.display())]
    NotSharded {
        /// The file.
        file: PathBuf,
    },
    /// Shards of different runs.
    #[error("failed to merge `{}` with `{}`: {what}", file.display(), first.display())]
    Mismatch {
        /// The file that disagrees.
        file: PathBuf,
        /// The first file.
        first: PathBuf,
        /// How they disagree.
        what: String,
    },
    /// One shard twice.
    #[error("failed to merge: shard {index}/{total} is given twice, `{}` and `{}`", first.display(), second.display())]
    DuplicateShard {
        /// The shard number.
        index: u32,
        /// The shard count.
        total: u32,
        /// The first file with it.
        first: PathBuf,
        /// The second.
        second: PathBuf,
    },
}

impl MergeError {
    /// The stable code.
    pub fn code(&self) -> MergeCode {
        match self {
            MergeError::Read { .. } | MergeError::Parse { .. } => MergeCode::Input,
            MergeError::Version { .. } => MergeCode::Version,
            MergeError::NotSharded { .. } => MergeCode::NotSharded,
            MergeError::Mismatch { .. } => MergeCode::Mismatch,
            MergeError::DuplicateShard { .. } => MergeCode::DuplicateShard,
        }
    }

    /// One line on what to do about it.
    pub fn hint(&self) -> &'static str {
        match self {
            MergeError::Read { .. } | MergeError::Parse { .. } => {
                "pass the files written by `a3s-test run --shard i/n --json > file`"
            }
            MergeError::Version { .. } => "merge with the a3s-test version that ran the shards",
            MergeError::NotSharded { .. } => {
                "run each job with `--shard i/n` (1-based) and the same n"
            }
            MergeError::Mismatch { .. } => {
                "give every shard the same suites, --filter, --tag and shard count n"
            }
            MergeError::DuplicateShard { .. } => "pass each shard's result once",
        }
    }
}

/// One shard's result and the file it came from.
#[derive(Debug, Clone)]
pub struct ShardInput {
    /// Where it was read from.
    pub file: PathBuf,
    /// The result.
    pub result: RunResult,
}

/// Read one `--json` result file.
pub fn read(file: &Path) -> Result<ShardInput, MergeError> {
    let bytes = std::fs::read(file).map_err(|source| MergeError::Read {
        file: file.to_path_buf(),
        source,
    })?;
    let parse = |e: serde_json::Error| MergeError::Parse {
        file: file.to_path_buf(),
        message: e.to_string(),
    };
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(parse)?;
    // The version first: a newer format may not even parse as this one.
    match value
        .get("format_version")
        .and_then(serde_json::Value::as_u64)
    {
        Some(v) if v == u64::from(RESULT_FORMAT_VERSION) => {}
        Some(found) => {
            return Err(MergeError::Version {
                file: file.to_path_buf(),
                found,
            })
        }
        None => {
            return Err(MergeError::Parse {
                file: file.to_path_buf(),
                message: "no `format_version`".into(),
            })
        }
    }
    let result = serde_json::from_value(value).map_err(parse)?;
    Ok(ShardInput {
        file: file.to_path_buf(),
        result,
    })
}

fn shard_of(input: &ShardInput) -> Result<&ShardRecord, MergeError> {
    input
        .result
        .shard
        .as_ref()
        .ok_or_else(|| MergeError::NotSharded {
            file: input.file.clone(),
        })
}

/// The deepest folder holding every path (the shards' `runs/` folder when they share one).
fn common_ancestor<'a>(paths: impl IntoIterator<Item = &'a Path>) -> PathBuf {
    let mut common: Option<Vec<Component>> = None;
    for path in paths {
        let parts: Vec<Component> = path.components().collect();
        common = Some(match common {
            None => parts,
            Some(c) => c
                .into_iter()
                .zip(parts)
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect(),
        });
    }
    common.unwrap_or_default().iter().collect()
}

/// Merge the shards of one run into one result named `run_id`.
pub fn merge(inputs: Vec<ShardInput>, run_id: &str) -> Result<RunResult, MergeError> {
    let Some(first) = inputs.first() else {
        return Err(MergeError::Parse {
            file: PathBuf::new(),
            message: "no result files were given".into(),
        });
    };
    let reference = shard_of(first)?.clone();
    let first_file = first.file.clone();
    let admitted = first.result.scenarios.len() + first.result.skipped;
    let mut by_index: BTreeMap<u32, &ShardInput> = BTreeMap::new();
    for input in &inputs {
        let shard = shard_of(input)?;
        let mismatch = |what: String| MergeError::Mismatch {
            file: input.file.clone(),
            first: first_file.clone(),
            what,
        };
        if shard.total != reference.total {
            return Err(mismatch(format!(
                "it is shard {}/{}, the first is shard {}/{}",
                shard.index, shard.total, reference.index, reference.total
            )));
        }
        if shard.selection != reference.selection || shard.selected != reference.selected {
            return Err(mismatch(format!(
                "its run selected other scenarios ({} vs {}: other suites, --filter or --tag)",
                shard.selected, reference.selected
            )));
        }
        if input.result.scenarios.len() + input.result.skipped != admitted {
            return Err(mismatch(format!(
                "its run admitted {} scenarios, the first {admitted}",
                input.result.scenarios.len() + input.result.skipped
            )));
        }
        if let Some(earlier) = by_index.insert(shard.index, input) {
            return Err(MergeError::DuplicateShard {
                index: shard.index,
                total: shard.total,
                first: earlier.file.clone(),
                second: input.file.clone(),
            });
        }
    }

    let mut scenarios: Vec<crate::result::ScenarioResult> = Vec::new();
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    let mut cleanup_failures = Vec::new();
    let mut shards = Vec::new();
    for (&index, input) in &by_index {
        let r = &input.result;
        for s in &r.scenarios {
            // A dependency runs in every shard whose scenarios need it (`depends_on`): keep the
            // run of the shard that selected it, else the first.
            if let Some(at) = scenarios.iter().position(|m| m.id == s.id) {
                if s.dependency_only || scenarios[at].dependency_only {
                    if scenarios[at].dependency_only && !s.dependency_only {
                        scenarios[at] = s.clone();
                        seen.insert(s.id.clone(), index);
                    }
                    continue;
                }
            }
            if let Some(other) = seen.insert(s.id.clone(), index) {
                return Err(MergeError::Mismatch {
                    file: input.file.clone(),
                    first: first_file.clone(),
                    what: format!(
                        "scenario `{}` is in shard {other} and in shard {index}",
                        s.id
                    ),
                });
            }
            scenarios.push(s.clone());
        }
        for f in &r.cleanup_failures {
            let mut f = f.clone();
            f.message = format!("shard {index}/{}: {}", reference.total, f.message);
            cleanup_failures.push(f);
        }
        shards.push(MergedShard {
            index,
            run_id: r.run_id.clone(),
            file: input.file.clone(),
            exit_code: r.exit_code,
        });
    }
    let missing_shards: Vec<u32> = (1..=reference.total)
        .filter(|i| !by_index.contains_key(i))
        .collect();
    let selected = scenarios.iter().filter(|s| !s.dependency_only).count();
    if missing_shards.is_empty() && selected != reference.selected {
        return Err(MergeError::Mismatch {
            file: first_file.clone(),
            first: first_file,
            what: format!(
                "the shards hold {} scenarios, their run selected {}",
                selected, reference.selected
            ),
        });
    }
    // Plan order is files by path, scenarios as written; each shard keeps it, so a stable sort by
    // file groups the suites back in order (within a file, shard by shard).
    scenarios.sort_by(|a, b| a.file.cmp(&b.file));
    let results = by_index.values().map(|i| &i.result);
    let mut merged = RunResult {
        format_version: RESULT_FORMAT_VERSION,
        run_id: run_id.to_string(),
        started_at: results
            .clone()
            .map(|r| r.started_at.clone())
            .min()
            .unwrap_or_default(),
        duration_ms: results.clone().map(|r| r.duration_ms).max().unwrap_or(0),
        outcome: RunOutcome::Passed,
        exit_code: crate::exit::Exit::Success,
        artifact_root: common_ancestor(results.map(|r| r.artifact_root.as_path())),
        skipped: admitted.saturating_sub(reference.selected),
        counts: Default::default(),
        scenarios,
        cleanup_failures,
        fail_on_flaky: by_index.values().any(|i| i.result.fail_on_flaky),
        shard: None,
        merge: Some(MergeRecord {
            total: reference.total,
            shards,
            missing_shards,
        }),
    };
    merged.finalize();
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit;
    use crate::result::{FailureRecord, ScenarioResult, ScenarioStatus};
    use a3s_test_driver::FailureCode;

    const IDS: [&str; 4] = ["a/one", "a/two", "b/three", "b/four"];

    fn scenario(id: &str, status: ScenarioStatus) -> ScenarioResult {
        ScenarioResult {
            failure: (status != ScenarioStatus::Passed)
                .then(|| FailureRecord::new(FailureCode::TextMismatch, "m")),
            duration_ms: 5,
            ..ScenarioResult::bare(id, status)
        }
    }

    /// Shard `index` of 2 over [`IDS`]: shard 1 holds the first two, shard 2 the rest.
    fn shard(index: u32, total: u32, ids: &[&str], failed: &[&str]) -> ShardInput {
        let scenarios: Vec<ScenarioResult> = ids
            .iter()
            .map(|id| {
                let status = if failed.contains(id) {
                    ScenarioStatus::Failed
                } else {
                    ScenarioStatus::Passed
                };
                scenario(id, status)
            })
            .collect();
        let mut result = RunResult {
            format_version: RESULT_FORMAT_VERSION,
            run_id: format!("run-{index}"),
            started_at: format!("2026-01-01T12:00:0{index}Z"),
            duration_ms: 1000 * u64::from(index),
            outcome: RunOutcome::Passed,
            exit_code: crate::exit::Exit::Success,
            artifact_root: PathBuf::from(format!("/w/.a3s-test/runs/run-{index}")),
            skipped: IDS.len() - scenarios.len(),
            counts: Default::default(),
            scenarios,
            cleanup_failures: vec![],
            fail_on_flaky: false,
            shard: Some(ShardRecord::new(index, total, IDS)),
            merge: None,
        };
        result.finalize();
        ShardInput {
            file: PathBuf::from(format!("shard-{index}.json")),
            result,
        }
    }

    #[test]
    fn shards_merge_into_one_result_with_the_run_exit_code() {
        let merged = merge(
            vec![
                shard(2, 2, &IDS[2..], &["b/four"]),
                shard(1, 2, &IDS[..2], &[]),
            ],
            "merged",
        )
        .unwrap();
        let ids: Vec<&str> = merged.scenarios.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, IDS);
        assert_eq!(
            (
                merged.counts.total,
                merged.counts.passed,
                merged.counts.failed
            ),
            (4, 3, 1)
        );
        assert_eq!(merged.exit_code, exit::Exit::Failed);
        assert_eq!(merged.duration_ms, 2000, "the longest shard");
        assert_eq!(merged.started_at, "2026-01-01T12:00:01Z");
        assert_eq!(merged.artifact_root, PathBuf::from("/w/.a3s-test/runs"));
        assert_eq!(merged.skipped, 0);
        let record = merged.merge.unwrap();
        assert_eq!(
            record.shards.iter().map(|s| s.index).collect::<Vec<_>>(),
            [1, 2]
        );
        assert!(record.missing_shards.is_empty());
    }

    #[test]
    fn a_missing_shard_is_reported_and_the_merge_cannot_pass() {
        let merged = merge(vec![shard(1, 3, &IDS[..2], &[])], "merged").unwrap();
        assert_eq!(merged.merge.as_ref().unwrap().missing_shards, [2, 3]);
        assert_eq!(merged.counts.passed, 2);
        assert_eq!(merged.exit_code, exit::Exit::InvalidInput);
        assert_eq!(merged.outcome, RunOutcome::Error);
    }

    #[test]
    fn duplicates_mismatches_and_unsharded_results_are_coded_errors() {
        let cases: Vec<(Vec<ShardInput>, MergeCode)> = vec![
            (
                vec![shard(1, 2, &IDS[..2], &[]), shard(1, 2, &IDS[..2], &[])],
                MergeCode::DuplicateShard,
            ),
            (
                vec![shard(1, 2, &IDS[..2], &[]), shard(2, 3, &IDS[2..], &[])],
                MergeCode::Mismatch,
            ),
            (
                vec![shard(1, 2, &IDS[..2], &[]), shard(2, 2, &IDS[1..], &[])],
                MergeCode::Mismatch,
            ),
            (
                {
                    let mut other = shard(2, 2, &IDS[2..], &[]);
                    other.result.shard = Some(ShardRecord::new(2, 2, ["x/y"]));
                    vec![shard(1, 2, &IDS[..2], &[]), other]
                },
                MergeCode::Mismatch,
            ),
            (
                {
                    let mut plain = shard(2, 2, &IDS[2..], &[]);
                    plain.result.shard = None;
                    vec![shard(1, 2, &IDS[..2], &[]), plain]
                },
                MergeCode::NotSharded,
            ),
        ];
        for (inputs, code) in cases {
            let files: Vec<_> = inputs.iter().map(|i| i.file.clone()).collect();
            let error = merge(inputs, "m").expect_err("must not merge");
            assert_eq!(error.code(), code, "{files:?}: {error}");
        }
    }

    #[test]
    fn files_are_read_with_their_version_checked_first() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.json");
        std::fs::write(
            &good,
            serde_json::to_vec(&shard(1, 1, &IDS, &[]).result).unwrap(),
        )
        .unwrap();
        let back = read(&good).unwrap();
        assert_eq!(
            back.result,
            shard(1, 1, &IDS, &[]).result,
            "a result reads back unchanged"
        );
        let newer = dir.path().join("newer.json");
        std::fs::write(&newer, r#"{"format_version": 2, "something": "else"}"#).unwrap();
        let broken = dir.path().join("broken.json");
        std::fs::write(&broken, "{ not json").unwrap();
        for (file, code) in [
            (newer, MergeCode::Version),
            (broken, MergeCode::Input),
            (dir.path().join("absent.json"), MergeCode::Input),
        ] {
            assert_eq!(read(&file).unwrap_err().code(), code, "{}", file.display());
        }
    }
}
