//! The admission gate: every discovered file is read and admitted (in parallel, rayon) before any
//! browser opens.
//!
//! A run starts only when *every* file is admitted: one broken file stops the whole run with its
//! diagnostics (exit 2), because running the rest would report a green run that silently skipped
//! a suite. A `project` document passed as a suite is rejected too — it configures a run (see
//! `--project`), it is not one.

use a3s_test_lang::ir::{AdmittedDocument, Suite};
use a3s_test_lang::Diagnostic;
use rayon::prelude::*;
use std::path::PathBuf;
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

/// Read and admit every file in parallel; the order of `files` is kept.
pub fn admit_files(files: &[PathBuf]) -> AdmissionReport {
    let outcomes: Vec<Result<AdmittedFile, RejectedFile>> = files
        .par_iter()
        .map(|path| admit_file(path.clone()))
        .collect();
    let mut report = AdmissionReport::default();
    for outcome in outcomes {
        match outcome {
            Ok(file) => report.admitted.push(file),
            Err(file) => report.rejected.push(file),
        }
    }
    report
}

fn admit_file(path: PathBuf) -> Result<AdmittedFile, RejectedFile> {
    let bytes = match crate::read::read_suite_file(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            let source = Arc::new(SourceFile {
                path,
                text: Arc::from(""),
            });
            let rejection = match e {
                crate::read::ReadError::Io(e) => Rejection::Unreadable(e.to_string()),
                crate::read::ReadError::TooLarge { size } => {
                    Rejection::Diagnostics(vec![crate::read::ReadError::too_large_diagnostic(size)])
                }
            };
            return Err(RejectedFile { source, rejection });
        }
    };
    let admission = a3s_test_lang::admit_bytes(&bytes);
    let text: Arc<str> = Arc::from(std::str::from_utf8(&bytes).unwrap_or(""));
    let source = Arc::new(SourceFile { path, text });
    match admission.document {
        Some(AdmittedDocument::Suite(suite)) => Ok(AdmittedFile {
            source,
            suite,
            warnings: admission.diagnostics,
        }),
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
