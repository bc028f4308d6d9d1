//! A scenario's step trace as the report shows it: `trace.json` and its screenshots read from
//! the run's artifact folder (through [`EvidenceReader`]: confined, no link followed), within
//! the report's per-scenario budget.
//!
//! The budget ([`TRACE_REPORT_BUDGET`], documented in `docs/reports.md`) is what the section
//! may add to the page. Screenshots are read here, the failed step's first, until
//! [`IMAGE_BUDGET`] bytes of base64 (counted on the files read, not on what `trace.json` says of
//! them); the rest is decided on the rendered section (`trace_fit.rs`). Whatever is left out
//! is said in a visible note, never silently, and stays in the trace folder beside the report.

use super::attachments::EvidenceReader;
use crate::trace::record::{Trace, TRACE_SCHEMA};
use crate::trace::TraceSummary;
use base64::Engine;

/// What one scenario's trace section may add to the report, in bytes as written (tags,
/// escaping, screenshots, lists and source): a 20-step failing scenario's page stays near 2 MB.
pub const TRACE_REPORT_BUDGET: u64 = 2_000_000;
/// Base64 bytes of screenshots inlined per scenario: the rest of the budget is left to the
/// steps' facts, outlines, logs and changes.
pub const IMAGE_BUDGET: u64 = 1_600_000;
/// Largest `trace.json` read.
const MAX_TRACE_FILE: u64 = 8 * 1024 * 1024;
/// Largest single screenshot read.
const MAX_SHOT: u64 = 1024 * 1024;

/// A trace ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceView {
    /// The trace (`None` when it could not be read: `notes` says why).
    pub trace: Option<Trace>,
    /// Per step: the screenshot as a data URI, when inlined.
    pub images: Vec<Option<String>>,
    /// What was left out or could not be read, in plain words (shown above the timeline).
    pub notes: Vec<String>,
}

impl TraceView {
    /// Read the trace a scenario result names.
    pub(super) fn load(reader: &EvidenceReader, summary: &TraceSummary) -> TraceView {
        let mut view = TraceView {
            trace: None,
            images: Vec::new(),
            notes: Vec::new(),
        };
        if let Some(why) = &summary.not_written {
            view.notes.push(format!("The trace was not written: {why}"));
            return view;
        }
        let trace = reader
            .read_bounded(&summary.path, MAX_TRACE_FILE)
            .and_then(|bytes| {
                serde_json::from_slice::<Trace>(&bytes)
                    .map_err(|e| format!("trace.json could not be read: {e}"))
            })
            .and_then(|t| {
                (t.schema == TRACE_SCHEMA)
                    .then_some(t)
                    .ok_or_else(|| "trace.json is of another schema".to_string())
            });
        let trace = match trace {
            Ok(t) => t,
            Err(note) => {
                view.notes.push(note);
                return view;
            }
        };
        let folder = summary.path.parent().map(|p| p.to_path_buf());
        let mut images_left = IMAGE_BUDGET;
        let mut images_cut = 0;
        view.images = vec![None; trace.steps.len()];
        let first = super::trace_fit::first_steps(&trace, summary.since_last_green.as_ref());
        let rest = (0..trace.steps.len()).filter(|i| !first.contains(i));
        for i in first.iter().copied().chain(rest) {
            let (Some(shot), Some(folder)) = (&trace.steps[i].screenshot, &folder) else {
                continue;
            };
            if shot.bytes.div_ceil(3) * 4 > images_left {
                images_cut += 1;
                continue;
            }
            match reader.read_bounded(&folder.join(&shot.file), MAX_SHOT) {
                Ok(bytes) => match image_kind(&bytes) {
                    // What was read counts, whatever trace.json said of the file's size.
                    Some(_) if (bytes.len() as u64).div_ceil(3) * 4 > images_left => {
                        images_cut += 1
                    }
                    Some(kind) => {
                        images_left -= (bytes.len() as u64).div_ceil(3) * 4;
                        view.images[i] = Some(format!(
                            "data:{kind};base64,{}",
                            base64::engine::general_purpose::STANDARD.encode(&bytes)
                        ));
                    }
                    None => view.notes.push(format!(
                        "{} is not a JPEG or PNG and is not shown",
                        shot.file
                    )),
                },
                Err(note) => view.notes.push(note),
            }
        }
        if images_cut > 0 {
            view.notes.push(format!(
                "{images_cut} screenshot(s) are not shown: the report inlines at most {} KB of \
                 screenshots per scenario (they are in the trace folder)",
                IMAGE_BUDGET / 1000
            ));
        }
        view.notes.extend(
            trace
                .cuts
                .iter()
                .map(|c| format!("The trace itself is cut: {c}")),
        );
        view.trace = Some(trace);
        view
    }
}

fn image_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
