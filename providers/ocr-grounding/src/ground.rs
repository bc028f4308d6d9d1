//! One grounding request answered: the screenshot checked against what the request says of it,
//! the query found among Tesseract's words, the places as boxes in image pixels.
//!
//! Why the provider checks the image too: the caller binds its request to the PNG's SHA-256 and
//! size, and a provider that answered about other bytes (a proxy that re-encoded them, a
//! truncated upload) would hand back boxes about another picture. A mismatch is a `failure`
//! answer with its own code, never boxes.

use crate::phrase;
use crate::tesseract::{OcrError, Tesseract};
use a3s_test_provider::grounding::MAX_BOXES;
use a3s_test_provider::grounding::{GroundingBox, GroundingRequest, GroundingResponse, Usage};
use a3s_test_provider::wire::ProviderFailure;
use base64::Engine as _;
use sha2::Digest;
use std::time::Duration;

/// Who this provider says it is in its answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The provider name (the project file's block label).
    pub provider: String,
    /// The model name (the block's `model`).
    pub model: String,
}

/// The longest a recognition may take whatever the request's deadline says.
pub const MAX_OCR: Duration = Duration::from_secs(60);

/// Time kept back from the request's deadline for the answer's way back.
const MARGIN: Duration = Duration::from_millis(100);

/// Answer `request`: the boxes where the query reads, or why there are none.
pub fn ground(
    ocr: &Tesseract,
    identity: &Identity,
    request: &GroundingRequest,
) -> Result<GroundingResponse, ProviderFailure> {
    let refuse = |code: &str, message: String, retryable: bool| ProviderFailure {
        code: code.into(),
        message,
        retryable,
    };
    let png = base64::engine::general_purpose::STANDARD
        .decode(request.screenshot.png_base64.as_bytes())
        .map_err(|e| {
            refuse(
                "ocr.image_encoding",
                format!("png_base64 is not base64: {e}"),
                false,
            )
        })?;
    let digest = hex(&sha2::Sha256::digest(&png));
    if !digest.eq_ignore_ascii_case(&request.screenshot.sha256) {
        return Err(refuse(
            "ocr.image_digest",
            format!(
                "the image's SHA-256 is {digest}, the request says {}",
                request.screenshot.sha256
            ),
            false,
        ));
    }
    let size = png_size(&png)
        .ok_or_else(|| refuse("ocr.image_format", "the image is not a PNG".into(), false))?;
    if size != (request.screenshot.width, request.screenshot.height) {
        return Err(refuse(
            "ocr.image_size",
            format!(
                "the PNG is {}×{}, the request says {}×{}",
                size.0, size.1, request.screenshot.width, request.screenshot.height
            ),
            false,
        ));
    }
    let within = Duration::from_millis(request.deadline_ms)
        .saturating_sub(MARGIN)
        .min(MAX_OCR);
    let words = ocr.words(&png, within).map_err(|e| match e {
        OcrError::Timeout(_) => refuse("ocr.timeout", e.to_string(), true),
        other => refuse("ocr.tesseract", other.to_string(), false),
    })?;
    let (width, height) = (f64::from(size.0), f64::from(size.1));
    let boxes: Vec<GroundingBox> = phrase::find(&words, &request.query)
        .into_iter()
        // Tesseract's boxes stay inside the image; one that does not is dropped, not clipped.
        .filter(|f| f64::from(f.x + f.width) <= width && f64::from(f.y + f.height) <= height)
        .take(MAX_BOXES)
        .map(|f| GroundingBox {
            x: f64::from(f.x),
            y: f64::from(f.y),
            width: f64::from(f.width),
            height: f64::from(f.height),
            confidence: f.confidence,
            text: Some(f.text),
        })
        .collect();
    Ok(GroundingResponse {
        provider: identity.provider.clone(),
        model: identity.model.clone(),
        observation_id: request.observation_id.clone(),
        screenshot_sha256: digest,
        usage: Usage {
            input_units: 1,
            output_units: boxes.len() as u64,
        },
        boxes,
        cost_microusd: 0,
    })
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
