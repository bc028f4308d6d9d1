//! `run`'s step-trace flags: `--trace off|on|retain-on-failure|on-first-retry` and
//! `--last-green-dir`.
//!
//! The mode is the flag, else the project file's `trace`, else `retain-on-failure`: a failing
//! CI run hands over its trace without anyone asking, and a pass refreshes the scenario's
//! last-green record that a later failure is compared with (`<output-dir>/last-green/` unless
//! `--last-green-dir` says otherwise). The folder is opened without following links before any
//! browser starts (`test.run.unsafe_path` otherwise, exit 2).

use a3s_test_fsroot::ConfinedPath;
use a3s_test_lang::ir::ProjectConfig;
use a3s_test_runner::evidence::output_location;
use a3s_test_runner::exit::Exit;
use a3s_test_runner::trace::{TraceConfig, TraceMode};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The trace flags of `a3s-test run`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TraceArgs {
    /// Record a step trace (screenshot, outline, console and network per step) for the HTML
    /// report and the JSON results [default: the project's `trace`, else retain-on-failure].
    #[arg(long, value_enum, value_name = "MODE")]
    pub trace: Option<TraceArg>,
    /// Where each scenario's last passing trace is kept, to compare a failure with
    /// [default: <output-dir>/last-green].
    #[arg(long, value_name = "DIR")]
    pub last_green_dir: Option<PathBuf>,
}

/// The `--trace` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceArg {
    /// No trace.
    Off,
    /// Trace every attempt and keep every trace.
    On,
    /// Trace every attempt; keep the traces of attempts that did not pass.
    RetainOnFailure,
    /// Trace only the first retry (`--retries`).
    OnFirstRetry,
}

impl TraceArg {
    fn mode(self) -> TraceMode {
        match self {
            TraceArg::Off => TraceMode::Off,
            TraceArg::On => TraceMode::On,
            TraceArg::RetainOnFailure => TraceMode::RetainOnFailure,
            TraceArg::OnFirstRetry => TraceMode::OnFirstRetry,
        }
    }
}

impl TraceArgs {
    /// The executor's trace settings; the last-green folder created and opened now.
    pub fn config(
        &self,
        project: Option<&ProjectConfig>,
        output: &ConfinedPath,
        cwd: &Path,
    ) -> Result<TraceConfig, ExitCode> {
        let mode = match self.trace {
            Some(arg) => arg.mode(),
            None => project
                .and_then(|p| p.trace)
                .map(TraceMode::from)
                .unwrap_or(TraceMode::RetainOnFailure),
        };
        if mode == TraceMode::Off {
            return Ok(TraceConfig {
                mode,
                last_green: None,
            });
        }
        let place = match &self.last_green_dir {
            Some(dir) => output_location(cwd, dir),
            None => output.join("last-green"),
        };
        let dir = a3s_test_fsroot::Dir::create_anchor(place.anchor())
            .and_then(|_| place.create_dir_all())
            .map_err(|e| {
                eprintln!(
                    "error[test.run.unsafe_path]: the last-green folder `{}` cannot be used: {e}",
                    place.path().display()
                );
                ExitCode::from(Exit::InvalidInput)
            })?;
        Ok(TraceConfig {
            mode,
            last_green: Some(dir),
        })
    }
}
