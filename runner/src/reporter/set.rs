//! The reporters of one run, built in one place from the output options: the live terminal
//! reporter, GitHub annotations, `--json`, `--junit FILE` and `--html DIR`.
//!
//! `run` feeds every event of a run to a [`Reporters`], `merge-reports` feeds it the merged
//! result's `RunFinished`; both build it with [`Reporters::from_options`], so the streams, the
//! colour, the files and the order of the outputs are decided once. The files are opened (and
//! their parent folders created) when the set is built, so a bad `--junit`/`--html` path fails
//! before any browser opens. Those paths are the user's own: plain paths, not confined to
//! `.a3s-test`.

use super::github::GithubReporter;
use super::html::{prepare_dir, HtmlError, HtmlReporter};
use super::json::JsonReporter;
use super::junit::JunitReporter;
use super::terminal::{TerminalOptions, TerminalReporter};
use super::Reporter;
use crate::colour::Stream;
use crate::event::RunEvent;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a run's output should be: the report flags of `run` and `merge-reports`, and the live
/// reporter's manner.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutputOptions {
    /// `--json`: the result document on stdout; the live report then goes to stderr.
    pub json: bool,
    /// `--junit FILE`: JUnit XML written to this file (missing parent folders are created).
    pub junit: Option<PathBuf>,
    /// `--html DIR`: `DIR/index.html` (the folder and its parents are created).
    pub html: Option<PathBuf>,
    /// GitHub Actions annotations after the summary, on the live stream.
    pub github: bool,
    /// Draw the progress line when the live stream is a terminal (a run; not a merge).
    pub progress: bool,
    /// Show paths under this folder relative to it (the working folder).
    pub base_dir: Option<PathBuf>,
}

impl OutputOptions {
    /// The stream the live report (terminal lines, annotations, the `Report` line) goes to:
    /// stdout, unless `--json` puts the result document there.
    pub fn live_stream(&self) -> Stream {
        if self.json {
            Stream::Stderr
        } else {
            Stream::Stdout
        }
    }
}

/// Why the reporters could not be built or one of them failed to write.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The `--junit` file (or its folder) could not be created.
    #[error("failed to create `{}`: {source}", path.display())]
    CreateJunit {
        /// The file named by `--junit`.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The `--html` folder could not be prepared, or the page not written.
    #[error("{0}")]
    Html(#[from] HtmlError),
    /// Writing the HTML report failed after the run.
    #[error("failed to write the HTML report: {0}")]
    WriteHtml(std::io::Error),
    /// Writing the JUnit report failed after the run.
    #[error("failed to write the JUnit report: {0}")]
    WriteJunit(std::io::Error),
}

type Out = Box<dyn Write + Send>;

/// Every reporter of one run, fed the same events in a fixed order.
pub struct Reporters {
    terminal: TerminalReporter<Out>,
    github: Option<GithubReporter<Out>>,
    html: Option<HtmlReporter>,
    json: Option<JsonReporter<Out>>,
    junit: Option<JunitReporter<BufWriter<File>>>,
    /// Where the `Report <path>` line goes (the live stream).
    notes: Out,
    base_dir: Option<PathBuf>,
}

impl std::fmt::Debug for Reporters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reporters")
            .field("github", &self.github.is_some())
            .field("html", &self.html)
            .field("json", &self.json.is_some())
            .field("junit", &self.junit.is_some())
            .finish_non_exhaustive()
    }
}

impl Reporters {
    /// The reporters `options` ask for, writing to this process's stdout and stderr, coloured by
    /// the one colour decision ([`Stream::colour`]).
    pub fn from_options(options: &OutputOptions) -> Result<Reporters, OutputError> {
        let live = options.live_stream();
        let terminal = TerminalOptions {
            colour: live.colour(),
            progress: options.progress && live.is_terminal(),
            base_dir: options.base_dir.clone(),
        };
        Reporters::with_streams(
            options,
            terminal,
            move || live.writer(),
            Stream::Stdout.writer(),
        )
    }

