//! What the HTML report reads from disk besides the result: failure screenshots (inlined as
//! base64 data URIs) and the console messages and page errors captured at a failure.
//!
//! Everything read here is bounded, so a huge or hostile artifact cannot blow the report up:
//! a screenshot is inlined only when it is a PNG of at most [`MAX_INLINE_IMAGE`] bytes and the
//! report's inlined images stay under [`MAX_INLINE_TOTAL`] bytes (the rest are linked); a console
//! or page-error file is read only up to [`MAX_LOG_FILE`] bytes, at most [`MAX_LOG_ENTRIES`]
//! entries of each are shown, each cut at [`MAX_ENTRY_CHARS`] characters. Whatever was left out
//! is said in a note beside it. A missing or unreadable file is a note too, never an error: the
//! report must still be written. The text read here is page text — untrusted; the renderer
//! escapes it like every other string.
//!
//! Evidence is read only from inside the run's artifact folder, through `a3s_test_fsroot`: a
//! file recorded outside it, or reached through a link below it (the workspace an agent edits
//! could swap a screenshot for a link to any file), is a note, never read into the report.

use crate::result::{EvidenceRecord, RunResult, ScenarioResult};
use a3s_test_fsroot::{Access, Dir};
use base64::Engine;
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest screenshot inlined (bytes of PNG); larger ones are linked.
pub const MAX_INLINE_IMAGE: u64 = 2 * 1024 * 1024;
/// Total PNG bytes inlined in one report; screenshots past it are linked.
pub const MAX_INLINE_TOTAL: u64 = 16 * 1024 * 1024;
/// Largest console or page-error file read (bytes).
pub const MAX_LOG_FILE: u64 = 4 * 1024 * 1024;
/// Console messages (and, separately, page errors) shown per scenario.
pub const MAX_LOG_ENTRIES: usize = 200;
/// Characters shown of one console message or page error.
pub const MAX_ENTRY_CHARS: usize = 2000;

/// A failure screenshot, ready for an `<img src>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineImage {
    /// Where it was read from.
    pub path: PathBuf,
    /// `data:image/png;base64,…`.
    pub data_uri: String,
}

/// One console message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsoleLine {
    /// `log`, `warning`, `error`, …
    pub level: String,
    /// The message text (cut at [`MAX_ENTRY_CHARS`]).
    pub text: String,
    /// `url:line` where the page logged it, when known.
    pub source: Option<String>,
}

/// One uncaught page error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageErrorLine {
    /// The error's description (cut at [`MAX_ENTRY_CHARS`]).
    pub message: String,
    /// `url:line:column`, when known.
    pub source: Option<String>,
}

/// The three images of a failed visual comparison (`expect { screenshot }`), each inlined when
/// it could be: shown side by side, the first two also under one slider.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VisualComparison {
    /// The baseline.
    pub expected: Option<InlineImage>,
    /// What the page showed.
    pub actual: Option<InlineImage>,
    /// Changed pixels red, anti-aliasing yellow.
    pub diff: Option<InlineImage>,
}

/// What one scenario's failure left on disk.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScenarioAttachments {
    /// Failure screenshots inlined.
    pub screenshots: Vec<InlineImage>,
    /// The images of a failed visual comparison, when the failure is one.
    pub visual: Option<VisualComparison>,
    /// Console messages at the failure (`None`: no console capture).
    pub console: Option<Vec<ConsoleLine>>,
    /// Page errors at the failure (`None`: no page-error capture).
    pub page_errors: Option<Vec<PageErrorLine>>,
    /// What was left out or could not be read, in plain words.
    pub notes: Vec<String>,
    /// The scenario's step trace, read within the report's budget (`run --trace`).
    pub trace: Option<super::trace_view::TraceView>,
}

/// Attachments of every scenario, in the result's order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Attachments {
    /// One per `result.scenarios` entry.
    pub scenarios: Vec<ScenarioAttachments>,
}

impl Attachments {
    /// Read the failure evidence of every scenario of `result`, within the bounds.
    pub fn load(result: &RunResult) -> Attachments {
        let mut budget = MAX_INLINE_TOTAL;
        let reader = EvidenceReader::new(&result.artifact_root);
        Attachments {
            scenarios: result
                .scenarios
                .iter()
                .map(|s| load_scenario(&reader, s, &mut budget))
                .collect(),
        }
    }

