//! Formatting through `lang`'s printer, the one `a3s-test fmt` uses: comments kept, and a file
//! with a syntax error left as it is (the diagnostics say why).
//!
//! The answer is a set of line edits, not one whole-text replacement, so the editor keeps the
//! cursor and marks of untouched lines; range formatting keeps the edits that touch the range.

use crate::core::edit::Edit;
use a3s_test_lang::printer::format_source;
use similar::{DiffOp, TextDiff};

/// The edits that turn `text` into its canonical layout; `None` when it cannot be formatted.
pub fn format(text: &str) -> Option<Vec<Edit>> {
    if text.len() > a3s_test_lang::MAX_FILE_BYTES {
        return None;
    }
    let formatted = format_source(text).ok()?;
    Some(line_edits(text, &formatted))
}

/// [`format`]'s edits that touch bytes `start..end` (a whole line counts once touched).
pub fn format_range(text: &str, start: usize, end: usize) -> Option<Vec<Edit>> {
    let edits = format(text)?;
    Some(
        edits
            .into_iter()
            .filter(|e| e.start <= end && start <= e.end)
            .collect(),
    )
}

/// The line-by-line difference of `old` and `new` as byte edits of `old`.
fn line_edits(old: &str, new: &str) -> Vec<Edit> {
    let diff = TextDiff::from_lines(old, new);
    let old_lines: Vec<usize> = line_starts(old);
    let new_lines: Vec<usize> = line_starts(new);
    let mut edits = Vec::new();
    for op in diff.ops() {
        let (old_range, new_range) = match *op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (old_index..old_index + old_len, new_index..new_index),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index..old_index, new_index..new_index + new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (
                old_index..old_index + old_len,
                new_index..new_index + new_len,
            ),
        };
        let at = |starts: &[usize], i: usize| starts[i.min(starts.len() - 1)];
        edits.push(Edit::new(
            at(&old_lines, old_range.start),
            at(&old_lines, old_range.end),
            &new[at(&new_lines, new_range.start)..at(&new_lines, new_range.end)],
        ));
    }
    edits
}

/// The byte offset of every line start, then the text's length.
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|i| *i < text.len())
        .collect();
    starts.push(text.len());
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::edit::apply;

    #[test]
    fn line_edits_rebuild_the_canonical_text() {
        let text = "suite \"s\" {\nscenario \"a\" {\n surface = \"web\"\nnavigate \"o\" { url = \"/\" }\n}\n}\n";
        let edits = format(text).unwrap();
        assert_eq!(apply(text, &edits), format_source(text).unwrap());
        assert!(format("suite {").is_none());
    }
}
