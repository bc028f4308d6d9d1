//! What a snapshot expectation captures (`SurfaceContext::capture`, `docs/acl.md` §9.2): a PNG
//! of a page made still, with private regions and `mask` targets painted, or the accessibility
//! tree in the `accessibility` evidence shape. The runner compares and decides.
//!
//! Making the page still, as Playwright's `toHaveScreenshot` does: the caret is hidden (a
//! blinking caret alone would make two captures differ), web fonts are awaited
//! (`document.fonts.ready`), and with `animations = "disabled"` CSS transitions are turned off,
//! finite Web Animations (CSS animations included) are finished and infinite ones cancelled —
//! through the page's own `document.getAnimations()`, which covers CSS and script animations
//! alike where the CDP `Animation` domain would only pause them mid-frame. The one `<style>`
//! added for this is removed after the capture.

use crate::ax;
use crate::cdp::COMMAND_BOUND;
use crate::context::WebContext;
use crate::script;
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::privacy::{self, CssRect};
use a3s_test_driver::snapshot::{CaptureRequest, Captured, MASK_COLOUR};
use a3s_test_driver::{StepEnv, StepFailure};
use a3s_test_lang::ir::{Animations, Target, VisualExpectation};
use base64::Engine;
use serde_json::{json, Value};
use tokio::time::Instant;

/// The id of the style element that hides the caret (and stops transitions) during a capture.
const STILL_STYLE: &str = "__a3s_test_still";

/// Make the page still: `(disable_animations) => Promise<void>`.
const STILL_JS: &str = r#"async (disable) => {
  const id = "__a3s_test_still";
  if (!document.getElementById(id)) {
    const style = document.createElement("style");
    style.id = id;
    style.textContent = "*, *::before, *::after { caret-color: transparent !important; }" +
      (disable ? " *, *::before, *::after { transition: none !important; }" : "");
    (document.head || document.documentElement).appendChild(style);
  }
  if (disable && document.getAnimations) {
    for (const a of document.getAnimations()) {
      try {
        const end = a.effect && a.effect.getComputedTiming().endTime;
        if (end !== Infinity) a.finish(); else a.cancel();
      } catch (e) { a.cancel(); }
    }
  }
  if (document.fonts && document.fonts.ready) await document.fonts.ready;
}"#;

/// Capture what `request` asks for.
pub(crate) async fn capture(
    ctx: &mut WebContext,
    request: CaptureRequest<'_>,
    env: &StepEnv<'_>,
) -> Result<Captured, StepFailure> {
    ctx.tab()?.fail_if_dialog()?;
    match request {
        CaptureRequest::Screenshot(visual) => screenshot(ctx, visual, env.deadline)
            .await
            .map(Captured::Png),
        CaptureRequest::Aria { target } => {
            aria(ctx, target, env.deadline).await.map(Captured::Aria)
        }
    }
}

async fn screenshot(
    ctx: &WebContext,
    visual: &VisualExpectation,
    deadline: Instant,
) -> Result<Vec<u8>, StepFailure> {
    let disable = visual.animations == Animations::Disabled;
    let still = format!("({STILL_JS})({disable})");
    ctx.evaluate_json(&still, deadline.min(Instant::now() + COMMAND_BOUND))
        .await?;
    let shot = take(ctx, visual, deadline).await;
    let restore = format!("document.getElementById({STILL_STYLE:?})?.remove()");
    // Best effort: a page that navigated meanwhile has no style to remove.
    let _ = ctx
        .evaluate_json(&restore, deadline.min(Instant::now() + COMMAND_BOUND))
        .await;
    shot
}