    /// The reporters `options` ask for, writing the live report to writers made by `live` and
    /// the `--json` document to `stdout` (tests pass buffers; [`Reporters::from_options`] the
    /// process's streams).
    pub fn with_streams(
        options: &OutputOptions,
        terminal: TerminalOptions,
        live: impl Fn() -> Out,
        stdout: Out,
    ) -> Result<Reporters, OutputError> {
        let junit = match &options.junit {
            Some(path) => Some(JunitReporter::new(BufWriter::new(create_file(path)?))),
            None => None,
        };
        let html = match &options.html {
            Some(dir) => Some(HtmlReporter::new(prepare_dir(dir)?)),
            None => None,
        };
        Ok(Reporters {
            terminal: TerminalReporter::new(live(), terminal),
            github: options.github.then(|| GithubReporter::new(live())),
            html,
            json: options.json.then(|| JsonReporter::new(stdout)),
            junit,
            notes: live(),
            base_dir: options.base_dir.clone(),
        })
    }

    /// Feed one event to every reporter. A failure of the terminal, annotations or JSON output
    /// (a closed pipe) stops only that output; a report file that could not be written is
    /// returned so the caller decides what it means for the exit code.
    pub fn report(&mut self, event: &RunEvent) -> Vec<OutputError> {
        let mut failures = Vec::new();
        let _ = self.terminal.report(event);
        if let Some(github) = self.github.as_mut() {
            let _ = github.report(event);
        }
        if let Some(html) = self.html.as_mut() {
            match html.report(event) {
                Ok(()) => {
                    if let Some(path) = html.written() {
                        let shown = match &self.base_dir {
                            Some(base) => path.strip_prefix(base).unwrap_or(path),
                            None => path,
                        };
                        let _ = writeln!(self.notes, "{:>12} {}", "Report", shown.display())
                            .and_then(|()| self.notes.flush());
                    }
                }
                Err(e) => failures.push(OutputError::WriteHtml(e)),
            }
        }
        if let Some(json) = self.json.as_mut() {
            let _ = json.report(event);
        }
        if let Some(junit) = self.junit.as_mut() {
            if let Err(e) = junit.report(event) {
                failures.push(OutputError::WriteJunit(e));
            }
        }
        failures
    }

    /// Redraw the live progress line with a fresh elapsed time (on the run's timer).
    pub fn tick(&mut self, elapsed: Duration) {
        let _ = self.terminal.tick(elapsed);
    }
}

/// Create (truncate) the file a user named, creating its missing parent folders first.
fn create_file(path: &Path) -> Result<File, OutputError> {
    let error = |source| OutputError::CreateJunit {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(error)?;
    }
    File::create(path).map_err(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_files_get_their_missing_parent_folders() {
        let dir = tempfile::tempdir().unwrap();
        let options = OutputOptions {
            junit: Some(dir.path().join("reports/ci/junit.xml")),
            html: Some(dir.path().join("reports/html")),
            ..OutputOptions::default()
        };
        let sink = || Box::new(std::io::sink()) as Out;
        Reporters::with_streams(&options, TerminalOptions::default(), sink, sink()).unwrap();
        assert!(dir.path().join("reports/ci/junit.xml").is_file());
        assert!(dir.path().join("reports/html").is_dir());
    }

    #[test]
    fn a_junit_path_under_a_file_is_refused_naming_the_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("file"), "x").unwrap();
        let path = dir.path().join("file/junit.xml");
        let options = OutputOptions {
            junit: Some(path.clone()),
            ..OutputOptions::default()
        };
        let sink = || Box::new(std::io::sink()) as Out;
        let err = Reporters::with_streams(&options, TerminalOptions::default(), sink, sink())
            .unwrap_err();
        assert!(matches!(err, OutputError::CreateJunit { path: p, .. } if p == path));
    }

    #[test]
    fn the_live_report_moves_to_stderr_with_json() {
        let mut options = OutputOptions::default();
        assert_eq!(options.live_stream(), Stream::Stdout);
        options.json = true;
        assert_eq!(options.live_stream(), Stream::Stderr);
    }
}
