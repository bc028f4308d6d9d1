//! A line index of one source, built once per file and shared by every diagnostic of it.
//!
//! Why: resolving each diagnostic by scanning from the start of the file made rendering
//! `O(diagnostics × file)`; with the index a line is a binary search, and a column counts only the
//! characters of its own line.

use crate::span::Span;
use std::ops::Range;

/// Byte offsets where each line of a source starts (lines end at `\n`).
#[derive(Debug, Clone)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    /// Index `source` in one pass.
    pub fn new(source: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            source
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex {
            starts,
            len: source.len(),
        }
    }

    /// The 0-based line holding byte `offset` (clamped to the text).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        self.starts.partition_point(|&s| s <= offset) - 1
    }

    /// The bytes of 0-based line `line`, without its `\n`.
    pub fn line_range(&self, line: usize) -> Range<usize> {
        let start = self.starts[line];
        let end = self.starts.get(line + 1).map_or(self.len, |next| next - 1);
        start..end.max(start)
    }

    /// 1-based line and character column of byte `offset`, as [`crate::span::line_col`] gives.
    pub fn line_col(&self, source: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(source.len());
        let line = self.line_of(offset);
        let start = self.starts[line];
        let column = source
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start)
            + 1;
        (line + 1, column)
    }

    /// Both ends of `span`.
    pub fn position(&self, source: &str, span: Span) -> super::Position {
        let (line, column) = self.line_col(source, span.start);
        let (end_line, end_column) = self.line_col(source, span.end);
        super::Position {
            line,
            column,
            end_line,
            end_column,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::line_col;

    #[test]
    fn agrees_with_line_col_everywhere() {
        let source = "ab\ncé d\n\n\u{1b}x\r\nlast";
        let index = LineIndex::new(source);
        for offset in 0..=source.len() + 2 {
            assert_eq!(
                index.line_col(source, offset),
                line_col(source, offset),
                "{offset}"
            );
        }
        assert_eq!(index.line_range(1), 3..8);
        assert_eq!(index.line_range(2), 9..9);
        assert_eq!(index.line_range(4), source.len() - 4..source.len());
    }
}
