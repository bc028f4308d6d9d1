//! The supervisor's half of visual grounding (`agent ground`, `test_ground`): the screenshot a
//! provider is asked about, bound to the latest observation, and the page's own hit test of the
//! places it answered.
//!
//! Why the supervisor never talks to the provider: the front end holds the project's provider
//! configuration and its authorization value (read from its environment, never sent over the
//! session socket or logged in `events.jsonl`); the supervisor holds the page. The two turns
//! here are reads that decide nothing about the advice: [`GroundCapture`] takes the screenshot
//! of the latest open observation (and remembers the digest of its unmasked frame),
//! [`GroundMap`] proves the observation is still the latest, the screenshot is that one and the
//! page still shows the very same pixels where the answer's boxes are — one fresh capture of
//! their region, compared pixel by pixel with the same region of the remembered frame, or of
//! the whole viewport when the answer names no place ([`super::ground_proof`];
//! `test.session.screenshot_changed` otherwise) — while it asks the page which of the
//! observation's `@cN` nodes is on top at each point.

use a3s_test_lang::ir::Target;
use serde::{Deserialize, Serialize};

/// Most points one [`GroundMap`] asks about (the provider protocol's most boxes).
pub const MAX_POINTS: usize = 256;

/// Take the screenshot grounding asks about, bound to the latest open observation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroundCapture {
    /// The observation the caller means (must be the latest, still open); `None`: the latest.
    pub observation: Option<u64>,
}

/// The screenshot of an observation, as a provider receives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroundShot {
    /// The observation it belongs to.
    pub observation: u64,
    /// The PNG, standard base64.
    pub png_base64: String,
    /// SHA-256 of the PNG bytes, lowercase hex.
    pub sha256: String,
    /// Width in image pixels.
    pub width: u32,
    /// Height in image pixels.
    pub height: u32,
    /// Image pixels per CSS pixel (the device pixel ratio the screenshot was taken at).
    pub scale: f64,
}

/// Map image points onto the page of the observation `observation`, whose screenshot was
/// `sha256`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroundMap {
    /// The observation the screenshot belonged to (must still be the latest, open).
    pub observation: u64,
    /// The SHA-256 of the screenshot the provider was sent.
    pub sha256: String,
    /// The points to test, in image pixels (each box's centre).
    pub points: Vec<(f64, f64)>,
    /// The answer's boxes (`x, y, width, height` in image pixels): where the page must still
    /// show the pixels the provider was sent. None: the whole frame must.
    #[serde(default)]
    pub boxes: Vec<(f64, f64, f64, f64)>,
}

/// What the page shows at each point of a [`GroundMap`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroundHits {
    /// Per point, in order: the one `@cN` node on top there, or `None`.
    pub hits: Vec<Option<GroundHit>>,
    /// Image pixels per CSS pixel the points were divided by.
    pub scale: f64,
    /// What the page was proven unchanged on (absent from a supervisor that does not say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<super::ground_proof::GroundProof>,
}

/// One `@cN` ref of the latest observation that the page shows on top at a point (an `@eN` on a
/// page without the Test Kit's nodes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroundHit {
    /// `@cN` (or `@eN`), usable in the next action while the observation stays open.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Its role (untrusted page data).
    pub role: String,
    /// Its accessible name (untrusted page data).
    pub name: String,
    /// A semantic locator naming it (role and name, label, test id, placeholder or text),
    /// when its Test Kit record has one: a durable way to name it in a suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<Target>,
}

/// The environment variable that makes grounding print where its time goes to stderr
/// (`A3S_TEST_GROUND_TIMING=1`): the front end's phases, and each supervisor turn's page work
/// and record writes (in the session's `artifacts/supervisor.log`). For measuring the boundary's
/// own overhead (`bench/ground.py`), not for use in answers.
pub const TIMING_ENV: &str = "A3S_TEST_GROUND_TIMING";

/// Whether [`TIMING_ENV`] is set to `1`.
pub fn timing_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var(TIMING_ENV).is_ok_and(|v| v == "1"))
}

/// A PNG's width and height from its header (`None`: not a PNG).
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if png.len() < 24 || &png[..8] != SIGNATURE || &png[12..16] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(png[16..20].try_into().ok()?);
    let height = u32::from_be_bytes(png[20..24].try_into().ok()?);
    (width > 0 && height > 0).then_some((width, height))
}

/// SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_header_gives_its_size_and_anything_else_none() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&1280u32.to_be_bytes());
        png.extend_from_slice(&720u32.to_be_bytes());
        assert_eq!(png_size(&png), Some((1280, 720)));
        assert_eq!(png_size(&png[..20]), None);
        assert_eq!(png_size(b"GIF89a............................"), None);
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
