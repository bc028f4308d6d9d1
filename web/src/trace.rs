//! The Web surface's half of a step trace (`run --trace`, `a3s_test_driver::trace`): the page
//! after a step — a scaled JPEG of the viewport (a masked PNG when the page shows private
//! elements), the operable-control snapshot an agent observation is built from — and the
//! console messages, page errors and requests recorded since the step's mark.
//!
//! Requests come from the same `Network.*` events every tab already listens to (a bounded
//! [`HarRecorder`] started by [`WebContext::start_trace`]), so tracing adds no CDP domain and no
//! command while a step runs; the capture after it costs a screenshot and a snapshot, and, when
//! it asks for bodies, one `Network.getResponseBody` per answer kept (`web/src/trace_bodies.rs`).

use crate::cdp::COMMAND_BOUND;
use crate::context::WebContext;
use crate::har::{BodyJob, HarRecorder};
use crate::screencast;
use crate::script;
use a3s_test_driver::privacy;
use a3s_test_driver::trace::{
    clip_chars, ImageFormat, PageFingerprint, StepCapture, TraceConsole, TraceImage, TraceMark,
    TracePageError, TraceWant, MAX_ENTRY_CHARS, MAX_STEP_ENTRIES,
};
use a3s_test_driver::trace_body::{self, BodyOmitted, TraceBody};
use a3s_test_driver::{AgentContext, StepFailure};
use base64::Engine;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::time::Instant;

/// Most requests one scenario's trace records.
const MAX_TRACE_REQUESTS: usize = 2_000;

/// JPEG quality of a trace screenshot: text stays legible at half the bytes of 80.
const JPEG_QUALITY: u32 = 55;

/// How long the capture waits for page events still in flight (the step's last console line).
const FLUSH_BOUND: Duration = Duration::from_millis(300);

impl WebContext {
    /// Start recording requests for a trace (idempotent), and the current tab's screencast
    /// when `frames` asks for one — in the background: its first frame comes with the first
    /// step's page.
    pub(crate) fn start_trace(&mut self, frames: Option<u32>) -> bool {
        let mut trace = self.shared.trace.lock().expect("trace lock");
        if trace.is_none() {
            *trace = Some(HarRecorder::bounded(MAX_TRACE_REQUESTS));
        }
        if let (Some(width), Ok(tab)) = (frames, self.tab()) {
            let (session, state) = (tab.session.clone(), tab.state.clone());
            tokio::spawn(async move {
                let deadline = Instant::now() + COMMAND_BOUND;
                let _ = screencast::start(&session, &state, width, deadline).await;
            });
        }
        true
    }

    /// Where the logs stand now.
    pub(crate) fn mark_trace(&self) -> TraceMark {
        TraceMark {
            console: self.shared.console.lock().expect("console lock").len(),
            page_errors: self
                .shared
                .page_errors
                .lock()
                .expect("page errors lock")
                .len(),
            requests: self
                .shared
                .trace
                .lock()
                .expect("trace lock")
                .as_ref()
                .map_or(0, HarRecorder::len),
        }
    }

