//! A tab's screencast (`Page.startScreencast`) for step traces: Chromium encodes a scaled JPEG
//! of each frame it draws, off the step's path, and the newest one is kept here.
//!
//! Why: a `Page.captureScreenshot` after every step made Chromium draw and encode a frame on
//! demand (30–40 ms a step, the most of `--trace on`'s cost). A screencast frame is already
//! encoded when the step ends; the capture only has to prove that the frame it takes was drawn
//! after the step (the frame's own timestamp against the step's end), and falls back to one
//! screenshot when no such frame arrived within a small bound (`web/src/trace.rs`).
//!
//! Every frame is acknowledged at once (Chromium sends the next one only then); a frame that
//! is not valid base64 JPEG is dropped, never trusted.

use crate::cdp::{Session, COMMAND_BOUND};
use crate::tab::{Tab, TabState};
use a3s_test_driver::trace::{PageFingerprint, TraceImage};
use a3s_test_driver::StepFailure;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::time::Instant;

/// The event a screencast sends per frame.
pub(crate) const FRAME_EVENT: &str = "Page.screencastFrame";

/// JPEG quality of screencast frames (the trace screenshot's: legible text at few bytes).
const QUALITY: u32 = 55;

/// One frame of the screencast.
#[derive(Debug)]
pub(crate) struct Frame {
    /// The JPEG.
    pub jpeg: Vec<u8>,
    /// Its width and height in pixels (read from the JPEG itself).
    pub size: (u32, u32),
    /// When Chromium drew it, seconds since the Unix epoch (`metadata.timestamp`).
    pub drawn_at: f64,
    /// The viewport it shows, CSS px (`metadata.deviceWidth`, `deviceHeight`).
    pub viewport: (f64, f64),
}

/// The image the last capture of a tab handed back, with what the page was then: a capture
/// after a step that only read the page reuses it when both are unchanged.
#[derive(Debug, Clone)]
pub(crate) struct LastShot {
    /// The page's fingerprint at that capture.
    pub page: PageFingerprint,
    /// When the newest frame then was drawn (`None`: no frame yet).
    pub newest_frame: Option<f64>,
    /// The image.
    pub image: TraceImage,
}

/// When the newest frame of `tab` was drawn.
pub(crate) fn newest_frame(tab: &Tab) -> Option<f64> {
    tab.state.frame.borrow().as_ref().map(|f| f.drawn_at)
}

/// Seconds since the Unix epoch now, on the clock frame timestamps use.
pub(crate) fn now_epoch() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Start `tab`'s screencast (once per tab), frames at most `width` px wide.
pub(crate) async fn start(
    session: &Session,
    state: &TabState,
    width: u32,
    deadline: Instant,
) -> Result<(), StepFailure> {
    if state
        .screencast_started
        .swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        return Ok(());
    }
    let params = json!({
        "format": "jpeg",
        "quality": QUALITY,
        "maxWidth": width,
        // The width is the bound that matters; a tall viewport keeps its proportions.
        "maxHeight": width.saturating_mul(4),
        "everyNthFrame": 1,
    });
    let started = session
        .call("Page.startScreencast", params, COMMAND_BOUND, deadline)
        .await;
    if started.is_err() {
        state
            .screencast_started
            .store(false, std::sync::atomic::Ordering::SeqCst);
    }
    started.map(|_| ())
}

/// Record one `Page.screencastFrame` event and acknowledge it.
pub(crate) fn on_frame(params: &Value, session: &Session, state: &TabState) {
    if let Some(id) = params.get("sessionId").and_then(Value::as_i64) {
        let session = session.clone();
        tokio::spawn(async move {
            let deadline = Instant::now() + COMMAND_BOUND;
            let ack = json!({ "sessionId": id });
            let _ = session
                .call("Page.screencastFrameAck", ack, COMMAND_BOUND, deadline)
                .await;
        });
    }
    if let Some(frame) = decode(params) {
        crate::cdp::trace_mark(|| {
            format!(
                "screencast frame drawn {:.1} ms ago",
                (now_epoch() - frame.drawn_at) * 1000.0
            )
        });
        state.frame.send_replace(Some(Arc::new(frame)));
    }
}

/// The frame of an event, when it is a well-formed JPEG with a timestamp.
fn decode(params: &Value) -> Option<Frame> {
    use base64::Engine;
    let data = params.get("data")?.as_str()?;
    let jpeg = base64::engine::general_purpose::STANDARD
        .decode(data)
        .ok()?;
    let size = jpeg_size(&jpeg)?;
    let meta = params.get("metadata")?;
    let num = |k: &str| meta.get(k).and_then(Value::as_f64);
    Some(Frame {
        size,
        drawn_at: num("timestamp")?,
        viewport: (num("deviceWidth")?, num("deviceHeight")?),
        jpeg,
    })
}

