//! What a surface records for a step trace (`run --trace`): the page after a step (a scaled
//! screenshot, the operable-control snapshot an agent observation is built from) and what the
//! page did while the step ran (console messages, page errors, network requests).
//!
//! Why in the contract: the runner builds the trace (`runner/src/trace/`) and must not name the
//! Web driver; a surface that cannot record (a terminal program, a test fake) answers
//! [`StepCapture::not_traced`] through the trait's defaults, and the trace says so per step
//! instead of showing an empty page as if nothing had happened.

use crate::api::PageSnapshot;
use serde::{Deserialize, Serialize};

/// The schema name every trace file carries; bumped when a field changes meaning.
pub const TRACE_SCHEMA: &str = "a3s.test.trace/1";

/// Most console messages, page errors or requests one step's capture carries (the first are
/// kept, the rest counted), so a page that logs in a loop cannot grow a trace without bound.
pub const MAX_STEP_ENTRIES: usize = 100;

/// Longest console text or error message kept, in characters.
pub const MAX_ENTRY_CHARS: usize = 500;

/// Longest URL kept, in characters.
pub const MAX_URL_CHARS: usize = 300;

/// Where the page's logs stood when a step began: the capture after it reports only what came
/// later. Opaque positions the driver hands out and reads back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TraceMark {
    /// Console messages recorded so far.
    pub console: usize,
    /// Page errors recorded so far.
    pub page_errors: usize,
    /// Requests recorded so far.
    pub requests: usize,
}

/// What the runner asks of one capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceWant {
    /// Take a screenshot at most this wide (CSS px scaled down, never up); `None` = none (the
    /// scenario's screenshot budget is spent).
    pub screenshot_width: Option<u32>,
    /// Read the page (the outline, and the screenshot when asked); `false` answers only the
    /// logs and requests since the mark, which cost no browser command.
    pub page: bool,
}

/// An image of the page after a step.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceImage {
    /// `jpeg`, or `png` when private regions had to be painted over (masking works on PNG).
    pub format: ImageFormat,
    /// The encoded image.
    pub bytes: Vec<u8>,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// Image pixels per CSS px: a point the step acted on lands at `x * scale`.
    pub scale: f64,
}

/// The encoding of a [`TraceImage`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageFormat {
    /// JPEG (the default: a tenth of a PNG's size for a page).
    Jpeg,
    /// PNG (a masked screenshot).
    Png,
}

impl ImageFormat {
    /// The file extension and the media subtype.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Jpeg => "jpeg",
            ImageFormat::Png => "png",
        }
    }
}

/// One console message (untrusted page text, clipped to [`MAX_ENTRY_CHARS`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceConsole {
    /// `log`, `info`, `warning`, `error`, `debug`, …
    pub level: String,
    /// The message.
    pub text: String,
}

/// One uncaught page error (untrusted page text, clipped).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TracePageError {
    /// The error's message.
    pub message: String,
}

/// One network request the page made (no header, cookie or body is recorded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceRequest {
    /// `GET`, `POST`, …
    pub method: String,
    /// The URL (untrusted, clipped to [`MAX_URL_CHARS`]; its query kept — it is what the page
    /// asked for).
    pub url: String,
    /// The response status; `None` when none arrived (yet, or the request failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Why it failed (`net::ERR_…`), when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// `Document`, `Fetch`, `Script`, …
    pub resource_type: String,
    /// From sending to the last byte, ms; `None` while unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Bytes received on the wire; `None` while unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received_bytes: Option<u64>,
}

/// What one capture got: the page after a step and what the page did since the step's mark.
#[derive(Debug, Clone, Default)]
pub struct StepCapture {
    /// Whether the surface records traces at all (`false`: every field is empty by design).
    pub traced: bool,
    /// The screenshot, when one was asked for and could be taken.
    pub screenshot: Option<TraceImage>,
    /// The operable controls and page text (the agent observation's snapshot), already
    /// redacted by the driver's privacy rule.
    pub snapshot: Option<PageSnapshot>,
    /// Console messages since the mark (at most [`MAX_STEP_ENTRIES`]).
    pub console: Vec<TraceConsole>,
    /// Page errors since the mark (at most [`MAX_STEP_ENTRIES`]).
    pub page_errors: Vec<TracePageError>,
    /// Requests the page started since the mark (at most [`MAX_STEP_ENTRIES`]).
    pub network: Vec<TraceRequest>,
    /// Entries left out by the per-step cap, all kinds together.
    pub dropped: usize,
    /// What could not be captured, one sentence each (the screenshot timed out, a dialog blocks
    /// the page …).
    pub missing: Vec<String>,
}

impl StepCapture {
    /// The answer of a surface that does not record traces.
    pub fn not_traced() -> StepCapture {
        StepCapture::default()
    }
}

/// `s` cut at `max` characters (with `…`).
pub fn clip_chars(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}
