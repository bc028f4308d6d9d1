//! What a surface records for a step trace (`run --trace`): the page after a step (a scaled
//! screenshot, the operable-control snapshot an agent observation is built from) and what the
//! page did while the step ran (console messages, page errors, network requests).
//!
//! Why in the contract: the runner builds the trace (`runner/src/trace/`) and must not name the
//! Web driver; a surface that cannot record (a terminal program, a test fake) answers
//! [`StepCapture::not_traced`] through the trait's defaults, and the trace says so per step
//! instead of showing an empty page as if nothing had happened.

use crate::api::PageSnapshot;
use crate::trace_body::TraceBody;
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

/// The environment variable that prints where a traced step's time goes
/// (`A3S_TEST_TRACE_TIMING=1`: one `trace-timing` line per capture and per scenario's end on
/// stderr): the cost goals of `--trace` (`docs/benchmarks.md`) are met by cutting the phase
/// that dominates, and this names it without a profiler.
pub const TIMING_ENV: &str = "A3S_TEST_TRACE_TIMING";

/// Whether [`TIMING_ENV`] is set to `1` (read once).
pub fn timing_enabled() -> bool {
    static ENABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var_os(TIMING_ENV).is_some_and(|v| v == "1"))
}

/// Under [`TIMING_ENV`], print one line; `what` is only built then.
pub fn timing(what: impl FnOnce() -> String) {
    if timing_enabled() {
        eprintln!("trace-timing {}", what());
    }
}

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
    /// Fingerprint the page ([`PageFingerprint`]) before reading its outline: `false` when the
    /// scenario typed an `env("NAME")` value, which must not reach even a hash.
    pub fingerprint: bool,
    /// The fingerprint of a page whose outline the runner already has (the last green run's
    /// after the same step): when the page's equals it, the outline is not read again.
    pub known_page: Option<PageFingerprint>,
    /// The step only read the page (an `expect`, a `wait`): when the page's fingerprint is the
    /// one of the previous capture and the browser drew nothing since, that capture's image
    /// still shows the page and is handed back again instead of waiting for a new one.
    pub read_only: bool,
    /// Record the bodies of the step's requests ([`crate::trace_body`]): reading a response's
    /// body is one browser command per request, so `retain-on-failure` asks for them only after
    /// a step that failed, and a passing step costs what it did without them.
    pub bodies: bool,
}

/// A fingerprint of what the page's outline is read from (the URL, the composed tree's
/// elements, attributes, rendering, text, form state and focus — private values left out),
/// taken in one in-page pass: reading the outline itself (the accessibility tree, the operable
/// controls) costs ten times more, and an unchanged page needs no second reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PageFingerprint(pub u64);

impl PageFingerprint {
    /// Read from its 16 hex digits.
    pub fn from_hex(s: &str) -> Option<PageFingerprint> {
        // `from_str_radix` alone would take a leading `+`.
        (s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u64::from_str_radix(s, 16).ok())
            .flatten()
            .map(PageFingerprint)
    }
}

impl std::fmt::Display for PageFingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl Serialize for PageFingerprint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PageFingerprint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        PageFingerprint::from_hex(&s)
            .ok_or_else(|| serde::de::Error::custom("a page fingerprint is 16 hex digits"))
    }
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

/// One network request the page made. No header or cookie is recorded; its bodies only when
/// the capture asked for them ([`TraceWant::bodies`]) and [`crate::trace_body`]'s rule lets
/// them be kept (text, at most 8 KiB, no credentials in the exchange). Both body fields are
/// absent from traces written before bodies were recorded, which read as before.
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
    /// The body the page sent (a POST's JSON or form), or why it is not here; `None` when the
    /// request had none or bodies were not asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_body: Option<TraceBody>,
    /// The body of the answer, or why it is not here; `None` when no answer finished during the
    /// step or bodies were not asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_body: Option<TraceBody>,
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
    /// The page's fingerprint, when one was asked for and could be taken.
    pub fingerprint: Option<PageFingerprint>,
    /// True when the outline was not read because the page's fingerprint equals
    /// [`TraceWant::known_page`] (`snapshot` is then `None`).
    pub same_as_known: bool,
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

/// Why the resolver did not take one candidate of a failed step's target (the trace of a failed
/// step lists them, so a person sees what was there instead of only "not found").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CandidateReason {
    /// One of several matches: the target names more than one element.
    Ambiguous,
    /// It left the document.
    Removed,
    /// It is not visible (no box, `display: none`, `visibility: hidden`, …).
    Hidden,
    /// It is disabled and the step needs an enabled control.
    Disabled,
    /// The step types into it and it is not an editable text control.
    NotEditable,
    /// The pointer cannot reach it without scrolling (a step scrolls first; the page may not).
    OutsideViewport,
    /// Another element is on top at its action point and would receive the pointer.
    Covered,
    /// Another reason the pointer cannot act on it (the detail says which).
    NotActionable,
    /// A near miss: hidden from the accessibility tree, so a role or label locator skips it.
    HiddenFromAccessibility,
    /// A near miss: the right kind of element under another name, label, placeholder or test id.
    OtherName,
    /// A near miss: it matches the inner locator of a `within` but lies outside its scope.
    OutsideScope,
    /// A near miss: a match of the locator inside `nth`, at another index.
    OtherIndex,
    /// A near miss: a match of the locator a filter (`has_text`, `has`, …) left out.
    FilteredOut,
}

/// One reason, with the resolver's sentence for it (untrusted page text quoted inside).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CandidateWhy {
    /// The kind of reason.
    pub reason: CandidateReason,
    /// The sentence (`its name is "Buy now"`, `<div#cover> … is on top of …`).
    pub detail: String,
}

/// One element the resolver saw for a failed step's target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceCandidate {
    /// The element as messages describe it (`<button#buy> "Buy"`, private names masked).
    pub element: String,
    /// Every reason it was not acted on now; empty when it is actionable at the time of the
    /// capture (the page changed after the step gave up).
    #[serde(default)]
    pub reasons: Vec<CandidateWhy>,
}

/// The candidates of one target of a failed step: its matches with why each is not
/// actionable, or, when nothing matches, the near misses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetCandidates {
    /// The target as ACL writes it (`role("button", name = "Buy")`).
    pub target: String,
    /// How many elements the target names now.
    pub matches: usize,
    /// How many candidates were seen (matches, else near misses); at most
    /// [`MAX_CANDIDATES`] are listed.
    pub total: usize,
    /// The first [`MAX_CANDIDATES`] of them, in document order.
    pub candidates: Vec<TraceCandidate>,
}

/// Most candidates listed per target (the resolver's own cap, `resolver.js`).
pub const MAX_CANDIDATES: usize = 10;