    /// The attachments of scenario `index` (empty when there are none).
    pub fn of(&self, index: usize) -> ScenarioAttachments {
        self.scenarios.get(index).cloned().unwrap_or_default()
    }
}

/// Opens evidence files below the run's artifact folder without following links.
pub(super) struct EvidenceReader {
    root: Option<Dir>,
    base: PathBuf,
}

impl EvidenceReader {
    pub(super) fn new(artifact_root: &Path) -> EvidenceReader {
        EvidenceReader {
            root: Dir::open_anchor(artifact_root).ok(),
            base: artifact_root.to_path_buf(),
        }
    }

    pub(super) fn open(&self, path: &Path) -> Result<std::fs::File, String> {
        let Ok(rel) = path.strip_prefix(&self.base) else {
            return Err(format!(
                "{} is outside the run's artifact folder and is not read",
                name(path)
            ));
        };
        let Some(root) = &self.root else {
            return Err(format!(
                "{} could not be read: the artifact folder cannot be opened",
                name(path)
            ));
        };
        root.open_file(rel, Access::Read, 0)
            .map_err(|e| format!("{} could not be read: {e}", name(path)))
    }

    /// Read at most `limit + 1` bytes, so "too large" is known without reading everything.
    pub(super) fn read_bounded(&self, path: &Path, limit: u64) -> Result<Vec<u8>, String> {
        let file = self.open(path)?;
        let mut bytes = Vec::new();
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{} could not be read: {e}", name(path)))?;
        if bytes.len() as u64 > limit {
            return Err(format!(
                "{} is larger than {} MiB and is only linked",
                name(path),
                limit / (1024 * 1024)
            ));
        }
        Ok(bytes)
    }
}

fn load_scenario(
    reader: &EvidenceReader,
    scenario: &ScenarioResult,
    budget: &mut u64,
) -> ScenarioAttachments {
    let mut out = ScenarioAttachments {
        trace: scenario
            .trace
            .as_ref()
            .map(|t| super::trace_view::TraceView::load(reader, t)),
        ..ScenarioAttachments::default()
    };
    let Some(failure) = &scenario.failure else {
        return out;
    };
    for evidence in &failure.evidence {
        match evidence.kind.as_str() {
            "screenshot" => match inline_png(reader, &evidence.path, budget) {
                Ok(image) => out.screenshots.push(image),
                Err(note) => out.notes.push(note),
            },
            kind @ ("snapshot_expected" | "snapshot_actual" | "snapshot_diff") => {
                match inline_png(reader, &evidence.path, budget) {
                    Ok(image) => {
                        let visual = out.visual.get_or_insert_with(VisualComparison::default);
                        let slot = match kind {
                            "snapshot_expected" => &mut visual.expected,
                            "snapshot_actual" => &mut visual.actual,
                            _ => &mut visual.diff,
                        };
                        *slot = Some(image);
                    }
                    Err(note) => out.notes.push(note),
                }
            }
            "console" => {
                let notes = &mut out.notes;
                if let Some(lines) =
                    log_lines(reader, evidence, "messages", "console messages", notes)
                {
                    out.console = Some(lines.iter().map(console_line).collect());
                }
            }
            "page_errors" => {
                let notes = &mut out.notes;
                if let Some(lines) = log_lines(reader, evidence, "errors", "page errors", notes) {
                    out.page_errors = Some(lines.iter().map(page_error_line).collect());
                }
            }
            _ => {}
        }
    }
    for missing in &failure.missing_evidence {
        out.notes.push(format!(
            "{} was not captured: {}",
            missing.kind.as_str(),
            missing.reason
        ));
    }
    out
}

