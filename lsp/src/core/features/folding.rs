//! Folding ranges: every block that spans lines, and every run of two or more comment lines.

use crate::core::syntax;
use crate::core::text::Lines;

/// A foldable range, in lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Fold {
    /// First line.
    pub start: u32,
    /// Last line.
    pub end: u32,
    /// True for a run of comments.
    pub comment: bool,
}

/// The folds of `text`, in order of their first line.
pub fn folds(text: &str, lines: &Lines) -> Vec<Fold> {
    let document = syntax::parse(text);
    let mut out = Vec::new();
    syntax::walk(&document, |block, _| {
        let start = lines.pos(block.span.start).line;
        let end = lines.pos(block.span.end).line;
        if end > start {
            out.push(Fold {
                start,
                end,
                comment: false,
            });
        }
    });
    let mut run: Option<(u32, u32)> = None;
    for comment in &document.comments {
        let line = lines.pos(comment.span.start).line;
        run = match run {
            Some((first, last)) if line == last + 1 => Some((first, line)),
            Some((first, last)) => {
                push_comments(&mut out, first, last);
                Some((line, line))
            }
            None => Some((line, line)),
        };
    }
    if let Some((first, last)) = run {
        push_comments(&mut out, first, last);
    }
    out.sort_by_key(|f| (f.start, f.end));
    out
}

fn push_comments(out: &mut Vec<Fold>, first: u32, last: u32) {
    if last > first {
        out.push(Fold {
            start: first,
            end: last,
            comment: true,
        });
    }
}
