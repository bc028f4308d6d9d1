//! A scenario's step trace as the report shows it: `trace.json` and its screenshots read from
//! the run's artifact folder (through [`EvidenceReader`]: confined, no link followed), within
//! the report's per-scenario budget.
//!
//! The budget ([`TRACE_REPORT_BUDGET`], documented in `docs/reports.md`) keeps a 20-step failing
//! scenario's page under 2 MB: screenshots are inlined until [`IMAGE_BUDGET`] bytes of base64,
//! outlines and logs until [`TEXT_BUDGET`] characters; whatever is left out is said in a visible
//! note, never silently, and stays in `trace.json` beside the report.

use super::attachments::EvidenceReader;
use crate::trace::record::{Trace, TRACE_SCHEMA};
use crate::trace::TraceSummary;
use base64::Engine;

/// What one scenario's trace may add to the report, in bytes.
pub const TRACE_REPORT_BUDGET: u64 = IMAGE_BUDGET + TEXT_BUDGET;
/// Base64 bytes of screenshots inlined per scenario.
pub const IMAGE_BUDGET: u64 = 1_600_000;
/// Characters of outlines, console, errors and requests shown per scenario.
pub const TEXT_BUDGET: u64 = 400_000;
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
    /// Per step: true when its outline and logs were left out by the text budget.
    pub text_cut: Vec<bool>,
    /// What was left out or could not be read, in plain words (shown above the timeline).
    pub notes: Vec<String>,
}

impl TraceView {
    /// Read the trace a scenario result names.
    pub(super) fn load(reader: &EvidenceReader, summary: &TraceSummary) -> TraceView {
        let mut view = TraceView {
            trace: None,
            images: Vec::new(),
            text_cut: Vec::new(),
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
        let (mut images_left, mut text_left) = (IMAGE_BUDGET, TEXT_BUDGET);
        let (mut images_cut, mut texts_cut) = (0, 0);
        for step in &trace.steps {
            let image = match (&step.screenshot, &folder) {
                (Some(shot), Some(folder)) => {
                    let encoded = shot.bytes.div_ceil(3) * 4;
                    if encoded > images_left {
                        images_cut += 1;
                        None
                    } else {
                        match reader.read_bounded(&folder.join(&shot.file), MAX_SHOT) {
                            Ok(bytes) if image_kind(&bytes).is_some() => {
                                images_left -= encoded;
                                Some(format!(
                                    "data:{};base64,{}",
                                    image_kind(&bytes).unwrap_or("image/jpeg"),
                                    base64::engine::general_purpose::STANDARD.encode(&bytes)
                                ))
                            }
                            Ok(_) => {
                                view.notes.push(format!(
                                    "{} is not a JPEG or PNG and is not shown",
                                    shot.file
                                ));
                                None
                            }
                            Err(note) => {
                                view.notes.push(note);
                                None
                            }
                        }
                    }
                }
                _ => None,
            };
            view.images.push(image);
            let text = text_size(step);
            let cut = text > text_left;
            if cut {
                texts_cut += 1;
            } else {
                text_left -= text;
            }
            view.text_cut.push(cut);
        }
        if images_cut > 0 {
            view.notes.push(format!(
                "{images_cut} screenshot(s) are not shown: the report inlines at most {} KB of \
                 screenshots per scenario (they are in the trace folder)",
                IMAGE_BUDGET / 1000
            ));
        }
        if texts_cut > 0 {
            view.notes.push(format!(
                "The outline and logs of {texts_cut} step(s) are not shown: the report shows at \
                 most {} KB of them per scenario (trace.json has them all)",
                TEXT_BUDGET / 1000
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

/// Characters a step's outline and logs add to the page.
fn text_size(step: &crate::trace::record::TraceStep) -> u64 {
    let outline: usize = step.outline.iter().map(|l| l.len() + 1).sum();
    let console: usize = step.console.iter().map(|c| c.text.len() + 40).sum();
    let errors: usize = step.page_errors.iter().map(|e| e.message.len() + 40).sum();
    let network: usize = step
        .network
        .iter()
        .map(|r| {
            let bodies: usize = [&r.request_body, &r.response_body]
                .into_iter()
                .flatten()
                .map(|b| b.text.as_ref().map_or(0, String::len) + 80)
                .sum();
            r.url.len() + 120 + bodies
        })
        .sum();
    (outline + console + errors + network) as u64
}

#[cfg(test)]
mod tests;
