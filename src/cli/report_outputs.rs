//! The report outputs `run` and `merge-reports` share: defined once, so both commands take the
//! same flags with the same meaning (a merged result is written exactly as a run's would be).

use a3s_test_runner::reporter::set::OutputOptions;
use std::path::{Path, PathBuf};

/// `--json`, `--junit FILE`, `--html DIR`.
#[derive(Debug, clap::Args)]
pub struct ReportOutputs {
    /// Print the result as JSON on stdout (the live report or the summary moves to stderr).
    #[arg(long)]
    pub json: bool,
    /// Write a JUnit XML report to this file (missing parent folders are created).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a self-contained HTML report to `DIR/index.html`.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
}

impl ReportOutputs {
    /// The runner's output options for these flags: `github` adds the annotations, `progress`
    /// draws the progress line on a terminal (a run, not a merge), paths under `cwd` are shown
    /// relative to it.
    pub fn options(&self, github: bool, progress: bool, cwd: &Path) -> OutputOptions {
        OutputOptions {
            json: self.json,
            junit: self.junit.clone(),
            html: self.html.clone(),
            github,
            progress,
            base_dir: Some(cwd.to_path_buf()),
        }
    }
}