/// One capture with the private regions and the `mask` targets painted.
async fn take(
    ctx: &WebContext,
    visual: &VisualExpectation,
    deadline: Instant,
) -> Result<Vec<u8>, StepFailure> {
    let tab = ctx.tab()?;
    let masks = mask_rects(ctx, &visual.mask, visual.full_page, deadline).await?;
    let mut params = json!({ "format": "png", "captureBeyondViewport": visual.full_page });
    if visual.full_page {
        let metrics = tab
            .session
            .call("Page.getLayoutMetrics", json!({}), COMMAND_BOUND, deadline)
            .await?;
        let size = |k: &str| {
            metrics
                .pointer(&format!("/cssContentSize/{k}"))
                .and_then(Value::as_f64)
        };
        let (Some(width), Some(height)) = (size("width"), size("height")) else {
            return Err(StepFailure::new(
                FailureCode::Protocol,
                "Page.getLayoutMetrics gave no content size for a full-page capture",
            ));
        };
        params["clip"] = json!({ "x": 0, "y": 0, "width": width, "height": height, "scale": 1 });
    }
    let shot = tab
        .session
        .call("Page.captureScreenshot", params, COMMAND_BOUND, deadline);
    let (reply, private) = futures_util::future::join(shot, ctx.private_nodes(deadline)).await;
    let (reply, private) = (reply?, private?);
    let data = reply.get("data").and_then(Value::as_str).unwrap_or("");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| {
            StepFailure::new(
                FailureCode::Protocol,
                format!("the screenshot was not valid base64: {e}"),
            )
        })?;
    let paint = |e: privacy::MaskError| StepFailure::new(FailureCode::Protocol, e.to_string());
    let mut private_rects = private.rects.clone();
    if visual.full_page {
        for r in &mut private_rects {
            r.x += masks.scroll.0;
            r.y += masks.scroll.1;
        }
    }
    let bytes = if private_rects.is_empty() {
        bytes
    } else {
        privacy::mask_png(&bytes, &private_rects, private.scale).map_err(paint)?
    };
    if masks.rects.is_empty() {
        return Ok(bytes);
    }
    privacy::paint_png(&bytes, &masks.rects, masks.scale, MASK_COLOUR).map_err(paint)
}

/// Where the `mask` targets are, and the scroll offset of the document.
struct Masks {
    rects: Vec<CssRect>,
    scale: f64,
    scroll: (f64, f64),
}

async fn mask_rects(
    ctx: &WebContext,
    targets: &[Target],
    page: bool,
    deadline: Instant,
) -> Result<Masks, StepFailure> {
    let tab = ctx.tab()?;
    let reply = script::call(
        tab,
        "mask_rects",
        json!({ "targets": targets, "page": page }),
        COMMAND_BOUND,
        deadline,
    )
    .await?;
    let rects: Vec<[f64; 4]> = serde_json::from_value(reply["rects"].clone()).unwrap_or_default();
    let scroll = if page {
        let s = ctx
            .evaluate_json("[window.scrollX, window.scrollY]", deadline)
            .await?;
        (s[0].as_f64().unwrap_or(0.0), s[1].as_f64().unwrap_or(0.0))
    } else {
        (0.0, 0.0)
    };
    Ok(Masks {
        rects: rects
            .into_iter()
            .map(|[x, y, width, height]| CssRect {
                x,
                y,
                width,
                height,
            })
            .collect(),
        scale: reply["scale"].as_f64().unwrap_or(1.0),
        scroll,
    })
}

/// The redacted accessibility tree (of `target`'s subtree when given), in the evidence shape.
async fn aria(
    ctx: &WebContext,
    target: Option<&Target>,
    deadline: Instant,
) -> Result<Value, StepFailure> {
    let root = match target {
        Some(t) => {
            let tab = ctx.tab()?;
            let object = script::element_object(tab, t, deadline, None)
                .await
                .map_err(|f| crate::target::name_target(f, t))?;
            script::backend_node_and_release(tab, &object, deadline).await?
        }
        None => None,
    };
    let reply = super::evidence::redacted_ax_tree(ctx, deadline).await?;
    Ok(ax::tree_json(&reply, root))
}
