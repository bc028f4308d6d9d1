//! The GitHub format: workflow commands that GitHub Actions turns into file annotations.
//!
//! `::error file=suites/s.acl,line=4,col=9,endLine=4,endColumn=12,title=test.spec.unknown_attribute::message`
//!
//! GitHub's command syntax needs escaping: in the message `%`, CR and LF become `%25`, `%0D`,
//! `%0A`; in properties `:` and `,` also become `%3A` and `%2C`, or they would end the property.
//! The message carries the hint and the logical path on extra lines (escaped LF), because an
//! annotation has no other place for them. `endColumn` is the last character of the span
//! (inclusive), as GitHub expects; an empty span points at one column. Other control characters
//! (an ESC from a hostile suite) are shown as control pictures, never passed to the log.

use super::lines::LineIndex;
use super::Position;
use crate::diagnostic::{Diagnostic, Severity};
use crate::span::Span;

/// Render `diagnostics` of `file` as one workflow command per line, handing each to `sink` as
/// soon as it is made.
pub fn render_each(
    file: &str,
    source: &str,
    diagnostics: &[Diagnostic],
    mut sink: impl FnMut(&str),
) {
    let lines = LineIndex::new(source);
    for diagnostic in diagnostics {
        let command = match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let p = lines.position(source, diagnostic.span);
        let (end_line, end_column) = inclusive_end(source, &lines, diagnostic.span, p);
        let mut message = diagnostic.message.clone();
        if !diagnostic.hint.is_empty() {
            message.push_str("\nhelp: ");
            message.push_str(&diagnostic.hint);
        }
        if !diagnostic.path.is_empty() {
            message.push_str("\nat: ");
            message.push_str(&diagnostic.path);
        }
        sink(&format!(
            "::{command} file={},line={},col={},endLine={end_line},endColumn={end_column},title={}::{}\n",
            escape_property(file),
            p.line,
            p.column,
            escape_property(diagnostic.code.as_str()),
            escape_data(&message),
        ));
    }
}

/// The line and column of the span's last character; the start for an empty span.
fn inclusive_end(source: &str, lines: &LineIndex, span: Span, p: Position) -> (usize, usize) {
    if span.end <= span.start || span.start >= source.len() {
        return (p.line, p.column);
    }
    let end = span.end.min(source.len());
    let last = source[..end]
        .char_indices()
        .next_back()
        .map_or(span.start, |(i, _)| i)
        .max(span.start);
    lines.line_col(source, last)
}

/// Escape a command's message (the part after `::`).
pub fn escape_data(text: &str) -> String {
    escape(text, false)
}

/// Escape a property value (`file=…`, `title=…`).
pub fn escape_property(text: &str) -> String {
    escape(text, true)
}

/// Percent-encode what would end the message or, in a `property`, the property too.
fn escape(text: &str, property: bool) -> String {
    let text = super::printable(text, &['\r', '\n']);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}
