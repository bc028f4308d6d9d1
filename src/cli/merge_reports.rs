//! `a3s-test merge-reports <result.json>…`: the `--json` results of `--shard i/n` runs (one per CI
//! job) merged into one result, written as JSON, JUnit and HTML like a single run's.
//!
//! The checks and the codes live in the runner (`a3s_test_runner::merge`); this file reads the
//! arguments, prints a coded error (`error[test.run.merge_*]: …` and a hint) and stops with exit 2
//! when the shards cannot be merged, warns about missing shards, renders the merged result with
//! the run's reporters and exits with the merged result's exit code (the rules of `run`).

use super::report_outputs::ReportOutputs;
use a3s_test_runner::event::{RunEvent, RunEventKind};
use a3s_test_runner::exit::Exit;
use a3s_test_runner::merge::{self, MergeCode, MergeError};
use a3s_test_runner::reporter::set::Reporters;
use a3s_test_runner::result::RunResult;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `a3s-test merge-reports`.
#[derive(Debug, clap::Args)]
pub struct MergeReportsArgs {
    /// The `--json` result of each shard (`a3s-test run --shard i/n --json > shard-i.json`).
    #[arg(required = true, value_name = "RESULT_JSON")]
    pub results: Vec<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub report: ReportOutputs,
}

fn refuse(error: &MergeError) -> ExitCode {
    eprintln!("error[{}]: {error}", error.code());
    eprintln!("  = help: {}", error.hint());
    ExitCode::from(Exit::InvalidInput)
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(Exit::InvalidInput)
}

/// Run `merge-reports`.
pub fn run(args: MergeReportsArgs) -> ExitCode {
    let mut inputs = Vec::with_capacity(args.results.len());
    for file in &args.results {
        match merge::read(file) {
            Ok(input) => inputs.push(input),
            Err(e) => return refuse(&e),
        }
    }
    let now = time::OffsetDateTime::now_utc();
    let run_id = format!("merged-{}", a3s_test_runner::run_id::new_run_id(now));
    let result = match merge::merge(inputs, &run_id) {
        Ok(result) => result,
        Err(e) => return refuse(&e),
    };
    if let Some(record) = &result.merge {
        if !record.missing_shards.is_empty() {
            let shards: Vec<String> = record
                .missing_shards
                .iter()
                .map(|i| format!("{i}/{}", record.total))
                .collect();
            eprintln!(
                "warning[{}]: no result for shard {}; the merged report lacks its scenarios and exits 2",
                MergeCode::MissingShard,
                shards.join(", ")
            );
        }
    }
    if let Err(code) = write_outputs(&args, &result) {
        return code;
    }
    ExitCode::from(result.exit_code)
}

/// Summary, JSON, JUnit and HTML of the merged result, through the run's own reporter set.
fn write_outputs(args: &MergeReportsArgs, result: &RunResult) -> Result<(), ExitCode> {
    let event = RunEvent {
        timestamp: time::OffsetDateTime::parse(
            &result.started_at,
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap_or_else(|_| time::OffsetDateTime::now_utc()),
        elapsed: std::time::Duration::from_millis(result.duration_ms),
        kind: RunEventKind::RunFinished {
            result: Arc::new(result.clone()),
        },
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut reporters =
        Reporters::from_options(&args.report.options(false, false, &cwd)).map_err(fail)?;
    match reporters.report(&event).into_iter().next() {
        Some(failure) => Err(fail(failure)),
        None => Ok(()),
    }
}
