//! `a3s-test check`: admit suite files and report every diagnostic.
//!
//! Files are discovered (see [`super::discover`]), read and admitted in parallel by the runner's
//! admission loop (`a3s_test_runner::admit::admit_each`, the one `run` uses too), and reported in path order so the output is the same on every run and every machine. Diagnostics
//! go to stdout in the chosen `--format`; with `--json` stdout carries the admitted IR instead and
//! diagnostics move to stderr. The summary line (`N files, M scenarios, K errors`) always goes to
//! stderr. Exit 0 when every file was admitted, 2 otherwise.

use super::discover::discover;
use super::exit::Exit;
use super::output::{plural, write_file, Counts, FormatArg, Stream};
use super::read::{display_text, read_diagnostic};
use a3s_test_lang::diagnostic::Omitted;
use a3s_test_lang::ir::AdmittedDocument;
use a3s_test_lang::Diagnostic;
use a3s_test_runner::admit::{admit_each, ReadAdmission};
use a3s_test_runner::read::ReadError;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `a3s-test check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Suite files or directories (searched recursively for `*.acl`).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// How diagnostics are printed.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
    /// Print the admitted IR as JSON on stdout (diagnostics then go to stderr).
    #[arg(long)]
    pub json: bool,
}

/// The `--json` document: every checked file in path order, with its IR or `null` when rejected.
///
/// The `protocol` value versions this shape; a change that is not purely additive bumps it.
#[derive(Debug, Serialize)]
pub struct AdmittedFiles<'a> {
    /// Always [`ADMITTED_PROTOCOL`].
    pub protocol: &'static str,
    /// One entry per file.
    pub files: Vec<AdmittedFile<'a>>,
}

/// One file in the `--json` document.
#[derive(Debug, Serialize)]
pub struct AdmittedFile<'a> {
    /// The path as given on the command line (joined with the name found for directories).
    pub file: &'a str,
    /// The admitted document, or `null` when the file has errors.
    pub document: Option<&'a AdmittedDocument>,
}

/// The protocol name of `check --json` output.
pub const ADMITTED_PROTOCOL: &str = "a3s.test.admitted-ir/1";

/// The outcome for one path.
struct Checked {
    /// The path, for ordering.
    path: PathBuf,
    /// The path as shown to the user.
    file: String,
    /// True for a file (read or not); false for a directory problem such as `no_suite_files`.
    is_file: bool,
    /// The text used to render diagnostics (empty when nothing could be read).
    source: String,
    /// The file was admitted.
    admitted: bool,
    /// Its scenarios, when admitted.
    scenarios: usize,
    /// The admitted document, kept only for `--json` (see [`check_file`]).
    document: Option<AdmittedDocument>,
    /// The diagnostics of the path (capped per file, see `lang::diagnostic::cap`).
    diagnostics: Vec<Diagnostic>,
    /// What the cap left out.
    omitted: Omitted,
}

/// Run `check`.
pub fn run(args: CheckArgs) -> ExitCode {
    let discovery = discover(&args.paths);
    // A suite may `use` the groups of the libraries the project file includes.
    let project_dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    // A project file that is not admitted is `run`'s to refuse; here it only has no includes.
    let project = super::run::load_project(None).ok().flatten();
    let libraries = match super::run::included(&project_dir, project.as_ref()) {
        Ok(libraries) => libraries,
        Err(code) => return code,
    };
    let mut results: Vec<Checked> = admit_each(&discovery.files, &libraries, |path, outcome| {
        checked(path, outcome, args.json)
    });
    for problem in discovery.problems {
        results.push(Checked {
            file: problem.path.display().to_string(),
            path: problem.path,
            is_file: problem.is_file,
            source: String::new(),
            admitted: false,
            scenarios: 0,
            document: None,
            diagnostics: vec![problem.diagnostic],
            omitted: Omitted::default(),
        });
    }
    results.sort_by(|a, b| a.path.cmp(&b.path));

    let stream = if args.json {
        Stream::Stderr
    } else {
        Stream::Stdout
    };
    let colour = stream.colour();
    let mut counts = Counts::default();
    for r in &results {
        counts.add(&r.diagnostics);
        counts.add_omitted(r.omitted);
        write_file(
            stream,
            args.format,
            colour,
            &r.file,
            &r.source,
            &r.diagnostics,
        );
    }

    if args.json {
        let doc = AdmittedFiles {
            protocol: ADMITTED_PROTOCOL,
            files: results
                .iter()
                .filter(|r| r.is_file)
                .map(|r| AdmittedFile {
                    file: &r.file,
                    document: r.document.as_ref(),
                })
                .collect(),
        };
        match serde_json::to_string(&doc) {
            Ok(mut text) => {
                text.push('\n');
                Stream::Stdout.write(&text);
            }
            Err(e) => Stream::Stderr.write(&format!(
                "error: failed to serialize the admitted IR: {e}\n"
            )),
        }
    }

    let files = results.iter().filter(|r| r.is_file).count();
    let scenarios: usize = results.iter().map(|r| r.scenarios).sum();
    Stream::Stderr.write(&format!(
        "{}, {}, {}\n",
        plural(files, "file"),
        plural(scenarios, "scenario"),
        counts.describe()
    ));
    let all_admitted = results.iter().all(|r| r.admitted);
    // The process exits next: freeing the IRs kept for `--json` one allocation at a time costs
    // milliseconds per 1 MB file, and the operating system takes the whole heap back at once.
    std::mem::forget(results);
    ExitCode::from(if all_admitted {
        Exit::Success
    } else {
        Exit::InvalidInput
    })
}

/// What `check` keeps of one file the shared admission read and admitted. Without `keep_ir`
/// the admitted document is dropped here, on the worker thread, as soon as it is counted: the
/// next file that thread admits then reuses memory that is already mapped instead of faulting in
/// fresh pages (in a short-lived process, page faults are most of what a file costs beyond the
/// in-process admission).
fn checked(path: &Path, outcome: Result<ReadAdmission, ReadError>, keep_ir: bool) -> Checked {
    let file = path.display().to_string();
    match outcome.map_err(|e| read_diagnostic(path, e)) {
        Err(diagnostic) => Checked {
            path: path.to_path_buf(),
            file,
            is_file: true,
            source: String::new(),
            admitted: false,
            scenarios: 0,
            document: None,
            diagnostics: vec![diagnostic],
            omitted: Omitted::default(),
        },
        Ok(ReadAdmission { bytes, admission }) => {
            // The text is kept only when there is something to point at.
            let source = if admission.diagnostics.is_empty() {
                String::new()
            } else {
                display_text(&bytes)
            };
            let scenarios = match &admission.document {
                Some(AdmittedDocument::Suite(suite)) => suite.scenarios.len(),
                _ => 0,
            };
            let admitted = admission.document.is_some();
            Checked {
                path: path.to_path_buf(),
                file,
                is_file: true,
                source,
                admitted,
                scenarios,
                document: admission.document.filter(|_| keep_ir),
                diagnostics: admission.diagnostics,
                omitted: admission.omitted,
            }
        }
    }
}
