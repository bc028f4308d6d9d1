//! Visual grounding's captures: the screenshot a provider is sent, and the one-frame proof,
//! after its answer, that the page still shows those pixels.
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
use a3s_test_driver::{GroundingCapture, StepFailure};
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
        raw
    } else {
        privacy::mask_png(&raw, &private.rects, private.scale)
            .map_err(|e| StepFailure::new(FailureCode::Protocol, e.to_string()))?
    };
    Ok(GroundingCapture { png, frame_sha256 })
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
    let reply = ctx
        .tab()?
        .session
        .call(
            "Page.captureScreenshot",
            json!({ "format": "png", "optimizeForSpeed": true }),
            COMMAND_BOUND,
            deadline,
        )
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