    /// The capture after a step.
    pub(crate) async fn capture_trace(
        &mut self,
        since: TraceMark,
        want: TraceWant,
        deadline: Instant,
    ) -> StepCapture {
        // The step ended now: a screencast frame drawn from here on shows the page after it.
        let step_end = screencast::now_epoch();
        let mut phases = Phases::start();
        let mut capture = StepCapture {
            traced: true,
            ..StepCapture::default()
        };
        let flush_bound = deadline.min(Instant::now() + FLUSH_BOUND);
        let blocked = match (self.cdp.live().dead_reason(), self.tab()) {
            (Some(reason), _) => Some(format!("the browser is gone ({reason})")),
            (None, Err(f)) => Some(f.message),
            (None, Ok(tab)) if tab.dialog().is_some() => {
                Some("a JavaScript dialog blocks the page".to_string())
            }
            (None, Ok(_)) => None,
        };
        // The fingerprint is the first command after the step: its answer orders the step's
        // events as the flush's trivial evaluation would, so the flush needs no round trip of
        // its own. (A page that cannot be read gets the plain flush.)
        let hashed = match (
            want.page && want.fingerprint && blocked.is_none(),
            self.tab(),
        ) {
            (true, Ok(tab)) => {
                let hashed = self.page_fingerprint(deadline).await;
                match hashed {
                    Some(_) => tab.flush_received(flush_bound).await,
                    None => {
                        let _ = tab.flush_events(flush_bound).await;
                    }
                }
                hashed
            }
            (_, Ok(tab)) => {
                let _ = tab.flush_events(flush_bound).await;
                None
            }
            (_, Err(_)) => None,
        };
        phases.lap("fingerprint_flush");
        let jobs = self.logs_since(since, want.bodies, &mut capture);
        // The private elements were queried for the bodies and none is shown.
        let mut queried_public = false;
        if want.bodies {
            // A page that shows a private field may be sending its value: no body of the step
            // is kept then. The fingerprint's pass said whether one is shown; without it (a
            // page not fingerprinted) the private elements are queried, and a failed query
            // counts as showing one.
            let has_bodies = capture
                .network
                .iter()
                .any(|r| r.request_body.is_some() || r.response_body.is_some())
                || !jobs.is_empty();
            let private = match hashed {
                Some(h) => h.private,
                None if has_bodies => {
                    let none_shown = self
                        .private_nodes(deadline)
                        .await
                        .is_ok_and(|p| p.rects.is_empty());
                    // The screenshot below needs no second query for them.
                    queried_public = none_shown;
                    !none_shown
                }
                None => false,
            };
            if private {
                for job in &jobs {
                    if let Some(request) = capture.network.get_mut(job.index) {
                        request.response_body = Some(TraceBody::omitted(
                            &job.mime_type,
                            None,
                            BodyOmitted::PrivatePage,
                        ));
                    }
                }
                trace_body::withhold_all(&mut capture.network, BodyOmitted::PrivatePage);
            } else {
                self.trace_bodies(jobs, &mut capture, deadline).await;
            }
            phases.lap("bodies");
        }
        if !want.page {
            phases.print(&capture);
            return capture;
        }
        if let Some(reason) = blocked {
            capture.missing.push(format!("no page capture: {reason}"));
            return capture;
        }
        let fingerprint = hashed.map(|h| h.page);
        capture.fingerprint = fingerprint;
        capture.same_as_known = matches!(
            (fingerprint, want.known_page), (Some(now), Some(known)) if now == known
        );
        let page = TracedPage {
            step_end,
            fingerprint,
            // The fingerprint's pass (or the bodies' query) saw no private element: no query
            // for them.
            public: hashed.is_some_and(|h| !h.private) || queried_public,
            // The viewport measured by the fingerprint's pass clips only the image taken at once,
            // beside the outline read (an acting step's, below); a later screenshot measures
            // it again (a smooth scroll may still move the page meanwhile).
            view: hashed
                .and_then(|h| h.view)
                .filter(|_| hashed.is_some_and(|h| !h.private) && !want.read_only),
            read_only: want.read_only,
        };
        let known = capture.same_as_known;
        let outline = async {
            match known {
                true => None,
                false => Some(self.snapshot_controls(deadline).await),
            }
        };
        let image = async {
            match want.screenshot_width {
                Some(width) => Some(self.trace_screenshot(width, page, deadline).await),
                None => None,
            }
        };
        let (snapshot, shot) = if page.public && !page.read_only {
            // An acting step's image of a public page is a screenshot, which touches no object
            // group: it is taken while the outline is read.
            let both = tokio::join!(outline, image);
            phases.lap("outline_and_image");
            both
        } else {
            // One after the other: the outline and the private-element query read the page
            // through object groups the other's release would invalidate (Chromium answered
            // `Could not find object with given id`). The image comes last: the screencast's
            // frame of a read-only step is drawn meanwhile.
            let snapshot = outline.await;
            phases.lap("outline");
            let shot = image.await;
            phases.lap("image");
            (snapshot, shot)
        };
        match shot {
            Some(Ok(image)) => capture.screenshot = Some(image),
            Some(Err(f)) => capture
                .missing
                .push(format!("no screenshot: {}", f.message)),
            None => {}
        }
        match snapshot {
            Some(Ok(s)) => capture.snapshot = Some(s),
            Some(Err(f)) => capture.missing.push(format!("no outline: {}", f.message)),
            None => {}
        }
        phases.print(&capture);
        capture
    }

    /// The page's fingerprint and whether it shows a private element (`resolver.js`,
    /// `page_hash`: one call); `None` when the page could not be read — the outline is then
    /// read as usual, and the private elements queried.
    async fn page_fingerprint(&self, deadline: Instant) -> Option<Hashed> {
        let tab = self.tab().ok()?;
        let reply = script::call(tab, "page_hash", json!({}), COMMAND_BOUND, deadline)
            .await
            .ok()?;
        Some(Hashed {
            page: PageFingerprint::from_hex(reply.get("hash")?.as_str()?)?,
            // Absent or not a boolean: assume there is one (the query then decides).
            private: reply.get("private").and_then(Value::as_bool) != Some(false),
            view: reply.get("view").and_then(Viewport::from_json),
        })
    }

