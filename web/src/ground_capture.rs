//! Visual grounding's captures: the screenshot a provider is sent, and the proof, after its
//! answer, that the page still shows those pixels — where the answer's boxes are (a clipped
//! capture of that region) or, when the answer names no place, everywhere (one frame's digest).
//!
//! Why two encodings of one frame and `optimizeForSpeed`: the proof must refuse any changed
//! pixel (a canvas redrawing every frame included), and only a capture sees pixels — Chromium
//! has no frame or paint counter a client can read, and the page's own revision misses a canvas
//! draw. So the proof is a second capture, made as cheap as a capture gets: Chromium's fast PNG
//! encoder (deterministic: the same pixels give the same bytes, any other pixel other bytes),
//! hashed as the browser encoded it, with no privacy read (the digest is of the unmasked frame,
//! held by the supervisor only and compared with the first capture's unmasked digest).

use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::privacy;
use a3s_test_driver::{GroundingCapture, PixelRegion, StepFailure};
use base64::Engine as _;
use serde_json::{json, Value};
use tokio::time::Instant;

/// See `AgentContext::grounding_capture`: one frame, its private elements read alongside.
pub(crate) async fn capture(
    ctx: &WebContext,
    deadline: Instant,
) -> Result<GroundingCapture, StepFailure> {
    ctx.tab()?.fail_if_dialog()?;
    let (raw, private) =
        futures_util::future::join(frame(ctx, deadline), ctx.private_nodes(deadline)).await;
    let (raw, private) = (raw?, private?);
    let frame_sha256 = sha256_hex(&raw);
    let png = if private.rects.is_empty() {
        raw.clone()
    } else {
        privacy::mask_png(&raw, &private.rects, private.scale)
            .map_err(|e| StepFailure::new(FailureCode::Protocol, e.to_string()))?
    };
    Ok(GroundingCapture {
        png,
        frame_sha256,
        frame_png: raw,
    })
}

/// See `AgentContext::frame_region`: the page's scroll and device pixel ratio, then one capture
/// clipped to `region`. Chromium's clip is in document CSS pixels, so the viewport region is
/// moved by the scroll read just before; the clipped capture is the same pixels as that region
/// of a whole-viewport capture when the image is at the device pixel ratio (checked by the
/// caller, which compares the decoded sizes as well).
pub(crate) async fn frame_region(
    ctx: &WebContext,
    region: PixelRegion,
    scale: f64,
    deadline: Instant,
) -> Result<Option<Vec<u8>>, StepFailure> {
    ctx.tab()?.fail_if_dialog()?;
    let reply = ctx
        .evaluate_reply(
            "[scrollX, scrollY, devicePixelRatio]",
            true,
            COMMAND_BOUND,
            deadline,
        )
        .await?;
    let read: Option<[f64; 3]> = reply
        .pointer("/result/value")
        .and_then(|v| serde_json::from_value(v.clone()).ok());
    let Some([scroll_x, scroll_y, ratio]) = read else {
        return Err(StepFailure::new(
            FailureCode::Protocol,
            "the page's scroll and pixel ratio could not be read",
        ));
    };
    if !(scale.is_finite() && scale > 0.0) || (ratio - scale).abs() > 1e-9 {
        return Ok(None);
    }
    let clip = json!({
        "x": f64::from(region.x) / scale + scroll_x,
        "y": f64::from(region.y) / scale + scroll_y,
        "width": f64::from(region.width) / scale,
        "height": f64::from(region.height) / scale,
        "scale": 1,
    });
    capture_png(
        ctx,
        json!({ "format": "png", "optimizeForSpeed": true, "clip": clip }),
        deadline,
    )
    .await
    .map(Some)
}

/// See `AgentContext::frame_digest`.
pub(crate) async fn frame_digest(
    ctx: &WebContext,
    deadline: Instant,
) -> Result<String, StepFailure> {
    ctx.tab()?.fail_if_dialog()?;
    Ok(sha256_hex(&frame(ctx, deadline).await?))
}

/// The viewport as the browser encodes it with its fast PNG encoder, unmasked.
async fn frame(ctx: &WebContext, deadline: Instant) -> Result<Vec<u8>, StepFailure> {
    capture_png(
        ctx,
        json!({ "format": "png", "optimizeForSpeed": true }),
        deadline,
    )
    .await
}

/// One `Page.captureScreenshot` with `params`, its PNG bytes.
async fn capture_png(
    ctx: &WebContext,
    params: Value,
    deadline: Instant,
) -> Result<Vec<u8>, StepFailure> {
    let reply = ctx
        .tab()?
        .session
        .call("Page.captureScreenshot", params, COMMAND_BOUND, deadline)
        .await?;
    let data = reply.get("data").and_then(Value::as_str).unwrap_or("");
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| {
            StepFailure::new(
                FailureCode::Protocol,
                format!("the screenshot was not valid base64: {e}"),
            )
        })
}

/// SHA-256 of `bytes`, lowercase hex.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
