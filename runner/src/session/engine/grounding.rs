//! The supervisor's grounding turns ([`crate::session::ground`]): the screenshot of the latest
//! open observation, and the page's hit test of a provider's points once the observation and
//! the pixels are proven unchanged. Neither acts on the page, and neither ends the observation:
//! a `@cN` they name is usable by the very next action.

use super::Engine;
use crate::session::code::{SessionCode, SessionError};
use crate::session::ground::{
    png_size, sha256_hex, GroundCapture, GroundHit, GroundHits, GroundMap, GroundShot, MAX_POINTS,
};
use crate::session::ground_proof::{self, Compared, GroundProof, Pixels};
use crate::session::page_context::live::driver_error;
use a3s_test_driver::{AgentContext, AgentDriver, FailureCode, StepFailure};
use a3s_test_lang::ir::Target;
use base64::Engine as _;
use futures::FutureExt as _;
use std::sync::{Arc, OnceLock};

/// What the supervisor remembers of the screenshot it last took for grounding.
#[derive(Debug, Clone)]
pub(super) struct GroundFrame {
    /// The observation it was taken for.
    observation: u64,
    /// SHA-256 of the PNG sent (masked), lowercase hex.
    sha256: String,
    /// SHA-256 of the browser's unmasked encoding of the same frame.
    frame_sha256: String,
    /// Image pixels per CSS pixel.
    scale: f64,
    /// The image's width and height.
    size: (u32, u32),
    /// The unmasked frame, decoded once — started on a blocking thread when the screenshot is
    /// answered, so the decode overlaps the provider's work.
    pixels: Decoded,
}

/// A frame's pixels, decoded at most once by whoever asks first.
#[derive(Debug, Clone)]
struct Decoded {
    png: Arc<Vec<u8>>,
    cell: Arc<OnceLock<Result<Arc<Pixels>, String>>>,
}

impl Decoded {
    fn new(png: Vec<u8>) -> Decoded {
        Decoded {
            png: Arc::new(png),
            cell: Arc::new(OnceLock::new()),
        }
    }

    /// Decode now (blocking) or wait for the decode under way.
    fn get(&self) -> Result<Arc<Pixels>, String> {
        self.cell
            .get_or_init(|| ground_proof::decode(&self.png).map(Arc::new))
            .clone()
    }

    /// [`Self::get`] on a blocking thread.
    async fn pixels(&self) -> Result<Arc<Pixels>, String> {
        let me = self.clone();
        tokio::task::spawn_blocking(move || me.get())
            .await
            .unwrap_or_else(|e| Err(format!("decoding the screenshot failed: {e}")))
    }
}

/// A ref of the latest observation a box may land on, and how the page names its node.
struct Candidate {
    reference: String,
    role: String,
    name: String,
    durable: Vec<Target>,
    node: Node,
}

/// The node behind a [`Candidate`].
enum Node {
    /// A Test Kit node id (a `@cN`).
    PageContext(String),
    /// A backend DOM node id (an `@eN`, on a page without the Test Kit).
    Backend(i64),
}