    /// Console messages, page errors and requests after `since` (a log cleared by a step
    /// starts over at 0); with `bodies`, the requests' sent bodies, and the answers whose
    /// bodies may be read (`web/src/trace_bodies.rs`).
    fn logs_since(
        &self,
        since: TraceMark,
        bodies: bool,
        capture: &mut StepCapture,
    ) -> Vec<BodyJob> {
        let from = |mark: usize, len: usize| if mark > len { 0 } else { mark };
        let console = self.shared.console.lock().expect("console lock");
        let later = &console[from(since.console, console.len())..];
        capture.dropped += later.len().saturating_sub(MAX_STEP_ENTRIES);
        capture.console = later
            .iter()
            .take(MAX_STEP_ENTRIES)
            .map(|m| TraceConsole {
                level: text_of(m, "type"),
                text: clip_chars(&text_of(m, "text"), MAX_ENTRY_CHARS),
            })
            .collect();
        drop(console);
        let errors = self.shared.page_errors.lock().expect("page errors lock");
        let later = &errors[from(since.page_errors, errors.len())..];
        capture.dropped += later.len().saturating_sub(MAX_STEP_ENTRIES);
        capture.page_errors = later
            .iter()
            .take(MAX_STEP_ENTRIES)
            .map(|e| TracePageError {
                message: clip_chars(&text_of(e, "message"), MAX_ENTRY_CHARS),
            })
            .collect();
        drop(errors);
        let recorder = self.shared.trace.lock().expect("trace lock");
        let Some(trace) = recorder.as_ref() else {
            return Vec::new();
        };
        let (requests, more, jobs) = trace.trace_requests(since.requests, MAX_STEP_ENTRIES, bodies);
        capture.network = requests;
        capture.dropped += more;
        if trace.dropped() > 0 {
            capture.missing.push(format!(
                "requests past the scenario's first {MAX_TRACE_REQUESTS} are not recorded"
            ));
        }
        jobs
    }

    /// The viewport scaled to at most `width` px wide, for the step that ended at `step_end`
    /// (epoch seconds) and left the page with fingerprint `page` (see [`TracedPage`]): the
    /// previous capture's image
    /// after a `read_only` step when the page is unchanged and nothing was drawn since; else
    /// the screencast's frame drawn after the step when one comes within
    /// [`screencast::FRESH_FRAME_BOUND`]; else a screenshot — JPEG, or a PNG with every private
    /// element painted over (`a3s_test_driver::privacy`; a screenshot that cannot be masked is
    /// not returned, and a page that shows private elements is never taken from the unmasked
    /// screencast).
    async fn trace_screenshot(
        &self,
        width: u32,
        traced: TracedPage,
        deadline: Instant,
    ) -> Result<TraceImage, StepFailure> {
        let tab = self.tab()?;
        let page = traced.fingerprint;
        let private = match traced.public {
            true => privacy::PrivateNodes::default(),
            false => self.private_nodes(deadline).await?,
        };
        let image = match private.rects.is_empty() {
            true => self.frame_of_step(width, traced, deadline).await,
            false => None,
        };
        let image = match image {
            Some(image) => image?,
            // A masked image clips to the viewport measured with the private elements' boxes.
            None if !private.rects.is_empty() => {
                self.screenshot(width, private, None, deadline).await?
            }
            None => {
                self.screenshot(width, private, traced.view, deadline)
                    .await?
            }
        };
        *tab.state.last_shot.lock().expect("last shot lock") =
            page.map(|page| screencast::LastShot {
                page,
                newest_frame: screencast::newest_frame(tab),
                image: image.clone(),
            });
        Ok(image)
    }