/// The newest frame drawn at or after `after` (epoch seconds), waiting for one at most until
/// `bound`; `None` when none came.
pub(crate) async fn frame_after(tab: &Tab, after: f64, bound: Instant) -> Option<Arc<Frame>> {
    let mut frames = tab.state.frame.subscribe();
    let fresh = |f: &Option<Arc<Frame>>| f.as_ref().is_some_and(|f| f.drawn_at >= after);
    let got = tokio::time::timeout_at(bound, frames.wait_for(fresh)).await;
    match got {
        Ok(Ok(frame)) => frame.clone(),
        _ => None,
    }
}

/// Width and height of a baseline or progressive JPEG, read from its first start-of-frame
/// marker; `None` for anything else (a truncated or foreign file is never trusted).
pub(crate) fn jpeg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..2)? != [0xFF, 0xD8] {
        return None;
    }
    let mut at = 2;
    loop {
        // Markers may be padded with any number of 0xFF bytes.
        while *bytes.get(at)? == 0xFF && *bytes.get(at + 1)? == 0xFF {
            at += 1;
        }
        if *bytes.get(at)? != 0xFF {
            return None;
        }
        let marker = *bytes.get(at + 1)?;
        let len = u16::from_be_bytes([*bytes.get(at + 2)?, *bytes.get(at + 3)?]) as usize;
        if len < 2 {
            return None;
        }
        // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
        if (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            let h = u16::from_be_bytes([*bytes.get(at + 5)?, *bytes.get(at + 6)?]);
            let w = u16::from_be_bytes([*bytes.get(at + 7)?, *bytes.get(at + 8)?]);
            return (w > 0 && h > 0).then_some((w as u32, h as u32));
        }
        if marker == 0xD9 || marker == 0xDA {
            return None;
        }
        at = at.checked_add(2 + len)?;
    }
}

/// How long a capture waits for a frame drawn after its step at most: Chromium draws a
/// changed page within a frame or two (16–33 ms) and encodes it at once.
pub(crate) const FRESH_FRAME_BOUND: Duration = Duration::from_millis(60);

/// How long a capture waits for such a frame alone before it also takes a screenshot (the
/// first of the two wins): a step whose page was drawn before it ended gets no new frame,
/// and waiting the whole [`FRESH_FRAME_BOUND`] for it cost as much as the screenshot. Frames
/// of a changed page came within 1.4 ms (median) and 20 ms (90th percentile) at load 15–20.
pub(crate) const FRAME_HEAD_START: Duration = Duration::from_millis(20);

#[cfg(test)]
mod tests {
    use super::jpeg_size;
    use proptest::prelude::*;

    /// The smallest JPEG header that names a size: SOI, an APP0 segment, SOF0.
    fn header(w: u16, h: u16) -> Vec<u8> {
        let mut b = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00];
        b.extend([0xFF, 0xC0, 0x00, 0x0B, 0x08]);
        b.extend(h.to_be_bytes());
        b.extend(w.to_be_bytes());
        b.extend([0x01, 0x01, 0x11, 0x00]);
        b
    }

    #[test]
    fn the_size_is_read_from_the_start_of_frame() {
        assert_eq!(jpeg_size(&header(640, 360)), Some((640, 360)));
        assert_eq!(jpeg_size(&header(0, 360)), None);
        assert_eq!(jpeg_size(b"\x89PNG\r\n\x1a\n"), None);
        assert_eq!(jpeg_size(&header(640, 360)[..12]), None);
    }

    proptest! {
        /// Any bytes: a size or `None`, never a panic or an endless loop.
        #[test]
        fn any_bytes_are_read_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = jpeg_size(&bytes);
            let mut jpeg = vec![0xFF, 0xD8];
            jpeg.extend(&bytes);
            let _ = jpeg_size(&jpeg);
        }

        /// A header written with a size reads back as that size, whatever follows it.
        #[test]
        fn a_written_size_reads_back(w in 1u16.., h in 1u16.., tail in proptest::collection::vec(any::<u8>(), 0..16)) {
            let mut jpeg = header(w, h);
            jpeg.extend(tail);
            prop_assert_eq!(jpeg_size(&jpeg), Some((w as u32, h as u32)));
        }
    }
}
