//! The asciicast v2 recording of a terminal session: a header line, then one JSON array per
//! event, `[seconds, "o", text]` for output and `[seconds, "r", "COLSxROWS"]` for a resize —
//! the format `asciinema play` and its web player read.
//!
//! Output arrives in chunks that may split a UTF-8 sequence; [`Utf8Chunks`] keeps an incomplete
//! tail for the next chunk and turns invalid bytes into U+FFFD, so every event is valid JSON.
//! The recording is bounded: past `max_bytes` of event text it stops and says so
//! ([`Recording::truncated`]), however much the program writes.

use crate::size::TerminalSize;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Decodes a byte stream chunk by chunk into text, lossily.
#[derive(Debug, Default)]
pub(crate) struct Utf8Chunks {
    pending: Vec<u8>,
}

impl Utf8Chunks {
    /// The text of `bytes` after what was kept from the last chunk; an incomplete sequence at
    /// the end is kept (at most 3 bytes).
    pub(crate) fn decode(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut out = String::new();
        let mut rest: &[u8] = &self.pending;
        loop {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    out.push_str(text);
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                    match e.error_len() {
                        Some(bad) => {
                            out.push('\u{fffd}');
                            rest = &after[bad..];
                        }
                        None => {
                            rest = after;
                            break;
                        }
                    }
                }
            }
        }
        self.pending = rest.to_vec();
        out
    }
}

/// One recorded event.
#[derive(Debug, Clone, PartialEq)]
enum CastEvent {
    Output(Duration, String),
    Resize(Duration, TerminalSize),
}

/// The recording of one terminal session.
#[derive(Debug)]
pub struct Recording {
    size: TerminalSize,
    started: Instant,
    started_unix: u64,
    events: Vec<CastEvent>,
    bytes: usize,
    max_bytes: usize,
    truncated: bool,
    decoder: Utf8Chunks,
}

impl Recording {
    /// An empty recording of a terminal of `size`, keeping at most `max_bytes` of event text.
    pub(crate) fn new(size: TerminalSize, max_bytes: usize) -> Recording {
        Recording {
            size,
            started: Instant::now(),
            started_unix: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            events: Vec::new(),
            bytes: 0,
            max_bytes,
            truncated: false,
            decoder: Utf8Chunks::default(),
        }
    }

    fn room(&mut self, len: usize) -> bool {
        if self.truncated || self.bytes + len > self.max_bytes {
            self.truncated = true;
            return false;
        }
        self.bytes += len;
        true
    }

    /// Record output bytes.
    pub(crate) fn output(&mut self, bytes: &[u8]) {
        let text = self.decoder.decode(bytes);
        if text.is_empty() || !self.room(text.len()) {
            return;
        }
        self.events
            .push(CastEvent::Output(self.started.elapsed(), text));
    }

    /// Record a resize.
    pub(crate) fn resize(&mut self, size: TerminalSize) {
        if self.room(16) {
            self.events
                .push(CastEvent::Resize(self.started.elapsed(), size));
        }
    }

    /// Whether output was left out because the recording reached its bound.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// The recording as an asciicast v2 document (newline-delimited JSON).
    pub fn to_asciicast(&self) -> String {
        let header = serde_json::json!({
            "version": 2,
            "width": self.size.columns(),
            "height": self.size.rows(),
            "timestamp": self.started_unix,
            "env": { "TERM": crate::pty::TERM },
        });
        let mut out = header.to_string();
        out.push('\n');
        for event in &self.events {
            let line = match event {
                CastEvent::Output(at, text) => serde_json::json!([at.as_secs_f64(), "o", text]),
                CastEvent::Resize(at, size) => serde_json::json!([
                    at.as_secs_f64(),
                    "r",
                    format!("{}x{}", size.columns(), size.rows())
                ]),
            };
            out.push_str(&line.to_string());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sequence_split_across_chunks_is_kept_whole_and_bad_bytes_become_replacements() {
        let mut d = Utf8Chunks::default();
        let euro = "€".as_bytes();
        assert_eq!(d.decode(&euro[..1]), "");
        assert_eq!(d.decode(&euro[1..]), "€");
        assert_eq!(d.decode(b"a\xffb"), "a\u{fffd}b");
    }
}
