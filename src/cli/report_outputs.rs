//! The report outputs `run` and `merge-reports` share: defined once, so both commands take the
//! same flags with the same meaning (a merged result is written exactly as a run's would be).

use std::path::PathBuf;

/// `--json`, `--junit FILE`, `--html DIR`.
#[derive(Debug, clap::Args)]
pub struct ReportOutputs {
    /// Print the result as JSON on stdout (the live report or the summary moves to stderr).
    #[arg(long)]
    pub json: bool,
    /// Write a JUnit XML report to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a self-contained HTML report to `DIR/index.html`.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
}
