//! Private values: the one rule for what A3S Test never writes or answers, and the pure parts that
//! apply it to what the browser returned.
//!
//! Why one rule, here: a card number, a one-time code or the text of a region the page marked
//! private must stay out of every output — observations, refs, session files, evidence, failure
//! messages, reports — and every output is built from one of three things the driver reads: the
//! resolver's answers (`web/resolver.js`), the accessibility tree and screenshots. The rule is
//! written once, as data ([`RULE`]); the page-side predicates (`web/privacy.js`) are handed it
//! as JSON, and this module applies the elements they report to accessibility trees
//! ([`redact_ax`]) and screenshots ([`mask_png`]).
//!
//! What is private:
//! - a **sensitive control**: an `input`, `textarea` or `select` whose `type` is one of
//!   [`PrivacyRule::input_types`] or one of whose `autocomplete` tokens is one of
//!   [`PrivacyRule::autocomplete`] or starts with one of [`PrivacyRule::autocomplete_prefixes`] —
//!   its value is never reported, its name (from its label) is;
//! - a **redacted region**: an element one of the page's Test Kit `redact` selectors matches
//!   (read through its bridge's handshake), and everything inside it — nothing of its text,
//!   names or values is reported; a form field that is itself a region keeps its name, like a
//!   sensitive control.
//!
//! Reading is unaffected: targets still resolve and expectations still compare against the real
//! page. Only what leaves the browser is redacted.

use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// What a private value or text is reported as.
pub const REDACTED: &str = "[redacted]";

/// Secrets shorter than this are not searched for in other text (a two-letter value would
/// redact half a page); they are still never reported where they stand.
const MIN_SCRUBBED: usize = 3;

/// The rule, as data the page-side predicates are handed.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PrivacyRule {
    /// The marker reported in place of a private value or text.
    pub marker: &'static str,
    /// Input types whose value is private.
    pub input_types: &'static [&'static str],
    /// Autocomplete tokens whose control's value is private.
    pub autocomplete: &'static [&'static str],
    /// Autocomplete token prefixes whose control's value is private (`cc-`: every payment-card
    /// field — number, security code, expiry, holder).
    pub autocomplete_prefixes: &'static [&'static str],
}

/// The rule A3S Test applies to every page.
pub const RULE: PrivacyRule = PrivacyRule {
    marker: REDACTED,
    input_types: &["password", "hidden"],
    autocomplete: &["one-time-code", "current-password", "new-password"],
    autocomplete_prefixes: &["cc-"],
};

impl PrivacyRule {
    /// The rule as the JSON object `privacy.js` takes.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("the rule serializes")
    }

    /// True when a control with this tag (lower case), `type` and `autocomplete` attribute holds
    /// a private value: the same decision `privacy.js` makes in the page.
    pub fn is_sensitive(
        &self,
        tag: &str,
        input_type: Option<&str>,
        autocomplete: Option<&str>,
    ) -> bool {
        if !matches!(tag, "input" | "textarea" | "select") {
            return false;
        }
        let kind = input_type.unwrap_or("").trim().to_ascii_lowercase();
        if tag == "input" && self.input_types.contains(&kind.as_str()) {
            return true;
        }
        autocomplete
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .any(|t| {
                self.autocomplete.contains(&t.as_str())
                    || self.autocomplete_prefixes.iter().any(|p| t.starts_with(p))
            })
    }
}

/// How much of an element may be reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrivacyLevel {
    /// Everything.
    Open,
    /// Its name, never its value (a sensitive control, or a form field that is a region).
    Value,
    /// Nothing of its text, name or value (inside a redacted region).
    Hidden,
}

impl PrivacyLevel {
    /// True unless everything may be reported.
    pub fn is_private(self) -> bool {
        self != PrivacyLevel::Open
    }
}

/// A rectangle in CSS pixels of the viewport.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CssRect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// The private elements of a page at one moment, by backend DOM node id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PrivateNodes {
    /// Elements whose value is private and whose name is not: sensitive controls and form
    /// fields that are regions.
    pub value_only: HashSet<i64>,
    /// Roots of redacted regions (everything inside is private).
    pub regions: HashSet<i64>,
    /// Where each private element is on screen, for screenshot masks.
    pub rects: Vec<CssRect>,
    /// Device pixels per CSS pixel.
    pub scale: f64,
    /// True when the page had more private elements than one query returns: the caller must
    /// not report what it could not check.
    pub truncated: bool,
}