/// `test.session.screenshot_changed`: the provider's boxes are about pixels the page no longer
/// shows (or that this session did not take).
fn changed(message: String) -> SessionError {
    SessionError::new(SessionCode::ScreenshotChanged, message)
}

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

    /// `ground_capture`: the screenshot of the latest open observation, remembered (with its
    /// unmasked frame digest) for the check after the provider's answer.
    pub(super) async fn ground_capture(
        &mut self,
        capture: &GroundCapture,
    ) -> Result<GroundShot, SessionError> {
        let observation = self.grounded_observation(capture.observation)?;
        let deadline = self.turn_deadline();
        let ctx = self.ctx()?;
        let (shot, layout) = futures::future::join(
            ctx.grounding_capture(deadline),
            ctx.layout_facts(None, None, deadline),
        )
        .await;
        let shot = shot.map_err(|f| failed("the screenshot failed", f))?;
        let layout = layout.map_err(|f| failed("reading the viewport failed", f))?;
        let (width, height) = png_size(&shot.png)
            .ok_or_else(|| driver_error(FailureCode::Protocol, "the screenshot is not a PNG"))?;
        let scale = if layout.viewport_width > 0.0 {
            f64::from(width) / layout.viewport_width
        } else {
            1.0
        };
        let sha256 = sha256_hex(&shot.png);
        let pixels = Decoded::new(shot.frame_png);
        let early = pixels.clone();
        // Decoded while the provider looks; the check turn waits for it (or decodes itself).
        drop(tokio::task::spawn_blocking(move || early.get()));
        self.ground_frame = Some(GroundFrame {
            observation,
            sha256: sha256.clone(),
            frame_sha256: shot.frame_sha256,
            scale,
            size: (width, height),
            pixels,
        });
        Ok(GroundShot {
            observation,
            png_base64: base64::engine::general_purpose::STANDARD.encode(&shot.png),
            sha256,
            width,
            height,
            scale,
        })
    }

    /// `ground_map`: the observation still the latest and open, the screenshot the one this
    /// supervisor took for it, the page still showing the same frame, then the `@cN` node on top
    /// at each point — or, on a page without the Test Kit's nodes, the `@eN` control. The frame and the hit test are read together: one capture is the whole
    /// cost of the proof.
    pub(super) async fn ground_map(&mut self, map: &GroundMap) -> Result<GroundHits, SessionError> {
        if map.points.len() > MAX_POINTS {
            return Err(SessionError::new(
                SessionCode::InvalidInput,
                format!("at most {MAX_POINTS} points per grounding"),
            ));
        }
        self.grounded_observation(Some(map.observation))?;
        let frame = match &self.ground_frame {
            Some(f)
                if f.observation == map.observation
                    && f.sha256.eq_ignore_ascii_case(&map.sha256) =>
            {
                f.clone()
            }
            _ => {
                return Err(changed(format!(
                    "screenshot {} is not the one this session last took of observation {}: its \
                     boxes are about a picture the page may no longer show; ground again",
                    map.sha256, map.observation
                )))
            }
        };
        let deadline = self.turn_deadline();
        let scale = frame.scale;
        let crefs = self
            .file
            .page_context
            .as_ref()
            .map(|p| p.crefs.clone())
            .unwrap_or_default();
        // The `@cN` refs whose node this supervisor still knows (the latest observation's); on a
        // page without them (no Test Kit bridge), the observation's `@eN` controls.
        let known: Vec<Candidate> = crefs
            .iter()
            .filter_map(|r| {
                let id = self.node_ids.get(&r.fingerprint)?.clone();
                Some(Candidate {
                    reference: r.reference.clone(),
                    role: r.role.clone(),
                    name: r.name.clone(),
                    durable: r.durable.clone(),
                    node: Node::PageContext(id),
                })
            })
            .collect();
        let known = if known.is_empty() {
            self.file
                .refs
                .iter()
                .map(|e| Candidate {
                    reference: e.reference.clone(),
                    role: e.role.clone(),
                    name: e.name.clone(),
                    durable: e.durable.clone(),
                    node: Node::Backend(e.backend_node_id),
                })
                .collect()
        } else {
            known
        };
        let points: Vec<(f64, f64)> = map
            .points
            .iter()
            .map(|&(x, y)| (x / scale, y / scale))
            .collect();
        let ctx = self.ctx()?;
        let hit_test = async {
            let ids: Vec<String> = known
                .iter()
                .filter_map(|c| match &c.node {
                    Node::PageContext(id) => Some(id.clone()),
                    Node::Backend(_) => None,
                })
                .collect();
            let backend: Vec<i64> = known
                .iter()
                .filter_map(|c| match c.node {
                    Node::Backend(id) => Some(id),
                    Node::PageContext(_) => None,
                })
                .collect();
            if !ids.is_empty() {
                ctx.page_context_hits(&ids, &points, deadline).await
            } else if !backend.is_empty() {
                ctx.backend_node_hits(&backend, &points, deadline).await
            } else {
                Ok(vec![None; points.len()])
            }
        };
        let region = ground_proof::region_of(&map.boxes, &map.points, frame.size.0, frame.size.1);
        let began = std::time::Instant::now();
        let (proof, hits) = futures::future::join(
            prove(ctx, &frame, region, deadline).inspect(move |_| lap("proof", began)),
            hit_test.inspect(move |_| lap("hit test", began)),
        )
        .await;
        let proof = match proof? {
            Ok(proof) => proof,
            Err(area) => {
                let place = match area {
                    GroundProof::Region {
                        x,
                        y,
                        width,
                        height,
                    } => format!(
                        "in the region of the answer's boxes, {width}×{height} image pixels at \
                         ({x}, {y})"
                    ),
                    GroundProof::Viewport => "in the viewport (an answer that names no place is \
                                              about the whole picture)"
                        .to_string(),
                };
                return Err(changed(format!(
                    "the page changed while the provider looked at it (screenshot {} no longer \
                     matches it {place}): the answer is about a picture the page no longer \
                     shows; ground again",
                    map.sha256
                )));
            }
        };
        let hits = hits.map_err(|f| failed("the page's hit test failed", f))?;
        let hits = hits
            .into_iter()
            .map(|hit| {
                let entry = known.get(hit?)?;
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
        Ok(GroundHits {
            hits,
            scale,
            proof: Some(proof),
        })
    }
}

/// Under `A3S_TEST_GROUND_TIMING=1`, when a part of the check turn ended.
fn lap(what: &str, began: std::time::Instant) {
    if crate::session::ground::timing_enabled() {
        let ms = began.elapsed().as_secs_f64() * 1000.0;
        eprintln!("ground_map: {what} done after {ms:.2} ms");
    }
}

/// Prove that the page still shows `frame`'s pixels in `region` (a clipped capture compared
/// with the decoded frame), or everywhere when there is no region or the clip cannot be
/// compared (a fresh capture of the viewport, its digest against the frame's). `Err(area)`: the
/// pixels changed there.
async fn prove<C: AgentContext>(
    ctx: &C,
    frame: &GroundFrame,
    region: Option<a3s_test_driver::PixelRegion>,
    deadline: tokio::time::Instant,
) -> Result<Result<GroundProof, GroundProof>, SessionError> {
    if let Some(region) = region {
        let began = std::time::Instant::now();
        let (clip, pixels) = futures::future::join(
            ctx.frame_region(region, frame.scale, deadline)
                .inspect(move |_| lap("clipped capture", began)),
            frame
                .pixels
                .pixels()
                .inspect(move |_| lap("frame decoded", began)),
        )
        .await;
        let clip = clip.map_err(|f| failed("the screenshot failed", f))?;
        let decoding = std::time::Instant::now();
        if let Some(clip) = clip {
            let pixels = pixels
                .map_err(|e| driver_error(FailureCode::Protocol, format!("the screenshot: {e}")))?;
            let clip = ground_proof::decode(&clip).map_err(|e| {
                driver_error(
                    FailureCode::Protocol,
                    format!("the clipped screenshot: {e}"),
                )
            })?;
            let compared = ground_proof::compare(&pixels, region, &clip);
            if crate::session::ground::timing_enabled() {
                let ms = decoding.elapsed().as_secs_f64() * 1000.0;
                eprintln!("ground_map: clip of {region:?} decoded and compared in {ms:.2} ms");
            }
            match compared {
                Compared::Same => return Ok(Ok(region.into())),
                Compared::Changed => return Ok(Err(region.into())),
                Compared::NotComparable => {}
            }
        }
    }
    let now = ctx
        .frame_digest(deadline)
        .await
        .map_err(|f| failed("the screenshot failed", f))?;
    Ok(if now == frame.frame_sha256 {
        Ok(GroundProof::Viewport)
    } else {
        Err(GroundProof::Viewport)
    })
}
