//! The JSON format: JSON Lines, one object per diagnostic.
//!
//! ```json
//! {"code":"test.spec.unknown_attribute","severity":"error","path":"suite.s.scenario.a.navigate.open.urll",
//!  "file":"suites/s.acl","line":4,"column":9,"end_line":4,"end_column":13,"byte":{"start":61,"end":65},
//!  "message":"…","hint":"…","secondary":[]}
//! ```
//!
//! Lines and columns are 1-based and count characters (not bytes); `end_line`/`end_column` is the
//! position just past the span, so an empty span has `end_column == column`. `byte` is the exact
//! half-open byte range. One object per line keeps the output streamable and lets the CLI
//! concatenate files without re-parsing. Field names are a stable interface.

use super::lines::LineIndex;
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::span::Span;
use serde::Serialize;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: Code,
    severity: Severity,
    path: &'a str,
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    byte: ByteRange,
    message: &'a str,
    hint: &'a str,
    secondary: Vec<JsonLabel<'a>>,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    byte: ByteRange,
    message: &'a str,
}

#[derive(Serialize)]
struct ByteRange {
    start: usize,
    end: usize,
}

impl From<Span> for ByteRange {
    fn from(span: Span) -> Self {
        ByteRange {
            start: span.start,
            end: span.end,
        }
    }
}

/// Render `diagnostics` of `file` as JSON Lines (each line ends with `\n`).
pub fn render(file: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    render_each(file, source, diagnostics, |line| out.push_str(line));
    out
}

/// Render `diagnostics` one line at a time, handing each line to `sink` as soon as it is made.
pub fn render_each(
    file: &str,
    source: &str,
    diagnostics: &[Diagnostic],
    mut sink: impl FnMut(&str),
) {
    let lines = LineIndex::new(source);
    let mut out = String::new();
    for diagnostic in diagnostics {
        out.clear();
        let p = lines.position(source, diagnostic.span);
        let record = JsonDiagnostic {
            code: diagnostic.code,
            severity: diagnostic.severity,
            path: &diagnostic.path,
            file,
            line: p.line,
            column: p.column,
            end_line: p.end_line,
            end_column: p.end_column,
            byte: diagnostic.span.into(),
            message: &diagnostic.message,
            hint: &diagnostic.hint,
            secondary: diagnostic
                .secondary
                .iter()
                .map(|s| {
                    let p = lines.position(source, s.span);
                    JsonLabel {
                        line: p.line,
                        column: p.column,
                        end_line: p.end_line,
                        end_column: p.end_column,
                        byte: s.span.into(),
                        message: &s.message,
                    }
                })
                .collect(),
        };
        // Serializing plain strings and integers cannot fail.
        out.push_str(&serde_json::to_string(&record).unwrap_or_default());
        out.push('\n');
        sink(&out);
    }
}