impl PrivateNodes {
    /// True when nothing on the page is private.
    pub fn is_empty(&self) -> bool {
        self.value_only.is_empty() && self.regions.is_empty()
    }
}

/// What [`redact_ax`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Redacted {
    /// Backend ids of the nodes inside redacted regions (nothing of them may be reported,
    /// attributes included).
    pub hidden: HashSet<i64>,
    /// Backend ids of nodes whose value was private.
    pub value_only: HashSet<i64>,
}

/// Redact `Accessibility.getFullAXTree` nodes in place: inside a redacted region every name,
/// value, description and string property becomes [`REDACTED`]; a value-only control's value
/// does, and so does everything under it (an editor's inner text); and wherever else one of
/// those private strings appears inside a name or value (a button named by the region it holds,
/// a heading that repeats a field), it is replaced.
pub fn redact_ax(nodes: &mut [Value], private: &PrivateNodes) -> Redacted {
    let mut out = Redacted::default();
    if private.is_empty() {
        return out;
    }
    let index: HashMap<String, usize> = nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| Some((n.get("nodeId")?.as_str()?.to_owned(), i)))
        .collect();
    let backend = |n: &Value| n.get("backendDOMNodeId").and_then(Value::as_i64);
    let children = |n: &Value| -> Vec<usize> {
        n["childIds"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| index.get(c.as_str()?).copied())
            .collect()
    };
    // Hidden: region roots and their subtrees, and what lies under a value-only control.
    let mut hidden = vec![false; nodes.len()];
    let mut value_only = vec![false; nodes.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        match backend(n) {
            Some(b) if private.regions.contains(&b) => stack.push(i),
            Some(b) if private.value_only.contains(&b) => {
                value_only[i] = true;
                stack.extend(children(n));
            }
            _ => {}
        }
    }
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut hidden[i], true) {
            continue;
        }
        stack.extend(children(&nodes[i]));
    }
    let mut secrets: Vec<String> = Vec::new();
    for (i, n) in nodes.iter_mut().enumerate() {
        if hidden[i] {
            out.hidden.extend(backend(n));
            redact_all(n, &mut secrets);
        } else if value_only[i] {
            out.value_only.extend(backend(n));
            redact_value(n, &mut secrets);
        }
    }
    secrets.retain(|s| s.chars().count() >= MIN_SCRUBBED && s != REDACTED);
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets.dedup();
    if secrets.is_empty() {
        return out;
    }
    for (i, n) in nodes.iter_mut().enumerate() {
        if !hidden[i] {
            scrub_strings(n, &secrets);
        }
    }
    out
}

/// Replace a node's name, value, description and string properties, keeping what they held in
/// `secrets`.
fn redact_all(n: &mut Value, secrets: &mut Vec<String>) {
    for key in ["name", "value", "description"] {
        replace_at(n, &format!("/{key}/value"), secrets);
    }
    for_each_property(n, |v| replace_string(v, secrets));
}

/// Replace a node's value (and its `valuetext` property), keeping what it held in `secrets`.
fn redact_value(n: &mut Value, secrets: &mut Vec<String>) {
    replace_at(n, "/value/value", secrets);
    for_each_property(n, |v| replace_string(v, secrets));
}

fn for_each_property(n: &mut Value, mut f: impl FnMut(&mut Value)) {
    if let Some(props) = n.get_mut("properties").and_then(Value::as_array_mut) {
        for p in props {
            if let Some(v) = p.pointer_mut("/value/value") {
                f(v);
            }
        }
    }
}

fn replace_at(n: &mut Value, pointer: &str, secrets: &mut Vec<String>) {
    if let Some(v) = n.pointer_mut(pointer) {
        replace_string(v, secrets);
    }
}

/// A non-empty string becomes the marker; what it was is kept in `secrets`.
fn replace_string(v: &mut Value, secrets: &mut Vec<String>) {
    if let Value::String(s) = v {
        if !s.trim().is_empty() {
            secrets.push(std::mem::replace(s, REDACTED.to_string()));
        }
    }
}

