//! `a3s-test check`: admit suite files and report every diagnostic.
//!
//! Files are discovered (see [`super::discover`]), read and admitted in parallel by the runner's
//! admission loop (`a3s_test_runner::admit::admit_each`, the one `run` uses too), and reported in path order so the output is the same on every run and every machine. Diagnostics
//! go to stdout in the chosen `--format`; with `--json` stdout carries the admitted IR instead and
//! diagnostics move to stderr. The summary line (`N files, M scenarios, K errors`) always goes to
//! stderr. Exit 0 when every file was admitted, 2 otherwise.

use super::discover::{discover, InputProblem};
use super::exit::Exit;
use super::output::{plural, write_file, Counts, FormatArg, Stream};
use super::read::{display_text, read_diagnostic};
use a3s_test_lang::diagnostic::Omitted;
use a3s_test_lang::ir::AdmittedDocument;
use a3s_test_lang::Diagnostic;
use a3s_test_runner::admit::{admit_each, ReadAdmission};
use a3s_test_runner::include::Libraries;
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
    // Every path in the order it is reported; files are admitted a chunk at a time and each
    // chunk is printed and dropped before the next, so memory holds one chunk's texts and
    // diagnostics, not the whole folder's.
    let mut pending: Vec<Pending> = discovery
        .files
        .into_iter()
        .map(Pending::File)
        .chain(discovery.problems.into_iter().map(Pending::Problem))
        .collect();
    pending.sort_by(|a, b| a.path().cmp(b.path()));

    let stream = if args.json {
        Stream::Stderr
    } else {
        Stream::Stdout
    };
    let colour = stream.colour();
    let mut counts = Counts::default();
    let mut tally = Tally::default();
    let mut documents: Vec<(String, Option<AdmittedDocument>)> = Vec::new();
    let chunk = rayon::current_num_threads().max(1) * CHUNK_PER_THREAD;
    let mut pending = pending.into_iter().peekable();
    while pending.peek().is_some() {
        let group: Vec<Pending> = pending.by_ref().take(chunk).collect();
        for r in check_chunk(group, &libraries, args.json) {
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
            tally.add(&r);
            if args.json && r.is_file {
                documents.push((r.file, r.document));
            }
        }
    }

    if args.json {
        let doc = AdmittedFiles {
            protocol: ADMITTED_PROTOCOL,
            files: documents
                .iter()
                .map(|(file, document)| AdmittedFile {
                    file,
                    document: document.as_ref(),
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

    Stream::Stderr.write(&format!(
        "{}, {}, {}\n",
        plural(tally.files, "file"),
        plural(tally.scenarios, "scenario"),
        counts.describe()
    ));
    // The process exits next: freeing the IRs kept for `--json` one allocation at a time costs
    // milliseconds per 1 MB file, and the operating system takes the whole heap back at once.
    std::mem::forget(documents);
    ExitCode::from(if tally.all_admitted {
        Exit::Success
    } else {
        Exit::InvalidInput
    })
}

/// Files admitted at once per admission thread: enough to keep every thread busy while one file
/// of a chunk is slow, few enough that a folder of large bad files never holds more than a
/// chunk's texts and diagnostics.
const CHUNK_PER_THREAD: usize = 4;

/// A path still to report: a file to admit, or a problem discovery already found.
enum Pending {
    /// A suite file.
    File(PathBuf),
    /// A path that is not a readable suite (e.g. a folder without `*.acl` files).
    Problem(InputProblem),
}

impl Pending {
    fn path(&self) -> &Path {
        match self {
            Pending::File(path) => path,
            Pending::Problem(problem) => &problem.path,
        }
    }
}

/// The totals of the summary line, added up as each file is reported.
struct Tally {
    files: usize,
    scenarios: usize,
    all_admitted: bool,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            files: 0,
            scenarios: 0,
            all_admitted: true,
        }
    }
}

impl Tally {
    fn add(&mut self, r: &Checked) {
        self.files += usize::from(r.is_file);
        self.scenarios += r.scenarios;
        self.all_admitted &= r.admitted;
    }
}

/// Admit the files of one chunk in parallel (the runner's admission loop) and give back every
/// entry of the chunk, in its order.
fn check_chunk(group: Vec<Pending>, libraries: &Libraries, keep_ir: bool) -> Vec<Checked> {
    let files: Vec<PathBuf> = group
        .iter()
        .filter_map(|p| match p {
            Pending::File(path) => Some(path.clone()),
            Pending::Problem(_) => None,
        })
        .collect();
    let mut admitted = admit_each(&files, libraries, |path, outcome| {
        checked(path, outcome, keep_ir)
    })
    .into_iter();
    group
        .into_iter()
        .filter_map(|p| match p {
            Pending::File(_) => admitted.next(),
            Pending::Problem(problem) => Some(Checked {
                file: problem.path.display().to_string(),
                is_file: problem.is_file,
                source: String::new(),
                admitted: false,
                scenarios: 0,
                document: None,
                diagnostics: vec![problem.diagnostic],
                omitted: Omitted::default(),
            }),
        })
        .collect()
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
            file,
            is_file: true,
            source: String::new(),
            admitted: false,
            scenarios: 0,
            document: None,
            diagnostics: vec![diagnostic],
            omitted: Omitted::default(),
        },
        Ok(ReadAdmission {
            bytes,
            mut admission,
        }) => {
            // A `check_contract` step's contract is admitted with its suite, as `run` does.
            if let Some(AdmittedDocument::Suite(suite)) = &mut admission.document {
                let errors = a3s_test_runner::contract::admit::load_contracts(path, suite);
                if !errors.is_empty() {
                    admission.diagnostics.extend(errors);
                    admission.document = None;
                }
            }
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
