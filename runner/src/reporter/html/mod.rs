//! `--html <dir>`: one self-contained `index.html` a person opens from `file://` after a run.
//!
//! A reporter like the others: it waits for `RunFinished` and renders that result; nothing in
//! the executor knows it exists. The page carries its CSS and a small filter script inline, needs
//! no network, inlines the failure screenshots (bounded, see [`attachments`]) and links every
//! other artifact relative to the report folder. The file is written atomically (a temporary file
//! in the same folder, fsynced, renamed over `index.html`), so a reader never sees half a report
//! and a failed write leaves the previous one in place. `merge-reports --html` renders a merged
//! result through the same [`write_report`].

pub mod attachments;
pub mod links;
mod page;
mod scenario;
mod trace;
mod trace_fit;
pub mod trace_view;

use super::ResultReporter;
use crate::result::RunResult;
use a3s_test_driver::atomic::{write_atomic, Permissions};
use attachments::Attachments;
use std::path::{Path, PathBuf};

/// The report's stylesheet (inlined; allowed by hash in the page's Content-Security-Policy).
const CSS: &str = include_str!("report.css");
/// The report's filter script (inlined; allowed by hash).
const SCRIPT: &str = include_str!("report.js");
/// The file written inside the report folder.
pub const INDEX: &str = "index.html";

/// Why the report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum HtmlError {
    /// The folder could not be created or resolved.
    #[error("failed to prepare the report folder `{}`: {source}", dir.display())]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Writing or renaming the file failed (the previous report, if any, is untouched).
    #[error("failed to write `{}`: {source}", path.display())]
    Write {
        /// The report file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Create (if needed) and resolve the report folder; done before a run starts, so a bad
/// `--html` path fails before any browser opens.
pub fn prepare_dir(dir: &Path) -> Result<PathBuf, HtmlError> {
    let folder = |source| HtmlError::Folder {
        dir: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(folder)?;
    dir.canonicalize().map_err(folder)
}

/// Render `result` into `<dir>/index.html`, atomically; returns the file's path.
pub fn write_report(dir: &Path, result: &RunResult) -> Result<PathBuf, HtmlError> {
    let dir = prepare_dir(dir)?;
    let html = page::render(result, &Attachments::load(result), &dir);
    let path = dir.join(INDEX);
    let write = |source| HtmlError::Write {
        path: path.clone(),
        source,
    };
    write_atomic(&path, html.as_bytes(), ".index-", Permissions::Mode(0o644)).map_err(write)?;
    Ok(path)
}

/// The whole page for `result` as a string, artifact links relative to `report_dir` (absolute).
/// Reads the failure evidence the result names; used by [`write_report`] and snapshot tests.
pub fn render(result: &RunResult, report_dir: &Path) -> String {
    page::render(result, &Attachments::load(result), report_dir)
}

/// One trace on a page of its own (`agent finish --trace` writes an agent session's as
/// `trace.html`): the report's head, stylesheet, script and trace view, so a session's evidence
/// opens like a run's — from `file://`, with no network. Screenshots are read below
/// `artifact_root` (confined, as the report reads a run's).
pub fn trace_page(
    title: &str,
    summary: &crate::trace::TraceSummary,
    artifact_root: &Path,
) -> String {
    let reader = attachments::EvidenceReader::new(artifact_root);
    let view = trace_view::TraceView::load(&reader, summary);
    page::trace_page(title, &view)
}

/// Writes the report when the run finishes.
#[derive(Debug)]
pub struct HtmlReporter {
    dir: PathBuf,
    written: Option<PathBuf>,
}

impl HtmlReporter {
    /// A reporter writing `<dir>/index.html`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        HtmlReporter {
            dir: dir.into(),
            written: None,
        }
    }

    /// The file written, once the run has finished.
    pub fn written(&self) -> Option<&Path> {
        self.written.as_deref()
    }
}

impl ResultReporter for HtmlReporter {
    fn finish(&mut self, result: &RunResult) -> std::io::Result<()> {
        let path = write_report(&self.dir, result).map_err(std::io::Error::other)?;
        self.written = Some(path);
        Ok(())
    }
}