    /// The image of a read-only step from the screencast (see [`WebContext::trace_screenshot`]),
    /// or the screenshot taken when no frame drawn after the step came first; `None` when the
    /// step acted on the page or the tab has no screencast (it is started for the next steps):
    /// the caller takes a screenshot.
    async fn frame_of_step(
        &self,
        width: u32,
        traced: TracedPage,
        deadline: Instant,
    ) -> Option<Result<TraceImage, StepFailure>> {
        let TracedPage {
            step_end,
            fingerprint: page,
            read_only,
            ..
        } = traced;
        let tab = self.tab().ok()?;
        if !tab.state.screencast_started.load(Ordering::SeqCst) {
            // A tab whose screencast cannot start is photographed every time.
            let _ = screencast::start(&tab.session, &tab.state, width, deadline).await;
            return None;
        }
        if read_only {
            let last = tab.state.last_shot.lock().expect("last shot lock").clone();
            if let (Some(last), Some(now)) = (last, page) {
                let drawn = screencast::newest_frame(tab);
                if last.page == now
                    && drawn.map(f64::to_bits) == last.newest_frame.map(f64::to_bits)
                {
                    crate::cdp::trace_mark(|| "trace image: the last one (page unchanged)".into());
                    a3s_test_driver::trace::timing(|| {
                        "image: the last one (page unchanged)".into()
                    });
                    return Some(Ok(last.image));
                }
            }
        }
        if !read_only {
            // A step that acted on the page is photographed: a screencast frame's timestamp is
            // not proof that the frame was drawn after the step (under load a frame drawn before
            // a click's change passed for the click's image), and the trace is evidence.
            return None;
        }
        let waited = Instant::now();
        let head = deadline.min(waited + screencast::FRAME_HEAD_START);
        let bound = deadline.min(waited + screencast::FRESH_FRAME_BOUND);
        // Most frames of a step come within a few ms; past the head start a screenshot is
        // taken, and a frame drawn after the step that arrives before it still wins.
        let frame = match screencast::frame_after(tab, step_end, head).await {
            Some(frame) => Ok(frame),
            None => tokio::select! {
                biased;
                Some(frame) = screencast::frame_after(tab, step_end, bound) => Ok(frame),
                shot = self.screenshot(width, privacy::PrivateNodes::default(), traced.view, deadline) => Err(shot),
            },
        };
        let said = || {
            let ms = waited.elapsed().as_secs_f64() * 1000.0;
            match &frame {
                Ok(_) => format!("image: a frame after waiting {ms:.1} ms"),
                Err(_) => format!("image: no frame in {ms:.1} ms, a screenshot"),
            }
        };
        crate::cdp::trace_mark(|| format!("trace {}", said()));
        a3s_test_driver::trace::timing(said);
        Some(match frame {
            Ok(frame) => Ok(TraceImage {
                format: ImageFormat::Jpeg,
                bytes: frame.jpeg.clone(),
                width: frame.size.0,
                height: frame.size.1,
                scale: frame.size.0 as f64 / frame.viewport.0.max(1.0),
            }),
            Err(shot) => shot,
        })
    }

    /// One screenshot of the viewport, `width` px wide at most: JPEG, or a PNG with the
    /// `private` elements painted over. It clips to `view` when the fingerprint's pass measured
    /// it, else to the viewport `Page.getLayoutMetrics` reports now.
    async fn screenshot(
        &self,
        width: u32,
        private: privacy::PrivateNodes,
        view: Option<Viewport>,
        deadline: Instant,
    ) -> Result<TraceImage, StepFailure> {
        let tab = self.tab()?;
        let view = match view {
            Some(view) => view,
            None => self.layout_viewport(deadline).await?,
        };
        let (vw, vh) = (view.width, view.height);
        let scale = (width as f64 / vw).min(1.0);
        let format = if private.rects.is_empty() {
            ImageFormat::Jpeg
        } else {
            ImageFormat::Png
        };
        let mut params = json!({
            "format": format.extension(),
            "clip": {
                "x": view.x,
                "y": view.y,
                "width": vw,
                "height": vh,
                "scale": scale,
            },
        });
        if format == ImageFormat::Jpeg {
            params["quality"] = json!(JPEG_QUALITY);
            // Chromium's faster encoder: a trace screenshot is evidence, not a golden image.
            params["optimizeForSpeed"] = json!(true);
        }
        let reply = tab
            .session
            .call("Page.captureScreenshot", params, COMMAND_BOUND, deadline)
            .await?;
        let data = reply.get("data").and_then(Value::as_str).unwrap_or("");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| {
                StepFailure::new(
                    a3s_test_driver::FailureCode::Protocol,
                    format!("the screenshot was not valid base64: {e}"),
                )
            })?;
        let bytes = if private.rects.is_empty() {
            bytes
        } else {
            privacy::mask_png(&bytes, &private.rects, private.scale * scale).map_err(|e| {
                StepFailure::new(a3s_test_driver::FailureCode::Protocol, e.to_string())
            })?
        };
        let pixels = private.scale.max(1.0) * scale;
        Ok(TraceImage {
            format,
            bytes,
            width: (vw * pixels).round() as u32,
            height: (vh * pixels).round() as u32,
            scale: pixels,
        })
    }
}

