//! Byte offsets ↔ editor positions (line, UTF-16 column), the one conversion every answer uses.
//!
//! `lang` speaks byte spans; the protocol speaks lines and UTF-16 code units by default. A
//! position past the end of its line is clamped to the line's end and a line past the end of the
//! text to the text's end, so a confused client never makes the server panic.

use line_index::{LineCol, LineIndex, WideEncoding, WideLineCol};
use text_size::TextSize;

/// A position as the protocol counts it: zero-based line, UTF-16 code units into the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Pos {
    /// Zero-based line.
    pub line: u32,
    /// UTF-16 code units from the start of the line.
    pub col: u32,
}

impl Pos {
    /// A position from its parts.
    pub fn new(line: u32, col: u32) -> Self {
        Pos { line, col }
    }
}

/// The line table of one text.
#[derive(Debug, Clone)]
pub struct Lines {
    index: LineIndex,
    len: usize,
}

impl Lines {
    /// Index `text`'s lines.
    pub fn new(text: &str) -> Self {
        Lines {
            index: LineIndex::new(text),
            len: text.len(),
        }
    }

    /// The byte offset of `pos`, clamped into the text (and onto its line).
    pub fn offset(&self, pos: Pos) -> usize {
        let Some(line) = self.index.line(pos.line) else {
            return self.len;
        };
        let line_end = usize::from(line.end());
        let line_start = usize::from(line.start());
        let wide = WideLineCol {
            line: pos.line,
            col: pos.col,
        };
        let col = self
            .index
            .to_utf8(WideEncoding::Utf16, wide)
            .map_or(line_end - line_start, |lc| lc.col as usize);
        // `LineIndex::line` includes the line break; only the last line has none.
        let content_end = if pos.line + 1 < self.count() {
            line_end - 1
        } else {
            line_end
        };
        (line_start + col).min(content_end)
    }

    /// The position of byte `offset` (clamped to the text's end).
    pub fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.len) as u32;
        let lc = self
            .index
            .try_line_col(TextSize::from(offset))
            .unwrap_or(LineCol { line: 0, col: 0 });
        match self.index.to_wide(WideEncoding::Utf16, lc) {
            Some(w) => Pos::new(w.line, w.col),
            None => Pos::new(lc.line, lc.col),
        }
    }

    /// The number of lines (a text without a final newline still has its last line).
    pub fn count(&self) -> u32 {
        self.index.line_col(TextSize::from(self.len as u32)).line + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_through_utf16() {
        let text = "a = \"é😀x\"\nsecond\n";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.pos(x), Pos::new(0, 8));
        assert_eq!(lines.offset(Pos::new(0, 8)), x);
        assert_eq!(lines.offset(Pos::new(1, 0)), text.find("second").unwrap());
    }

    #[test]
    fn positions_past_the_end_are_clamped() {
        let text = "ab\ncd";
        let lines = Lines::new(text);
        assert_eq!(lines.offset(Pos::new(0, 99)), 2);
        assert_eq!(lines.offset(Pos::new(1, 99)), 5);
        assert_eq!(lines.offset(Pos::new(9, 0)), 5);
        assert_eq!(lines.pos(99), Pos::new(1, 2));
    }
}