fn name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn inline_png(
    reader: &EvidenceReader,
    path: &Path,
    budget: &mut u64,
) -> Result<InlineImage, String> {
    let limit = MAX_INLINE_IMAGE.min(*budget);
    let over_budget = || {
        reader
            .open(path)
            .ok()
            .and_then(|f| f.metadata().ok())
            .is_some_and(|m| m.len() > limit)
    };
    if limit < MAX_INLINE_IMAGE && over_budget() {
        return Err(format!(
            "{} is linked, not shown: the report already inlines {} MiB of screenshots",
            name(path),
            MAX_INLINE_TOTAL / (1024 * 1024)
        ));
    }
    let bytes = reader.read_bounded(path, limit)?;
    // A terminal's screenshot is an SVG the driver wrote (no scripts, text escaped); shown
    // through `<img>`, which never runs anything an SVG holds.
    let mime = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if path.extension().is_some_and(|e| e == "svg") && bytes.starts_with(b"<svg") {
        "image/svg+xml"
    } else {
        return Err(format!("{} is not a PNG and is only linked", name(path)));
    };
    *budget -= bytes.len() as u64;
    Ok(InlineImage {
        path: path.to_path_buf(),
        data_uri: format!(
            "data:{mime};base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bytes)
        ),
    })
}

/// The entries of an evidence file's `key` array, noting in `notes` how many more `what` the
/// file holds than are shown, or why it could not be read (then `None`).
fn log_lines(
    reader: &EvidenceReader,
    evidence: &EvidenceRecord,
    key: &str,
    what: &str,
    notes: &mut Vec<String>,
) -> Option<Vec<Value>> {
    match read_entries(reader, evidence, key) {
        Ok((entries, more)) => {
            if more > 0 {
                notes.push(format!("{more} more {what} are in the file"));
            }
            Some(entries)
        }
        Err(note) => {
            notes.push(note);
            None
        }
    }
}

/// The first [`MAX_LOG_ENTRIES`] entries of the array `key`, and how many more there are.
fn read_entries(
    reader: &EvidenceReader,
    evidence: &EvidenceRecord,
    key: &str,
) -> Result<(Vec<Value>, usize), String> {
    let bytes = reader.read_bounded(&evidence.path, MAX_LOG_FILE)?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("{} is not valid JSON: {e}", name(&evidence.path)))?;
    let Some(all) = value.get(key).and_then(Value::as_array) else {
        return Err(format!("{} has no `{key}` list", name(&evidence.path)));
    };
    let shown = all.iter().take(MAX_LOG_ENTRIES).cloned().collect();
    Ok((shown, all.len().saturating_sub(MAX_LOG_ENTRIES)))
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_ENTRY_CHARS) {
        Some((at, _)) => format!("{}… (cut at {MAX_ENTRY_CHARS} characters)", &text[..at]),
        None => text.to_string(),
    }
}