impl WebContext {
    /// The visible part of the page now (`Page.getLayoutMetrics`), the emulated viewport's
    /// size where Chromium names none.
    async fn layout_viewport(&self, deadline: Instant) -> Result<Viewport, StepFailure> {
        let metrics = self
            .tab()?
            .session
            .call("Page.getLayoutMetrics", json!({}), COMMAND_BOUND, deadline)
            .await?;
        let view = metrics.get("cssVisualViewport").unwrap_or(&Value::Null);
        let num = |k: &str| view.get(k).and_then(Value::as_f64);
        Ok(Viewport {
            x: num("pageX").unwrap_or(0.0),
            y: num("pageY").unwrap_or(0.0),
            width: num("clientWidth")
                .unwrap_or(self.viewport.0 as f64)
                .max(1.0),
            height: num("clientHeight")
                .unwrap_or(self.viewport.1 as f64)
                .max(1.0),
        })
    }
}

/// The page's fingerprint, and whether its pass saw a private element.
#[derive(Debug, Clone, Copy)]
struct Hashed {
    page: PageFingerprint,
    private: bool,
    /// The visible part of the page in the same pass.
    view: Option<Viewport>,
}

/// The visible part of a page, CSS px: the clip of a trace screenshot.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Viewport {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
}

impl Viewport {
    /// The resolver's `view` (`window.visualViewport`); `None` unless every number is finite
    /// and the size is positive (the screenshot then measures the viewport itself).
    fn from_json(view: &Value) -> Option<Viewport> {
        let num = |k: &str| {
            view.get(k)
                .and_then(Value::as_f64)
                .filter(|n| n.is_finite())
        };
        let view = Viewport {
            x: num("x")?,
            y: num("y")?,
            width: num("width")?,
            height: num("height")?,
        };
        (view.width > 0.0 && view.height > 0.0).then_some(view)
    }
}

/// What the image of a step is chosen by.
#[derive(Debug, Clone, Copy)]
struct TracedPage {
    /// When the step ended, epoch seconds (the screencast's clock).
    step_end: f64,
    /// The page's fingerprint after it, when taken.
    fingerprint: Option<PageFingerprint>,
    /// True when the fingerprint's pass saw no private element (no query for them is needed).
    public: bool,
    /// The visible part of the page the fingerprint's pass measured.
    view: Option<Viewport>,
    /// The step only read the page.
    read_only: bool,
}

/// Where one capture's time went, printed under `A3S_TEST_TRACE_TIMING=1`
/// (`a3s_test_driver::trace::timing`).
struct Phases {
    at: Option<std::time::Instant>,
    laps: Vec<(&'static str, f64)>,
}

impl Phases {
    fn start() -> Phases {
        Phases {
            at: a3s_test_driver::trace::timing_enabled().then(std::time::Instant::now),
            laps: Vec::new(),
        }
    }

    fn lap(&mut self, what: &'static str) {
        if let Some(at) = self.at {
            let now = std::time::Instant::now();
            self.laps.push((what, (now - at).as_secs_f64() * 1000.0));
            self.at = Some(now);
        }
    }

    fn print(&self, capture: &StepCapture) {
        a3s_test_driver::trace::timing(|| {
            let laps: Vec<String> = self
                .laps
                .iter()
                .map(|(what, ms)| format!("{what} {ms:.1}"))
                .collect();
            format!(
                "capture ms: {}{}",
                laps.join(", "),
                if capture.same_as_known {
                    " (outline reused)"
                } else {
                    ""
                }
            )
        });
    }
}

fn text_of(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::Viewport;
    use serde_json::json;

    #[test]
    fn a_viewport_is_taken_only_when_every_number_is_usable() {
        let view = json!({ "x": 0, "y": 120.5, "width": 1280, "height": 720 });
        assert_eq!(
            Viewport::from_json(&view),
            Some(Viewport {
                x: 0.0,
                y: 120.5,
                width: 1280.0,
                height: 720.0
            })
        );
        for bad in [
            json!(null),
            json!({ "x": 0, "y": 0, "width": 0, "height": 720 }),
            json!({ "x": 0, "y": 0, "width": 1280 }),
            json!({ "x": "0", "y": 0, "width": 1280, "height": 720 }),
        ] {
            assert_eq!(Viewport::from_json(&bad), None, "{bad}");
        }
    }
}
