//! A text edit in byte offsets: what fixes, formatting and rename answer.

/// Replace `start..end` with `text`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Edit {
    /// First byte replaced.
    pub start: usize,
    /// Byte after the last one replaced.
    pub end: usize,
    /// The new text.
    pub text: String,
}

impl Edit {
    /// An edit from its parts.
    pub fn new(start: usize, end: usize, text: impl Into<String>) -> Self {
        Edit {
            start,
            end,
            text: text.into(),
        }
    }
}

/// Apply `edits` (non-overlapping, any order) to `text`.
pub fn apply(text: &str, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse(e.start));
    let mut out = text.to_string();
    for edit in sorted {
        out.replace_range(edit.start..edit.end, &edit.text);
    }
    out
}
