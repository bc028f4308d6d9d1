//! The admission gate: every discovered file is read and admitted (in parallel, rayon) before any
//! browser opens.
//!
//! A run starts only when *every* file is admitted: one broken file stops the whole run with its
//! diagnostics (exit 2), because running the rest would report a green run that silently skipped
//! a suite. A `project` document passed as a suite is rejected too — it configures a run (see
//! `--project`), it is not one.
//!
//! [`admit_each`] is the one admission loop of the binary: `run` ([`admit_files`]) and `check`
//! both read and admit their files through it, each keeping what it needs of every outcome
//! (`check` renders diagnostics its own way and keeps the IR only for `--json`).

use crate::include::Libraries;
use crate::read::{read_suite_file, ReadError};
use a3s_test_lang::ir::{AdmittedDocument, Library, Suite};
use a3s_test_lang::{Admission, Diagnostic};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One file's text, shared by the plan (for `file:line:col` locations) and the diagnostics.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as discovered (relative paths stay relative, for readable reports).
    pub path: PathBuf,
    /// The file's text (empty when it could not be read or decoded).
    pub text: Arc<str>,
}

impl SourceFile {
    /// The path as shown to people.
    pub fn display(&self) -> String {
        self.path.display().to_string()
    }

    /// `file:line:col` of a byte offset, 1-based.
    pub fn location(&self, offset: usize) -> String {
        let (line, col) = a3s_test_lang::span::line_col(&self.text, offset);
        format!("{}:{line}:{col}", self.display())
    }
}

/// A file that passed admission.
#[derive(Debug, Clone)]
pub struct AdmittedFile {
    /// Where it came from.
    pub source: Arc<SourceFile>,
    /// The admitted suite.
    pub suite: Suite,
    /// Warnings (never errors) the checker reported.
    pub warnings: Vec<Diagnostic>,
}

/// Why a file was not admitted.
#[derive(Debug, Clone)]
pub enum Rejection {
    /// It could not be read.
    Unreadable(String),
    /// The front end reported errors (and maybe warnings), in source order.
    Diagnostics(Vec<Diagnostic>),
    /// It is a `project` document, not a suite.
    NotASuite,
    /// A file the project file includes is not a `library` document.
    NotALibrary,
    /// An included library defines a group another included library already defines.
    DuplicateGroup {
        /// The group name.
        name: String,
        /// The file that defined it first.
        first: String,
    },
}

/// A file that did not pass admission.
#[derive(Debug, Clone)]
pub struct RejectedFile {
    /// Where it came from.
    pub source: Arc<SourceFile>,
    /// Why.
    pub rejection: Rejection,
}

/// Every file's admission outcome, in discovery order.
#[derive(Debug, Clone, Default)]
pub struct AdmissionReport {
    /// Files admitted as suites.
    pub admitted: Vec<AdmittedFile>,
    /// Files rejected.
    pub rejected: Vec<RejectedFile>,
}

impl AdmissionReport {
    /// True when every file was admitted.
    pub fn is_clean(&self) -> bool {
        self.rejected.is_empty()
    }
}

/// One file read (bounded, regular files only) and admitted by the front end.
#[derive(Debug)]
pub struct ReadAdmission {
    /// The file's bytes as read.
    pub bytes: Vec<u8>,
    /// What `lang` admitted of them, with every diagnostic.
    pub admission: Admission,
}

/// Read `path` with the bounded suite reader and admit it: the one admission of a suite file.
pub fn admit_path(path: &Path) -> Result<ReadAdmission, ReadError> {
    admit_path_with(path, &[])
}

/// [`admit_path`] with the libraries the project file includes (`crate::include`).
pub fn admit_path_with(
    path: &Path,
    libraries: &[(String, Library)],
) -> Result<ReadAdmission, ReadError> {
    let bytes = read_suite_file(path)?;
    let admission = a3s_test_lang::admit_bytes_with(&bytes, libraries);
    Ok(ReadAdmission { bytes, admission })
}

/// Read and admit every file in parallel (rayon), turning each outcome into a `T` with `keep`
/// on the worker thread that admitted it (so what is not kept is freed there, while that
/// thread's memory is warm); the order of `files` is kept.
pub fn admit_each<T, F>(files: &[PathBuf], libraries: &Libraries, keep: F) -> Vec<T>
where
    T: Send,
    F: Fn(&Path, Result<ReadAdmission, ReadError>) -> T + Sync,
{
    files
        .par_iter()
        .map(|path| keep(path, admit_path_with(path, libraries)))
        .collect()
}

/// Read and admit every file in parallel; the order of `files` is kept. A `library` file among
/// them runs nothing and is left out (it is admitted again through the project's `include`).
pub fn admit_files(files: &[PathBuf], libraries: &Libraries) -> AdmissionReport {
    let outcomes = admit_each(files, libraries, |path, outcome| {
        suite_of(path.to_path_buf(), outcome)
    });
    let mut report = AdmissionReport::default();
    for outcome in outcomes {
        match outcome {
            Ok(Some(file)) => report.admitted.push(file),
            Ok(None) => {}
            Err(file) => report.rejected.push(file),
        }
    }
    report
}

/// What `run` keeps of one file: its suite, or why it is not one.
fn suite_of(
    path: PathBuf,
    outcome: Result<ReadAdmission, ReadError>,
) -> Result<Option<AdmittedFile>, RejectedFile> {
    let ReadAdmission { bytes, admission } = match outcome {
        Ok(read) => read,
        Err(e) => {
            let source = Arc::new(SourceFile {
                path,
                text: Arc::from(""),
            });
            let rejection = match e {
                ReadError::Io(e) => Rejection::Unreadable(e.to_string()),
                ReadError::TooLarge { size } => {
                    Rejection::Diagnostics(vec![ReadError::too_large_diagnostic(size)])
                }
            };
            return Err(RejectedFile { source, rejection });
        }
    };
    let text: Arc<str> = Arc::from(std::str::from_utf8(&bytes).unwrap_or(""));
    let source = Arc::new(SourceFile { path, text });
    match admission.document {
        Some(AdmittedDocument::Suite(mut suite)) => {
            let errors = crate::contract::admit::load_contracts(&source.path, &mut suite);
            if !errors.is_empty() {
                let mut diagnostics = admission.diagnostics;
                diagnostics.extend(errors);
                return Err(RejectedFile {
                    source,
                    rejection: Rejection::Diagnostics(diagnostics),
                });
            }
            Ok(Some(AdmittedFile {
                source,
                suite,
                warnings: admission.diagnostics,
            }))
        }
        Some(AdmittedDocument::Library(_) | AdmittedDocument::Contract(_)) => Ok(None),
        Some(AdmittedDocument::Project(_)) => Err(RejectedFile {
            source,
            rejection: Rejection::NotASuite,
        }),
        None => Err(RejectedFile {
            source,
            rejection: Rejection::Diagnostics(admission.diagnostics),
        }),
    }
}
