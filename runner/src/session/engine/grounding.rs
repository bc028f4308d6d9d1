//! The supervisor's grounding turns ([`crate::session::ground`]): the screenshot of the latest
//! open observation, and the page's hit test of a provider's points once the observation and
//! the pixels are proven unchanged. Neither acts on the page, and neither ends the observation:
//! a `@cN` they name is usable by the very next action.

use super::Engine;
use crate::session::code::{SessionCode, SessionError};
use crate::session::ground::{
    png_size, sha256_hex, GroundCapture, GroundHit, GroundHits, GroundMap, GroundShot, MAX_POINTS,
};
use crate::session::page_context::live::driver_error;
use a3s_test_driver::{AgentContext, AgentDriver, FailureCode, StepFailure};
use a3s_test_lang::ir::Target;
use base64::Engine as _;
use tokio::time::Instant;

/// A driver failure while grounding, in the session's words.
fn failed(what: &str, f: StepFailure) -> SessionError {
    driver_error(f.code, format!("{what}: {}", f.message))
}

impl<D: AgentDriver> Engine<D> {
    /// The latest observation, which must be open and (when `asked`) the one asked about:
    /// grounding advice is about one observation's page, like every ref.
    fn grounded_observation(&self, asked: Option<u64>) -> Result<u64, SessionError> {
        let stale = |m: String| SessionError::new(SessionCode::StaleRef, m);
        match (self.file.latest.as_ref(), asked) {
            (None, _) => Err(stale(
                "there is no observation to ground on; observe first".into(),
            )),
            (Some(l), Some(n)) if n != l.id => Err(stale(format!(
                "observation {n} is not the latest (that is {}); observe again",
                l.id
            ))),
            (Some(l), _) if !l.open => Err(stale(format!(
                "observation {} ended (an action ran since); observe again",
                l.id
            ))),
            (Some(l), _) => Ok(l.id),
        }
    }

    /// The viewport's screenshot, its digest and size, and image pixels per CSS pixel.
    async fn ground_screenshot(
        &self,
        deadline: Instant,
    ) -> Result<(Vec<u8>, String, (u32, u32), f64), SessionError> {
        let ctx = self.ctx()?;
        let (png, layout) = futures::future::join(
            ctx.screenshot_png(deadline),
            ctx.layout_facts(None, None, deadline),
        )
        .await;
        let png = png.map_err(|f| failed("the screenshot failed", f))?;
        let layout = layout.map_err(|f| failed("reading the viewport failed", f))?;
        let size = png_size(&png)
            .ok_or_else(|| driver_error(FailureCode::Protocol, "the screenshot is not a PNG"))?;
        let scale = if layout.viewport_width > 0.0 {
            f64::from(size.0) / layout.viewport_width
        } else {
            1.0
        };
        let digest = sha256_hex(&png);
        Ok((png, digest, size, scale))
    }

    /// `ground_capture`: the screenshot of the latest open observation.
    pub(super) async fn ground_capture(
        &mut self,
        capture: &GroundCapture,
    ) -> Result<GroundShot, SessionError> {
        let observation = self.grounded_observation(capture.observation)?;
        let deadline = self.turn_deadline();
        let (png, sha256, (width, height), scale) = self.ground_screenshot(deadline).await?;
        Ok(GroundShot {
            observation,
            png_base64: base64::engine::general_purpose::STANDARD.encode(&png),
            sha256,
            width,
            height,
            scale,
        })
    }

    /// `ground_map`: the observation still the latest and open, the page still showing the same
    /// pixels, then the `@cN` node on top at each point.
    pub(super) async fn ground_map(&mut self, map: &GroundMap) -> Result<GroundHits, SessionError> {
        if map.points.len() > MAX_POINTS {
            return Err(SessionError::new(
                SessionCode::InvalidInput,
                format!("at most {MAX_POINTS} points per grounding"),
            ));
        }
        self.grounded_observation(Some(map.observation))?;
        let deadline = self.turn_deadline();
        let (_, now, _, scale) = self.ground_screenshot(deadline).await?;
        if !now.eq_ignore_ascii_case(&map.sha256) {
            return Err(SessionError::new(
                SessionCode::ScreenshotChanged,
                format!(
                    "the page changed while the provider looked at it (screenshot {} then, {now} \
                     now): its boxes are about a picture the page no longer shows; ground again",
                    map.sha256
                ),
            ));
        }
        let crefs = self
            .file
            .page_context
            .as_ref()
            .map(|p| p.crefs.clone())
            .unwrap_or_default();
        // The refs whose node this supervisor still knows (the latest observation's).
        let known: Vec<(&crate::session::page_context::refs::CRefEntry, String)> = crefs
            .iter()
            .filter_map(|r| Some((r, self.node_ids.get(&r.fingerprint)?.clone())))
            .collect();
        let ids: Vec<String> = known.iter().map(|(_, id)| id.clone()).collect();
        let points: Vec<(f64, f64)> = map
            .points
            .iter()
            .map(|&(x, y)| (x / scale, y / scale))
            .collect();
        let hits = if ids.is_empty() {
            vec![None; points.len()]
        } else {
            self.ctx()?
                .page_context_hits(&ids, &points, deadline)
                .await
                .map_err(|f| failed("the page's hit test failed", f))?
        };
        let hits = hits
            .into_iter()
            .map(|hit| {
                let (entry, _) = known.get(hit?)?;
                Some(GroundHit {
                    reference: entry.reference.clone(),
                    role: entry.role.clone(),
                    name: entry.name.clone(),
                    locator: entry
                        .durable
                        .iter()
                        // A role without a name names no one element: not a locator.
                        .find(|t| {
                            !matches!(t, Target::Css { .. } | Target::Role { name: None, .. })
                        })
                        .cloned(),
                })
            })
            .collect();
        Ok(GroundHits { hits, scale })
    }
}