fn scrub_strings(n: &mut Value, secrets: &[String]) {
    for key in ["name", "value", "description"] {
        if let Some(Value::String(s)) = n.pointer_mut(&format!("/{key}/value")) {
            if let Some(clean) = scrub(s, secrets) {
                *s = clean;
            }
        }
    }
}

/// `text` with every occurrence of a secret replaced by the marker (`secrets` longest first);
/// `None` when it held none.
pub fn scrub(text: &str, secrets: &[String]) -> Option<String> {
    let mut out: Option<String> = None;
    for s in secrets {
        let current = out.as_deref().unwrap_or(text);
        if current.contains(s.as_str()) {
            out = Some(current.replace(s.as_str(), REDACTED));
        }
    }
    out
}

/// Why a screenshot could not be masked.
#[derive(Debug, thiserror::Error)]
pub enum MaskError {
    /// The bytes were not a PNG this module reads.
    #[error("the screenshot could not be read as PNG: {0}")]
    Decode(String),
    /// The masked image could not be written.
    #[error("the masked screenshot could not be written: {0}")]
    Encode(String),
}

/// The colour a private region is painted with.
const MASK: [u8; 4] = [0x33, 0x33, 0x33, 0xff];

/// Paint each of `rects` (CSS pixels; `scale` device pixels per CSS pixel) opaque over a PNG
/// screenshot. The bytes come back untouched when no rectangle covers a pixel of it.
pub fn mask_png(png_bytes: &[u8], rects: &[CssRect], scale: f64) -> Result<Vec<u8>, MaskError> {
    paint_png(png_bytes, rects, scale, MASK)
}

/// Paint each of `rects` (CSS pixels; `scale` device pixels per CSS pixel) in `colour` (RGBA)
/// over a PNG: the privacy mask, and the `mask` targets of a visual comparison.
pub fn paint_png(
    png_bytes: &[u8],
    rects: &[CssRect],
    scale: f64,
    colour: [u8; 4],
) -> Result<Vec<u8>, MaskError> {
    let mask = colour;
    let scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder
        .read_info()
        .map_err(|e| MaskError::Decode(e.to_string()))?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| MaskError::Decode("the image is too large".into()))?;
    let mut pixels = vec![0u8; size];
    let info = reader
        .next_frame(&mut pixels)
        .map_err(|e| MaskError::Decode(e.to_string()))?;
    pixels.truncate(info.buffer_size());
    let channels = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Grayscale => 1,
        png::ColorType::Indexed => {
            return Err(MaskError::Decode("an indexed image after expansion".into()))
        }
    };
    let (width, height) = (info.width as usize, info.height as usize);
    let stride = info.line_size;
    let mut painted = false;
    for r in rects {
        let to_px = |v: f64, max: usize| ((v * scale).round().max(0.0) as usize).min(max);
        let (x0, y0) = (to_px(r.x, width), to_px(r.y, height));
        let (x1, y1) = (to_px(r.x + r.width, width), to_px(r.y + r.height, height));
        if x0 >= x1 || y0 >= y1 {
            continue;
        }
        painted = true;
        for y in y0..y1 {
            let row = &mut pixels[y * stride..y * stride + width * channels];
            for px in row[x0 * channels..x1 * channels].chunks_exact_mut(channels) {
                match channels {
                    4 => px.copy_from_slice(&mask),
                    3 => px.copy_from_slice(&mask[..3]),
                    2 => px.copy_from_slice(&[mask[0], mask[3]]),
                    _ => px[0] = mask[0],
                }
            }
        }
    }
    if !painted {
        return Ok(png_bytes.to_vec());
    }
    let mut out = Vec::with_capacity(png_bytes.len());
    {
        let mut encoder = png::Encoder::new(&mut out, info.width, info.height);
        encoder.set_color(info.color_type);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder
            .write_header()
            .map_err(|e| MaskError::Encode(e.to_string()))?;
        writer
            .write_image_data(&pixels)
            .map_err(|e| MaskError::Encode(e.to_string()))?;
        writer
            .finish()
            .map_err(|e| MaskError::Encode(e.to_string()))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