fn text_of(entry: &Value, key: &str) -> String {
    match entry.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// `url:line[:column]` from an entry's 0-based CDP line and column, shown 1-based.
fn source_of(entry: &Value) -> Option<String> {
    let url = entry
        .get("url")
        .and_then(Value::as_str)
        .filter(|u| !u.is_empty())?;
    let line = entry.get("line").and_then(Value::as_u64).map(|l| l + 1);
    let column = entry.get("column").and_then(Value::as_u64).map(|c| c + 1);
    Some(match (line, column) {
        (Some(l), Some(c)) => format!("{url}:{l}:{c}"),
        (Some(l), None) => format!("{url}:{l}"),
        _ => url.to_string(),
    })
}

fn console_line(entry: &Value) -> ConsoleLine {
    let level = text_of(entry, "type");
    ConsoleLine {
        level: if level.is_empty() {
            "log".into()
        } else {
            level
        },
        text: cut(&text_of(entry, "text")),
        source: source_of(entry),
    }
}

fn page_error_line(entry: &Value) -> PageErrorLine {
    PageErrorLine {
        message: cut(&text_of(entry, "message")),
        source: source_of(entry),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{FailureRecord, ScenarioStatus};
    use a3s_test_driver::FailureCode;

    fn scenario_with(evidence: Vec<EvidenceRecord>) -> ScenarioResult {
        let mut failure = FailureRecord::new(FailureCode::TextMismatch, "m");
        failure.evidence = evidence;
        ScenarioResult {
            failure: Some(failure),
            ..ScenarioResult::bare("s/x", ScenarioStatus::Failed)
        }
    }

    fn record(kind: &str, path: PathBuf) -> EvidenceRecord {
        EvidenceRecord {
            kind: kind.into(),
            path,
        }
    }

    #[test]
    fn screenshots_are_inlined_within_the_bounds_and_linked_past_them() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.png");
        std::fs::write(&small, b"\x89PNG\r\n\x1a\nrest").unwrap();
        let fake = dir.path().join("fake.png");
        std::fs::write(&fake, b"GIF89a").unwrap();
        let big = dir.path().join("big.png");
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        bytes.resize(MAX_INLINE_IMAGE as usize + 1, 0);
        std::fs::write(&big, bytes).unwrap();
        let s = scenario_with(vec![
            record("screenshot", small),
            record("screenshot", fake),
            record("screenshot", big),
            record("screenshot", dir.path().join("gone.png")),
        ]);
        let mut budget = MAX_INLINE_TOTAL;
        let reader = EvidenceReader::new(dir.path());
        let a = load_scenario(&reader, &s, &mut budget);
        assert_eq!(a.screenshots.len(), 1);
        assert!(a.screenshots[0]
            .data_uri
            .starts_with("data:image/png;base64,iVBORw0KGg"));
        assert_eq!(budget, MAX_INLINE_TOTAL - 12);
        assert_eq!(a.notes.len(), 3, "{:?}", a.notes);
        assert!(a.notes[0].contains("not a PNG"), "{:?}", a.notes);
        assert!(a.notes[1].contains("larger than 2 MiB"), "{:?}", a.notes);
        assert!(
            a.notes[2].contains("gone.png could not be read"),
            "{:?}",
            a.notes
        );

        let mut spent = 4;
        let a = load_scenario(&reader, &s, &mut spent);
        assert!(
            a.screenshots.is_empty(),
            "an exhausted budget inlines nothing"
        );
    }

    #[test]
    fn console_and_page_errors_are_cut_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let console = dir.path().join("console.json");
        let messages: Vec<Value> = (0..MAX_LOG_ENTRIES + 3)
            .map(|i| serde_json::json!({"type": "error", "text": format!("m{i}"), "url": "http://x/a.js", "line": 4}))
            .collect();
        std::fs::write(
            &console,
            serde_json::to_vec(&serde_json::json!({ "messages": messages })).unwrap(),
        )
        .unwrap();
        let errors = dir.path().join("page_errors.json");
        let long = "x".repeat(MAX_ENTRY_CHARS + 10);
        std::fs::write(
            &errors,
            serde_json::to_vec(&serde_json::json!({"errors": [{"message": long, "url": null}]}))
                .unwrap(),
        )
        .unwrap();
        let s = scenario_with(vec![
            record("console", console),
            record("page_errors", errors),
        ]);
        let reader = EvidenceReader::new(dir.path());
        let a = load_scenario(&reader, &s, &mut MAX_INLINE_TOTAL.clone());
        let console = a.console.unwrap();
        assert_eq!(console.len(), MAX_LOG_ENTRIES);
        assert_eq!(console[0].source.as_deref(), Some("http://x/a.js:5"));
        assert_eq!(a.notes, ["3 more console messages are in the file"]);
        let errors = a.page_errors.unwrap();
        assert!(errors[0].message.ends_with("(cut at 2000 characters)"));
        assert_eq!(errors[0].source, None);
    }

    #[test]
    fn evidence_outside_the_artifact_folder_or_behind_a_link_is_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.png");
        std::fs::write(&secret, b"\x89PNG\r\n\x1a\nsecret").unwrap();
        let link = dir.path().join("failure/screenshot.png");
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        let console = dir.path().join("failure/console.json");
        std::os::unix::fs::symlink(outside.path().join("c.json"), &console).unwrap();
        std::fs::write(
            outside.path().join("c.json"),
            br#"{"messages":[{"text":"secret"}]}"#,
        )
        .unwrap();
        let s = scenario_with(vec![
            record("screenshot", link),
            record("screenshot", secret),
            record("console", console),
        ]);
        let reader = EvidenceReader::new(dir.path());
        let a = load_scenario(&reader, &s, &mut MAX_INLINE_TOTAL.clone());
        assert!(a.screenshots.is_empty() && a.console.is_none(), "{a:?}");
        assert!(a.notes[0].contains("symbolic link"), "{:?}", a.notes);
        assert!(
            a.notes[1].contains("outside the run's artifact folder"),
            "{:?}",
            a.notes
        );
        assert!(a.notes[2].contains("symbolic link"), "{:?}", a.notes);
    }
}
