//! Byte spans into one source file, shared by tokens, AST nodes, IR steps and diagnostics.
//!
//! One span type everywhere means a diagnostic can point at any node without conversion, and the
//! renderers (ariadne, JSON, GitHub) agree on exactly which bytes are meant.

use serde::{Deserialize, Serialize};

/// A half-open byte range `start..end` into the source text of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (swapped if given backwards, so it is never inverted).
    pub fn new(start: usize, end: usize) -> Self {
        if start <= end {
            Self { start, end }
        } else {
            Self {
                start: end,
                end: start,
            }
        }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The byte range, for slicing the source.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(r: std::ops::Range<usize>) -> Self {
        Span::new(r.start, r.end)
    }
}

/// Line and column (both 1-based, column counted in characters) of a byte offset.
///
/// Why characters and not bytes: editors and CI annotation formats count columns in characters,
/// and a diagnostic after a non-ASCII string must still land on the right caret.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let mut line = 1;
    let mut line_start = 0;
    for (i, b) in source.as_bytes()[..offset].iter().enumerate() {
        if *b == b'\n' {
            line += 1;
            line_start = i + 1;
        }
    }
    // `offset` may sit inside a multi-byte character when a span is built by hand; count whole chars.
    let col = source
        .get(line_start..offset)
        .map(|s| s.chars().count())
        .unwrap_or(offset - line_start)
        + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_lines_and_chars() {
        let src = "ab\ncé d\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 3), (2, 1));
        // 'é' is two bytes; the space after it is the third character of line 2.
        assert_eq!(line_col(src, 6), (2, 3));
        assert_eq!(line_col(src, 999), (3, 1));
    }

    #[test]
    fn new_never_inverts() {
        assert_eq!(Span::new(5, 2), Span { start: 2, end: 5 });
        assert_eq!(Span::new(1, 2).join(Span::new(4, 9)), Span::new(1, 9));
    }
}
