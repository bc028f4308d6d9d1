//! A window onto one long source line, for the human format.
//!
//! Why: ariadne prints every line a label touches in full, so a diagnostic on a 24 KB line
//! printed 24 KB, and thousands of them on that line printed hundreds of megabytes. When a
//! label sits on a line longer than [`LONG_LINE_BYTES`], the excerpt shows only the line around
//! the primary label — at most [`CONTEXT_CHARS`] characters on each side and [`SPAN_CHARS`] of
//! the label itself — with `…` where the line was cut; secondary labels are left out. The excerpt is its own small text (control
//! characters already shown as pictures) with the labels mapped into it; `human.rs` draws it
//! with the real line and column.

use super::lines::LineIndex;
use super::printable;
use std::ops::Range;

/// Lines longer than this (in bytes) are windowed.
pub(crate) const LONG_LINE_BYTES: usize = 400;
/// Characters of context kept before and after the primary label.
pub(crate) const CONTEXT_CHARS: usize = 40;
/// Characters of the primary label itself kept at most.
pub(crate) const SPAN_CHARS: usize = 80;

/// Control characters kept as they are inside a window (a window is one line: no breaks).
const KEPT: &[char] = &['\t'];

/// A windowed excerpt of one line.
#[derive(Debug)]
pub(crate) struct Excerpt {
    /// The text handed to ariadne: one line, maybe with `…` at either end.
    pub text: String,
    /// The 0-based line of the source it comes from.
    pub line: usize,
    /// The 1-based character column of the primary label in the source line.
    pub column: usize,
    /// The 1-based character column of the primary label in `text`.
    pub text_column: usize,
    /// The primary label, in `text`.
    pub primary: Range<usize>,
}

/// True when `range` starts or ends on a line longer than [`LONG_LINE_BYTES`].
pub(crate) fn is_long(lines: &LineIndex, range: &Range<usize>) -> bool {
    let long = |offset: usize| lines.line_range(lines.line_of(offset)).len() > LONG_LINE_BYTES;
    long(range.start) || long(range.end.saturating_sub(1).max(range.start))
}

/// Window the line of `primary` (a range on char boundaries of `source`).
pub(crate) fn window(source: &str, lines: &LineIndex, primary: Range<usize>) -> Excerpt {
    let line = lines.line_of(primary.start);
    let whole = lines.line_range(line);
    let start = primary.start.clamp(whole.start, whole.end);
    let mut end = primary.end.clamp(start, whole.end);
    if let Some((i, _)) = source[start..end].char_indices().nth(SPAN_CHARS) {
        end = start + i;
    }
    let from = source[whole.start..start]
        .char_indices()
        .rev()
        .nth(CONTEXT_CHARS - 1)
        .map_or(whole.start, |(i, _)| whole.start + i);
    let to = source[end..whole.end]
        .char_indices()
        .nth(CONTEXT_CHARS)
        .map_or(whole.end, |(i, _)| end + i);
    let mut cuts = vec![from, to, start, end];
    cuts.sort_unstable();
    cuts.dedup();
    let mut text = String::new();
    if from > whole.start {
        text.push('…');
    }
    // Source offset of each cut → offset in `text`.
    let mut mapped = Vec::with_capacity(cuts.len());
    for (i, &cut) in cuts.iter().enumerate() {
        mapped.push(text.len());
        if let Some(&next) = cuts.get(i + 1) {
            text.push_str(&printable(&source[cut..next], KEPT));
        }
    }
    if to < whole.end {
        text.push('…');
    }
    let map = |offset: usize| mapped[cuts.partition_point(|&c| c < offset)];
    let primary = map(start)..map(end);
    Excerpt {
        line,
        column: source[whole.start..start].chars().count() + 1,
        text_column: text[..primary.start].chars().count() + 1,
        primary,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_around_the_label() {
        let source = format!("x\n{}BAD{}\ny", "a".repeat(500), "b".repeat(500));
        let lines = LineIndex::new(&source);
        let bad = source.find("BAD").unwrap();
        assert!(is_long(&lines, &(bad..bad + 3)));
        assert!(!is_long(&lines, &(0..1)));
        let ex = window(&source, &lines, bad..bad + 3);
        assert_eq!(ex.line, 1);
        assert_eq!(ex.column, 501);
        assert_eq!(
            ex.text,
            format!("…{}BAD{}…", "a".repeat(40), "b".repeat(40))
        );
        assert_eq!(&ex.text[ex.primary.clone()], "BAD");
        assert_eq!(ex.text_column, 42);
    }

    #[test]
    fn a_huge_label_is_clipped_and_controls_become_pictures() {
        let source = format!("\u{1b}{}", "é".repeat(1000));
        let lines = LineIndex::new(&source);
        let ex = window(&source, &lines, 0..source.len());
        assert_eq!(ex.column, 1);
        assert!(ex.text.starts_with('␛'), "{}", ex.text);
        assert_eq!(ex.text[ex.primary.clone()].chars().count(), SPAN_CHARS);
        assert_eq!(ex.text.chars().count(), SPAN_CHARS + CONTEXT_CHARS + 1);
        assert!(ex.text.ends_with('…'));
    }
}
